"""Wrong engine: breaks SPN-4 - a double placed in a branch is not a spinner.

How: a double placed anywhere along a branch of a spinner (its chain of tiles back to the opening
passes through a branch) is played as an ordinary tile: it keeps its line side B as its one free
end and never opens branches of its own (they are marked as taken), and it is not listed among
the spinners. Doubles in the line still spin.

Built on the seam: ``replace(STANDARD, spins=...)``.
"""

import sys
from dataclasses import replace

from fiveup.contract.notation import Placement, Point
from fiveup.harness.server import serve
from fiveup.reference import STANDARD, ReferenceEngine
from fiveup.reference.rules import LayoutView


def not_in_a_branch(layout: LayoutView, placement: Placement) -> bool:
    """A double spins unless its chain of tiles back to the opening passes through a branch."""
    joined_at = {p.tile: p.target for p in layout.placements()}
    point: Point | None = placement.target
    while point is not None:
        if point.slot.is_branch:
            return False
        point = joined_at[point.tile]
    return True


ENGINE = ReferenceEngine(
    replace(STANDARD, spins=not_in_a_branch), name="wrong-spn4_double_in_branch_not_spinner"
)

if __name__ == "__main__":
    raise SystemExit(serve(ENGINE, sys.stdin, sys.stdout))
