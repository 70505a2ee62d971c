"""``fiveup validate``: check fixture files against the schema and the linter."""

from __future__ import annotations

import argparse
import json
from typing import TextIO

from fiveup.errors import UsageError
from fiveup.harness.corpus import bundled_fixture_dir, fixture_files
from fiveup.harness.lint import LintReport, lint
from fiveup.harness.spec_index import Rule, spec_rules
from fiveup.harness.text import printable
from fiveup.harness.traceability import problems as traceability_problems

from .common import Streams, absent
from .options import file_or_folder

NAME = "validate"
HELP = "check fixture files against the schema and the linter"


def configure(parser: argparse.ArgumentParser) -> None:
    """The options of ``validate``."""
    parser.add_argument(
        "paths",
        nargs="*",
        type=file_or_folder,
        metavar="PATH",
        help="fixture files or folders (default: the bundled corpus, which must "
        "also cover every checkable rule, and the spec's traceability table)",
    )
    parser.add_argument("--coverage", action="store_true", help="print the rule coverage table")
    parser.add_argument(
        "--format",
        choices=("text", "json"),
        default="text",
        help="text for people (default), json for tools",
    )


def run(args: argparse.Namespace, streams: Streams) -> int:
    """Lint the files; 0 when they are valid, 2 when any problem is found."""
    bundled = not args.paths
    for p in args.paths:
        if not p.exists():
            raise UsageError(f"{printable(str(p))}: {absent(p)}")
    files = fixture_files([bundled_fixture_dir()] if bundled else args.paths)
    if not files:
        named = ", ".join(printable(str(p)) for p in args.paths)
        raise UsageError(f"{named or 'the bundled corpus'}: no *.yaml fixture files there")
    report = lint(files, require_coverage=bundled)
    if bundled:  # the table belongs to the bundled spec, as the coverage does
        report.problems.extend(traceability_problems())
    if args.format == "json":
        _json(report, len(files), streams.stdout)
    else:
        _text(report, len(files), args.coverage, streams.stdout)
    return 2 if report.problems else 0


def _coverage(report: LintReport) -> tuple[list[Rule], list[Rule], float]:
    checkable = [r for r in spec_rules().values() if r.checkable]
    covered = [r for r in checkable if report.coverage.get(r.id)]
    percent = 100.0 * len(covered) / len(checkable) if checkable else 100.0
    return checkable, covered, percent


def _json(report: LintReport, files: int, out: TextIO) -> None:
    _, _, percent = _coverage(report)
    data = {
        "ok": not report.problems,
        "files": files,
        "checked": report.checked,
        "cases": report.case_count,
        "problems": [p.to_json() for p in report.problems],
        "coverage": {
            r.id: {"checkable": r.checkable, "cases": report.coverage.get(r.id, [])}
            for r in spec_rules().values()
        },
        "covered_percent": round(percent, 1),
    }
    out.write(json.dumps(data, indent=2) + "\n")


def _text(report: LintReport, files: int, coverage: bool, out: TextIO) -> None:
    for problem in report.problems:
        out.write(problem.text + "\n")
    if coverage:
        out.write(f"{'rule':<7} {'count':>5}  cases\n")
        for r in spec_rules().values():
            ids = report.coverage.get(r.id, [])
            listed = ", ".join(ids) or "NOT COVERED"
            mark = listed if r.checkable else "conduct, not checkable"
            out.write(f"{r.id:<7} {len(ids):>5}  {mark}\n")
    checkable, covered, percent = _coverage(report)
    status = f"{len(report.problems)} problem(s)" if report.problems else "ok"
    where = f"{report.checked} of {files} files checked" if report.stopped else f"{files} files"
    out.write(
        f"{status}: {report.case_count} cases in {where}; "
        f"{len(covered)}/{len(checkable)} checkable rules covered ({percent:.0f}%)\n"
    )
