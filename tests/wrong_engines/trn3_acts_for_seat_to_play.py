"""Wrong engine: breaks TRN-3 - an action by another seat is carried out for the seat to act.

How: like an engine whose moves carry no seat, the seat named in an action is ignored while the
round goes on: the action is applied for the seat whose turn it is instead of being refused.
"""

import sys

from fiveup.contract.notation import Action
from fiveup.harness.server import serve
from fiveup.reference.engine import ReferenceEngine
from fiveup.reference.round import Round

_reference_apply = Round.apply


def apply(self: Round, action: Action) -> None:
    """Apply ``action`` as if the seat to act had taken it."""
    turn = self.turn
    if turn is not None and action.seat != turn:
        action = Action(turn, action.verb, action.placement)
    _reference_apply(self, action)


Round.apply = apply  # type: ignore[method-assign]

if __name__ == "__main__":
    raise SystemExit(serve(ReferenceEngine(), sys.stdin, sys.stdout))
