"""What every subcommand of ``fiveup`` shares: the parser, the streams, engines and files."""

from __future__ import annotations

import argparse
import difflib
import os
import stat
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TextIO

from fiveup.contract.engine import DEFAULT_ENGINE
from fiveup.errors import UsageError
from fiveup.harness.files import write_together
from fiveup.harness.text import cut, printable, quoted

if TYPE_CHECKING:
    from fiveup.harness.corpus import Corpus

__all__ = [
    "Exit",
    "Parser",
    "Streams",
    "a_file",
    "add_engine_options",
    "check_engine_command",
    "check_parent",
    "check_writable",
    "engine_args",
    "file_or_folder",
    "load_fixtures",
    "not_a_folder",
    "shown",
    "write_atomically",
]


@dataclass(frozen=True, slots=True)
class Streams:
    """The standard streams a command reads and writes (passed in, so tests run in-process)."""

    stdin: TextIO
    stdout: TextIO
    stderr: TextIO


class Exit(Exception):
    """The parser finished the command early (``--help``, ``--version``) with ``status``."""

    def __init__(self, status: int) -> None:
        """Stop with ``status``."""
        super().__init__(status)
        self.status = status


class Parser(argparse.ArgumentParser):
    """An argument parser that writes to the given stdout and raises instead of exiting.

    A mistake raises :class:`~fiveup.errors.UsageError` carrying this (sub)command's usage, so
    every subcommand reports mistakes the same way.
    """

    def __init__(self, *args: Any, stdout: TextIO, **kwargs: Any) -> None:
        """A parser printing help and version to ``stdout``; options are never abbreviated."""
        kwargs.setdefault("allow_abbrev", False)  # a prefix that works today may clash tomorrow
        super().__init__(*args, **kwargs)
        self.stdout = stdout

    def error(self, message: str) -> NoReturn:
        """Raise the mistake with this command's usage, and what a mistyped word may mean."""
        said = printable(f"{message}{self._suggestion(message)}")  # it repeats the user's words
        raise UsageError(f"{said}\n{self.format_usage().rstrip()}")

    def _suggestion(self, message: str) -> str:
        prefix = "unrecognized arguments: "
        if not message.startswith(prefix):
            return ""
        # Compared without their dashes, which every option shares: with them, --level is
        # close enough to --help.
        options = {o.lstrip("-"): o for action in self._actions for o in action.option_strings}
        hints = []
        for word in message[len(prefix) :].split():
            if word.startswith("-") and word != "--":
                bare = word.split("=")[0].lstrip("-")
                close = difflib.get_close_matches(bare, list(options), n=1, cutoff=0.75)
                if close and options[close[0]] != word:  # after "--", an option is a word
                    hints.append(f"{word} -> {options[close[0]]}")
        return f" (did you mean: {', '.join(hints)}?)" if hints else ""

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        """Parse ``args``, refusing an option of one value given twice (argparse keeps the last)."""
        if args is not None:
            self._refuse_repeated(list(args))
        return super().parse_known_args(args, namespace)

    def _refuse_repeated(self, words: list[str]) -> None:
        # `--format json ... --format text` or `--timeout 5 --timeout 50` is a script that adds
        # to a command line it did not read: which one was meant is a guess, so none is taken.
        seen: dict[argparse.Action, str] = {}
        for at, word in enumerate(words):
            if word == "--":
                break
            name = word.split("=", 1)[0] if word.startswith("--") else word[:2]
            action = self._option_string_actions.get(name) if word.startswith("-") else None
            if not isinstance(action, _ONE_VALUE):
                continue
            given = word
            attached = not word.startswith("--") and len(word) > 2  # -kLAY-1: its value within
            if "=" not in word and not attached and action.nargs != 0 and at + 1 < len(words):
                given = f"{word} {words[at + 1]}"
            if action in seen:
                first, then = (quoted(cut(w, 60)) for w in (seen[action], given))
                raise UsageError(
                    f"argument {'/'.join(action.option_strings)}: given twice ({first}, then "
                    f"{then}): give it once\n{self.format_usage().rstrip()}"
                )
            seen[action] = given

    def _check_value(self, action: argparse.Action, value: Any) -> None:
        # argparse's own message repr()s the word: a byte that is not UTF-8 would read \udcff
        # here and \xff in every other message, and a 100,000-character word came back whole.
        if action.choices is not None and value not in action.choices:
            choices = ", ".join(quoted(str(choice)) for choice in action.choices)
            raise argparse.ArgumentError(
                action, f"invalid choice: {quoted(cut(str(value), 80))} (choose from {choices})"
            )

    def _print_message(self, message: str, file: object = None) -> None:
        if message:
            self.stdout.write(message)

    def exit(self, status: int = 0, message: str | None = None) -> NoReturn:
        """Stop the command (after ``--help`` or ``--version``)."""
        if message:
            self.stdout.write(message)
        raise Exit(status)


_ONE_VALUE = (argparse._StoreAction, argparse._StoreConstAction)  # store_true/false too
"""The kinds of option that hold one value: given twice, argparse would keep the last."""


def file_or_folder(text: str) -> Path:
    """The type of every option that names a file or folder: any name a path can have.

    Refused: an empty name, one holding a NUL and one longer than :data:`MAX_PATH`.

    ``Path("")`` is the current folder, so an unset shell variable (``--write "$DIR"``) would
    write into, or read, wherever the command was started.
    """
    if not text.strip():
        raise argparse.ArgumentTypeError(f"is empty ({text!r}): name a file or folder")
    if "\x00" in text:  # os.stat would raise ValueError: a traceback, or (exists()) "absent"
        raise argparse.ArgumentTypeError(
            f"{quoted(cut(text, 80))} holds a NUL character, which no file name can"
        )
    if len(text) > MAX_PATH:  # the OS would refuse it later, in a message naming no option
        raise argparse.ArgumentTypeError(
            f"{quoted(cut(text, 80))} is longer than any path ({MAX_PATH:,} characters)"
        )
    return Path(text)


def a_file(text: str) -> Path:
    """The type of an option that names a file: :func:`file_or_folder`, but no trailing slash.

    ``Path("report.txt/")`` is ``report.txt``: ``--output out/`` wrote a file named ``out`` where
    a folder was meant, and an input ``r.json/`` was read as ``r.json``.
    """
    path = file_or_folder(text)
    if text.endswith(("/", os.sep)):
        raise argparse.ArgumentTypeError(
            f"{quoted(text)} ends with a slash, so it names a folder: name a file"
        )
    return path


MAX_PATH = 4096
"""The longest path a file option takes: Linux's PATH_MAX, in bytes (a character is one or more)."""


def add_engine_options(
    parser: argparse.ArgumentParser, what: str = "the engine", *, required: bool = False
) -> None:
    """``--engine NAME`` or ``--engine-cmd COMMAND``, one of them (``required``: no default)."""
    which = parser.add_mutually_exclusive_group()
    default = "one of the two is required" if required else f"default: {DEFAULT_ENGINE}"
    which.add_argument(
        "--engine",
        metavar="NAME",
        help=f"{what}, a Python engine: entry-point name or module:attribute ({default})",
    )
    which.add_argument(
        "--engine-cmd",
        metavar="COMMAND",
        help=f"{what}, in any language, speaking spec/protocol.md on stdin/stdout",
    )


def add_fixtures_option(parser: argparse.ArgumentParser, purpose: str = "") -> None:
    """``--fixtures PATH``, repeatable: files or folders that replace the bundled corpus."""
    parser.add_argument(
        "--fixtures",
        action="append",
        type=file_or_folder,
        metavar="PATH",
        help=f"fixture files or folders{purpose} instead of the bundled corpus",
    )


def absent(path: Path) -> str:
    """Why ``path``, which does not exist, cannot be read: a broken or looping link is named so."""
    if path.is_symlink():
        return "a symbolic link that leads to no file (it loops, or what it names is gone)"
    return "no such file or folder"


def load_fixtures(fixtures: list[Path] | None) -> Corpus:
    """The corpus of ``--fixtures`` (None: the bundled one), as every subcommand reads it.

    A path that does not exist, or paths that hold no ``*.yaml`` fixture file, are refused
    (UsageError naming them): an empty corpus would list, run or measure nothing and say so
    as if it were an answer.
    """
    from fiveup.harness.corpus import check_fixture_paths, load_corpus  # loaded when used

    check_fixture_paths(fixtures or [])
    return load_corpus(fixtures)


def engine_args(args: argparse.Namespace) -> list[str]:
    """The engine options that name the same engine again (for rerun commands)."""
    if args.engine_cmd:
        return ["--engine-cmd", args.engine_cmd]
    return ["--engine", args.engine or DEFAULT_ENGINE]


_ENGINE_OPTIONS = {
    "engine": "an entry-point name or module:attribute",
    "engine_cmd": "the command that starts the engine",
    "baseline": "an entry-point name or module:attribute",
    "baseline_cmd": "the command that starts the baseline",
}


def check_engine_command(args: argparse.Namespace) -> None:
    """Refuse an engine option that is only blanks: an empty name would be the reference."""
    for dest, wanted in _ENGINE_OPTIONS.items():
        value = getattr(args, dest, None)
        option = f"--{dest.replace('_', '-')}"
        if value is not None and not value.strip():
            raise UsageError(f"{option} is empty: give {wanted}")
        if value is not None and "\x00" in value:  # no command or module name holds one
            raise UsageError(f"{option} {quoted(cut(value, 80))}: holds a NUL character")


def shown(path: Path) -> str:
    """A path as messages print it: escaped, so that it cannot forge a line of output."""
    return printable(str(path))


_KINDS = (
    (stat.S_ISREG, "a file"),
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def not_a_folder(path: Path) -> str | None:
    """Why ``path`` is no folder to read (``is a file, not a folder``), or None if it is one.

    A message says what is there (a file, a FIFO) rather than that nothing is.
    """
    try:
        mode = os.stat(path).st_mode
    except OSError as exc:
        if isinstance(exc, FileNotFoundError):
            return "no such folder"
        return f"cannot be read: {exc.strerror or exc}"
    if stat.S_ISDIR(mode):
        return None
    kind = next((name for test, name in _KINDS if test(mode)), "not a folder")
    return f"is {kind}, not a folder"


def check_parent(path: Path, option: str) -> None:
    """Refuse an output (a file or a folder to write into) whose folder does not exist.

    Every command makes at most the one folder named, never the folders above it: a mistyped
    parent (``--out reprots/today``) is refused, not made into a tree nobody asked for.
    """
    directory = path.parent if str(path.parent) else Path(".")
    why = not_a_folder(directory)
    if why == "no such folder":
        raise UsageError(f"{option} {shown(path)}: no such folder {shown(directory)}")
    if why is not None:
        raise UsageError(f"{option} {shown(path)}: {shown(directory)} {why}")
    corpus = _bundled_corpus()
    if os.path.commonpath([corpus, os.path.realpath(path)]) == corpus:
        # every command reads it: a site's or a report's copies of its files, a baseline or a
        # fuzz fixture written there would be read as fixtures (each case a duplicate)
        raise UsageError(
            f"{option} {shown(path)}: is inside the bundled corpus ({shown(Path(corpus))}), "
            "which every command reads: name a place outside it"
        )


def _bundled_corpus() -> str:
    from fiveup.harness.corpus import bundled_fixture_dir  # loaded when used

    return os.path.realpath(bundled_fixture_dir())


def check_writable(path: Path | None, option: str = "--output") -> None:
    """Refuse, before any work, a file that could not be written: no folder, or a folder."""
    if path is None:
        return
    check_parent(path, option)
    if path.is_dir():
        raise UsageError(f"{option} {printable(str(path))}: is a folder; name the file to write")
    if path.exists() and not path.is_file():
        # Written atomically, a FIFO or a device (/dev/null) would be replaced by a file.
        raise UsageError(
            f"{option} {printable(str(path))}: is not a regular file (a device, a FIFO or a "
            "socket); name a file"
        )


def write_atomically(path: Path, text: str, option: str = "--output") -> None:
    """Write the whole file or leave what was there: never half a report.

    A file that cannot be written is the user's mistake (UsageError), named by ``option``.
    """
    write_all_atomically([(path, text, option)])


def write_all_atomically(files: Sequence[tuple[Path, str, str]]) -> None:
    """:func:`write_atomically` of a run's outputs ``(path, text, option)``, all or none.

    A report, a baseline and a badge of one run are replaced together or not at all: a badge
    that cannot be written leaves the report and the baseline as they were.
    """
    for path, _, option in files:
        check_writable(path, option)
    try:
        write_together([(path, text) for path, text, _ in files])
    except OSError as exc:
        named = {str(path): (path, option) for path, _, option in files}
        path, option = named.get(str(exc.filename), (files[0][0], files[0][2]))
        raise UsageError(
            f"{option} {printable(str(path))}: cannot be written: {exc.strerror or exc}"
        ) from None
