"""Wrong engine: breaks SCR-1 - the credit of the last tile of a hand is never added.

How: the engine goes to the end-of-round count as soon as a hand is empty, before it adds the
credit of the placement that emptied it: the event still shows the credit, the score lacks it.
"""

import sys

from fiveup.harness.server import serve
from fiveup.reference.engine import ReferenceEngine
from fiveup.reference.round import Played, Round

_reference_play = Round._play


def _play(self: Round, key: int) -> None:
    _reference_play(self, key)
    result = self.result
    if result is not None and result.winner is not None:
        played = next(event for event in reversed(self.events) if isinstance(event, Played))
        self._scores[self.side_of(played.seat)] -= played.credit


Round._play = _play  # type: ignore[method-assign]

if __name__ == "__main__":
    raise SystemExit(serve(ReferenceEngine(), sys.stdin, sys.stdout))
