"""``fiveup compare OLD.json NEW.json``: what a change broke and what it fixed."""

from __future__ import annotations

import argparse
from typing import TextIO

from fiveup.errors import UsageError
from fiveup.harness.regressions import (
    CaseChange,
    Comparison,
    compare_reports,
    read_report,
    summary,
    unlike,
)
from fiveup.harness.text import cut, json_text, printable

from .common import Streams
from .options import a_file

NAME = "compare"
_SHOWN = 500
"""The longest first difference printed of a case (a report's message may be megabytes)."""

HELP = "compare two JSON reports of certify: new failures, fixed cases, changed differences"


def configure(parser: argparse.ArgumentParser) -> None:
    """The options of ``compare``."""
    parser.add_argument("old", type=a_file, metavar="OLD.json", help="the report before the change")
    parser.add_argument("new", type=a_file, metavar="NEW.json", help="the report after the change")
    parser.add_argument(
        "--format", choices=("text", "json"), default="text", help="text (default) or json"
    )
    parser.add_argument(
        "--allow-different",
        action="store_true",
        help="compare reports of another engine, suite version or corpus too (refused by default)",
    )


def _section(out: TextIO, title: str, changes: tuple[CaseChange, ...]) -> None:
    if not changes:
        return
    out.write(f"{title} ({len(changes)}):\n")
    for change in changes:
        # a report is a file anyone may have written: its words must not drive the terminal
        shown = printable(cut(change.first_difference, _SHOWN))
        detail = f": {shown}" if shown else ""
        out.write(f"  {change.id}  {change.old} -> {change.new}{detail}\n")


def _text(result: Comparison, out: TextIO, different: list[str]) -> None:
    if different:
        # the names come from the reports: escaped, as the error that refuses them is
        out.write(f"comparing unlike runs (--allow-different): {printable('; '.join(different))}\n")
    _section(out, "NEW FAILURES", result.regressions)
    _section(out, "fixed", result.fixed)
    _section(out, "failing differently", result.changed)
    _section(out, "other changes", result.other)
    out.write(summary(result) + "\n")


def _json(result: Comparison, different: list[str]) -> str:
    def rows(changes: tuple[CaseChange, ...]) -> list[dict[str, str]]:
        return [
            {"id": c.id, "old": c.old, "new": c.new, "first_difference": c.first_difference}
            for c in changes
        ]

    data = {
        "new_failures": rows(result.regressions),
        "fixed": rows(result.fixed),
        "changed": rows(result.changed),
        "other": rows(result.other),
        "unchanged": result.unchanged,
        "unlike": different,
    }
    return json_text(data) + "\n"


def run(args: argparse.Namespace, streams: Streams) -> int:
    """Compare; 1 when a case that passed now fails or errs, else 0; 2 for unlike runs."""
    old, new = read_report(args.old), read_report(args.new)
    different = unlike(old, new)
    if different and not args.allow_different:
        raise UsageError(
            f"{printable(str(args.old))} and {printable(str(args.new))} are not runs of alike "
            f"things ({printable('; '.join(different))}): a comparison would call every "
            "difference a change; give --allow-different to compare them anyway"
        )
    result = compare_reports(old, new)
    if args.format == "json":
        streams.stdout.write(_json(result, different))
    else:
        _text(result, streams.stdout, different)
    return result.exit_code
