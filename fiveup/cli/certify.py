"""``fiveup certify``: run the fixtures against an engine and report conformance."""

from __future__ import annotations

import argparse
from pathlib import Path

from fiveup.errors import UsageError
from fiveup.harness.certify import Run, certify, load_expected_failures, open_engine, select
from fiveup.harness.corpus import Corpus, fixture_files, load_corpus
from fiveup.harness.report import json_report, junit_report, summary_line, text_report

from .common import Streams, add_engine_options, check_engine_command, engine_args, write_atomically

NAME = "certify"
HELP = "run the fixtures against an engine and report conformance"


def configure(parser: argparse.ArgumentParser) -> None:
    """The options of ``certify``."""
    add_engine_options(parser, "the engine to certify")
    parser.add_argument(
        "-k",
        dest="keyword",
        metavar="EXPR",
        help="select cases by keyword expression (words, and, or, not, brackets)",
    )
    parser.add_argument(
        "--case",
        action="append",
        default=[],
        metavar="ID",
        help="select one case by ID (repeatable)",
    )
    parser.add_argument(
        "--fixtures",
        action="append",
        type=Path,
        metavar="PATH",
        help="fixture files or folders to run instead of the bundled corpus",
    )
    parser.add_argument(
        "--expected-failures",
        type=Path,
        metavar="FILE",
        help="YAML mapping of case ID to reason; an entry that passes fails the run",
    )
    parser.add_argument(
        "--format",
        choices=("text", "json", "junit"),
        default="text",
        help="text for people (default), json or junit XML for tools",
    )
    parser.add_argument(
        "--output",
        type=Path,
        metavar="FILE",
        help="write the report to FILE (written whole or not at all)",
    )
    parser.add_argument(
        "--timeout",
        type=float,
        default=10.0,
        metavar="SECONDS",
        help="time limit per case (default 10)",
    )


def _corpus(fixtures: list[Path] | None) -> Corpus:
    for p in fixtures or []:
        if not p.exists():
            raise UsageError(f"--fixtures {p}: no such file or folder")
    if fixtures and not fixture_files(fixtures):
        shown = ", ".join(str(p) for p in fixtures)
        raise UsageError(f"--fixtures {shown}: no *.yaml fixture files there")
    return load_corpus(fixtures)


def _certify(args: argparse.Namespace) -> Run:
    if args.timeout <= 0:
        raise UsageError("--timeout must be positive")
    check_engine_command(args)
    corpus = _corpus(args.fixtures)
    cases = select(corpus, args.keyword, args.case)
    if not cases:
        raise UsageError("no case matches the selection")
    xfails = (
        load_expected_failures(args.expected_failures, corpus) if args.expected_failures else {}
    )
    engine = open_engine(args.engine, args.engine_cmd, args.timeout)
    try:
        return certify(engine, corpus, cases, xfails)
    finally:
        close = getattr(engine, "close", None)
        if callable(close):
            close()


_REPORTS = {"json": json_report, "junit": junit_report}


def run(args: argparse.Namespace, streams: Streams) -> int:
    """Certify; 0 when the engine conforms, 1 when it does not."""
    result = _certify(args)
    if args.format == "text":
        text = text_report(result, engine_args(args))
    else:
        text = _REPORTS[args.format](result)
    if args.output:
        write_atomically(args.output, text)
        if args.format != "text":
            streams.stdout.write(summary_line(result) + "\n")
    else:
        streams.stdout.write(text)
    return 0 if result.ok else 1
