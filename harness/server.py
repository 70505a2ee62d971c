"""Serve a Python engine over the process protocol (``spec/protocol.md``).

``fiveup engine`` runs :func:`serve` for the reference engine; any object that implements
:class:`~fiveup.harness.protocol.Engine` can be served the same way, which makes it a process
engine for another harness. The server answers one line per request and never dies of bad
input: what it cannot answer becomes an ``errored`` reply (when the request's seq is known) or a
line on stderr.
"""

from __future__ import annotations

import contextlib
import json
import sys
from typing import TextIO

from fiveup.contract.engine import JSON, Engine
from fiveup.contract.schemas import given_problem, message_problem
from fiveup.errors import UnsupportedCase

__all__ = ["serve"]


def serve(engine: Engine, stdin: TextIO, stdout: TextIO, *, stderr: TextIO | None = None) -> int:
    """Answer the protocol messages read from ``stdin`` on ``stdout`` until stop or EOF.

    Returns 0 after ``stop`` or at the end of the input, 1 when ``engine.info()`` fails or the
    output is closed. While the engine plays, ``sys.stdout`` points at ``stderr`` so that a
    stray ``print`` in the engine cannot corrupt the protocol stream.
    """
    err = sys.stderr if stderr is None else stderr

    def log(text: str) -> None:
        err.write(f"fiveup engine: {text}\n")
        err.flush()

    try:
        info = engine.info()
        levels = list(info["levels"])
        ready: dict[str, JSON] = {
            "ready": True, "protocol": info["protocol"],
            "engine": {"name": info["name"], "version": info["version"], "levels": levels},
        }
    except Exception as exc:
        log(f"the engine cannot describe itself: {type(exc).__name__}: {exc}")
        return 1

    def send(message: dict[str, JSON]) -> None:
        stdout.write(_encode(message) + "\n")
        stdout.flush()

    try:
        for number, line in enumerate(iter(stdin.readline, ""), 1):
            if not line.strip():
                continue
            try:
                message = json.loads(line)
            except ValueError as exc:
                log(f"line {number} is not JSON ({exc}); ignored")
                continue
            if not isinstance(message, dict):
                log(f"line {number} is not a JSON object; ignored")
                continue
            cmd = message.get("cmd")
            seq = message.get("seq")
            has_seq = isinstance(seq, int) and not isinstance(seq, bool) and seq >= 0
            if cmd == "start":
                problem = message_problem("start", message)
                if problem:
                    log(f"line {number}: the start message {problem}; answered anyway")
                send(ready)
            elif cmd == "stop":
                send({"stopped": True})
                return 0
            elif not has_seq:
                log(f"line {number}: no command with a valid seq (cmd {cmd!r}); ignored")
            elif cmd == "run":
                send(_answer(engine, levels, message, err))
            else:
                send({"seq": seq, "errored": f"unknown command {cmd!r}"})
    except OSError as exc:  # the harness went away
        log(f"cannot write the reply: {exc}")
        return 1
    return 0


def _answer(engine: Engine, levels: list[str], message: dict[str, JSON],
            err: TextIO) -> dict[str, JSON]:
    seq = message["seq"]
    level = message.get("level")
    given = message.get("given")
    if not isinstance(level, str):
        return {"seq": seq, "errored": "invalid run request: no level"}
    if level not in levels:
        return {"seq": seq, "unsupported": f"the engine does not play the level {level!r}"}
    if not isinstance(given, dict):
        return {"seq": seq, "errored": "invalid run request: its given is not an object"}
    try:
        with contextlib.redirect_stdout(err):
            observation = engine.run(level, given)
    except UnsupportedCase as exc:
        return {"seq": seq, "unsupported": exc.reason}
    except Exception as exc:
        # The request is checked against run.json only when the engine fails on it: a valid
        # request (the harness only sends those) costs no schema validation on this hot path.
        problem = given_problem(level, given)
        if problem:
            return {"seq": seq, "errored": f"invalid run request: its given {problem}"}
        return {"seq": seq, "errored": f"{type(exc).__name__}: {exc}"}
    if not isinstance(observation, dict):
        return {"seq": seq,
                "errored": f"the engine returned a {type(observation).__name__}, not an object"}
    return {"seq": seq, "observation": observation}


def _encode(reply: dict[str, JSON]) -> str:
    try:
        return json.dumps(reply, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError) as exc:
        problem = f"the observation is not JSON: {exc}"
        return json.dumps({"seq": reply.get("seq"), "errored": problem})
