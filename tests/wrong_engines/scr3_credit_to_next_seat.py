"""Wrong engine: breaks SCR-3 - a placement's credit goes to the side of the next seat.

How: the credit is added after the turn has moved on, to the side of the seat after the placer
(an ordering slip): with two or four players the opponents score the placer's points.
"""

import sys

from fiveup.harness.server import serve
from fiveup.reference.engine import ReferenceEngine
from fiveup.reference.round import Played, Round

_reference_play = Round._play


def _play(self: Round, key: int) -> None:
    _reference_play(self, key)
    played = next(event for event in reversed(self.events) if isinstance(event, Played))
    if played.credit:
        self._scores[self.side_of(played.seat)] -= played.credit
        self._scores[self.side_of((played.seat + 1) % self.players)] += played.credit


Round._play = _play  # type: ignore[method-assign]

if __name__ == "__main__":
    raise SystemExit(serve(ReferenceEngine(), sys.stdin, sys.stdout))
