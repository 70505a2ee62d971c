"""Wrong engine: breaks OPN-2 - the holder of the highest double opens, not the given opener.

How: after the deal the round looks for the highest double in the hands and, when one was dealt,
its holder opens and takes the first turn; the given opener only opens when nobody holds a double.
"""

import sys
from collections.abc import Sequence

from fiveup.contract.notation import Tile
from fiveup.harness.server import serve
from fiveup.reference.engine import ReferenceEngine
from fiveup.reference.round import Round

_reference_init = Round.__init__


def __init__(
    self: Round,
    players: int,
    deck: Sequence[Tile],
    opener: int,
    scores: Sequence[int] | None = None,
) -> None:
    _reference_init(self, players, deck, opener, scores)
    doubles = [
        (tile.low, seat) for seat, hand in enumerate(self.hands) for tile in hand if tile.is_double
    ]
    if doubles:
        self._opener = self._turn = max(doubles)[1]


Round.__init__ = __init__  # type: ignore[method-assign]

if __name__ == "__main__":
    raise SystemExit(serve(ReferenceEngine(), sys.stdin, sys.stdout))
