"""Wrong engine: breaks DRW-5 - a player who cannot play may pass while the boneyard has tiles.

How: the check of a pass only asks whether the player can place a tile; it forgets that a
player who cannot must draw while the boneyard is not empty.
"""

import sys

from fiveup.errors import IllegalMoveError
from fiveup.harness.server import serve
from fiveup.reference.engine import ReferenceEngine
from fiveup.reference.round import Round

_reference_check_pass = Round._check_pass


def _check_pass(self: Round) -> None:
    try:
        _reference_check_pass(self)
    except IllegalMoveError as error:
        turn = self.turn
        if error.rule != "DRW-5" or turn is None:
            raise
        if any(self.layout.can_place(tile) for tile in self.hand(turn)):
            raise


Round._check_pass = _check_pass  # type: ignore[method-assign]

if __name__ == "__main__":
    raise SystemExit(serve(ReferenceEngine(), sys.stdin, sys.stdout))
