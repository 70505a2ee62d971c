"""Wrong engine: breaks MAT-1 - the target is checked in the middle of a round.

How: the match declares its winner as soon as a placement's credit lifts a side to the target
(305 raw points), uniquely highest, before the round is finished and its penalties subtracted;
the match is then over, whatever the rest of the round brings.

Built on the seam: ``replace(STANDARD, target_checked_mid_round=...)``.
"""

import sys
from dataclasses import replace

from fiveup.harness.server import serve
from fiveup.reference import STANDARD, ReferenceEngine

ENGINE = ReferenceEngine(
    replace(STANDARD, target_checked_mid_round=True), name="wrong-mat1_target_checked_mid_round"
)

if __name__ == "__main__":
    raise SystemExit(serve(ENGINE, sys.stdin, sys.stdout))
