"""Wrong engine: breaks END-2 - the round is blocked as soon as the seat to act is stuck.

How: the block test asks only whether the seat whose turn it is can place a tile, not whether
any seat can: with an empty boneyard, the round ends blocked while another player could still
play.

Built on the seam: ``replace(STANDARD, can_go_on=...)``.
"""

import sys
from dataclasses import replace

from fiveup.harness.server import serve
from fiveup.reference import STANDARD, ReferenceEngine
from fiveup.reference.rules import RoundView


def seat_to_act_can_go_on(round_: RoundView) -> bool:
    """The round goes on while there is something to draw or the seat to act can place."""
    turn = round_.turn
    return bool(round_.drawable) or (turn is not None and round_.can_place(turn))


ENGINE = ReferenceEngine(
    replace(STANDARD, can_go_on=seat_to_act_can_go_on),
    name="wrong-end2_blocked_when_next_seat_stuck",
)

if __name__ == "__main__":
    raise SystemExit(serve(ENGINE, sys.stdin, sys.stdout))
