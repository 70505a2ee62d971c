"""Wrong engine: breaks PEN-4 - partners' pips are added up before rounding.

How: a partnership's penalty is ``rounded_penalty(sum of both partners' pips)`` instead of the sum
of each partner's rounded pips: partners with 3 pips each lose 5 raw points, not 10. Both the
engine's ``side_penalty`` request and the four-player end of round count do so; the penalties
reported per seat are still each player's own rounded pips.

Built on the seam: ``replace(STANDARD, side_penalty=...)``.
"""

import sys
from collections.abc import Callable, Sequence
from dataclasses import replace

from fiveup.harness.server import serve
from fiveup.reference import STANDARD, ReferenceEngine


def side_penalty(pips: Sequence[int], rounded: Callable[[int], int]) -> int:
    """The side's pips merged, then rounded once."""
    return rounded(sum(pips))


ENGINE = ReferenceEngine(
    replace(STANDARD, side_penalty=side_penalty), name="wrong-pen4_partners_pips_merged"
)

if __name__ == "__main__":
    raise SystemExit(serve(ENGINE, sys.stdin, sys.stdout))
