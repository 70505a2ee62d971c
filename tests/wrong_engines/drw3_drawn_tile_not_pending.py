"""Wrong engine: breaks DRW-3 and DRW-4 - a drawn playable tile may wait in the hand.

How: a draw never marks the drawn tile as pending. The player may then play any other tile
(DRW-4), and a further draw or a pass is refused, if at all, for the wrong reason (DRW-1 or DRW-5
instead of DRW-3).

Built on the seam: ``replace(STANDARD, drawn_tile_pending=...)``.
"""

import sys
from dataclasses import replace

from fiveup.harness.server import serve
from fiveup.reference import STANDARD, ReferenceEngine

ENGINE = ReferenceEngine(
    replace(STANDARD, drawn_tile_pending=False), name="wrong-drw3_drawn_tile_not_pending"
)

if __name__ == "__main__":
    raise SystemExit(serve(ENGINE, sys.stdin, sys.stdout))
