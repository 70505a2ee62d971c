"""``fiveup transcripts``: write, check or print the golden transcripts of seeded matches.

``--write DIR`` writes the standard set (:data:`fiveup.transcripts.GOLDEN`, or the one match
named by ``--players`` and ``--seed``); ``--check DIR`` plays every transcript in DIR again
with the reference (the standard set, and any other ``*.txt`` file that starts with a
transcript header) and names the first line that differs, exit 1 on any difference or missing
file; with neither, the transcript of the match named by ``--players`` and ``--seed`` is
printed.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from fiveup.contract.players import PLAYER_COUNTS
from fiveup.errors import UsageError
from fiveup.harness.sources import read_bounded
from fiveup.harness.text import printable
from fiveup.transcripts import GOLDEN, POLICIES, Transcript, check_file

from .common import Streams, check_parent, not_a_folder, write_all_atomically
from .options import MAX_SEED, PLAYERS, count, file_or_folder

NAME = "transcripts"
HELP = "write, check or print the golden transcripts of seeded matches"

_HEADER_START = Transcript(2, 0).header.split()[0]


def configure(parser: argparse.ArgumentParser) -> None:
    """The options of ``transcripts``."""
    what = parser.add_mutually_exclusive_group()
    what.add_argument(
        "--write",
        type=file_or_folder,
        metavar="DIR",
        help="write the standard set of transcripts (or the one named) into DIR",
    )
    what.add_argument(
        "--check",
        type=file_or_folder,
        metavar="DIR",
        help="play every transcript in DIR again and name the first line that differs "
        "(exit 1 on a difference)",
    )
    parser.add_argument(
        "--players", type=PLAYERS, choices=PLAYER_COUNTS, help="the match's number of players"
    )
    parser.add_argument("--seed", type=count(MAX_SEED - 1), metavar="N", help="the match's seed")
    parser.add_argument(
        "--policy",
        choices=sorted(POLICIES),
        help="how the moves are chosen: greedy (default, a highest credit) or random",
    )


def _named(args: argparse.Namespace) -> Transcript | None:
    """The match named by ``--players``, ``--seed`` and ``--policy``, if any."""
    if args.players is None and args.seed is None and args.policy is None:
        return None
    if args.players is None or args.seed is None:
        raise UsageError("--players and --seed name a match together (and --policy with them)")
    return Transcript(args.players, args.seed, args.policy or "greedy")


def run(args: argparse.Namespace, streams: Streams) -> int:
    """Write, check or print; 0 when done, 1 when a transcript differs or is missing."""
    named = _named(args)
    if args.check is not None:
        if named is not None:
            raise UsageError("--check plays every transcript in DIR: it takes no match name")
        return _check(args.check, streams)
    if args.write is not None:
        return _write(args.write, GOLDEN if named is None else (named,), streams)
    if named is None:
        raise UsageError("name a match (--players N --seed N), or give --write DIR or --check DIR")
    streams.stdout.write(named.text())
    return 0


def _write(directory: Path, transcripts: tuple[Transcript, ...], streams: Streams) -> int:
    folder = printable(str(directory))
    check_parent(directory, "--write")  # before the folder is made: nothing left if refused
    if os.path.lexists(directory) and not directory.is_dir():
        raise UsageError(f"--write {folder}: is not a folder (name the folder to write into)")
    try:
        directory.mkdir(exist_ok=True)
    except OSError as exc:
        raise UsageError(f"--write {folder}: cannot be made: {exc.strerror or exc}") from None
    files = []
    for transcript in transcripts:
        lines = transcript.lines()
        path = directory / transcript.file_name
        files.append((path, "".join(line + "\n" for line in lines), "--write", len(lines)))
    write_all_atomically([(path, text, option) for path, text, option, _ in files])  # or none
    for path, _, _, lines_written in files:
        streams.stdout.write(f"wrote {printable(str(path))} ({lines_written} lines)\n")
    return 0


def _is_transcript(path: Path) -> bool:
    """Whether an extra ``*.txt`` file starts with a transcript's magic word (read bounded)."""
    raw = read_bounded(path)
    if isinstance(raw, str):
        raise UsageError(f"--check: {printable(str(path))}: {raw}")
    return raw.startswith((_HEADER_START + " ").encode())


MAX_OTHERS = 200
"""The most transcripts besides the standard set that ``--check`` replays (each a whole match)."""


def _targets(directory: Path) -> dict[Path, Transcript | None]:
    """The standard set's files (compared with their match) and the other transcripts."""
    targets: dict[Path, Transcript | None] = {directory / t.file_name: t for t in GOLDEN}
    others = 0
    for path in sorted(directory.glob("*.txt")):
        if path not in targets and _is_transcript(path):
            others += 1
            if others > MAX_OTHERS:
                raise UsageError(
                    f"--check {printable(str(directory))}: more than {MAX_OTHERS} transcripts "
                    "besides the standard set, each a whole match to replay: check a folder of "
                    "fewer"
                )
            targets[path] = None  # the match its header names
    return targets


def _check(directory: Path, streams: Streams) -> int:
    why = not_a_folder(directory)
    if why is not None:
        raise UsageError(f"--check {printable(str(directory))}: {why}")
    failed = 0
    targets = _targets(directory)
    said = []  # printed once every file is read: a file that cannot be, exits 2 with no verdict
    for path, transcript in targets.items():
        if not os.path.lexists(path):
            folder = printable(str(directory))
            said.append(
                f"{printable(str(path))}: missing (fiveup transcripts --write {folder} writes it)"
            )
            failed += 1
            continue
        try:
            difference = check_file(path, transcript)
        except UsageError as exc:
            raise UsageError(f"--check: {exc}") from None
        if difference is None:
            said.append(f"{printable(str(path))}: agrees")
        else:
            said.append(f"{printable(str(path))}:{difference.line}: differs: {difference.text}")
            failed += 1
    verdict = "all agree with the reference" if not failed else f"{failed} differ or are missing"
    streams.stdout.write("".join(f"{line}\n" for line in said))
    streams.stdout.write(f"{len(targets)} transcripts: {verdict}\n")
    return 1 if failed else 0
