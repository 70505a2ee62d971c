"""A starter Five Up engine in Python (standard library only): the process protocol, version 1.

It completes the handshake (spec/protocol.md) and declines every case. Fill in ``play`` and claim
what it plays in ``FEATURES`` (or whole levels in ``LEVELS``)::

    fiveup certify --engine-cmd "python3 examples/starters/python/engine.py"
"""

from __future__ import annotations

import json
import sys
from typing import Any

NAME, VERSION = "starter-python", "0.1.0"
LEVELS: list[str] = []  # whole levels: "scoring", "layout", "round", "match", "moves"
FEATURES: list[str] = []  # parts of a level: "scoring.credit", ...


def play(level: str, given: dict[str, Any]) -> dict[str, Any] | None:
    """The observation of one case (spec/protocol.md, per level), or None to decline it."""
    return None


def answer(request: dict[str, Any]) -> dict[str, Any]:
    """The reply to one request of the harness."""
    if request.get("cmd") == "start":
        engine = {"name": NAME, "version": VERSION, "levels": LEVELS, "features": FEATURES}
        return {"ready": True, "protocol": 1, "engine": engine}
    seq = request.get("seq")
    if request.get("cmd") != "run":
        return {"seq": seq, "errored": f"unknown command {request.get('cmd')!r}"}
    try:
        observation = play(request["level"], request["given"])
    except Exception as error:  # an engine answers every case, even when it fails
        return {"seq": seq, "errored": f"{type(error).__name__}: {error}"}
    if observation is None:
        return {"seq": seq, "unsupported": "not implemented yet"}
    return {"seq": seq, "observation": observation}


def main() -> int:
    """Answer one JSON line per request line until stop or the end of the input."""
    for line in sys.stdin:
        try:
            request = json.loads(line)
        except ValueError as error:
            print(f"{NAME}: not JSON, ignored: {error}", file=sys.stderr)
            continue
        if request.get("cmd") == "stop":
            print(json.dumps({"stopped": True}), flush=True)
            break
        print(json.dumps(answer(request)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
