"""Wrong engine: breaks SET-4 - the last two boneyard tiles cannot be drawn.

How: as in games that keep a reserve, the last two tiles of the boneyard are set aside at the
deal. With two tiles left the boneyard counts as exhausted: a draw is refused (DRW-2), a player
who cannot play passes, and the round blocks. The boneyard size reported still includes them.

Built on the seam: ``replace(STANDARD, reserve=...)``.
"""

import sys
from dataclasses import replace

from fiveup.harness.server import serve
from fiveup.reference import STANDARD, ReferenceEngine

ENGINE = ReferenceEngine(replace(STANDARD, reserve=2), name="wrong-set4_last_two_tiles_held_back")

if __name__ == "__main__":
    raise SystemExit(serve(ENGINE, sys.stdin, sys.stdout))
