"""Wrong engine: breaks PEN-3 - the penalty is subtracted in displayed points from a raw score.

How: the rounded pips are divided by 5 before they are subtracted (a unit mix-up): 10 pips cost
2 raw points instead of 10. The penalties reported per seat are still the rounded raw pips.
"""

import sys

from fiveup.harness.server import serve
from fiveup.reference.engine import ReferenceEngine
from fiveup.reference.round import Round, RoundEnd

_reference_finish = Round._finish


def _finish(self: Round, end: RoundEnd, winner: int | None) -> None:
    _reference_finish(self, end, winner)
    result = self.result
    assert result is not None
    for seat, penalty in enumerate(result.penalties):
        self._scores[self.side_of(seat)] += penalty - penalty // 5


Round._finish = _finish  # type: ignore[method-assign]

if __name__ == "__main__":
    raise SystemExit(serve(ReferenceEngine(), sys.stdin, sys.stdout))
