"""The ``fiveup`` command: a thin layer that wires the harness and the engines together.

One module per subcommand (``fiveup.cli.validate``, ``list_cases``, ``show``, ``certify``,
``compare``, ``fuzz``, ``mutants``, ``engine``, ``bench``, ``bench_harness``, ``bench_fuzz``,
``transcripts``, ``tally``, ``render``), each with ``NAME``, ``HELP``, ``configure(parser)`` and
``run(args, streams)``.
Streams are passed in, so tests run every command in-process. Exit codes: 0 success, 1 the
engine does not conform (or a case failed, or nothing could be checked), 2 the user's own
mistake (bad arguments, broken fixtures, unreadable files), always as ``fiveup COMMAND: error:
...`` on stderr (with the command's usage after a mistaken argument) and never a traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import TextIO

from fiveup import PROTOCOL_VERSION, SUITE_VERSION
from fiveup.errors import FiveUpError, FixtureError

from . import (
    bench,
    bench_fuzz,
    bench_harness,
    certify,
    compare,
    engine,
    fuzz,
    list_cases,
    mutants,
    render,
    show,
    tally,
    transcripts,
    validate,
)
from .common import Exit, Parser, Streams

__all__ = ["COMMANDS", "main"]

COMMANDS: tuple[ModuleType, ...] = (
    validate,
    list_cases,
    show,
    certify,
    compare,
    fuzz,
    mutants,
    engine,
    bench,
    bench_harness,
    bench_fuzz,
    transcripts,
    tally,
    render,
)
"""The subcommands, in the order ``fiveup --help`` lists them."""


def _parser(stdout: TextIO) -> tuple[Parser, dict[str, Parser]]:
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
    for command in COMMANDS:
        child = sub.add_parser(
            command.NAME, help=command.HELP, description=command.HELP, stdout=stdout
        )
        command.configure(child)
        child.set_defaults(run=command.run)
        children[command.NAME] = child
    return parser, children


def main(
    argv: Sequence[str] | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
    stdin: TextIO | None = None,
) -> int:
    """Run the command line; returns the exit code."""
    streams = Streams(stdin or sys.stdin, stdout or sys.stdout, stderr or sys.stderr)
    words = list(sys.argv[1:] if argv is None else argv)
    name = next((w for w in words if w in {c.NAME for c in COMMANDS}), None)
    prefix = f"fiveup {name}" if name else "fiveup"
    try:
        parser, children = _parser(streams.stdout)
        args, extra = parser.parse_known_args(words)
        if extra:  # reported by the subcommand, with its own usage
            (children.get(args.command) or parser).error(
                f"unrecognized arguments: {' '.join(extra)}"
            )
        if args.command is None:
            parser.print_help()
            return 2
        run: Callable[[argparse.Namespace, Streams], int] = args.run
        return run(args, streams)
    except Exit as exc:
        return exc.status
    except BrokenPipeError:  # the reader went away (``fiveup list | head``): nothing to say
        return 1
    except FixtureError as exc:
        streams.stderr.write(f"{prefix}: error: broken fixtures:\n{exc}\n")
    except FiveUpError as exc:
        streams.stderr.write(f"{prefix}: error: {exc}\n")
    except OSError as exc:
        streams.stderr.write(f"{prefix}: error: {exc.filename or ''}: {exc.strerror or exc}\n")
    return 2
