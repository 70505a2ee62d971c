"""The ``fiveup`` command: a thin layer that wires the harness and the engines together.

One module per subcommand (``fiveup.cli.validate``, ``list_cases``, ``show``, ``certify``,
``compare``, ``fuzz``, ``mutants``, ``engine``, ``bench``, ``bench_harness``, ``bench_fuzz``,
``transcripts``, ``tally``, ``render``), each with ``NAME``, ``HELP``, ``configure(parser)`` and
``run(args, streams)``, listed in :data:`COMMANDS` by name and help and imported only when it runs.
Streams are passed in, so tests run every command in-process. Exit codes: 0 success, 1 the
engine does not conform (or a case failed, or nothing could be checked), 2 the user's own
mistake (bad arguments, broken fixtures, unreadable files), always as ``fiveup COMMAND: error:
...`` on stderr (with the command's usage after a mistaken argument) and never a traceback.
"""

from __future__ import annotations

import argparse
import codecs
import contextlib
import errno
import importlib
import io
import os
import select
import signal
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from types import FrameType, ModuleType
from typing import Any, TextIO

from fiveup import PROTOCOL_VERSION, SUITE_VERSION
from fiveup.errors import FiveUpError, FixtureError
from fiveup.harness.text import cut, printable

from .common import Exit, Parser, Streams

__all__ = [
    "COMMANDS",
    "INTERRUPTED",
    "MESSAGE_LINE",
    "TERMINATING",
    "Command",
    "Terminated",
    "main",
    "shown",
]


class Command:
    """A subcommand listed by name and help; its module is imported only when it runs.

    ``configure`` and ``run`` load ``fiveup.cli.<module>``, so ``fiveup engine`` starts without
    the modules of the other subcommands (``tests/test_cli.py`` checks that each module's
    ``NAME`` and ``HELP`` are the ones listed here).
    """

    __slots__ = ("HELP", "NAME", "module")

    def __init__(self, name: str, module: str, help_: str) -> None:
        """The subcommand ``name`` of ``fiveup.cli.<module>``, with its one-line help."""
        self.NAME = name
        self.module = module
        self.HELP = help_

    def load(self) -> ModuleType:
        """The subcommand's module, imported now if it was not yet."""
        return importlib.import_module(f"{__package__}.{self.module}")

    def configure(self, parser: argparse.ArgumentParser) -> None:
        """The subcommand's options."""
        self.load().configure(parser)

    def run(self, args: argparse.Namespace, streams: Streams) -> int:
        """Run the subcommand."""
        code: int = self.load().run(args, streams)
        return code

    def __repr__(self) -> str:
        return f"Command({self.NAME!r}, {self.module!r})"


COMMANDS: tuple[Command | ModuleType, ...] = (
    Command("validate", "validate", "check fixture files against the schema and the linter"),
    Command("list", "list_cases", "list the cases: ID, level, primary rule and title"),
    Command("show", "show", "show one case: what is given, what is expected, the table as text"),
    Command("certify", "certify", "run the fixtures against an engine and report conformance"),
    Command(
        "compare",
        "compare",
        "compare two JSON reports of certify: new failures, fixed cases, changed differences",
    ),
    Command(
        "fuzz",
        "fuzz",
        "play random cases on a baseline and an engine; write each divergence as a fixture",
    ),
    Command(
        "mutants",
        "mutants",
        "measure the corpus: run it against mutants of the reference, one rule broken in each",
    ),
    Command("engine", "engine", "serve a Python engine over the process protocol"),
    Command("bench", "bench", "measure the reference engine, and an engine under test beside it"),
    Command(
        "bench-harness",
        "bench_harness",
        "time the corpus in-process and through the process protocol",
    ),
    Command(
        "bench-fuzz",
        "bench_fuzz",
        "fuzzing's speed in process and over the protocol, beside bench's 2-player rate",
    ),
    Command(
        "transcripts",
        "transcripts",
        "write, check or print the golden transcripts of seeded matches",
    ),
    Command("tally", "tally", "print a raw score as the documents' paper tally"),
    Command(
        "render",
        "render",
        "describe a case's layout (or an engine's) as the documents do, in it, fi, de or en",
    ),
)
"""The subcommands, in the order ``fiveup --help`` lists them. An entry may also be a module
with ``NAME``, ``HELP``, ``configure`` and ``run``; a later entry of a name replaces an earlier."""


def _chosen(words: Sequence[str]) -> str | None:
    """The subcommand's name: the first word that is not an option of ``fiveup`` itself."""
    return next((w for w in words if not w.startswith("-")), None)


def _parser(
    stdout: TextIO, chosen: str | None, alone: bool = False
) -> tuple[Parser, dict[str, Parser]]:
    """The parser of ``fiveup`` and its subcommands' (``alone``: of ``chosen``'s only).

    A subcommand that is the first word is parsed by its own parser and nothing else: the others
    appear only in ``fiveup --help`` and in the message for an unknown command, and building
    them was most of the cost of a call of :func:`main` (tests call it a thousand times).
    """
    parser = Parser(
        prog="fiveup",
        description="The Five Up conformance suite: look at and validate fixtures, certify "
        "engines, compare runs, fuzz and measure the corpus, serve the reference engine.",
        stdout=stdout,
    )
    parser.add_argument(
        "--version",
        action="version",
        version=f"fiveup-conformance {SUITE_VERSION} (protocol {PROTOCOL_VERSION})",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    children: dict[str, Parser] = {}
    listed = {command.NAME: command for command in COMMANDS}
    if alone and chosen in listed:
        listed = {chosen: listed[chosen]}
    for name, command in listed.items():
        child = sub.add_parser(name, help=command.HELP, description=command.HELP, stdout=stdout)
        if name == chosen:  # only the subcommand that runs is loaded and configured
            command.configure(child)
            child.set_defaults(run=command.run)
        children[name] = child
    return parser, children


class Terminated(BaseException):
    """The process was asked to end by a signal (:data:`TERMINATING`), raised where it runs.

    The stack unwinds as after Ctrl-C, so every engine process the harness started is killed
    on the way out, before the exit code ``128 + signal``; no report is written.
    """

    def __init__(self, signum: int) -> None:
        """Terminated by the signal ``signum``."""
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


TERMINATING: tuple[signal.Signals, ...] = (signal.SIGTERM,) + (
    (signal.SIGHUP,) if hasattr(signal, "SIGHUP") else ()
)
"""The signals that end a command as :class:`Terminated` instead of at once: one from
``kill``, a CI runner's time limit or a closed terminal (or an engine that signals its parent)
would otherwise leave the engine's processes running."""


def _terminate(signum: int, frame: FrameType | None) -> None:
    raise Terminated(signum)


@contextlib.contextmanager
def _terminable() -> Iterator[None]:
    """Within: :data:`TERMINATING` raise :class:`Terminated` (main thread only; else as is)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {signum: signal.signal(signum, _terminate) for signum in TERMINATING}
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def main(
    argv: Sequence[str] | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
    stdin: TextIO | None = None,
) -> int:
    """Run the command line; returns the exit code."""
    streams = Streams(
        stdin or sys.stdin or _Closed("stdin"),
        stdout or _written_whole(sys.stdout) or _Closed("stdout"),
        stderr or sys.stderr or _Closed("stderr"),
    )
    words = list(sys.argv[1:] if argv is None else argv)
    name = next((w for w in words if w in {c.NAME for c in COMMANDS}), None)
    prefix = f"fiveup {name}" if name else "fiveup"
    try:
        with _terminable():
            code = _main(words, streams)
    except Terminated as exc:  # the engines are killed by now, as the stack unwound
        with contextlib.suppress(OSError):
            streams.stderr.write(f"{prefix}: terminated by {exc}\n")
        code = 128 + exc.signum
    except MemoryError:  # a small ulimit -v: the harness's failure, not a verdict (exit 1)
        _say(streams, f"{prefix}: error: out of memory\n")
        code = 2
    if argv is None and code in _ENDED_BY_SIGNAL:
        _deaf_to_signals()
    return code


def _deaf_to_signals() -> None:
    """Ignore Ctrl-C and :data:`TERMINATING` from now on, in a process about to exit.

    The command has said how it ended; a second Ctrl-C while the interpreter shuts down (it
    waits for the pool's threads and processes) would otherwise kill it by the signal, its
    exit status no longer 130. Only for the process's own command line (``argv`` not given):
    a caller running ``main`` in-process keeps its handlers.
    """
    if threading.current_thread() is not threading.main_thread():
        return
    for signum in (signal.SIGINT, *TERMINATING):
        signal.signal(signum, signal.SIG_IGN)


def _main(words: list[str], streams: Streams) -> int:
    name = next((w for w in words if w in {c.NAME for c in COMMANDS}), None)
    prefix = f"fiveup {name}" if name else "fiveup"
    try:
        parser, children = _parser(streams.stdout, _chosen(words), alone=words[:1] == [name])
        args, extra = parser.parse_known_args(words)
        if extra:  # reported by the subcommand, with its own usage
            (children.get(args.command) or parser).error(
                f"unrecognized arguments: {' '.join(extra)}"
            )
        if args.command is None:  # a mistake, said where mistakes are: the help on stderr
            streams.stderr.write(parser.format_help())
            return 2
        run: Callable[[argparse.Namespace, Streams], int] = args.run
        code = run(args, streams)
        streams.stdout.flush()  # a report that cannot be written whole is an error, not a 0
        return code
    except Exit as exc:
        return exc.status
    except BrokenPipeError:  # the reader went away (``fiveup list | head``): nothing to say
        return 1
    except KeyboardInterrupt:  # Ctrl-C (or an engine's module raising it): no traceback
        with contextlib.suppress(OSError):
            streams.stderr.write(f"{prefix}: interrupted\n")
        return INTERRUPTED
    except FixtureError as exc:
        _say(streams, f"{prefix}: error: broken fixtures:\n{shown(str(exc))}\n")
    except FiveUpError as exc:
        _say(streams, f"{prefix}: error: {shown(str(exc))}\n")
    except UnicodeEncodeError as exc:  # PYTHONIOENCODING=ascii, say, and a Finnish word
        _say(streams, f"{prefix}: error: {_unwritable(exc)}\n")
    except OSError as exc:
        with contextlib.suppress(OSError):  # stderr itself may be full: the code is left
            streams.stderr.write(f"{prefix}: error: {shown(_os_error(exc))}\n")
    return 2


def _os_error(exc: OSError) -> str:
    """What an OSError that reached the command line says: the file it names, or where it was.

    One with no file name is most often a write to a stream the caller gave (stdout to a full
    disk, a closed terminal); but not when the process ran out of descriptors, or its working
    directory was removed under it.
    """
    why = exc.strerror or str(exc)
    if exc.filename:
        return f"{printable(str(exc.filename))}: {why}"
    if exc.errno in (errno.EMFILE, errno.ENFILE):
        return f"{why}: the process may open no more files (ulimit -n)"
    if exc.errno == errno.ENOENT:
        try:
            os.getcwd()
        except OSError:
            return f"{why}: the working directory no longer exists"
    return f"writing the output: {why}"


def _unwritable(exc: UnicodeEncodeError) -> str:
    """What a text that an encoding cannot write says, and how to write it."""
    said = f"the text {exc.object[exc.start : exc.start + 1]!a} cannot be written in {exc.encoding}"
    if codecs.lookup(exc.encoding).name != "utf-8":  # else it is no stream's encoding
        said += ": set PYTHONIOENCODING=utf-8, or write to a file"
    return said


def _say(streams: Streams, text: str) -> None:
    """Write an error on stderr; one that cannot be written (a full disk) leaves the code 2."""
    with contextlib.suppress(OSError):
        streams.stderr.write(text)


class _WholeWrites(io.RawIOBase):
    """A file descriptor that takes every write whole, or raises.

    CPython's buffered stdout drops what a short write left (a file-size limit, ``ulimit -f``,
    lets 8 KB of a report through and refuses the rest), so a report cut short ended the
    command with 0; written whole, the refusal is the error of a full disk. A descriptor left
    non-blocking (by another program sharing it) is waited on. After a failure, writes are
    dropped: the error was said once, and the stream's own last flush cannot raise it again.
    """

    def __init__(self, fd: int) -> None:
        super().__init__()
        self.fd = fd
        self.failed = False

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self.fd

    def isatty(self) -> bool:
        return os.isatty(self.fd)

    def write(self, data: Any) -> int:
        view = memoryview(data).cast("B")
        size = len(view)
        if self.failed:
            return size
        try:
            while view:
                try:
                    written = os.write(self.fd, view)
                except BlockingIOError:
                    select.select([], [self.fd], [])
                    continue
                if not written:
                    raise OSError(errno.EIO, "the output took none of the report")
                view = view[written:]
        except BaseException:
            self.failed = True
            raise
        return size


def _written_whole(stream: TextIO | None) -> TextIO | None:
    """The process's stdout, written through :class:`_WholeWrites` (any other as it is)."""
    real = sys.__stdout__
    if stream is None or real is None or stream is not real:
        return stream
    try:
        fd = real.fileno()
        real.flush()
    except (OSError, ValueError):  # no descriptor (a test's capture), or one that is closed
        return stream
    return io.TextIOWrapper(
        io.BufferedWriter(_WholeWrites(fd)),
        encoding=real.encoding,
        errors=real.errors,
        line_buffering=real.line_buffering,
    )


class _Closed(io.StringIO):
    """A standard stream the process was started without (``fiveup list >&-``).

    Python sets ``sys.stdout`` to None then; writing to it is the error a closed stream gives,
    which is reported with exit code 2 like a full disk, instead of an AttributeError.
    """

    def __init__(self, name: str) -> None:
        super().__init__()
        self.name = name

    def write(self, text: str) -> int:
        raise OSError(errno.EBADF, f"{self.name} is closed")


INTERRUPTED = 130
"""The exit code after Ctrl-C: 128 + SIGINT, as a shell reports a command it interrupted."""
_ENDED_BY_SIGNAL = frozenset({INTERRUPTED, *(128 + signum for signum in TERMINATING)})
MESSAGE_LINE = 1000
"""The most characters of one line of an error message that are printed."""


def shown(message: str) -> str:
    """An error message as it is printed: each line cut at :data:`MESSAGE_LINE`, and printable.

    A message repeats the user's words (an unknown option, a module name, a command to run),
    which may hold control characters or run to megabytes; whichever message a command raises,
    no escape sequence reaches the terminal and no word is echoed whole past the cut.
    """
    return "\n".join(printable(cut(line, MESSAGE_LINE)) for line in message.split("\n"))
