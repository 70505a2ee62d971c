"""Wrong engine: breaks PLY-3 - the four-player partnerships are neighbours, not opposite.

How: the side of seat ``s`` is computed as ``s // 2`` instead of ``s % 2``: seats 0 and 1 form
side 0, seats 2 and 3 side 1.

Built on the seam: ``replace(STANDARD, side_of=...)``.
"""

import sys
from dataclasses import replace

from fiveup.harness.server import serve
from fiveup.reference import STANDARD, ReferenceEngine


def side_by_side(seat: int, players: int) -> int:
    """Seats 0 and 1 form side 0, seats 2 and 3 side 1 (with two or three players, the seat)."""
    return seat // 2 if players == 4 else seat


ENGINE = ReferenceEngine(
    replace(STANDARD, side_of=side_by_side), name="wrong-ply3_partners_side_by_side"
)

if __name__ == "__main__":
    raise SystemExit(serve(ENGINE, sys.stdin, sys.stdout))
