"""Wrong engine: breaks PEN-2 - a remainder of 3 pips rounds down instead of up.

How: ``rounded_penalty`` rounds down remainders up to 3 (only 4 rounds up), an off-by-one in
the threshold. It is replaced in ``scoring`` (which ``side_penalty`` uses), in the round's end
of round count and in the engine's ``penalty`` request.
"""

import sys

from fiveup.harness.server import serve
from fiveup.reference import engine, scoring
from fiveup.reference import round as reference_round
from fiveup.reference.engine import ReferenceEngine


def rounded_penalty(pips: int) -> int:
    """``pips`` rounded to a multiple of 5 with the threshold one too high."""
    remainder = pips % 5
    if remainder <= 3:
        return pips - remainder
    return pips + 5 - remainder


# Each module imported the function by name, so each holds its own reference to replace.
for module in (scoring, reference_round, engine):
    vars(module)["rounded_penalty"] = rounded_penalty

if __name__ == "__main__":
    raise SystemExit(serve(ReferenceEngine(), sys.stdin, sys.stdout))
