"""Wrong engine: breaks CNT-5 - an unstarted branch of an internal double counts its value.

How: ``contributions`` gives a double whose line sides are both occupied one counted end of the
double's value for each branch still unstarted (the "spinner counts its open sides" habit of
neighbouring games), instead of nothing. The layout's tables are rebuilt from the patched function.
"""

import sys
from collections.abc import Set

from fiveup.contract.notation import Slot, Tile
from fiveup.harness.server import serve
from fiveup.reference import layout
from fiveup.reference.engine import ReferenceEngine

_reference_contributions = layout.contributions


def contributions(tile: Tile, occupied: Set[Slot]) -> tuple[int, ...]:
    """The reference's counted ends, plus the double's value for every unstarted branch."""
    counted = _reference_contributions(tile, occupied)
    if tile.is_double and Slot.LINE_A in occupied and Slot.LINE_B in occupied:
        branches = (Slot.BRANCH_A, Slot.BRANCH_B)
        return counted + tuple(tile.low for slot in branches if slot not in occupied)
    return counted


layout.contributions = contributions
layout._build_rule_tables()

if __name__ == "__main__":
    raise SystemExit(serve(ReferenceEngine(), sys.stdin, sys.stdout))
