"""Serve a Python engine over the process protocol (``spec/protocol.md``).

``fiveup engine`` runs :func:`serve` for the reference engine; any object that implements
:class:`~fiveup.harness.protocol.Engine` can be served the same way, which makes it a process
engine for another harness. The server answers one line per request and never dies of bad
input: what it cannot answer becomes an ``errored`` reply (when the request's seq is known) or a
line on stderr. A request whose ``given`` does not follow ``run.json`` is answered ``errored``
before the engine sees it, unless the engine checks its requests itself
(:func:`~fiveup.contract.engine.validates_requests`, as the reference engine does).
"""

from __future__ import annotations

import contextlib
import json
import sys
from collections.abc import Iterator
from typing import TextIO

from fiveup.contract.engine import JSON, Engine, validates_requests
from fiveup.contract.messages import (
    COMPACT,
    Errored,
    MessageError,
    Observed,
    Ready,
    Reply,
    Start,
    Stopped,
    Unsupported,
    clip,
    decode,
)
from fiveup.contract.schemas import given_problem
from fiveup.errors import FiveUpError, UnsupportedCase

from .polling import InputPoller

__all__ = ["serve"]


def serve(engine: Engine, stdin: TextIO, stdout: TextIO, *, stderr: TextIO | None = None) -> int:
    """Answer the protocol messages read from ``stdin`` on ``stdout`` until stop or EOF.

    Returns 0 after ``stop`` or at the end of the input, 1 when ``engine.info()`` fails or the
    output is closed. While the engine plays, ``sys.stdout`` points at ``stderr`` so that a
    stray ``print`` in the engine cannot corrupt the protocol stream.
    """
    server = _Server(engine, stdout, sys.stderr if stderr is None else stderr)
    try:
        info = engine.info()
        server.ready = Ready.from_info(info)
    except Exception as exc:
        server.log(f"the engine cannot describe itself: {type(exc).__name__}: {exc}")
        return 1
    try:
        for number, line in enumerate(_lines(stdin, MAX_LINE), 1):
            if line is None:
                server.log(f"line {number} is longer than {MAX_LINE} characters; ignored")
            elif server.handle(number, line):
                return 0
    except OSError as exc:  # the harness went away
        server.log(f"cannot write the reply: {exc}")
        return 1
    except UnicodeDecodeError as exc:
        server.log(f"the input is not UTF-8 ({exc.reason}); give the server a tolerant stream")
        return 1
    return 0


MAX_LINE = 1 << 20
"""The longest request line read whole, in characters; a longer one is skipped unread."""


def _lines(stdin: TextIO, limit: int) -> Iterator[str | None]:
    """The input's lines, each read at most ``limit`` characters at a time (None: too long).

    From a pipe or a socket, the next line is polled for a moment before the read blocks
    (:class:`~fiveup.harness.polling.InputPoller`): a harness sends its next request soon
    after the last reply, and a server woken up for each costs the harness a wake-up a case.
    """
    poller = InputPoller.of(stdin)
    while True:
        if poller is not None:
            poller.wait()
        line = stdin.readline(limit + 1)
        if not line:
            return
        if len(line) <= limit or line.endswith("\n"):
            yield line
            continue
        while line and not line.endswith("\n"):
            line = stdin.readline(limit)
        yield None


class _Server:
    """One serving session: the engine, its ready message and the output streams."""

    def __init__(self, engine: Engine, stdout: TextIO, stderr: TextIO) -> None:
        self.engine = engine
        self.stdout = stdout
        self.stderr = stderr
        self.ready = Ready(0, "", "", ())

    def log(self, text: str) -> None:
        self.stderr.write(f"fiveup engine: {text}\n")
        self.stderr.flush()

    def send(self, message: Ready | Reply | Stopped) -> None:
        self.stdout.write(_encode(message) + "\n")
        self.stdout.flush()

    def handle(self, number: int, line: str) -> bool:
        """Answer one input line; True once the harness asked to stop."""
        message = self._message(number, line)
        if message is None:
            return False
        cmd = message.get("cmd")
        seq = message.get("seq")
        if cmd == "start":
            try:
                Start.from_json(message)
            except MessageError as exc:
                self.log(f"line {number}: the start message {exc.problem}; answered anyway")
            self.send(self.ready)
        elif cmd == "stop":
            self.send(Stopped())
            return True
        elif not (isinstance(seq, int) and not isinstance(seq, bool) and seq >= 0):
            self.log(f"line {number}: no command with a valid seq (cmd {cmd!r}); ignored")
        elif cmd == "run":
            levels = list(self.ready.levels)
            try:
                reply = _answer(self.engine, levels, seq, message, self.stderr)
            except RecursionError:
                reply = Errored(seq, "invalid run request: nested too deeply")
            self.send(reply)
        else:
            self.send(Errored(seq, f"unknown command {clip(repr(cmd), 80)}"))
        return False

    def _message(self, number: int, line: str) -> dict[str, JSON] | None:
        if not line.strip():
            return None
        try:
            message = decode(line)
        except RecursionError:
            self.log(f"line {number} is nested too deeply to read; ignored")
            return None
        except ValueError as exc:
            self.log(f"line {number} is not JSON ({exc}); ignored")
            return None
        if not isinstance(message, dict):
            self.log(f"line {number} is not a JSON object; ignored")
            return None
        return message


def _answer(
    engine: Engine, levels: list[str], seq: int, message: dict[str, JSON], err: TextIO
) -> Reply:
    level = message.get("level")
    given = message.get("given")
    if not isinstance(level, str):
        return Errored(seq, "invalid run request: no level")
    if level not in levels:
        return Unsupported(seq, f"the engine does not play the level {clip(repr(level), 80)}")
    if not isinstance(given, dict):
        return Errored(seq, "invalid run request: its given is not an object")
    trusted = validates_requests(engine)
    problem = None if trusted else given_problem(level, given)
    if problem:
        return Errored(seq, f"invalid run request: its given {problem}")
    try:
        with contextlib.redirect_stdout(err):
            observation = engine.run(level, given)
    except UnsupportedCase as exc:
        return Unsupported(seq, exc.reason)
    except (Exception, SystemExit, GeneratorExit) as exc:  # an engine's sys.exit() is its bug
        # An engine that checks its own requests is asked first: a valid request (the harness
        # only sends those) then costs no schema validation on this hot path.
        problem = given_problem(level, given) if trusted else None
        if problem:
            return Errored(seq, f"invalid run request: its given {problem}")
        # the suite's own refusal says what is wrong in words; another is an engine's bug,
        # whose class helps its author (KeyError: 'hands')
        said = str(exc) if isinstance(exc, FiveUpError) else f"{type(exc).__name__}: {exc}"
        return Errored(seq, clip(said, 2000))
    if not isinstance(observation, dict):
        return Errored(seq, f"the engine returned a {type(observation).__name__}, not an object")
    return Observed(seq, observation)


def _encode(message: Ready | Reply | Stopped) -> str:
    try:
        text = COMPACT.encode(message.to_json())
    except (TypeError, ValueError, RecursionError) as exc:
        if not isinstance(message, Observed):
            raise  # every other message is the server's own, made of strings and numbers
        why = str(exc)
        if isinstance(exc, ValueError) and "digits" in why:  # int()'s limit, in Python's words
            why = "a whole number of over 4,300 digits"
        said = f"the observation is not JSON: {clip(why, 200)}"
        return json.dumps(Errored(message.seq, said).to_json())
    if (
        isinstance(message, Observed)
        and len(text) >= MAX_LINE // 4
        and len(text.encode()) >= MAX_LINE
    ):
        size = len(text.encode())
        said = f"the observation is a line of {size:,} bytes, over the 1 MiB a line may have"
        return json.dumps(Errored(message.seq, said).to_json())
    return text
