"""Wrong engine: breaks OPN-3 - the next round is opened by the seat after this round's opener.

How: the opening passes clockwise from round to round ("the deal passes to the left") instead of
going to the player who went out; after a block a neutral draw is still called for.

Built on the seam: ``replace(STANDARD, next_opener=...)``.
"""

import sys
from dataclasses import replace

from fiveup.harness.server import serve
from fiveup.reference import STANDARD, ReferenceEngine


def rotating_opener(winner: int | None, opener: int, players: int) -> int | None:
    """The next seat after this round's opener, after going out; a neutral draw after a block."""
    return None if winner is None else (opener + 1) % players


ENGINE = ReferenceEngine(
    replace(STANDARD, next_opener=rotating_opener), name="wrong-opn3_next_opener_rotates"
)

if __name__ == "__main__":
    raise SystemExit(serve(ENGINE, sys.stdin, sys.stdout))
