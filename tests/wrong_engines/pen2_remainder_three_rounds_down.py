"""Wrong engine: breaks PEN-2 - a remainder of 3 pips rounds down instead of up.

How: ``rounded_penalty`` rounds down remainders up to 3 (only 4 rounds up), an off-by-one in
the threshold.

Built on the seam: ``replace(STANDARD, rounded_penalty=...)``.
"""

import sys
from dataclasses import replace

from fiveup.harness.server import serve
from fiveup.reference import STANDARD, ReferenceEngine


def rounded_penalty(pips: int) -> int:
    """``pips`` rounded to a multiple of 5 with the threshold one too high."""
    remainder = pips % 5
    if remainder <= 3:
        return pips - remainder
    return pips + 5 - remainder


ENGINE = ReferenceEngine(
    replace(STANDARD, rounded_penalty=rounded_penalty),
    name="wrong-pen2_remainder_three_rounds_down",
)

if __name__ == "__main__":
    raise SystemExit(serve(ENGINE, sys.stdin, sys.stdout))
