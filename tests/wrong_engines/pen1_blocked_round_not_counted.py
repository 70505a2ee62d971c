"""Wrong engine: breaks PEN-1 - a blocked round ends without counting the remaining pips.

How: reading END-3 ("a blocked round has no winner and no final credit") as "no count at all",
a blocked round charges no penalty: the penalties are 0 and no score changes at the end.
Rounds ended by going out are counted as usual.

Built on the seam: ``replace(STANDARD, blocked_round_penalised=...)``.
"""

import sys
from dataclasses import replace

from fiveup.harness.server import serve
from fiveup.reference import STANDARD, ReferenceEngine

ENGINE = ReferenceEngine(
    replace(STANDARD, blocked_round_penalised=False), name="wrong-pen1_blocked_round_not_counted"
)

if __name__ == "__main__":
    raise SystemExit(serve(ENGINE, sys.stdin, sys.stdout))
