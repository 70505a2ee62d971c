"""Wrong engine: breaks CNT-1 - the sum is taken over the available connection points.

How: ``contributions`` counts the value of every available connection point of a tile (its
``open_slots``) instead of its counted ends: an open line side or branch of a spinner adds the
double's value, a terminal double adds one half per open point. The layout's tables are rebuilt.
"""

import sys
from collections.abc import Set

from fiveup.contract.notation import Point, Slot, Tile
from fiveup.harness.server import serve
from fiveup.reference import layout
from fiveup.reference.engine import ReferenceEngine


def contributions(tile: Tile, occupied: Set[Slot]) -> tuple[int, ...]:
    """The values of the tile's available connection points."""
    return tuple(Point(tile, slot).value for slot in layout.open_slots(tile, occupied))


layout.contributions = contributions
layout._build_rule_tables()

if __name__ == "__main__":
    raise SystemExit(serve(ReferenceEngine(), sys.stdin, sys.stdout))
