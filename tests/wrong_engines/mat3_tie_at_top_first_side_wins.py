"""Wrong engine: breaks MAT-3 - a tie at the top at or above the target is won by the first side.

How: the winner is ``scores.index(max(scores))`` once the top score reaches the target, without
checking that no other side shares it; ``list.index`` quietly picks the lowest side number.

Built on the seam: ``replace(STANDARD, match_winner=...)``.
"""

import sys
from collections.abc import Sequence
from dataclasses import replace

from fiveup.harness.server import serve
from fiveup.reference import STANDARD, ReferenceEngine


def match_winner(scores: Sequence[int], target: int) -> int | None:
    """The first side with the highest score once that score reaches the target."""
    top = max(scores)
    return list(scores).index(top) if top >= target else None


ENGINE = ReferenceEngine(
    replace(STANDARD, match_winner=match_winner), name="wrong-mat3_tie_at_top_first_side_wins"
)

if __name__ == "__main__":
    raise SystemExit(serve(ENGINE, sys.stdin, sys.stdout))
