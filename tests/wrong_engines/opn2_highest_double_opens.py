"""Wrong engine: breaks OPN-2 - the holder of the highest double opens, not the given opener.

How: after the deal the round looks for the highest double in the hands and, when one was dealt,
its holder opens and takes the first turn; the given opener only opens when nobody holds a double.

Built on the seam: ``replace(STANDARD, opener=...)``.
"""

import sys
from collections.abc import Sequence
from dataclasses import replace

from fiveup.contract.notation import Tile
from fiveup.harness.server import serve
from fiveup.reference import STANDARD, ReferenceEngine


def highest_double_opens(opener: int, hands: Sequence[Sequence[Tile]]) -> int:
    """The holder of the highest double dealt, else the seat fixed for the round."""
    doubles = [
        (tile.low, seat) for seat, hand in enumerate(hands) for tile in hand if tile.is_double
    ]
    return max(doubles)[1] if doubles else opener


ENGINE = ReferenceEngine(
    replace(STANDARD, opener=highest_double_opens), name="wrong-opn2_highest_double_opens"
)

if __name__ == "__main__":
    raise SystemExit(serve(ENGINE, sys.stdin, sys.stdout))
