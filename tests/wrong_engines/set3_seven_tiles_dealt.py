"""Wrong engine: breaks SET-3 - each player is dealt 7 tiles instead of 5.

How: the hand size is 7, as in Sniff or two-handed All Fives; the deck is dealt 7 tiles a seat
(all 28 with four players) and the boneyard is what remains.
"""

import sys

from fiveup.harness.server import serve
from fiveup.reference import round as reference_round
from fiveup.reference.engine import ReferenceEngine

vars(reference_round)["HAND_SIZE"] = 7

if __name__ == "__main__":
    raise SystemExit(serve(ReferenceEngine(), sys.stdin, sys.stdout))
