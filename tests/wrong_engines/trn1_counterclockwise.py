"""Wrong engine: breaks TRN-1 - turns pass counter-clockwise, from seat i to seat i - 1.

How: the table of next seats runs backwards for three and four players (with two players both
directions agree, so only those games are unaffected).

Built on the seam: ``replace(STANDARD, next_seat=...)``.
"""

import sys
from dataclasses import replace

from fiveup.harness.server import serve
from fiveup.reference import STANDARD, ReferenceEngine


def counterclockwise(seat: int, players: int) -> int:
    """Play passes to the previous seat number."""
    return (seat - 1) % players


ENGINE = ReferenceEngine(
    replace(STANDARD, next_seat=counterclockwise), name="wrong-trn1_counterclockwise"
)

if __name__ == "__main__":
    raise SystemExit(serve(ENGINE, sys.stdin, sys.stdout))
