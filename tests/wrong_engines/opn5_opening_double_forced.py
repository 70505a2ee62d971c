"""Wrong engine: breaks OPN-5 - an opener who holds a double must open with a double.

How: as in games where "the round opens with a double", the opening placement of a tile that is
not a double is refused when the opener holds one; the opening tile is otherwise free.

Built on the seam: ``replace(STANDARD, action_refusals=...)``.
"""

import sys
from dataclasses import replace

from fiveup.contract.notation import Action, Verb
from fiveup.harness.server import serve
from fiveup.reference import STANDARD, ReferenceEngine
from fiveup.reference.rules import Refusal, RoundView


def _double_not_opened(round_: RoundView, action: Action) -> str | None:
    turn, placement = round_.turn, action.placement
    if turn is None or placement is None or not round_.layout.is_empty:
        return None
    if not placement.tile.is_double and any(tile.is_double for tile in round_.hand(turn)):
        return f"seat {turn} holds a double and must open with it"
    return None


REFUSALS = (*STANDARD.action_refusals, Refusal("OPN-5", _double_not_opened, frozenset({Verb.PLAY})))


ENGINE = ReferenceEngine(
    replace(STANDARD, action_refusals=REFUSALS), name="wrong-opn5_opening_double_forced"
)

if __name__ == "__main__":
    raise SystemExit(serve(ENGINE, sys.stdin, sys.stdout))
