"""Wrong engine: breaks SET-4 - the last two boneyard tiles cannot be drawn.

How: as in games that keep a reserve, the last two tiles of the boneyard are set aside at the
deal. With two tiles left the boneyard counts as exhausted: a draw is refused (DRW-2), a player
who cannot play passes, and the round blocks. The boneyard size reported still includes them.
"""

import sys
from collections.abc import Sequence

from fiveup.contract.notation import Tile
from fiveup.harness.server import serve
from fiveup.reference.engine import ReferenceEngine
from fiveup.reference.round import Round

HELD_BACK = 2
_reference_init = Round.__init__


def __init__(
    self: Round,
    players: int,
    deck: Sequence[Tile],
    opener: int,
    scores: Sequence[int] | None = None,
) -> None:
    _reference_init(self, players, deck, opener, scores)
    del self._bone[:HELD_BACK]  # the list is reversed: its head is the end of the boneyard


def boneyard_size(self: Round) -> int:
    """The tiles left in the boneyard, the two held back included."""
    return len(self._bone) + HELD_BACK


Round.__init__ = __init__  # type: ignore[method-assign]
Round.boneyard_size = property(boneyard_size)  # type: ignore[assignment, method-assign]

if __name__ == "__main__":
    raise SystemExit(serve(ReferenceEngine(), sys.stdin, sys.stdout))
