"""The golden transcripts of tests/transcripts/: the reference still plays them line for line.

A difference is reported by its first line, with the golden and the new text; regenerate the
files with ``fiveup transcripts --write tests/transcripts`` once a change of the rules is meant.
"""

from __future__ import annotations

import argparse
import io
import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from fiveup.cli import main
from fiveup.cli import transcripts as command
from fiveup.cli.common import Parser, Streams
from fiveup.cli.transcripts import MAX_OTHERS
from fiveup.errors import UsageError
from fiveup.harness.sources import MAX_FILE_BYTES
from fiveup.reference.round import parse_event
from fiveup.transcripts import (
    GOLDEN,
    Difference,
    Transcript,
    check_file,
    first_difference,
)

GOLDEN_DIR = Path(__file__).resolve().parent / "transcripts"


def run(*words: str) -> tuple[int, str]:
    """``fiveup transcripts WORDS``, in-process (through the command module, as app.py would)."""
    out = io.StringIO()
    parser = Parser(prog="fiveup transcripts", stdout=out)
    command.configure(parser)
    args: argparse.Namespace = parser.parse_args(list(words))
    code = command.run(args, Streams(io.StringIO(), out, io.StringIO()))
    return code, out.getvalue()


@pytest.mark.parametrize("transcript", GOLDEN, ids=lambda t: t.file_name)
def test_the_reference_plays_each_golden_transcript_line_for_line(transcript: Transcript) -> None:
    golden = (GOLDEN_DIR / transcript.file_name).read_text(encoding="utf-8").splitlines()
    difference = first_difference(golden, transcript.lines())
    assert difference is None, f"{transcript.file_name}: {difference}"


def test_the_golden_set_is_small_and_covers_every_kind_of_line() -> None:
    lines = [line for t in GOLDEN for line in (GOLDEN_DIR / t.file_name).read_text().splitlines()]
    sizes = [len((GOLDEN_DIR / t.file_name).read_text().splitlines()) for t in GOLDEN]
    assert sorted(t.players for t in GOLDEN) == [2, 3, 4]
    assert all(100 <= size <= 500 for size in sizes), sizes
    for wanted in (" draw ", " pass", "credit 5", "end out ", "end blocked ", " penalty pips "):
        assert any(wanted in line for line in lines), wanted
    assert sum(line.startswith("match winner=") for line in lines) == len(GOLDEN)


def test_every_action_line_is_an_event_in_the_reference_s_text_form() -> None:
    prefixes = ("fiveup-transcript ", "round ", "hand ", "boneyard ", "scores ", "match ")
    for transcript in GOLDEN:
        for line in transcript.lines():
            if not line.startswith(prefixes) and " penalty " not in line:
                assert parse_event(line).text == line


def test_a_transcript_is_the_same_every_time_and_names_its_match() -> None:
    transcript = Transcript(3, 7, "random")
    assert transcript.lines() == transcript.lines()
    assert Transcript.parse_header(transcript.header) == transcript
    assert transcript.file_name == "3-players-seed-7-random.txt"
    for bad in ("", "fiveup-transcript 2 players=3 seed=7 policy=greedy", "players=3 seed=7"):
        with pytest.raises(UsageError, match="not a transcript header"):
            Transcript.parse_header(bad)
    with pytest.raises(UsageError, match="PLY-1"):
        Transcript(5, 1)


def test_first_difference_names_the_line_and_both_texts() -> None:
    assert first_difference(["a", "b"], ["a", "b"]) is None
    assert first_difference(["a", "b", "c"], ["a", "x", "c"]) == Difference(2, "b", "x")
    assert first_difference(["a"], ["a", "b"]) == Difference(2, None, "b")
    assert first_difference(["a", "b"], ["a"]) == Difference(2, "b", None)
    assert Difference(2, "b", None).text == "line 2: golden 'b', now the end"


def test_check_passes_on_the_golden_files() -> None:
    code, out = run("--check", str(GOLDEN_DIR))
    assert code == 0, out
    assert out.endswith(f"{len(GOLDEN)} transcripts: all agree with the reference\n")


def test_a_deliberately_changed_line_is_reported_with_its_number(tmp_path: Path) -> None:
    shutil.copytree(GOLDEN_DIR, tmp_path, dirs_exist_ok=True)
    target = tmp_path / GOLDEN[1].file_name
    lines = target.read_text().splitlines()
    number = next(i for i, line in enumerate(lines, start=1) if " draw " in line and i > 40)
    original = lines[number - 1]
    lines[number - 1] = original.replace(" draw ", " pass ").split(" pass ")[0] + " pass"
    target.write_text("\n".join(lines) + "\n")

    difference = check_file(target)
    assert difference == Difference(number, lines[number - 1], original)
    code, out = run("--check", str(tmp_path))
    assert code == 1
    assert f"{target}:{number}: differs: line {number}: golden " in out
    assert repr(original) in out
    assert out.endswith("3 transcripts: 1 differ or are missing\n")


def test_a_truncated_or_missing_file_is_reported(tmp_path: Path) -> None:
    shutil.copytree(GOLDEN_DIR, tmp_path, dirs_exist_ok=True)
    target = tmp_path / GOLDEN[0].file_name
    lines = target.read_text().splitlines()
    target.write_text("\n".join(lines[:50]) + "\n")
    assert check_file(target) == Difference(51, None, lines[50])
    (tmp_path / GOLDEN[2].file_name).unlink()
    code, out = run("--check", str(tmp_path))
    assert code == 1
    assert f"{target}:51: differs: line 51: golden the end, now " in out
    assert f"{tmp_path / GOLDEN[2].file_name}: missing" in out


def test_write_regenerates_the_golden_files_byte_for_byte(tmp_path: Path) -> None:
    code, out = run("--write", str(tmp_path / "golden"))
    assert code == 0
    for transcript in GOLDEN:
        written = (tmp_path / "golden" / transcript.file_name).read_bytes()
        assert written == (GOLDEN_DIR / transcript.file_name).read_bytes()
        assert transcript.file_name in out


def test_an_extra_transcript_in_the_folder_is_checked_by_its_header(tmp_path: Path) -> None:
    assert (
        run("--write", str(tmp_path), "--players", "2", "--seed", "3", "--policy", "random")[0] == 0
    )
    assert run("--write", str(tmp_path))[0] == 0
    (tmp_path / "notes.txt").write_text("not a transcript\n")
    extra = tmp_path / "2-players-seed-3-random.txt"
    code, out = run("--check", str(tmp_path))
    assert code == 0 and f"{extra}: agrees" in out and "4 transcripts" in out
    extra.write_text(extra.read_text().replace("seed=3", "seed=4"))
    difference = check_file(extra)  # the match of seed 4, played again, and the file's rounds
    assert difference is not None and difference.line > 1
    code, out = run("--check", str(tmp_path))
    assert code == 1 and f"{extra}:{difference.line}: differs" in out


def test_print_one_transcript_and_refuse_half_a_name() -> None:
    code, out = run("--players", "4", "--seed", str(GOLDEN[2].seed))
    assert code == 0
    assert out == (GOLDEN_DIR / GOLDEN[2].file_name).read_text()
    with pytest.raises(UsageError, match="together"):
        run("--players", "4")
    with pytest.raises(UsageError, match="name a match"):
        run()
    with pytest.raises(UsageError, match="takes no match name"):
        run("--check", str(GOLDEN_DIR), "--players", "2", "--seed", "1")
    with pytest.raises(UsageError, match="no such folder"):
        run("--check", str(GOLDEN_DIR / "absent"))


def test_the_command_through_fiveup_main(monkeypatch: pytest.MonkeyPatch) -> None:
    from fiveup.cli import app

    if command not in app.COMMANDS:  # until app.py registers it
        monkeypatch.setattr(app, "COMMANDS", (*app.COMMANDS, command))
    out, err = io.StringIO(), io.StringIO()
    assert app.main(["transcripts", "--check", str(GOLDEN_DIR)], stdout=out, stderr=err) == 0
    assert app.main(["transcripts", "--players", "2"], stdout=out, stderr=err) == 2
    assert "fiveup transcripts: error: --players and --seed" in err.getvalue()


# --- hostile folders and files: refused with exit 2 and one line, or judged as they are -----


def _main(*words: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(["transcripts", *words], stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def _golden_copy(tmp_path: Path) -> Path:
    folder = tmp_path / "golden"
    shutil.copytree(GOLDEN_DIR, folder)
    return folder


def _fifo(path: Path) -> None:
    path.unlink(missing_ok=True)
    os.mkfifo(path)


def _dev_zero(path: Path) -> None:
    path.unlink(missing_ok=True)
    path.symlink_to("/dev/zero")


def _too_large(path: Path) -> None:
    path.write_bytes(b"x" * (MAX_FILE_BYTES + 1))


def _folder(path: Path) -> None:
    path.unlink(missing_ok=True)
    path.mkdir()


REFUSED_FILES = {
    "fifo": (_fifo, "a FIFO"),
    "dev-zero-link": (_dev_zero, "a character device"),
    "over-1-mib": (_too_large, "file too large"),
    "folder": (_folder, "is a folder"),
}


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are for POSIX")
@pytest.mark.parametrize("kind", sorted(REFUSED_FILES))
@pytest.mark.parametrize("which", ["golden", "extra"])
def test_check_refuses_a_file_it_cannot_read_bounded(kind: str, which: str, tmp_path: Path) -> None:
    folder = _golden_copy(tmp_path)
    make, words = REFUSED_FILES[kind]
    target = folder / (GOLDEN[0].file_name if which == "golden" else "extra.txt")
    make(target)
    code, out, err = _main("--check", str(folder))
    assert code == 2, out
    assert f"--check: {target}: " in err and words in err
    assert "Traceback" not in err and len(err.splitlines()) <= 3


@pytest.mark.parametrize(
    ("name", "change"),
    [
        ("crlf-line-ends", lambda text: text.replace("\n", "\r\n")),
        ("cr-only-one-line", lambda text: text.replace("\n", "\r")),
        ("no-last-line-end", lambda text: text[:-1]),
        ("form-feeds", lambda text: text.replace("\n", "\x0c")),
        ("bad-header", lambda text: text.replace("policy=greedy", "policy=greedy junk", 1)),
        ("blank-header", lambda text: "\n" + text),
    ],
)
def test_a_golden_file_agrees_only_byte_for_byte(
    name: str, change: Callable[[str], str], tmp_path: Path
) -> None:
    folder = _golden_copy(tmp_path)
    target = folder / GOLDEN[1].file_name
    target.write_bytes(change(target.read_text()).encode())
    code, out, err = _main("--check", str(folder))
    assert code == 1, (out, err)
    assert f"{target}: agrees" not in out and f"{target}:" in out


@pytest.mark.parametrize(
    "header",
    [
        "fiveup-transcript 1  players=2 seed=3 policy=random",
        "fiveup-transcript 1 players=2 seed=+3 policy=random",
        "fiveup-transcript 1 players=2 seed=3 policy=random extra=1",
        "fiveup-transcript 2 players=2 seed=3 policy=random",
        "fiveup-transcript 1 players=9 seed=3 policy=random",
        "fiveup-transcript " + "x" * 100_000,
    ],
)
def test_an_extra_file_with_a_bad_header_is_refused_by_name(header: str, tmp_path: Path) -> None:
    folder = _golden_copy(tmp_path)
    extra = folder / "extra.txt"
    extra.write_text(header + "\nround 1\n")
    code, out, err = _main("--check", str(folder))
    assert code == 2, out
    assert f"--check: {extra}: " in err and "header" in err
    assert "Traceback" not in err and len(err) < 1000


def test_write_names_the_option_for_a_file_a_fifo_and_a_missing_parent(tmp_path: Path) -> None:
    plain = tmp_path / "a-file"
    plain.write_text("mine\n")
    code, _, err = _main("--write", str(plain))
    assert code == 2 and f"--write {plain}: is not a folder" in err
    assert plain.read_text() == "mine\n"
    code, _, err = _main("--write", str(tmp_path / "no" / "such"))
    assert code == 2 and "--write " in err and "no such folder" in err
    folder = tmp_path / "out"
    folder.mkdir()
    if hasattr(os, "mkfifo"):
        os.mkfifo(folder / GOLDEN[1].file_name)
        code, _, err = _main("--write", str(folder))
        assert code == 2 and f"--write {folder / GOLDEN[1].file_name}: is not a regular" in err
        assert sorted(p.name for p in folder.iterdir()) == [GOLDEN[1].file_name]  # none written


def test_write_replaces_a_planted_link_instead_of_writing_through_it(tmp_path: Path) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("keep\n")
    folder = tmp_path / "out"
    folder.mkdir()
    (folder / GOLDEN[0].file_name).symlink_to(victim)
    assert _main("--write", str(folder))[0] == 0
    assert victim.read_text() == "keep\n"
    assert not (folder / GOLDEN[0].file_name).is_symlink()


def test_check_refuses_more_transcripts_besides_the_standard_set_than_it_replays(
    tmp_path: Path,
) -> None:
    folder = _golden_copy(tmp_path)
    for seed in range(MAX_OTHERS + 1):
        (folder / f"x{seed}.txt").write_text(
            f"fiveup-transcript 1 players=2 seed={seed} policy=random\n", encoding="utf-8"
        )
    code, out, err = _main("--check", str(folder))
    assert (code, out) == (2, "")
    assert f"more than {MAX_OTHERS} transcripts besides the standard set" in err


@pytest.mark.parametrize("seed", [2**63, 10**4000], ids=["2**63", "4001-digits"])
def test_a_header_with_a_seed_past_the_seeds_range_is_no_transcript(
    seed: int, tmp_path: Path
) -> None:
    folder = _golden_copy(tmp_path)
    (folder / "big.txt").write_text(
        f"fiveup-transcript 1 players=2 seed={seed} policy=random\n", encoding="utf-8"
    )
    code, _, err = _main("--check", str(folder))
    assert code == 2 and "big.txt: not a transcript header: " in err, err
    assert len(err) < 500  # not replayed: a seed the options refuse names no match
