"""Wrong engine: breaks PEN-3 - the penalty is subtracted in displayed points from a raw score.

How: the rounded pips are divided by 5 before they are subtracted (a unit mix-up): 10 pips cost
2 raw points instead of 10. The penalties reported per seat are still the rounded raw pips.

Built on the seam: ``replace(STANDARD, deduction=...)``.
"""

import sys
from dataclasses import replace

from fiveup.harness.server import serve
from fiveup.reference import STANDARD, ReferenceEngine


def in_displayed_points(penalty: int) -> int:
    """The side's rounded raw penalty, divided by 5 before it is subtracted."""
    return penalty // 5


ENGINE = ReferenceEngine(
    replace(STANDARD, deduction=in_displayed_points), name="wrong-pen3_penalty_in_displayed_points"
)

if __name__ == "__main__":
    raise SystemExit(serve(ENGINE, sys.stdin, sys.stdout))
