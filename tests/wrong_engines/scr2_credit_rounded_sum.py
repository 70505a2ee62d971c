"""Wrong engine: breaks SCR-2 - a sum that is not a multiple of 5 is credited, rounded.

How: the credit of a placement reuses the penalty rounding (PEN-2) instead of crediting only a
positive multiple of 5: a sum of 17 earns 15, 14 earns 15, 12 earns 10.

Built on the seam: ``replace(STANDARD, credit=...)``.
"""

import sys
from dataclasses import replace

from fiveup.harness.server import serve
from fiveup.reference import STANDARD, ReferenceEngine
from fiveup.reference.scoring import rounded_penalty


def placement_credit(total: int) -> int:
    """The sum rounded to the nearest multiple of 5, as a penalty would be."""
    return rounded_penalty(max(total, 0))


ENGINE = ReferenceEngine(
    replace(STANDARD, credit=placement_credit), name="wrong-scr2_credit_rounded_sum"
)

if __name__ == "__main__":
    raise SystemExit(serve(ENGINE, sys.stdin, sys.stdout))
