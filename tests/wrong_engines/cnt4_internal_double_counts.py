"""Wrong engine: breaks CNT-4 - an internal double still counts both halves.

How: ``contributions`` counts every double as ``2 * value`` however many of its line sides are
occupied, as if a double were always terminal. The layout's tables are rebuilt from it.
"""

import sys
from collections.abc import Set

from fiveup.contract.notation import Slot, Tile
from fiveup.harness.server import serve
from fiveup.reference import layout
from fiveup.reference.engine import ReferenceEngine

_reference_contributions = layout.contributions


def contributions(tile: Tile, occupied: Set[Slot]) -> tuple[int, ...]:
    """The reference's counted ends, except that a double always counts both halves."""
    if tile.is_double:
        return (2 * tile.low,)
    return _reference_contributions(tile, occupied)


layout.contributions = contributions
layout._build_rule_tables()

if __name__ == "__main__":
    raise SystemExit(serve(ReferenceEngine(), sys.stdin, sys.stdout))
