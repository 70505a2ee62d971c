"""Wrong engine: breaks SET-3 - each player is dealt 7 tiles instead of 5.

How: the hand size is 7, as in Sniff or two-handed All Fives; the deck is dealt 7 tiles a seat
(all 28 with four players) and the boneyard is what remains.

Built on the seam: ``replace(STANDARD, hand_size=...)``.
"""

import sys
from dataclasses import replace

from fiveup.harness.server import serve
from fiveup.reference import STANDARD, ReferenceEngine

ENGINE = ReferenceEngine(replace(STANDARD, hand_size=7), name="wrong-set3_seven_tiles_dealt")

if __name__ == "__main__":
    raise SystemExit(serve(ENGINE, sys.stdin, sys.stdout))
