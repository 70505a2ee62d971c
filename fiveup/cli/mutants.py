"""``fiveup mutants``: how many of the catalogue's mutants a corpus kills, and with which cases.

Each mutant is the reference engine with one rule replaced (:mod:`fiveup.mutants.catalogue`);
the corpus (the bundled one, or ``--fixtures``) is certified against each, in-process, and a
case kills a mutant when it fails or errs against it. Exit code 0 when every mutant that must
be killed is, 1 when one survives, 2 for a usage mistake. Mutants listed as equivalent (no case
can tell them from the reference) are shown but never counted.
"""

from __future__ import annotations

import argparse
import json
import os
from collections.abc import Sequence
from typing import TextIO

from fiveup.errors import UsageError
from fiveup.harness.corpus import Case, Corpus
from fiveup.harness.selection import select
from fiveup.harness.text import printable
from fiveup.mutants import CATALOGUE, Measurement, Mutant, Report, measure, mutant_named

from .common import Streams, add_fixtures_option, load_fixtures
from .options import count

NAME = "mutants"
HELP = "measure the corpus: run it against mutants of the reference, one rule broken in each"

_SHOWN_KILLERS = 2
"""How many killing cases a text row names before it says how many more there are."""

_MAX_JOBS = 4 * (os.cpu_count() or 1)
"""The most processes ``--jobs`` may ask for: more only pays for their start-ups."""


def configure(parser: argparse.ArgumentParser) -> None:
    """The options of ``mutants``."""
    add_fixtures_option(parser, " to measure")
    parser.add_argument(
        "-k",
        dest="keyword",
        metavar="EXPR",
        help="measure only the cases selected by this keyword expression (as in certify)",
    )
    parser.add_argument(
        "--mutant",
        action="append",
        default=[],
        metavar="NAME",
        help="run only this mutant of the catalogue (repeatable)",
    )
    parser.add_argument(
        "--list",
        action="store_true",
        help="list the catalogue (name, rule, description) without running anything",
    )
    parser.add_argument(
        "--format", choices=("text", "json"), default="text", help="text (default) or json"
    )
    parser.add_argument(
        "--jobs",
        type=count(_MAX_JOBS, low=1),
        default=1,
        metavar="N",
        help=f"measure the mutants in N processes (1 to {_MAX_JOBS}; default 1): the same report",
    )


# --- choosing what to run --------------------------------------------------------------------


def _mutants(names: Sequence[str]) -> list[Mutant]:
    if not names:
        return list(CATALOGUE)
    wanted = {mutant_named(name).name for name in names}
    return [mutant for mutant in CATALOGUE if mutant.name in wanted]


def _cases(args: argparse.Namespace, corpus: Corpus) -> list[Case]:
    cases = select(corpus, args.keyword)
    if not cases:
        raise UsageError(f"-k {args.keyword}: no case matches the selection")
    return cases


def _source(args: argparse.Namespace) -> str:
    where = (
        ", ".join(printable(str(p)) for p in args.fixtures)
        if args.fixtures
        else "the bundled corpus"
    )
    return f"{where} (-k {args.keyword})" if args.keyword else where


# --- the rows --------------------------------------------------------------------------------


def _catalogue_row(mutant: Mutant) -> dict[str, object]:
    return {
        "mutant": mutant.name,
        "rule": mutant.rule,
        "description": mutant.description,
        "equivalent": mutant.equivalent or None,
        "replaces": list(mutant.replaced),
    }


def _json_row(measurement: Measurement) -> dict[str, object]:
    row = _catalogue_row(measurement.mutant)
    row["killed_by"] = list(measurement.killed_by)
    row["survived"] = measurement.survived
    return row


def _killers(measurement: Measurement) -> str:
    if measurement.mutant.equivalent and measurement.survived:
        return f"(not counted) {measurement.mutant.equivalent}"
    if measurement.survived:
        return f"!!! NO CASE KILLS IT: {measurement.mutant.description}"
    shown = ", ".join(measurement.killed_by[:_SHOWN_KILLERS])
    more = len(measurement.killed_by) - _SHOWN_KILLERS
    return f"{len(measurement.killed_by)}: {shown}" + (f", +{more} more" if more > 0 else "")


class _Table:
    """The text table, written a row at a time as the mutants are measured."""

    def __init__(self, out: TextIO, mutants: Sequence[Mutant]) -> None:
        """A table on ``out`` wide enough for the names of ``mutants``."""
        self.out = out
        self.width = max(len("MUTANT"), *(len(m.name) for m in mutants))
        self.status = len("NOT EQUIVALENT")

    def header(self) -> None:
        """The column titles."""
        self.out.write(f"{'MUTANT':<{self.width}}  RULE   {'RESULT':<{self.status}}  KILLED BY\n")

    def row(self, measurement: Measurement) -> None:
        """One mutant: its name, rule, result and the cases that kill it."""
        mutant = measurement.mutant
        self.out.write(
            f"{mutant.name:<{self.width}}  {mutant.rule:<5}  "
            f"{measurement.status:<{self.status}}  {_killers(measurement)}\n"
        )
        self.out.flush()


def _summary(report: Report, out: TextIO) -> None:
    if report.survivors:
        out.write(
            f"\n*** {len(report.survivors)} MUTANT(S) SURVIVED: no case of the corpus tells "
            "these mistakes from the rules ***\n"
        )
        for m in report.survivors:
            out.write(f"  {m.mutant.name} ({m.mutant.rule}): {m.mutant.description}\n")
    out.write("\n")
    if report.equivalents:
        out.write(
            f"{len(report.equivalents)} equivalent mutants not counted: no case can tell them "
            "from the reference (the reason is in each row)\n"
        )
    out.write(f"{report.cases} cases against each mutant, in {report.seconds:.1f} s\n")
    required = len(report.required)
    out.write(
        f"{required} mutants, {len(report.killed)} killed, {len(report.survivors)} survived\n"
    )


def _warnings(report: Report, err: TextIO) -> None:
    if report.broken:
        err.write(
            f"fiveup mutants: warning: {len(report.broken)} selected cases fail against the "
            f"reference engine itself and are not counted: {', '.join(report.broken)}\n"
        )
    for m in report.misjudged:
        err.write(
            f"fiveup mutants: warning: {m.mutant.name} is listed as equivalent but "
            f"{', '.join(m.killed_by)} kill it: the catalogue's claim is wrong, or the case is\n"
        )


# --- the command -----------------------------------------------------------------------------


def _list(mutants: Sequence[Mutant], args: argparse.Namespace, out: TextIO) -> int:
    if args.format == "json":
        out.write(json.dumps([_catalogue_row(m) for m in mutants], indent=2) + "\n")
        return 0
    width = max(len(m.name) for m in mutants)
    for m in mutants:
        note = " [equivalent: not counted]" if m.equivalent else ""
        out.write(f"{m.name:<{width}}  {m.rule:<5}  {m.description}{note}\n")
    out.write(f"{len(mutants)} mutants, {sum(m.required for m in mutants)} to be killed\n")
    return 0


def run(args: argparse.Namespace, streams: Streams) -> int:
    """Measure the selected cases against the selected mutants and report each."""
    mutants = _mutants(args.mutant)
    out = streams.stdout
    if args.list:
        return _list(mutants, args, out)
    corpus = load_fixtures(args.fixtures)
    cases = _cases(args, corpus)
    if args.format == "json":
        report = measure(corpus, cases, mutants, jobs=args.jobs)
        out.write(json.dumps([_json_row(m) for m in report.measurements], indent=2) + "\n")
    else:
        out.write(
            f"fiveup mutants: {len(mutants)} mutants of the reference engine, one rule "
            f"replaced in each, against {len(cases)} cases of {_source(args)}\n\n"
        )
        table = _Table(out, mutants)
        table.header()
        report = measure(corpus, cases, mutants, table.row, args.jobs)
        _summary(report, out)
    _warnings(report, streams.stderr)
    return report.exit_code
