"""A fake Python engine served over the protocol by fiveup.harness.server.serve.

Plays `scoring` for real and `layout` as a stub: an empty table, or a failure on demand
(a placement "[6|6]" raises, "[5|5]" declines the case, "[4|4]" prints on stdout first).
"""

import sys

from fiveup.contract.engine import JSON, EngineInfo
from fiveup.errors import UnsupportedCase
from fiveup.harness.server import serve


class FakeEngine:
    def info(self) -> EngineInfo:
        return {"name": "fake", "version": "0.1", "protocol": 1, "levels": ["scoring", "layout"]}

    def run(self, level: str, given: dict[str, JSON]) -> dict[str, JSON]:
        if level == "scoring":
            n = given["input"]
            if given["function"] == "credit":
                return {"value": n if n > 0 and n % 5 == 0 else 0}
            if given["function"] == "tally":
                return {"value": {"fifties": n // 50, "strokes": n % 50 // 5}}
            raise UnsupportedCase(f"no function {given['function']}")
        placements = given["placements"]
        if "[6|6]" in placements:
            raise RuntimeError("the table is on fire")
        if "[5|5]" in placements:
            raise UnsupportedCase("fives are not my thing")
        if "[4|4]" in placements:
            print("debugging output that must not reach the harness")
        table = {
            "tiles": [],
            "spinners": [],
            "connections": [],
            "points": {},
            "contributions": [],
            "sum": 0,
        }
        return {"steps": [], "layout": table, "error": None}


if __name__ == "__main__":
    sys.exit(serve(FakeEngine(), sys.stdin, sys.stdout))
