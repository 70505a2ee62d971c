"""Wrong engine: breaks END-4 - the player who goes out is awarded the opponents' pips.

How: All Fives style, when a player goes out their side is credited with the other sides' rounded
remaining pips, on top of the usual penalties (which every side still loses).
"""

import sys

from fiveup.harness.server import serve
from fiveup.reference.engine import ReferenceEngine
from fiveup.reference.round import Round, RoundEnd

_reference_finish = Round._finish


def _finish(self: Round, end: RoundEnd, winner: int | None) -> None:
    _reference_finish(self, end, winner)
    result = self.result
    if result is None or winner is None:
        return
    side = self.side_of(winner)
    self._scores[side] += sum(
        penalty for seat, penalty in enumerate(result.penalties) if self.side_of(seat) != side
    )


Round._finish = _finish  # type: ignore[method-assign]

if __name__ == "__main__":
    raise SystemExit(serve(ReferenceEngine(), sys.stdin, sys.stdout))
