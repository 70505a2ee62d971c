"""Wrong engine: breaks MAT-1 - the target is checked in the middle of a round.

How: the match declares its winner as soon as a placement's credit lifts a side to the target
(305 raw points), uniquely highest, before the round is finished and its penalties subtracted;
the match is then over, whatever the rest of the round brings.
"""

import sys

from fiveup.harness.server import serve
from fiveup.reference import match
from fiveup.reference.engine import ReferenceEngine
from fiveup.reference.match import Match, match_winner
from fiveup.reference.round import Round
from fiveup.reference.scoring import TARGET_RAW


class EagerRound(Round):
    """A round that remembers the scores right after the first placement reaching the target."""

    reached: tuple[int, ...] | None = None

    def _play(self, key: int) -> None:
        super()._play(key)
        if self.reached is None and max(self.scores) >= TARGET_RAW:
            self.reached = self.scores


_reference_settle = Match._settle


def _settle(self: Match) -> None:
    for round_ in self._rounds:
        if self._winner is None and isinstance(round_, EagerRound) and round_.reached:
            self._winner = match_winner(round_.reached)
    _reference_settle(self)


vars(match)["Round"] = EagerRound
Match._settle = _settle  # type: ignore[method-assign]

if __name__ == "__main__":
    raise SystemExit(serve(ReferenceEngine(), sys.stdin, sys.stdout))
