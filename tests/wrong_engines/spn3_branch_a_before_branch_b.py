"""Wrong engine: breaks SPN-3 - the branches of a spinner must be started in order, A then B.

How: ``open_slots`` keeps branch B closed until branch A is occupied, instead of opening both
branches once both line sides are occupied.

Built on the seam: ``replace(STANDARD, open_slots=...)``.
"""

import sys
from collections.abc import Set
from dataclasses import replace

from fiveup.contract.notation import Slot, Tile
from fiveup.harness.server import serve
from fiveup.reference import STANDARD, ReferenceEngine


def open_slots(tile: Tile, occupied: Set[Slot]) -> tuple[Slot, ...]:
    """The reference's points without branch B while branch A is free."""
    return tuple(
        slot
        for slot in STANDARD.open_slots(tile, occupied)
        if slot is not Slot.BRANCH_B or Slot.BRANCH_A in occupied
    )


ENGINE = ReferenceEngine(
    replace(STANDARD, open_slots=open_slots), name="wrong-spn3_branch_a_before_branch_b"
)

if __name__ == "__main__":
    raise SystemExit(serve(ENGINE, sys.stdin, sys.stdout))
