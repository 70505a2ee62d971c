"""A minimal Five Up engine in Python: the ``scoring`` level only.

In process, any object with these two methods is an engine (``fiveup.harness.protocol.Engine``);
run as a script, it is served over the process protocol (``spec/protocol.md``)::

    fiveup certify --engine-cmd "python examples/adapters/python/minimal_engine.py"
"""

from __future__ import annotations

import sys
from typing import Any

from fiveup.contract.engine import EngineInfo
from fiveup.errors import UnsupportedCase


def penalty(pips: int) -> int:
    """PEN-2: the nearest multiple of 5; a remainder of 1 or 2 rounds down, 3 or 4 up."""
    return (pips + 2) // 5 * 5


class MinimalEngine:
    """Plays the pure scoring functions of spec/fixtures.md, level ``scoring``."""

    def info(self) -> EngineInfo:
        """Who the engine is and what it plays."""
        return {"name": "minimal-python", "version": "1.0.0", "protocol": 1, "levels": ["scoring"]}

    def run(self, level: str, given: dict[str, Any]) -> dict[str, Any]:
        """Answer one case: the value of one scoring function."""
        if level != "scoring":
            raise UnsupportedCase(f"level {level!r} is not played")
        function, n = given["function"], given["input"]
        if function == "credit":  # SCR-2
            return {"value": n if n > 0 and n % 5 == 0 else 0}
        if function == "displayed":  # PTS-1
            return {"value": n // 5}
        if function == "penalty":
            return {"value": penalty(n)}
        if function == "side_penalty":  # PEN-4: each partner rounded separately
            return {"value": sum(penalty(pips) for pips in n)}
        if function == "tally":  # TAL-1, TAL-2
            return {"value": {"fifties": n // 50, "strokes": n % 50 // 5}}
        raise UnsupportedCase(f"no scoring function {function!r}")


if __name__ == "__main__":
    from fiveup.harness.server import serve

    sys.exit(serve(MinimalEngine(), sys.stdin, sys.stdout))
