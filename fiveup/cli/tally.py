"""``fiveup tally SCORE``: a score as the documents' paper tally (TAL-1, TAL-2).

A stroke ``|`` records 5 raw points; the 50-point symbol, a big X with a small x in each of the
four spaces around it, is written ``xXx`` on one line. As many 50-point symbols as fit come
first, then strokes (OQ-18).
"""

from __future__ import annotations

import argparse

from fiveup.errors import UsageError
from fiveup.reference.scoring import RAW_PER_DISPLAYED, tally

from .common import Streams
from .options import any_number

NAME = "tally"
HELP = "print a raw score as the documents' paper tally"
FIFTY = "xXx"
"""One 50-point symbol in text: the big X between its small x."""
STROKE = "|"
MAX_SCORE = 100_000
"""The largest score drawn (2,000 symbols): far past any match, and a line a terminal shows."""


def configure(parser: argparse.ArgumentParser) -> None:
    """The options of ``tally``."""
    parser.add_argument(
        "score",
        type=any_number,
        metavar="SCORE",
        help=f"raw points (a multiple of 5, at most {MAX_SCORE:,})",
    )


def tally_text(raw: int) -> str:
    """The tally of ``raw`` points as one line: ``xXx xXx ||| ``."""
    marks = tally(raw)
    parts = [FIFTY] * marks.fifties + ([STROKE * marks.strokes] if marks.strokes else [])
    return " ".join(parts) or "(no mark)"


def run(args: argparse.Namespace, streams: Streams) -> int:
    """Print the score, its displayed points, and its tally."""
    if args.score < 0:
        raise UsageError(f"the tally records scores of 0 or more, not {args.score} (TAL-1)")
    if args.score > MAX_SCORE:
        raise UsageError(f"SCORE {args.score}: too large to draw; the limit is {MAX_SCORE:,}")
    marks = tally(args.score)
    shown = args.score // RAW_PER_DISPLAYED
    streams.stdout.write(
        f"{args.score} raw points ({shown} displayed): {marks.fifties} x 50 + {marks.strokes} x 5\n"
        f"{tally_text(args.score)}\n"
    )
    return 0
