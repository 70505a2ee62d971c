"""Wrong engine: breaks SPN-1 - only the first double of the round is a spinner.

How: a double placed when a double is already on the table is played as an ordinary tile in the
line: it keeps its line side B as its one free end and never opens branches (its branches are
marked as taken), and only the first double is listed among the spinners.
"""

import sys

from fiveup.contract.notation import Slot, Tile
from fiveup.harness.server import serve
from fiveup.reference import layout
from fiveup.reference.engine import ReferenceEngine
from fiveup.reference.layout import Layout, tile_code

_NO_BRANCHES = sum(1 << layout._SLOT_INDEX[slot] for slot in (Slot.BRANCH_A, Slot.BRANCH_B))
_reference_place = Layout._place


def _place(self: Layout, *args: int) -> int:
    total = _reference_place(self, *args)
    doubles = [tile for tile in self.tiles() if tile.is_double]
    if len(doubles) > 1 and doubles[-1] == self.tiles()[-1]:
        self._occupied[tile_code(doubles[-1])] |= _NO_BRANCHES
    return total


def spinners(self: Layout) -> list[Tile]:
    """The first double on the table, the only spinner."""
    return [tile for tile in self.tiles() if tile.is_double][:1]


# *args: the private signature is free to change; only the placement made matters here.
Layout._place = _place  # type: ignore[method-assign, assignment]
Layout.spinners = spinners  # type: ignore[method-assign]

if __name__ == "__main__":
    raise SystemExit(serve(ReferenceEngine(), sys.stdin, sys.stdout))
