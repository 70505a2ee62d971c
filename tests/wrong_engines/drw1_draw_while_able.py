"""Wrong engine: breaks DRW-1 - a player who can place a tile may draw instead.

How: the check of a draw forgets to ask whether the player has a legal placement; only a pending
drawn tile (DRW-3) and an empty boneyard (DRW-2) refuse it.
"""

import sys

from fiveup.errors import IllegalMoveError
from fiveup.harness.server import serve
from fiveup.reference.engine import ReferenceEngine
from fiveup.reference.round import Round

_reference_check_draw = Round._check_draw


def _check_draw(self: Round) -> None:
    try:
        _reference_check_draw(self)
    except IllegalMoveError as error:
        if error.rule != "DRW-1":
            raise
        if not self.boneyard_size:
            raise IllegalMoveError("DRW-2", "the boneyard is empty: pass instead") from None


Round._check_draw = _check_draw  # type: ignore[method-assign]

if __name__ == "__main__":
    raise SystemExit(serve(ReferenceEngine(), sys.stdin, sys.stdout))
