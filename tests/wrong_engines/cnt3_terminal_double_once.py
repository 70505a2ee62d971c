"""Wrong engine: breaks CNT-3 - a terminal double counts one half (d) instead of both (2d).

How: ``contributions`` counts a double with fewer than two line sides occupied as its value
once, like the free end of a non-double. The layout's tables are rebuilt from it.
"""

import sys
from collections.abc import Set

from fiveup.contract.notation import Slot, Tile
from fiveup.harness.server import serve
from fiveup.reference import layout
from fiveup.reference.engine import ReferenceEngine

_reference_contributions = layout.contributions


def contributions(tile: Tile, occupied: Set[Slot]) -> tuple[int, ...]:
    """The reference's counted ends, except that a terminal double counts its value once."""
    counted = _reference_contributions(tile, occupied)
    if tile.is_double and counted:
        return (tile.low,)
    return counted


layout.contributions = contributions
layout._build_rule_tables()

if __name__ == "__main__":
    raise SystemExit(serve(ReferenceEngine(), sys.stdin, sys.stdout))
