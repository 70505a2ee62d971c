"""Wrong engine: breaks SCR-2 - a sum that is not a multiple of 5 is credited, rounded.

How: the credit of a placement reuses the penalty rounding (PEN-2) instead of crediting only a
positive multiple of 5: a sum of 17 earns 15, 14 earns 15, 12 earns 10. The credit function is
replaced where it is used: in ``scoring`` and ``layout``, in the engine's ``credit`` request and
in the round's table of credits by sum.
"""

import sys

from fiveup.harness.server import serve
from fiveup.reference import engine, layout, scoring
from fiveup.reference import round as reference_round
from fiveup.reference.engine import ReferenceEngine


def placement_credit(total: int) -> int:
    """The sum rounded to the nearest multiple of 5, as a penalty would be."""
    return scoring.rounded_penalty(max(total, 0))


# Each module imported the function by name, so each holds its own reference to replace.
for module in (scoring, layout, engine):
    vars(module)["placement_credit"] = placement_credit
credits = reference_round._CREDIT
credits[:] = [placement_credit(total) for total in range(len(credits))]

if __name__ == "__main__":
    raise SystemExit(serve(ReferenceEngine(), sys.stdin, sys.stdout))
