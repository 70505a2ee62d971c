"""Wrong engine: breaks END-1 - a last tile that also leaves nobody able to play ends in a block.

How: the end of the round tests for a block before it tests for going out, so when the last tile
of a hand is placed with the boneyard empty and no other seat able to play, the round is recorded
as blocked, with no winner and a neutral draw for the next opener.
"""

import sys

from fiveup.harness.server import serve
from fiveup.reference.engine import ReferenceEngine
from fiveup.reference.round import Round, RoundEnd

_reference_finish = Round._finish


def _finish(self: Round, end: RoundEnd, winner: int | None) -> None:
    stuck = not any(self.layout.can_place(tile) for hand in self.hands for tile in hand)
    if end is RoundEnd.OUT and not self.boneyard_size and stuck:
        end, winner = RoundEnd.BLOCKED, None
    _reference_finish(self, end, winner)


Round._finish = _finish  # type: ignore[method-assign]

if __name__ == "__main__":
    raise SystemExit(serve(ReferenceEngine(), sys.stdin, sys.stdout))
