"""Wrong engine: breaks DRW-5 - a player who cannot play may pass while the boneyard has tiles.

How: the check of a pass only asks whether the player can place a tile; it forgets that a
player who cannot must draw while the boneyard is not empty.

Built on the seam: ``replace(STANDARD, action_refusals=...)``.
"""

import sys
from dataclasses import replace

from fiveup.contract.notation import Action
from fiveup.harness.server import serve
from fiveup.reference import STANDARD, ReferenceEngine
from fiveup.reference.rules import Refusal, RoundView


def _able_to_place(round_: RoundView, action: Action) -> str | None:
    turn = round_.turn
    if turn is not None and round_.can_place(turn):
        return f"seat {turn} can place a tile and must play"
    return None


# The pass keeps only its first DRW-5 test (able to place) and loses the second (tiles to draw).
REFUSALS = tuple(
    Refusal("DRW-5", _able_to_place, refusal.verbs) if refusal.rule == "DRW-5" else refusal
    for refusal in STANDARD.action_refusals
)


ENGINE = ReferenceEngine(
    replace(STANDARD, action_refusals=REFUSALS), name="wrong-drw5_pass_with_tiles_in_boneyard"
)

if __name__ == "__main__":
    raise SystemExit(serve(ENGINE, sys.stdin, sys.stdout))
