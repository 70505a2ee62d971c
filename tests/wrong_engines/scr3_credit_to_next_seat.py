"""Wrong engine: breaks SCR-3 - a placement's credit goes to the side of the next seat.

How: the credit is added after the turn has moved on, to the side of the seat after the placer
(an ordering slip): with two or four players the opponents score the placer's points.

Built on the seam: ``replace(STANDARD, credited_seat=...)``.
"""

import sys
from dataclasses import replace

from fiveup.harness.server import serve
from fiveup.reference import STANDARD, ReferenceEngine


def next_seat_scores(seat: int, players: int) -> int:
    """The seat after the placer receives the credit."""
    return (seat + 1) % players


ENGINE = ReferenceEngine(
    replace(STANDARD, credited_seat=next_seat_scores), name="wrong-scr3_credit_to_next_seat"
)

if __name__ == "__main__":
    raise SystemExit(serve(ENGINE, sys.stdin, sys.stdout))
