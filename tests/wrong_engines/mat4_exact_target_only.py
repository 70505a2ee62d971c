"""Wrong engine: breaks MAT-4 - only a score of exactly 61 displayed points wins.

How: the winner must have exactly the target (305 raw points), as in "play to exactly 61"
variants; a side that overshoots it is not declared the winner and the match goes on.

Built on the seam: ``replace(STANDARD, match_winner=...)``.
"""

import sys
from collections.abc import Sequence
from dataclasses import replace

from fiveup.harness.server import serve
from fiveup.reference import STANDARD, ReferenceEngine


def match_winner(scores: Sequence[int], target: int) -> int | None:
    """The reference's winner, but only when it sits exactly on the target."""
    winner = STANDARD.match_winner(scores, target)
    return winner if winner is not None and scores[winner] == target else None


ENGINE = ReferenceEngine(
    replace(STANDARD, match_winner=match_winner), name="wrong-mat4_exact_target_only"
)

if __name__ == "__main__":
    raise SystemExit(serve(ENGINE, sys.stdin, sys.stdout))
