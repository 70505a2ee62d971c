"""Engines in any language: the harness side of the process protocol (``spec/protocol.md``).

:class:`ProcessEngine` starts an engine's command, shakes hands and then implements the
:class:`~fiveup.harness.protocol.Engine` protocol by sending one ``run`` request per case over
the engine's stdin and reading one reply line from its stdout. One process serves the whole
run; after a failure it is killed (with its whole process group) and the next case starts a
fresh one.

The engine is untrusted. Whatever it does (crash, hang, garbage, floods, extra lines, a wrong
protocol version) surfaces as a :class:`ProcessEngineError` (an ``EngineError``) whose ``kind``
says what went wrong; nothing blocks longer than the timeouts. A reply ``unsupported`` raises
:class:`~fiveup.errors.UnsupportedCase`.

POSIX only: stdout is read with ``selectors`` and the process group is killed with ``killpg``.
"""

from __future__ import annotations

import contextlib
import enum
import json
import os
import selectors
import shlex
import signal
import subprocess
import threading
import time
import weakref
from collections.abc import Mapping, Sequence
from functools import cache
from importlib.resources import files
from types import TracebackType
from typing import Any, Final, NoReturn, Self

import jsonschema
import jsonschema.exceptions
from jsonschema.protocols import Validator
from referencing import Registry, Resource

from fiveup import PROTOCOL_VERSION
from fiveup.errors import EngineError, UnsupportedCase, UsageError
from fiveup.harness.protocol import JSON, EngineInfo, Level

__all__ = [
    "SCHEMA_NAMES",
    "Failure",
    "ProcessEngine",
    "ProcessEngineError",
    "given_problem",
    "message_problem",
    "observation_problem",
    "protocol_schema",
]

SCHEMA_NAMES: Final = (
    "common", "start", "ready", "run", "reply", "stop", "stopped",
    "observation-scoring", "observation-layout", "observation-round", "observation-match",
)
"""The JSON Schemas of ``spec/schemas/protocol/``, by file name without ``.json``."""

_LEVELS: Final = frozenset(level.value for level in Level)
_REPLY_KINDS: Final = {"observation": dict, "unsupported": str, "errored": str}
_CHUNK = 1 << 16
_EXIT_GRACE = 0.5
"""How long an engine that closed its stdout may take to exit before it is killed."""


# --------------------------------------------------------------------------- schemas


@cache
def protocol_schema(name: str) -> dict[str, JSON]:
    """The protocol schema ``name`` (one of :data:`SCHEMA_NAMES`), as shipped in the package."""
    if name not in SCHEMA_NAMES:
        raise UsageError(f"no protocol schema {name!r}; there are {', '.join(SCHEMA_NAMES)}")
    text = (files("fiveup.spec") / "schemas" / "protocol" / f"{name}.json").read_text("utf-8")
    schema: dict[str, JSON] = json.loads(text)
    return schema


@cache
def _validator(name: str) -> Validator:
    resources = [
        (protocol_schema(n)["$id"], Resource.from_contents(protocol_schema(n)))
        for n in SCHEMA_NAMES
    ]
    registry: Registry[Any] = Registry().with_resources(resources)
    return jsonschema.Draft202012Validator(protocol_schema(name), registry=registry)


def message_problem(name: str, message: JSON) -> str | None:
    """What is wrong with ``message`` as the protocol message ``name``, or None if it fits.

    The text reads after the message's name: "does not follow reply.json at $.seq: ...".
    """
    validator = _validator(name)
    if validator.is_valid(message):
        return None
    error = jsonschema.exceptions.best_match(validator.iter_errors(message))
    return _clip(f"does not follow {name}.json at {error.json_path}: {error.message}", 400)


@cache
def _given_validator(level: str) -> Validator:
    run = _validator("run")
    return run.evolve(schema={"$ref": f"{protocol_schema('run')['$id']}#/$defs/{level}"})


def given_problem(level: Level | str, given: JSON) -> str | None:
    """What is wrong with ``given`` as the ``given`` of a run request of ``level``, or None."""
    name = level.value if isinstance(level, Level) else level
    if name not in _LEVELS:
        return f"names no level: {name!r} is none of {', '.join(sorted(_LEVELS))}"
    validator = _given_validator(name)
    if validator.is_valid(given):
        return None
    error = jsonschema.exceptions.best_match(validator.iter_errors(given))
    return _clip(f"does not follow run.json at {error.json_path}: {error.message}", 400)


def observation_problem(level: Level | str, observation: JSON) -> str | None:
    """What is wrong with the shape of an observation of ``level``, or None if it fits.

    Usable as the case runner's shape check for in-process engines too.
    """
    name = level.value if isinstance(level, Level) else level
    return message_problem(f"observation-{name}", observation)


# --------------------------------------------------------------------------- errors


class Failure(enum.Enum):
    """What an engine process did wrong; the value is the reason as the report shows it."""

    CANNOT_START = "cannot start the engine"
    """The command could not be executed, or it failed to start too many times in a row."""
    CRASHED = "engine crashed"
    """The process exited (or closed its stdout) without being asked to stop."""
    TIMEOUT = "engine timed out"
    """No ready message or no reply within the timeout; the process group was killed."""
    NOT_JSON = "output is not JSON"
    """A line on stdout that is not one UTF-8 JSON value."""
    BAD_MESSAGE = "message of the wrong shape"
    """A ready message or reply that does not follow its schema."""
    BAD_OBSERVATION = "observation of the wrong shape"
    """A well-formed reply whose observation does not follow the level's schema."""
    WRONG_SEQ = "reply with the wrong seq"
    """A reply whose seq is not the one of the request in flight."""
    PROTOCOL_MISMATCH = "protocol version mismatch"
    """The engine speaks another protocol version; it is refused for the whole run."""
    UNREQUESTED_OUTPUT = "output nobody asked for"
    """Output on stdout while no request was in flight: a second reply, or an unasked one."""
    LINE_TOO_LONG = "line too long"
    """A line longer than the limit (a flood); the process was killed."""
    TRUNCATED = "reply cut off"
    """The process ended in the middle of a line."""
    ERRORED = "engine reported an error"
    """The engine answered ``errored``: it could not play the case. The process lives on."""

    @property
    def restarts(self) -> bool:
        """True when the process is killed and the next case starts a new one."""
        return self not in (Failure.BAD_OBSERVATION, Failure.ERRORED)


class ProcessEngineError(EngineError):
    """An engine process misbehaved; ``kind`` says how, the message says what it did.

    ``exit_code`` is the engine's own exit status when it exited by itself (negative: killed
    by that signal); ``stderr_tail`` is the end of what it wrote on stderr.
    """

    def __init__(self, kind: Failure, detail: str, *, exit_code: int | None = None,
                 stderr_tail: str = "") -> None:
        """Describe a failure of ``kind``; ``detail`` says what the engine did."""
        message = f"{kind.value}: {detail}"
        if stderr_tail:
            message += f"\nengine stderr (tail):\n{stderr_tail}"
        super().__init__(message)
        self.kind = kind
        self.detail = detail
        self.exit_code = exit_code
        self.stderr_tail = stderr_tail


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _excerpt(data: bytes, limit: int = 120) -> str:
    return repr(_clip(data.decode("utf-8", "replace"), limit))


def _describe_exit(code: int | None) -> str:
    if code is None:
        return "closed its stdout but did not exit"
    if code < 0:
        try:
            return f"was killed by signal {signal.Signals(-code).name}"
        except ValueError:
            return f"was killed by signal {-code}"
    return f"exited with code {code}"


# --------------------------------------------------------------------------- one process


class _Eof(Exception):
    def __init__(self, partial: bytes) -> None:
        super().__init__()
        self.partial = partial


class _Timeout(Exception):
    pass


class _TooLong(Exception):
    pass


class _Tail:
    """The last ``limit`` bytes of a stream, filled by a draining thread."""

    def __init__(self, limit: int) -> None:
        self._limit = limit
        self._data = bytearray()
        self._lock = threading.Lock()

    def add(self, chunk: bytes) -> None:
        with self._lock:
            self._data += chunk
            if len(self._data) > self._limit:
                del self._data[: len(self._data) - self._limit]

    def text(self) -> str:
        with self._lock:
            return self._data.decode("utf-8", "replace").strip()


def _drain(stream: Any, tail: _Tail) -> None:
    # Owns the stream: closing it from another thread while a read blocks is unsafe.
    with stream:
        fd = stream.fileno()
        while True:
            try:
                chunk = os.read(fd, _CHUNK)
            except OSError:
                return
            if not chunk:
                return
            tail.add(chunk)


class _Process:
    """One running engine: its pipes, its stdout buffer and its drained stderr."""

    def __init__(self, argv: Sequence[str], cwd: str | os.PathLike[str] | None,
                 env: Mapping[str, str] | None, max_line: int, tail_bytes: int) -> None:
        self.popen = subprocess.Popen(
            list(argv), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            bufsize=0, cwd=cwd, env=None if env is None else dict(env), start_new_session=True,
        )
        assert self.popen.stdin and self.popen.stdout and self.popen.stderr
        self._in = self.popen.stdin.fileno()
        self._out = self.popen.stdout.fileno()
        os.set_blocking(self._in, False)
        os.set_blocking(self._out, False)
        self._readable = selectors.DefaultSelector()
        self._readable.register(self._out, selectors.EVENT_READ)
        self._writable = selectors.DefaultSelector()
        self._writable.register(self._in, selectors.EVENT_WRITE)
        self._buf = bytearray()
        self._scanned = 0
        self._max_line = max_line
        self._eof = False
        self.tail = _Tail(tail_bytes)
        self._stderr_thread = threading.Thread(
            target=_drain, args=(self.popen.stderr, self.tail), daemon=True,
            name=f"engine-stderr-{self.popen.pid}")
        self._stderr_thread.start()
        # Also at garbage collection and interpreter exit: no engine outlives the harness.
        self._killer = weakref.finalize(self, _kill_group, self.popen)

    def send(self, data: bytes, deadline: float) -> None:
        """Write all of ``data``; a closed pipe is left for the read to report as EOF."""
        view = memoryview(data)
        while view:
            try:
                view = view[os.write(self._in, view):]
                continue
            except BlockingIOError:
                pass
            except (BrokenPipeError, ConnectionResetError):
                return
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not self._writable.select(remaining):
                raise _Timeout

    def _fill(self, timeout: float) -> bool:
        """Read what is available within ``timeout``; False when nothing came."""
        if self._eof:
            raise _Eof(bytes(self._buf))
        if not self._readable.select(max(timeout, 0.0)):
            return False
        try:
            chunk = os.read(self._out, _CHUNK)
        except BlockingIOError:
            return False
        if not chunk:
            self._eof = True
            raise _Eof(bytes(self._buf))
        self._buf += chunk
        return True

    def read_line(self, deadline: float) -> bytes:
        """The next line of stdout without its newline, read before ``deadline``."""
        while True:
            end = self._buf.find(b"\n", self._scanned)
            if end >= 0:
                if end > self._max_line:
                    raise _TooLong
                line = bytes(self._buf[:end])
                del self._buf[: end + 1]
                self._scanned = 0
                return line
            self._scanned = len(self._buf)
            if self._scanned > self._max_line:
                raise _TooLong
            remaining = deadline - time.monotonic()
            if remaining <= 0 or (not self._fill(remaining) and time.monotonic() >= deadline):
                raise _Timeout

    def unrequested(self) -> bytes | None:
        """Whatever the engine wrote on stdout since the last line was read, without waiting."""
        if not self._buf:
            self._fill(0.0)
        return bytes(self._buf) if self._buf else None

    def wait_exit(self, seconds: float) -> int | None:
        """The exit status once the process exits within ``seconds``, else None.

        The process is not reaped, so its pid (and process group id) stays reserved until
        :meth:`kill` has signalled the group.
        """
        deadline = time.monotonic() + seconds
        waitid = getattr(os, "waitid", None)
        while True:
            if waitid is None:
                try:
                    return self.popen.wait(max(deadline - time.monotonic(), 0.0))
                except subprocess.TimeoutExpired:
                    return None
            try:
                status = waitid(os.P_PID, self.popen.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
            except ChildProcessError:
                return self.popen.returncode
            if status is not None:
                code: int = status.si_status
                return -code if status.si_code in (os.CLD_KILLED, os.CLD_DUMPED) else code
            if time.monotonic() >= deadline:
                return None
            time.sleep(0.002)

    def kill(self) -> None:
        """Kill the whole process group, reap the process and release the pipes."""
        if not self._killer.alive:
            return
        self._killer()
        self._readable.close()
        self._writable.close()
        self._stderr_thread.join(1.0)


def _kill_group(popen: subprocess.Popen[bytes]) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(popen.pid, signal.SIGKILL)
    with contextlib.suppress(subprocess.TimeoutExpired):
        popen.wait(5.0)
    for stream in (popen.stdin, popen.stdout):  # stderr belongs to its draining thread
        if stream is not None:
            stream.close()


# --------------------------------------------------------------------------- the engine


class ProcessEngine:
    """An engine in another process, spoken to over the process protocol.

    ``command`` is an argv list, or a string split like a POSIX shell would (no shell runs).
    ``timeout`` bounds each case (request to reply) and ``start_timeout`` the handshake
    (default: ``timeout``), in seconds. A line longer than ``max_line_bytes`` is a flood; the
    last ``stderr_tail_bytes`` of the engine's stderr are kept for error messages. After
    ``max_failed_starts`` failed starts in a row the engine is not started again.

    May be shared between threads: calls are serialised by a lock, one case at a time.
    """

    checks_observations: Final = True
    """Every observation it returns already follows the protocol's schemas, so the case runner
    need not check it again."""

    def __init__(self, command: str | Sequence[str], *, timeout: float = 10.0,
                 start_timeout: float | None = None, stop_timeout: float = 2.0,
                 max_line_bytes: int = 1 << 20, stderr_tail_bytes: int = 4096,
                 max_failed_starts: int = 3, cwd: str | os.PathLike[str] | None = None,
                 env: Mapping[str, str] | None = None) -> None:
        """Prepare the connection; the engine starts with the first :meth:`info` or :meth:`run`.

        ``cwd`` and ``env`` are the engine's working directory and environment (default:
        inherited).
        """
        if os.name != "posix":
            raise UsageError("engines in other processes need a POSIX system (Linux, macOS)")
        argv = shlex.split(command) if isinstance(command, str) else list(command)
        if not argv:
            raise UsageError("the engine command is empty")
        for name, value in (("timeout", timeout), ("stop_timeout", stop_timeout),
                            ("start_timeout", timeout if start_timeout is None else start_timeout)):
            if not value > 0:
                raise UsageError(f"{name} must be a positive number of seconds, not {value!r}")
        if max_line_bytes < 1 or stderr_tail_bytes < 0 or max_failed_starts < 1:
            raise UsageError("max_line_bytes and max_failed_starts must be positive")
        self.command: tuple[str, ...] = tuple(argv)
        self.timeout = timeout
        self.start_timeout = timeout if start_timeout is None else start_timeout
        self.stop_timeout = stop_timeout
        self.max_line_bytes = max_line_bytes
        self.stderr_tail_bytes = stderr_tail_bytes
        self.max_failed_starts = max_failed_starts
        self._cwd = cwd
        self._env = env
        self._lock = threading.RLock()
        self._proc: _Process | None = None
        self._info: EngineInfo | None = None
        self._seq = 0
        self._starts = 0
        self._failed_starts = 0
        self._last_start_error = ""
        self._refusal: str | None = None
        self._last_tail = ""

    # ------------------------------------------------------------------ public

    @property
    def starts(self) -> int:
        """How many engine processes were started so far (restarts included)."""
        return self._starts

    @property
    def stderr_tail(self) -> str:
        """The end of what the current (or last) engine process wrote on stderr."""
        proc = self._proc
        return proc.tail.text() if proc is not None else self._last_tail

    def info(self) -> EngineInfo:
        """The engine's name, version, protocol and levels, from its ready message.

        Starts the engine if it never answered a handshake yet.
        """
        with self._lock:
            if self._info is None or self._refusal is not None:
                self._ensure()
            assert self._info is not None
            return EngineInfo(name=self._info["name"], version=self._info["version"],
                              protocol=self._info["protocol"], levels=list(self._info["levels"]))

    def run(self, level: str, given: dict[str, JSON]) -> dict[str, JSON]:
        """Send one run request and return the observation of the reply.

        Raises :class:`ProcessEngineError` when the engine misbehaves or answers ``errored``,
        and :class:`~fiveup.errors.UnsupportedCase` when it does not play ``level`` or answers
        ``unsupported``.
        """
        with self._lock:
            proc = self._ensure()
            assert self._info is not None
            if level not in self._info["levels"]:
                raise UnsupportedCase(
                    f"the engine does not declare the level {level!r} "
                    f"(it plays {', '.join(self._info['levels'])})")
            self._seq += 1
            return self._exchange(proc, self._seq, level, given)

    def close(self) -> None:
        """Ask the engine to stop, then kill what is left of its process group.

        Never raises. A later :meth:`run` starts a new process.
        """
        with self._lock:
            proc, self._proc = self._proc, None
            if proc is None:
                return
            deadline = time.monotonic() + self.stop_timeout
            try:
                proc.send(b'{"cmd":"stop"}\n', deadline)
                proc.read_line(deadline)
                proc.wait_exit(max(deadline - time.monotonic(), 0.0))
            except (_Eof, _Timeout, _TooLong, OSError):
                pass
            proc.kill()
            self._last_tail = proc.tail.text()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"ProcessEngine({shlex.join(self.command)!r})"

    # ------------------------------------------------------------------ internals

    def _fail(self, proc: _Process, kind: Failure, detail: str,
              exit_code: int | None = None) -> NoReturn:
        proc.kill()
        if self._proc is proc:
            self._proc = None
        self._last_tail = tail = proc.tail.text()
        raise ProcessEngineError(kind, detail, exit_code=exit_code, stderr_tail=tail)

    def _gone(self, proc: _Process, partial: bytes, doing: str) -> NoReturn:
        code = proc.wait_exit(_EXIT_GRACE)
        how = _describe_exit(code)
        if partial:
            self._fail(proc, Failure.TRUNCATED,
                       f"the engine {how} {doing}, in the middle of the line {_excerpt(partial)}",
                       code)
        self._fail(proc, Failure.CRASHED, f"the engine {how} {doing}", code)

    def _ensure(self) -> _Process:
        if self._refusal is not None:
            raise ProcessEngineError(Failure.PROTOCOL_MISMATCH, self._refusal)
        if self._proc is not None:
            return self._proc
        if self._failed_starts >= self.max_failed_starts:
            raise ProcessEngineError(
                Failure.CANNOT_START,
                f"not started again after {self._failed_starts} failed starts in a row; "
                f"the last one: {self._last_start_error}")
        try:
            self._proc = self._start()
        except ProcessEngineError as exc:
            if exc.kind is not Failure.PROTOCOL_MISMATCH:
                self._failed_starts += 1
                self._last_start_error = _clip(f"{exc.kind.value}: {exc.detail}", 300)
            raise
        self._failed_starts = 0
        return self._proc

    def _start(self) -> _Process:
        try:
            proc = _Process(self.command, self._cwd, self._env, self.max_line_bytes,
                            self.stderr_tail_bytes)
        except OSError as exc:
            raise ProcessEngineError(
                Failure.CANNOT_START,
                f"cannot run {shlex.join(self.command)}: {exc.strerror or exc}") from exc
        self._starts += 1
        deadline = time.monotonic() + self.start_timeout
        start = json.dumps({"cmd": "start", "protocol": PROTOCOL_VERSION})
        try:
            proc.send(start.encode() + b"\n", deadline)
            line = proc.read_line(deadline)
        except _Timeout:
            self._fail(proc, Failure.TIMEOUT,
                       f"no ready message within {self.start_timeout:g} s; the engine was killed")
        except _TooLong:
            self._fail(proc, Failure.LINE_TOO_LONG, self._too_long("instead of the ready message"))
        except _Eof as eof:
            self._gone(proc, eof.partial, "before it was ready")
        ready = self._parse(proc, line, "the ready message")
        spoken = ready.get("protocol", PROTOCOL_VERSION) if isinstance(ready, dict) else None
        if spoken is not None and spoken != PROTOCOL_VERSION:
            self._refusal = (f"the engine speaks protocol {_clip(repr(spoken), 40)}, "
                             f"the harness protocol {PROTOCOL_VERSION}; every case is refused")
            self._fail(proc, Failure.PROTOCOL_MISMATCH, self._refusal)
        problem = message_problem("ready", ready)
        if problem:
            self._fail(proc, Failure.BAD_MESSAGE, f"the ready message {problem}")
        engine = ready["engine"]
        self._info = EngineInfo(name=engine["name"], version=engine["version"],
                                protocol=ready["protocol"], levels=list(engine["levels"]))
        return proc

    def _too_long(self, what: str) -> str:
        return (f"the engine wrote more than {self.max_line_bytes} bytes without a newline "
                f"{what}; it was killed")

    def _parse(self, proc: _Process, line: bytes, what: str) -> JSON:
        try:
            return json.loads(line.decode("utf-8"), parse_constant=_no_constant)
        except UnicodeDecodeError:
            self._fail(proc, Failure.NOT_JSON, f"{what} is not UTF-8: {_excerpt(line)}")
        except ValueError as exc:
            self._fail(proc, Failure.NOT_JSON, f"{what} is not JSON ({exc}): {_excerpt(line)}")

    def _exchange(self, proc: _Process, seq: int, level: str,
                  given: dict[str, JSON]) -> dict[str, JSON]:
        try:
            request = json.dumps({"cmd": "run", "seq": seq, "level": level, "given": given},
                                 separators=(",", ":"), allow_nan=False)
        except (TypeError, ValueError) as exc:
            raise UsageError(f"the case's given is not JSON: {exc}") from exc
        try:
            extra = proc.unrequested()
        except _Eof as eof:
            self._gone(proc, eof.partial, f"between cases, before seq {seq} was sent")
        if extra is not None:
            self._fail(proc, Failure.UNREQUESTED_OUTPUT,
                       f"the engine wrote {_excerpt(extra)} while no request was in flight "
                       f"(found before seq {seq} was sent)")
        deadline = time.monotonic() + self.timeout
        try:
            proc.send(request.encode() + b"\n", deadline)
            line = proc.read_line(deadline)
        except _Timeout:
            self._fail(proc, Failure.TIMEOUT,
                       f"no reply to seq {seq} (level {level}) within {self.timeout:g} s; "
                       "the engine's process group was killed")
        except _TooLong:
            self._fail(proc, Failure.LINE_TOO_LONG, self._too_long(f"in reply to seq {seq}"))
        except _Eof as eof:
            self._gone(proc, eof.partial, f"while running seq {seq} (level {level})")
        reply = self._parse(proc, line, f"the reply to seq {seq}")
        problem = None if _plain_reply(reply) else message_problem("reply", reply)
        if problem:
            self._fail(proc, Failure.BAD_MESSAGE, f"the reply to seq {seq} {problem}")
        if reply["seq"] != seq:
            self._fail(proc, Failure.WRONG_SEQ,
                       f"the reply carries seq {reply['seq']}, the request in flight is seq {seq}")
        if "unsupported" in reply:
            raise UnsupportedCase(reply["unsupported"])
        if "errored" in reply:
            raise ProcessEngineError(Failure.ERRORED, _clip(reply["errored"], 2000))
        observation: dict[str, JSON] = reply["observation"]
        problem = observation_problem(level, observation)
        if problem:
            raise ProcessEngineError(Failure.BAD_OBSERVATION,
                                     f"the {level} observation of seq {seq} {problem}")
        return observation


def _plain_reply(reply: JSON) -> bool:
    """A quick test that implies ``reply.json``; the schema explains the other cases."""
    if type(reply) is not dict or len(reply) != 2:
        return False
    seq = reply.get("seq")
    if type(seq) is not int or seq < 0:
        return False
    return any(type(reply.get(key)) is kind for key, kind in _REPLY_KINDS.items())


def _no_constant(name: str) -> NoReturn:
    raise ValueError(f"{name} is not a JSON number")
