"""Wrong engine: breaks MAT-5 - a score never goes below zero.

How: after the penalties of a round are subtracted, a negative score is raised to 0 (the
penalty is cut short), as engines that keep scores unsigned do.

Built on the seam: ``replace(STANDARD, score_floor=...)``.
"""

import sys
from dataclasses import replace

from fiveup.harness.server import serve
from fiveup.reference import STANDARD, ReferenceEngine

ENGINE = ReferenceEngine(replace(STANDARD, score_floor=0), name="wrong-mat5_score_floored_at_zero")

if __name__ == "__main__":
    raise SystemExit(serve(ENGINE, sys.stdin, sys.stdout))
