"""Wrong engine: breaks SPN-1 - only the first double of the round is a spinner.

How: a double placed when a double is already on the table is played as an ordinary tile in the
line: it keeps its line side B as its one free end and never opens branches (its branches are
marked as taken), and only the first double is listed among the spinners.

Built on the seam: ``replace(STANDARD, spins=...)``.
"""

import sys
from dataclasses import replace

from fiveup.contract.notation import Placement
from fiveup.harness.server import serve
from fiveup.reference import STANDARD, ReferenceEngine
from fiveup.reference.rules import LayoutView


def only_first_double_spins(layout: LayoutView, placement: Placement) -> bool:
    """A double spins only when no other double is on the table."""
    return not any(p.tile.is_double and p != placement for p in layout.placements())


ENGINE = ReferenceEngine(
    replace(STANDARD, spins=only_first_double_spins), name="wrong-spn1_only_first_double_spins"
)

if __name__ == "__main__":
    raise SystemExit(serve(ENGINE, sys.stdin, sys.stdout))
