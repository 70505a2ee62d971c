"""Wrong engine: breaks DRW-1 - a player who can place a tile may draw instead.

How: the check of a draw forgets to ask whether the player has a legal placement; only a pending
drawn tile (DRW-3) and an empty boneyard (DRW-2) refuse it.

Built on the seam: ``replace(STANDARD, action_refusals=...)``.
"""

import sys
from dataclasses import replace

from fiveup.harness.server import serve
from fiveup.reference import STANDARD, ReferenceEngine

ENGINE = ReferenceEngine(
    replace(
        STANDARD, action_refusals=tuple(r for r in STANDARD.action_refusals if r.rule != "DRW-1")
    ),
    name="wrong-drw1_draw_while_able",
)

if __name__ == "__main__":
    raise SystemExit(serve(ENGINE, sys.stdin, sys.stdout))
