"""Wrong engine: breaks TRN-1 - turns pass counter-clockwise, from seat i to seat i - 1.

How: the table of next seats runs backwards for three and four players (with two players both
directions agree, so only those games are unaffected).
"""

import sys

from fiveup.harness.server import serve
from fiveup.reference import round as reference_round
from fiveup.reference.engine import ReferenceEngine

for players in reference_round._NEXT_SEAT:
    reference_round._NEXT_SEAT[players] = tuple((seat - 1) % players for seat in range(players))

if __name__ == "__main__":
    raise SystemExit(serve(ReferenceEngine(), sys.stdin, sys.stdout))
