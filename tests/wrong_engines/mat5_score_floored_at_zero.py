"""Wrong engine: breaks MAT-5 - a score never goes below zero.

How: after the penalties of a round are subtracted, a negative score is raised to 0 (the
penalty is cut short), as engines that keep scores unsigned do.
"""

import sys

from fiveup.harness.server import serve
from fiveup.reference.engine import ReferenceEngine
from fiveup.reference.round import Round, RoundEnd

_reference_finish = Round._finish


def _finish(self: Round, end: RoundEnd, winner: int | None) -> None:
    _reference_finish(self, end, winner)
    self._scores[:] = [max(score, 0) for score in self._scores]


Round._finish = _finish  # type: ignore[method-assign]

if __name__ == "__main__":
    raise SystemExit(serve(ReferenceEngine(), sys.stdin, sys.stdout))
