"""Wrong engine: breaks MAT-4 - only a score of exactly 61 displayed points wins.

How: the winner must have exactly the target (305 raw points), as in "play to exactly 61"
variants; a side that overshoots it is not declared the winner and the match goes on.
"""

import sys
from collections.abc import Sequence

from fiveup.harness.server import serve
from fiveup.reference import match
from fiveup.reference.engine import ReferenceEngine
from fiveup.reference.scoring import TARGET_RAW

_reference_match_winner = match.match_winner


def match_winner(scores: Sequence[int]) -> int | None:
    """The reference's winner, but only when it sits exactly on the target."""
    winner = _reference_match_winner(scores)
    return winner if winner is not None and scores[winner] == TARGET_RAW else None


match.match_winner = match_winner

if __name__ == "__main__":
    raise SystemExit(serve(ReferenceEngine(), sys.stdin, sys.stdout))
