"""Wrong engine: breaks DRW-2 - a draw from the empty boneyard is taken as a pass.

How: instead of refusing a draw when the boneyard is empty, the engine quietly turns it into a
pass for a player who cannot play ("nothing to draw, so pass"), and the turn moves on.
"""

import sys

from fiveup.errors import IllegalMoveError
from fiveup.harness.server import serve
from fiveup.reference.engine import ReferenceEngine
from fiveup.reference.round import Round

_reference_draw = Round._draw


def _draw(self: Round) -> None:
    try:
        _reference_draw(self)
    except IllegalMoveError as error:
        if error.rule != "DRW-2":
            raise
        self._pass()


Round._draw = _draw  # type: ignore[method-assign]

if __name__ == "__main__":
    raise SystemExit(serve(ReferenceEngine(), sys.stdin, sys.stdout))
