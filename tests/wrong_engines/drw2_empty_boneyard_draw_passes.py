"""Wrong engine: breaks DRW-2 - a draw from the empty boneyard is taken as a pass.

How: instead of refusing a draw when the boneyard is empty, the engine quietly turns it into a
pass for a player who cannot play ("nothing to draw, so pass"), and the turn moves on.

Built on the seam: ``replace(STANDARD, action_refusals=...)``.
"""

import sys
from dataclasses import replace

from fiveup.harness.server import serve
from fiveup.reference import STANDARD, ReferenceEngine

ENGINE = ReferenceEngine(
    replace(
        STANDARD, action_refusals=tuple(r for r in STANDARD.action_refusals if r.rule != "DRW-2")
    ),
    name="wrong-drw2_empty_boneyard_draw_passes",
)

if __name__ == "__main__":
    raise SystemExit(serve(ENGINE, sys.stdin, sys.stdout))
