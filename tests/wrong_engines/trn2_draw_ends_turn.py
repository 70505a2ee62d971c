"""Wrong engine: breaks TRN-2 - a draw that gives no playable tile ends the player's turn.

How: as in "draw one and pass" games, after a draw the turn passes to the next seat unless the
drawn tile can be placed (then it is pending and its drawer places it, as DRW-3 says).

Built on the seam: ``replace(STANDARD, draw_keeps_turn=...)``.
"""

import sys
from dataclasses import replace

from fiveup.harness.server import serve
from fiveup.reference import STANDARD, ReferenceEngine

ENGINE = ReferenceEngine(replace(STANDARD, draw_keeps_turn=False), name="wrong-trn2_draw_ends_turn")

if __name__ == "__main__":
    raise SystemExit(serve(ENGINE, sys.stdin, sys.stdout))
