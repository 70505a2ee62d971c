"""Wrong engine: breaks TRN-2 - a draw that gives no playable tile ends the player's turn.

How: as in "draw one and pass" games, after a draw the turn passes to the next seat unless the
drawn tile can be placed (then it is pending and its drawer places it, as DRW-3 says).
"""

import sys

from fiveup.harness.server import serve
from fiveup.reference.engine import ReferenceEngine
from fiveup.reference.round import Round

_reference_draw = Round._draw


def _draw(self: Round) -> None:
    _reference_draw(self)
    if self.pending is None and not self.over:
        self._turn = (self._turn + 1) % self.players


Round._draw = _draw  # type: ignore[method-assign]

if __name__ == "__main__":
    raise SystemExit(serve(ReferenceEngine(), sys.stdin, sys.stdout))
