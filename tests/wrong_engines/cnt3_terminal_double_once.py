"""Wrong engine: breaks CNT-3 - a terminal double counts one half (d) instead of both (2d).

How: ``contributions`` counts a double with fewer than two line sides occupied as its value
once, like the free end of a non-double.

Built on the seam: ``replace(STANDARD, contributions=...)``.
"""

import sys
from collections.abc import Set
from dataclasses import replace

from fiveup.contract.notation import Slot, Tile
from fiveup.harness.server import serve
from fiveup.reference import STANDARD, ReferenceEngine


def contributions(tile: Tile, occupied: Set[Slot]) -> tuple[int, ...]:
    """The reference's counted ends, except that a terminal double counts its value once."""
    counted = STANDARD.contributions(tile, occupied)
    if tile.is_double and counted:
        return (tile.low,)
    return counted


ENGINE = ReferenceEngine(
    replace(STANDARD, contributions=contributions), name="wrong-cnt3_terminal_double_once"
)

if __name__ == "__main__":
    raise SystemExit(serve(ENGINE, sys.stdin, sys.stdout))
