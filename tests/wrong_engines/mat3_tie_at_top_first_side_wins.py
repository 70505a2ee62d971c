"""Wrong engine: breaks MAT-3 - a tie at the top at or above the target is won by the first side.

How: the winner is ``scores.index(max(scores))`` once the top score reaches the target, without
checking that no other side shares it; ``list.index`` quietly picks the lowest side number.
"""

import sys
from collections.abc import Sequence

from fiveup.harness.server import serve
from fiveup.reference import match
from fiveup.reference.engine import ReferenceEngine
from fiveup.reference.scoring import TARGET_RAW


def match_winner(scores: Sequence[int]) -> int | None:
    """The first side with the highest score once that score reaches the target."""
    top = max(scores)
    return list(scores).index(top) if top >= TARGET_RAW else None


match.match_winner = match_winner

if __name__ == "__main__":
    raise SystemExit(serve(ReferenceEngine(), sys.stdin, sys.stdout))
