"""Wrong engine: breaks CNT-2 - a free end of value zero is not a counted end.

How: ``contributions`` drops the ends whose value is 0 (a truthiness test on the value), so a
blank end no longer appears among the counted ends. Sums are unchanged; the list of counted ends
is not. The layout's tables are rebuilt from it.
"""

import sys
from collections.abc import Set

from fiveup.contract.notation import Slot, Tile
from fiveup.harness.server import serve
from fiveup.reference import layout
from fiveup.reference.engine import ReferenceEngine

_reference_contributions = layout.contributions


def contributions(tile: Tile, occupied: Set[Slot]) -> tuple[int, ...]:
    """The reference's counted ends without those of value zero."""
    return tuple(value for value in _reference_contributions(tile, occupied) if value)


layout.contributions = contributions
layout._build_rule_tables()

if __name__ == "__main__":
    raise SystemExit(serve(ReferenceEngine(), sys.stdin, sys.stdout))
