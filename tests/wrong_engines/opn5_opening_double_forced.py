"""Wrong engine: breaks OPN-5 - an opener who holds a double must open with a double.

How: as in games where "the round opens with a double", the opening placement of a tile that is
not a double is refused when the opener holds one; the opening tile is otherwise free.
"""

import sys

from fiveup.errors import IllegalMoveError
from fiveup.harness.server import serve
from fiveup.reference.engine import ReferenceEngine
from fiveup.reference.layout import placement_of
from fiveup.reference.round import Round

_reference_play = Round._play


def _play(self: Round, key: int) -> None:
    turn = self.turn
    if turn is not None and self.layout.is_empty:
        tile = placement_of(key).tile
        if not tile.is_double and any(held.is_double for held in self.hand(turn)):
            raise IllegalMoveError("OPN-5", f"seat {turn} holds a double and must open with it")
    _reference_play(self, key)


Round._play = _play  # type: ignore[method-assign]

if __name__ == "__main__":
    raise SystemExit(serve(ReferenceEngine(), sys.stdin, sys.stdout))
