"""Wrong engine: breaks OPN-3 - the next round is opened by the seat after this round's opener.

How: the opening passes clockwise from round to round ("the deal passes to the left") instead of
going to the player who went out; after a block a neutral draw is still called for.
"""

import dataclasses
import sys

from fiveup.harness.server import serve
from fiveup.reference.engine import ReferenceEngine
from fiveup.reference.round import Round, RoundEnd

_reference_finish = Round._finish


def _finish(self: Round, end: RoundEnd, winner: int | None) -> None:
    _reference_finish(self, end, winner)
    result = self.result
    assert result is not None
    if end is RoundEnd.OUT:
        rotated = (self.opener + 1) % self.players
        self._result = dataclasses.replace(result, next_opener=rotated)


Round._finish = _finish  # type: ignore[method-assign]

if __name__ == "__main__":
    raise SystemExit(serve(ReferenceEngine(), sys.stdin, sys.stdout))
