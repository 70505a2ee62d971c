"""Wrong engine: breaks PEN-4 - partners' pips are added up before rounding.

How: a partnership's penalty is ``rounded_penalty(sum of both partners' pips)`` instead of the sum
of each partner's rounded pips: partners with 3 pips each lose 5 raw points, not 10. Both the
engine's ``side_penalty`` request and the four-player end of round count do so; the penalties
reported per seat are still each player's own rounded pips.
"""

import sys
from collections.abc import Sequence

from fiveup.harness.server import serve
from fiveup.reference import engine, scoring
from fiveup.reference.engine import ReferenceEngine
from fiveup.reference.round import Round, RoundEnd

_reference_finish = Round._finish


def side_penalty(pips: Sequence[int]) -> int:
    """The side's pips merged, then rounded once."""
    return scoring.rounded_penalty(sum(pips))


def _finish(self: Round, end: RoundEnd, winner: int | None) -> None:
    _reference_finish(self, end, winner)
    result = self.result
    if self.players != 4 or result is None:
        return
    for side in range(self.sides):
        seats = [seat for seat in range(self.players) if self.side_of(seat) == side]
        self._scores[side] += sum(result.penalties[seat] for seat in seats)
        self._scores[side] -= side_penalty([result.pips[seat] for seat in seats])


for module in (scoring, engine):
    vars(module)["side_penalty"] = side_penalty
Round._finish = _finish  # type: ignore[method-assign]

if __name__ == "__main__":
    raise SystemExit(serve(ReferenceEngine(), sys.stdin, sys.stdout))
