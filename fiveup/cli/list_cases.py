"""``fiveup list``: the cases of the corpus, one a line (``-k`` and ``--format json``)."""

from __future__ import annotations

import argparse
import json

from fiveup.contract.schemas import clip
from fiveup.errors import UsageError
from fiveup.harness.corpus import Case
from fiveup.harness.selection import check_decisions, select
from fiveup.harness.text import printable

from .common import Streams, add_fixtures_option, load_fixtures

NAME = "list"
HELP = "list the cases: ID, level, primary rule and title"


def configure(parser: argparse.ArgumentParser) -> None:
    """The options of ``list``."""
    parser.add_argument("-k", dest="keyword", metavar="EXPR", help="select cases by keyword")
    add_fixtures_option(parser)
    parser.add_argument(
        "--decision",
        action="append",
        default=[],
        metavar="OQ-n",
        help="list only the cases whose expectation depends on this decision of "
        "spec/open-questions.md (repeatable: any of them)",
    )
    parser.add_argument(
        "--format", choices=("text", "json"), default="text", help="text (default) or json"
    )


def _row(case: Case) -> dict[str, object]:
    return {
        "id": case.id,
        "level": case.level.value,
        "primary_rule": case.primary_rule,
        "rules": list(case.rules),
        "tags": list(case.tags),
        "decisions": list(case.decisions),
        "title": case.title,
        "file": case.file,
        "line": case.line,
    }


def _options(args: argparse.Namespace) -> str:
    # certify refuses a selection that leaves nothing to run: an empty listing is refused alike,
    # naming the options that emptied it.
    named = [f"-k {clip(args.keyword, 80)}"] if args.keyword is not None else []
    named += [f"--decision {clip(decision, 80)}" for decision in args.decision]
    return " ".join(named)


def run(args: argparse.Namespace, streams: Streams) -> int:
    """Print the selected cases."""
    corpus = load_fixtures(args.fixtures)
    cases = select(corpus, args.keyword)
    if args.decision:
        wanted = set(check_decisions(corpus, args.decision, "--decision"))
        cases = [case for case in cases if wanted & set(case.decisions)]
    if not cases:
        raise UsageError(f"{_options(args)}: no case matches the selection")
    out = streams.stdout
    if args.format == "json":
        out.write(json.dumps([_row(case) for case in cases], indent=2) + "\n")
        return 0
    width = max((len(case.id) for case in cases), default=2)
    for case in cases:
        out.write(
            f"{case.id:<{width}}  {case.level.value:<7}  {case.primary_rule:<6}  "
            f"{printable(case.title)}\n"
        )
    out.write(f"{len(cases)} cases\n")
    return 0
