"""``fiveup show CASE_ID``: one case in full, or (``--request``) the line the harness sends."""

from __future__ import annotations

import argparse

from fiveup.harness.describe import case_text, request_line
from fiveup.harness.selection import select

from .common import Streams, add_fixtures_option, load_fixtures

NAME = "show"
HELP = "show one case: what is given, what is expected, the table as text"


def configure(parser: argparse.ArgumentParser) -> None:
    """The options of ``show``."""
    parser.add_argument("case", metavar="CASE_ID", help="the case's ID (see fiveup list)")
    parser.add_argument(
        "--request",
        action="store_true",
        help="print only the run request the harness sends for it, to pipe into an engine",
    )
    add_fixtures_option(parser)


def run(args: argparse.Namespace, streams: Streams) -> int:
    """Print the case."""
    (case,) = select(load_fixtures(args.fixtures), ids=[args.case])
    streams.stdout.write(request_line(case) + "\n" if args.request else case_text(case))
    return 0
