"""What the hostile engines share: a correct `scoring` engine, and ways to misbehave.

Every engine in this folder runs as `python <engine>.py MARKER [ARGS...]`. MARKER is a word
unique to one test; every process an engine starts carries it in its command line or its
environment, so the test can look in /proc for anything left behind.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any, NoReturn

MARKER = sys.argv[1] if len(sys.argv) > 1 else "hostile"
ARGS = sys.argv[2:]

Message = dict[str, Any]

SLEEPER = (
    "import signal, time\n"
    "for s in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):\n"
    "    signal.signal(s, signal.SIG_IGN)\n"
    "while True:\n"
    "    time.sleep(60)\n"
)
"""A program that sleeps forever and ignores every polite signal (run with MARKER as argv)."""


def deaf() -> None:
    """Ignore SIGTERM, SIGHUP and SIGINT: only SIGKILL stops this process now."""
    for signum in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        signal.signal(signum, signal.SIG_IGN)


def sleep_forever() -> NoReturn:
    """Ignore polite signals and never return."""
    deaf()
    while True:
        time.sleep(60)


def sleeper(
    *,
    setsid: bool = True,
    env: dict[str, str] | None = None,
    code: str = SLEEPER,
    args: tuple[str, ...] = (),
) -> subprocess.Popen[bytes]:
    """Start ``python -c code MARKER *args`` (by default: sleep forever, deaf to signals)."""
    return subprocess.Popen(
        [sys.executable, "-c", code, MARKER, *args],
        start_new_session=setsid,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env,
    )


def detach_stdio() -> None:
    """Point stdin, stdout and stderr at /dev/null (in a forked child)."""
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)


def _penalty(pips: int) -> int:
    return 5 * ((pips + 2) // 5)


def score(given: Message) -> Any:
    """The right answer to a `scoring` request."""
    function, n = given["function"], given["input"]
    if function == "credit":
        return n if n > 0 and n % 5 == 0 else 0
    if function == "displayed":
        return n // 5
    if function == "penalty":
        return _penalty(n)
    if function == "side_penalty":
        return sum(_penalty(p) for p in n)
    return {"fifties": n // 50, "strokes": n % 50 // 5}


def send(message: Message) -> None:
    """Write one protocol line and flush it."""
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def right(request: Message) -> Message:
    """The right reply to a run request."""
    return {"seq": request["seq"], "observation": {"value": score(request["given"])}}


def serve(
    name: str,
    *,
    on_start: Callable[[], None] | None = None,
    on_run: Callable[[Message], Message | str | None] | None = None,
    on_stop: Callable[[], None] | None = None,
    protocol: int = 1,
) -> None:
    """Speak the protocol on stdin and stdout until stop or EOF, with hooks to misbehave.

    ``on_run`` returns the reply to send (None: the right one; a string: written as it is, in
    one write); it may also never return.
    """
    for line in sys.stdin:
        message = json.loads(line)
        if message["cmd"] == "start":
            if on_start is not None:
                on_start()
            engine = {"name": name, "version": "1", "levels": ["scoring"]}
            send({"ready": True, "protocol": protocol, "engine": engine})
        elif message["cmd"] == "run":
            reply = on_run(message) if on_run is not None else None
            if isinstance(reply, str):
                sys.stdout.write(reply)
                sys.stdout.flush()
            else:
                send(right(message) if reply is None else reply)
        elif message["cmd"] == "stop":
            if on_stop is not None:
                on_stop()
            send({"stopped": True})
            return
