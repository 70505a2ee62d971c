"""The ``fiveup`` command: a thin layer over the harness and the reference engine.

Every command takes its streams as arguments so that tests run it in-process. Exit codes:
0 success, 1 the engine does not conform (or a case failed), 2 the user's own mistake (bad
arguments, broken fixtures, unreadable files); a mistake never ends in a traceback.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn, TextIO

from fiveup import PROTOCOL_VERSION, SUITE_VERSION
from fiveup.contract.engine import Engine
from fiveup.errors import FiveUpError, FixtureError, UsageError


class _Parser(argparse.ArgumentParser):
    """An argument parser that raises instead of exiting and writes to given streams."""

    stdout: TextIO = sys.stdout

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message}\n{self.format_usage().rstrip()}")

    def _print_message(self, message: str, file: object = None) -> None:
        if message:
            self.stdout.write(message)

    def exit(self, status: int = 0, message: str | None = None) -> NoReturn:
        if message:
            self.stdout.write(message)
        raise _Exit(status)


class _Exit(Exception):
    def __init__(self, status: int) -> None:
        self.status = status


def _parser(stdout: TextIO) -> _Parser:
    _Parser.stdout = stdout
    parser = _Parser(
        prog="fiveup",
        description="The Five Up conformance suite: validate fixtures, "
        "certify engines, serve the reference engine, measure speed.",
    )
    parser.add_argument(
        "--version",
        action="version",
        version=f"fiveup-conformance {SUITE_VERSION} (protocol {PROTOCOL_VERSION})",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    v = sub.add_parser("validate", help="check fixture files against the schema and the linter")
    v.add_argument(
        "paths",
        nargs="*",
        type=Path,
        metavar="PATH",
        help="fixture files or folders (default: the bundled corpus, which must "
        "also cover every checkable rule)",
    )
    v.add_argument("--coverage", action="store_true", help="print the rule coverage table")
    v.add_argument("--format", choices=("text", "json"), default="text")

    c = sub.add_parser("certify", help="run the fixtures against an engine and report conformance")
    which = c.add_mutually_exclusive_group()
    which.add_argument(
        "--engine",
        metavar="NAME",
        help="a Python engine: entry-point name or module:attribute (default: reference)",
    )
    which.add_argument(
        "--engine-cmd",
        metavar="COMMAND",
        help="an engine in any language, speaking spec/protocol.md on stdin/stdout",
    )
    c.add_argument(
        "-k",
        dest="keyword",
        metavar="EXPR",
        help="select cases by keyword expression (words, and, or, not, brackets)",
    )
    c.add_argument(
        "--case",
        action="append",
        default=[],
        metavar="ID",
        help="select one case by ID (repeatable)",
    )
    c.add_argument(
        "--fixtures",
        action="append",
        type=Path,
        metavar="PATH",
        help="fixture files or folders to run instead of the bundled corpus",
    )
    c.add_argument(
        "--expected-failures",
        type=Path,
        metavar="FILE",
        help="YAML mapping of case ID to reason; an entry that passes fails the run",
    )
    c.add_argument("--format", choices=("text", "json", "junit"), default="text")
    c.add_argument(
        "--output",
        type=Path,
        metavar="FILE",
        help="write the report to FILE (written whole or not at all)",
    )
    c.add_argument(
        "--timeout",
        type=float,
        default=10.0,
        metavar="SECONDS",
        help="time limit per case (default 10)",
    )

    e = sub.add_parser("engine", help="serve a Python engine over the process protocol")
    e.add_argument(
        "--engine",
        default="reference",
        metavar="NAME",
        help="entry-point name or module:attribute (default: reference)",
    )

    b = sub.add_parser(
        "bench", help="measure the reference engine on random rounds and matches", add_help=False
    )
    b.add_argument("rest", nargs=argparse.REMAINDER)

    h = sub.add_parser(
        "bench-harness", help="time the corpus in-process and through the process protocol"
    )
    h.add_argument("--repeat", type=int, default=3, help="runs of each kind (best is kept)")
    return parser


def main(
    argv: Sequence[str] | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
    stdin: TextIO | None = None,
) -> int:
    """Run the command line; returns the exit code."""
    out = stdout or sys.stdout
    err = stderr or sys.stderr
    args_list = list(sys.argv[1:] if argv is None else argv)
    try:
        if args_list[:1] == ["bench"]:
            from fiveup.reference.bench import main_bench

            return main_bench(args_list[1:], out, err)
        args = _parser(out).parse_args(args_list)
        if args.command is None:
            _parser(out).print_help()
            return 2
        if args.command == "validate":
            return _validate(args, out)
        if args.command == "certify":
            return _certify(args, out, err)
        if args.command == "engine":
            from fiveup.harness.certify import load_engine
            from fiveup.harness.server import serve

            return serve(load_engine(args.engine), stdin or sys.stdin, out)
        return _bench_harness(args, out)
    except _Exit as exc:
        return exc.status
    except FixtureError as exc:
        err.write(f"fiveup: broken fixtures:\n{exc}\n")
        return 2
    except FiveUpError as exc:
        err.write(f"fiveup: {exc}\n")
        return 2
    except OSError as exc:
        err.write(f"fiveup: {exc.filename or ''}: {exc.strerror or exc}\n")
        return 2


def _validate(args: argparse.Namespace, out: TextIO) -> int:
    from fiveup.harness.corpus import bundled_fixture_dir, fixture_files
    from fiveup.harness.lint import lint
    from fiveup.harness.rules import spec_rules

    bundled = not args.paths
    for p in args.paths:
        if not p.exists():
            raise UsageError(f"validate: {p}: no such file or folder")
    files = fixture_files([bundled_fixture_dir()] if bundled else args.paths)
    if not files:
        raise UsageError("validate: no *.yaml fixture files found")
    report = lint(files, require_coverage=bundled)
    rules = spec_rules()
    checkable = [r for r in rules.values() if r.checkable]
    covered = [r for r in checkable if report.coverage.get(r.id)]
    percent = 100.0 * len(covered) / len(checkable) if checkable else 100.0
    if args.format == "json":
        out.write(
            json.dumps(
                {
                    "ok": not report.problems,
                    "files": len(files),
                    "cases": report.case_count,
                    "problems": [p.to_json() for p in report.problems],
                    "coverage": {
                        r.id: {"checkable": r.checkable, "cases": report.coverage.get(r.id, [])}
                        for r in rules.values()
                    },
                    "covered_percent": round(percent, 1),
                },
                indent=2,
            )
            + "\n"
        )
        return 2 if report.problems else 0
    for problem in report.problems:
        out.write(problem.text + "\n")
    if args.coverage:
        out.write(f"{'rule':<7} {'cases':>5}  examples\n")
        for r in rules.values():
            ids = report.coverage.get(r.id, [])
            shown = ", ".join(ids[:3]) + (f", ... (+{len(ids) - 3})" if len(ids) > 3 else "")
            mark = "conduct, not checkable" if not r.checkable else (shown or "NOT COVERED")
            out.write(f"{r.id:<7} {len(ids):>5}  {mark}\n")
    status = f"{len(report.problems)} problem(s)" if report.problems else "ok"
    out.write(
        f"{status}: {report.case_count} cases in {len(files)} files; "
        f"{len(covered)}/{len(checkable)} checkable rules covered ({percent:.0f}%)\n"
    )
    return 2 if report.problems else 0


def _engine_args(args: argparse.Namespace) -> list[str]:
    if args.engine_cmd:
        return ["--engine-cmd", args.engine_cmd]
    return ["--engine", args.engine or "reference"]


def _certify(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from fiveup.harness.certify import certify, load_expected_failures, open_engine, select
    from fiveup.harness.corpus import fixture_files, load_corpus
    from fiveup.harness.report import json_report, junit_report, text_report

    if args.timeout <= 0:
        raise UsageError("certify: --timeout must be positive")
    if args.engine_cmd is not None and not args.engine_cmd.strip():
        raise UsageError("certify: --engine-cmd is empty: give the command that starts the engine")
    for p in args.fixtures or []:
        if not p.exists():
            raise UsageError(f"certify: --fixtures {p}: no such file or folder")
    if args.fixtures and not fixture_files(args.fixtures):
        shown = ", ".join(str(p) for p in args.fixtures)
        raise UsageError(f"certify: --fixtures {shown}: no *.yaml fixture files there")
    corpus = load_corpus(args.fixtures)
    cases = select(corpus, args.keyword, args.case)
    if not cases:
        raise UsageError("certify: no case matches the selection")
    xfails = (
        load_expected_failures(args.expected_failures, corpus) if args.expected_failures else {}
    )
    engine = open_engine(args.engine, args.engine_cmd, args.timeout)
    try:
        run = certify(engine, corpus, cases, xfails)
    finally:
        close = getattr(engine, "close", None)
        if callable(close):
            close()
    if args.format == "json":
        text = json_report(run)
    elif args.format == "junit":
        text = junit_report(run)
    else:
        text = text_report(run, _engine_args(args))
    if args.output:
        _write_atomically(args.output, text)
        if args.format != "text":
            from fiveup.harness.report import summary_line

            out.write(summary_line(run) + "\n")
    else:
        out.write(text)
    return 0 if run.ok else 1


def _write_atomically(path: Path, text: str) -> None:
    """Write the whole file or leave what was there: never half a report."""
    directory = path.parent if str(path.parent) else Path(".")
    if not directory.is_dir():
        raise UsageError(f"--output {path}: no such folder {directory}")
    if path.is_dir():
        raise UsageError(f"--output {path}: is a folder; name the report file")
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # mkstemp makes 0600; a report is an ordinary file
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _bench_harness(args: argparse.Namespace, out: TextIO) -> int:
    from fiveup.harness.certify import certify, load_engine
    from fiveup.harness.corpus import load_corpus
    from fiveup.harness.process import ProcessEngine

    if args.repeat < 1:
        raise UsageError("bench-harness: --repeat must be at least 1")
    corpus = load_corpus()
    cases = list(corpus.cases)

    def best(engine: Engine) -> float:
        times = []
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            run = certify(engine, corpus, cases)
            times.append(time.perf_counter() - t0)
            if not run.ok:
                raise UsageError("bench-harness: the reference engine does not pass the corpus")
        return min(times)

    in_process = best(load_engine("reference"))
    command = [sys.executable, "-m", "fiveup", "engine"]
    with ProcessEngine(command) as proc:
        proc.info()  # start-up is not part of the per-case cost
        through_process = best(proc)
    ratio = through_process / in_process if in_process else float("inf")
    out.write(f"{len(cases)} cases, best of {args.repeat}\n")
    out.write(f"{'in-process':<18} {in_process * 1000:9.1f} ms\n")
    out.write(f"{'process protocol':<18} {through_process * 1000:9.1f} ms\n")
    out.write(f"{'ratio':<18} {ratio:9.2f} x\n")
    return 0
