"""Wrong engine: breaks PEN-1 - a blocked round ends without counting the remaining pips.

How: reading END-3 ("a blocked round has no winner and no final credit") as "no count at all",
a blocked round charges no penalty: the penalties are 0 and no score changes at the end.
Rounds ended by going out are counted as usual.
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
    if end is not RoundEnd.BLOCKED:
        return
    for seat, penalty in enumerate(result.penalties):
        self._scores[self.side_of(seat)] += penalty
    self._result = dataclasses.replace(result, penalties=(0,) * self.players)


Round._finish = _finish  # type: ignore[method-assign]

if __name__ == "__main__":
    raise SystemExit(serve(ReferenceEngine(), sys.stdin, sys.stdout))
