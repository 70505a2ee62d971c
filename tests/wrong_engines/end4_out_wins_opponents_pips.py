"""Wrong engine: breaks END-4 - the player who goes out is awarded the opponents' pips.

How: All Fives style, when a player goes out their side is credited with the other sides' rounded
remaining pips, on top of the usual penalties (which every side still loses).

Built on the seam: ``replace(STANDARD, out_collects_penalties=...)``.
"""

import sys
from dataclasses import replace

from fiveup.harness.server import serve
from fiveup.reference import STANDARD, ReferenceEngine

ENGINE = ReferenceEngine(
    replace(STANDARD, out_collects_penalties=True), name="wrong-end4_out_wins_opponents_pips"
)

if __name__ == "__main__":
    raise SystemExit(serve(ENGINE, sys.stdin, sys.stdout))
