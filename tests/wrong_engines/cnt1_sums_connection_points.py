"""Wrong engine: breaks CNT-1 - the sum is taken over the available connection points.

How: ``contributions`` counts the value of every available connection point of a tile (its
``open_slots``) instead of its counted ends: an open line side or branch of a spinner adds the
double's value, a terminal double adds one half per open point.

Built on the seam: ``replace(STANDARD, contributions=...)``.
"""

import sys
from collections.abc import Set
from dataclasses import replace

from fiveup.contract.notation import Point, Slot, Tile
from fiveup.harness.server import serve
from fiveup.reference import STANDARD, ReferenceEngine
from fiveup.reference.rules import open_slots


def contributions(tile: Tile, occupied: Set[Slot]) -> tuple[int, ...]:
    """The values of the tile's available connection points."""
    return tuple(Point(tile, slot).value for slot in open_slots(tile, occupied))


ENGINE = ReferenceEngine(
    replace(STANDARD, contributions=contributions), name="wrong-cnt1_sums_connection_points"
)

if __name__ == "__main__":
    raise SystemExit(serve(ENGINE, sys.stdin, sys.stdout))
