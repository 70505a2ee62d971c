"""Wrong engine: breaks CNT-5 - an unstarted branch of an internal double counts its value.

How: ``contributions`` gives a double whose line sides are both occupied one counted end of the
double's value for each branch still unstarted (the "spinner counts its open sides" habit of
neighbouring games), instead of nothing.

Built on the seam: ``replace(STANDARD, contributions=...)``.
"""

import sys
from collections.abc import Set
from dataclasses import replace

from fiveup.contract.notation import Slot, Tile
from fiveup.harness.server import serve
from fiveup.reference import STANDARD, ReferenceEngine


def contributions(tile: Tile, occupied: Set[Slot]) -> tuple[int, ...]:
    """The reference's counted ends, plus the double's value for every unstarted branch."""
    counted = STANDARD.contributions(tile, occupied)
    if tile.is_double and Slot.LINE_A in occupied and Slot.LINE_B in occupied:
        branches = (Slot.BRANCH_A, Slot.BRANCH_B)
        return counted + tuple(tile.low for slot in branches if slot not in occupied)
    return counted


ENGINE = ReferenceEngine(
    replace(STANDARD, contributions=contributions), name="wrong-cnt5_unstarted_branch_counts"
)

if __name__ == "__main__":
    raise SystemExit(serve(ENGINE, sys.stdin, sys.stdout))
