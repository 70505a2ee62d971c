"""Wrong engine: breaks CNT-4 - an internal double still counts both halves.

How: ``contributions`` counts every double as ``2 * value`` however many of its line sides are
occupied, as if a double were always terminal.

Built on the seam: ``replace(STANDARD, contributions=...)``.
"""

import sys
from collections.abc import Set
from dataclasses import replace

from fiveup.contract.notation import Slot, Tile
from fiveup.harness.server import serve
from fiveup.reference import STANDARD, ReferenceEngine


def contributions(tile: Tile, occupied: Set[Slot]) -> tuple[int, ...]:
    """The reference's counted ends, except that a double always counts both halves."""
    if tile.is_double:
        return (2 * tile.low,)
    return STANDARD.contributions(tile, occupied)


ENGINE = ReferenceEngine(
    replace(STANDARD, contributions=contributions), name="wrong-cnt4_internal_double_counts"
)

if __name__ == "__main__":
    raise SystemExit(serve(ENGINE, sys.stdin, sys.stdout))
