"""Wrong engine: breaks SPN-3 - the branches of a spinner must be started in order, A then B.

How: ``open_slots`` keeps branch B closed until branch A is occupied, instead of opening both
branches once both line sides are occupied. The layout's tables are rebuilt from it.
"""

import sys
from collections.abc import Set

from fiveup.contract.notation import Slot, Tile
from fiveup.harness.server import serve
from fiveup.reference import layout
from fiveup.reference.engine import ReferenceEngine

_reference_open_slots = layout.open_slots


def open_slots(tile: Tile, occupied: Set[Slot]) -> tuple[Slot, ...]:
    """The reference's points without branch B while branch A is free."""
    return tuple(
        slot
        for slot in _reference_open_slots(tile, occupied)
        if slot is not Slot.BRANCH_B or Slot.BRANCH_A in occupied
    )


layout.open_slots = open_slots
layout._build_rule_tables()

if __name__ == "__main__":
    raise SystemExit(serve(ReferenceEngine(), sys.stdin, sys.stdout))
