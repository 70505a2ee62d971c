"""Wrong engine: breaks PLY-3 - the four-player partnerships are neighbours, not opposite.

How: the side of seat ``s`` is computed as ``s // 2`` instead of ``s % 2``: seats 0 and 1 form
side 0, seats 2 and 3 side 1.
"""

import sys

from fiveup.harness.server import serve
from fiveup.reference import round as reference_round
from fiveup.reference.engine import ReferenceEngine

reference_round._SIDES[4] = tuple(seat // 2 for seat in range(4))

if __name__ == "__main__":
    raise SystemExit(serve(ReferenceEngine(), sys.stdin, sys.stdout))
