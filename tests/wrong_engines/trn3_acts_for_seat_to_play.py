"""Wrong engine: breaks TRN-3 - an action by another seat is carried out for the seat to act.

How: like an engine whose moves carry no seat, the seat named in an action is ignored while the
round goes on: the action is applied for the seat whose turn it is instead of being refused.

Built on the seam: ``replace(STANDARD, action_refusals=...)``.
"""

import sys
from dataclasses import replace

from fiveup.harness.server import serve
from fiveup.reference import STANDARD, ReferenceEngine

ENGINE = ReferenceEngine(
    replace(
        STANDARD, action_refusals=tuple(r for r in STANDARD.action_refusals if r.rule != "TRN-3")
    ),
    name="wrong-trn3_acts_for_seat_to_play",
)

if __name__ == "__main__":
    raise SystemExit(serve(ENGINE, sys.stdin, sys.stdout))
