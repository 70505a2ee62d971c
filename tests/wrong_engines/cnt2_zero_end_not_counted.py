"""Wrong engine: breaks CNT-2 - a free end of value zero is not a counted end.

How: ``contributions`` drops the ends whose value is 0 (a truthiness test on the value), so a
blank end no longer appears among the counted ends. Sums are unchanged; the list of counted ends
is not.

Built on the seam: ``replace(STANDARD, contributions=...)``.
"""

import sys
from collections.abc import Set
from dataclasses import replace

from fiveup.contract.notation import Slot, Tile
from fiveup.harness.server import serve
from fiveup.reference import STANDARD, ReferenceEngine


def contributions(tile: Tile, occupied: Set[Slot]) -> tuple[int, ...]:
    """The reference's counted ends without those of value zero."""
    return tuple(value for value in STANDARD.contributions(tile, occupied) if value)


ENGINE = ReferenceEngine(
    replace(STANDARD, contributions=contributions), name="wrong-cnt2_zero_end_not_counted"
)

if __name__ == "__main__":
    raise SystemExit(serve(ENGINE, sys.stdin, sys.stdout))
