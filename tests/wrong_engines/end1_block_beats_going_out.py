"""Wrong engine: breaks END-1 - a last tile that also leaves nobody able to play ends in a block.

How: the end of the round tests for a block before it tests for going out, so when the last tile
of a hand is placed with the boneyard empty and no other seat able to play, the round is recorded
as blocked, with no winner and a neutral draw for the next opener.

Built on the seam: ``replace(STANDARD, out_before_block=...)``.
"""

import sys
from dataclasses import replace

from fiveup.harness.server import serve
from fiveup.reference import STANDARD, ReferenceEngine

ENGINE = ReferenceEngine(
    replace(STANDARD, out_before_block=False), name="wrong-end1_block_beats_going_out"
)

if __name__ == "__main__":
    raise SystemExit(serve(ENGINE, sys.stdin, sys.stdout))
