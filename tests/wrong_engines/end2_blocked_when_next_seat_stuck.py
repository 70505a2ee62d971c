"""Wrong engine: breaks END-2 - the round is blocked as soon as the seat to act is stuck.

How: the block test asks only whether the seat whose turn it is can place a tile, not whether
any seat can: with an empty boneyard, the round ends blocked while another player could still
play.
"""

import sys

from fiveup.harness.server import serve
from fiveup.reference.engine import ReferenceEngine
from fiveup.reference.round import Round


def _anyone_can_place(self: Round) -> bool:
    return any(self.layout.can_place(tile) for tile in self.hand(self._turn))


Round._anyone_can_place = _anyone_can_place  # type: ignore[method-assign]

if __name__ == "__main__":
    raise SystemExit(serve(ReferenceEngine(), sys.stdin, sys.stdout))
