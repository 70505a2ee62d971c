"""Wrong engine: breaks SCR-1 - the credit of the last tile of a hand is never added.

How: the engine goes to the end-of-round count as soon as a hand is empty, before it adds the
credit of the placement that emptied it: the event still shows the credit, the score lacks it.

Built on the seam: ``replace(STANDARD, scores_going_out=...)``.
"""

import sys
from dataclasses import replace

from fiveup.harness.server import serve
from fiveup.reference import STANDARD, ReferenceEngine

ENGINE = ReferenceEngine(
    replace(STANDARD, scores_going_out=False), name="wrong-scr1_last_tile_not_scored"
)

if __name__ == "__main__":
    raise SystemExit(serve(ENGINE, sys.stdin, sys.stdout))
