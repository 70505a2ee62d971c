"""Wrong engine: breaks DRW-3 and DRW-4 - a drawn playable tile may wait in the hand.

How: a draw never marks the drawn tile as pending. The player may then play any other tile
(DRW-4), and a further draw or a pass is refused, if at all, for the wrong reason (DRW-1 or DRW-5
instead of DRW-3).
"""

import sys

from fiveup.harness.server import serve
from fiveup.reference.engine import ReferenceEngine
from fiveup.reference.round import Round

_reference_draw = Round._draw


def _draw(self: Round) -> None:
    _reference_draw(self)
    self._pending = -1  # no tile pending


Round._draw = _draw  # type: ignore[method-assign]

if __name__ == "__main__":
    raise SystemExit(serve(ReferenceEngine(), sys.stdin, sys.stdout))
