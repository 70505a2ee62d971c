"""Wrong engine: breaks SPN-4 - a double placed in a branch is not a spinner.

How: a double placed anywhere along a branch of a spinner (its chain of tiles back to the opening
passes through a branch) is played as an ordinary tile: it keeps its line side B as its one free
end and never opens branches of its own (they are marked as taken), and it is not listed among
the spinners. Doubles in the line still spin.
"""

import sys

from fiveup.contract.notation import Point, Slot, Tile
from fiveup.harness.server import serve
from fiveup.reference import layout
from fiveup.reference.engine import ReferenceEngine
from fiveup.reference.layout import Layout, tile_code

_NO_BRANCHES = sum(1 << layout._SLOT_INDEX[slot] for slot in (Slot.BRANCH_A, Slot.BRANCH_B))
_reference_place = Layout._place


def _in_branch(self: Layout, point: Point | None) -> bool:
    """True when a tile joined at ``point`` lies in a branch of some spinner."""
    joined_at = {placement.tile: placement.target for placement in self.placements()}
    while point is not None:
        if point.slot.is_branch:
            return True
        point = joined_at[point.tile]
    return False


def _place(self: Layout, *args: int) -> int:
    total = _reference_place(self, *args)
    placement = self.placements()[-1]
    if placement.tile.is_double and _in_branch(self, placement.target):
        self._occupied[tile_code(placement.tile)] |= _NO_BRANCHES
    return total


def spinners(self: Layout) -> list[Tile]:
    """The doubles on the table except those placed in a branch."""
    return [
        placement.tile
        for placement in self.placements()
        if placement.tile.is_double and not _in_branch(self, placement.target)
    ]


# *args: the private signature is free to change; only the placement made matters here.
Layout._place = _place  # type: ignore[method-assign, assignment]
Layout.spinners = spinners  # type: ignore[method-assign]

if __name__ == "__main__":
    raise SystemExit(serve(ReferenceEngine(), sys.stdin, sys.stdout))
