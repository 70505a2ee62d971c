"""Wrong engine: breaks SPN-2 - a spinner's branches open once one line side is occupied.

How: ``open_slots`` opens both branches of a double as soon as either line side is occupied, so a
joined double (which occupies its line side A) offers its branches at once, before line side B.

Built on the seam: ``replace(STANDARD, open_slots=...)``.
"""

import sys
from collections.abc import Set
from dataclasses import replace

from fiveup.contract.notation import DOUBLE_SLOTS, Slot, Tile
from fiveup.harness.server import serve
from fiveup.reference import STANDARD, ReferenceEngine


def open_slots(tile: Tile, occupied: Set[Slot]) -> tuple[Slot, ...]:
    """The reference's points, except that one occupied line side opens the branches."""
    if not tile.is_double:
        return STANDARD.open_slots(tile, occupied)
    started = Slot.LINE_A in occupied or Slot.LINE_B in occupied
    return tuple(
        slot for slot in DOUBLE_SLOTS if slot not in occupied and (slot.is_line or started)
    )


ENGINE = ReferenceEngine(
    replace(STANDARD, open_slots=open_slots), name="wrong-spn2_branch_after_one_line_side"
)

if __name__ == "__main__":
    raise SystemExit(serve(ENGINE, sys.stdin, sys.stdout))
