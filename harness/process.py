"""Engines in any language: the harness side of the process protocol (``spec/protocol.md``).

:class:`ProcessEngine` starts an engine's command, shakes hands and then implements the
:class:`~fiveup.harness.protocol.Engine` protocol by sending one ``run`` request per case over
the engine's stdin and reading one reply line from its stdout. One process serves the whole
run; after a failure it is killed (with every process it started, see
:class:`~fiveup.harness.pipes.Family`) and the next case starts a fresh one. With a
:class:`~fiveup.harness.sandbox.Sandbox` it runs under bubblewrap, away from the corpus.

The engine is untrusted. Whatever it does (crash, hang, garbage, floods, extra lines, a wrong
protocol version) surfaces as a :class:`ProcessEngineError` (an ``EngineError``) whose ``kind``
says what went wrong; nothing blocks longer than the timeouts. A reply ``unsupported`` raises
:class:`~fiveup.errors.UnsupportedCase`.

The schemas and message checks are those of :mod:`fiveup.contract.schemas` (re-exported here
under their 1.0 names); the pipe I/O is :mod:`fiveup.harness.pipes`.
"""

from __future__ import annotations

import enum
import json
import os
import shlex
import signal
import threading
import time
from collections.abc import Mapping, Sequence
from types import TracebackType
from typing import Final, NoReturn, Self

from fiveup import PROTOCOL_VERSION
from fiveup.contract import shapes
from fiveup.contract.engine import JSON, EngineInfo
from fiveup.contract.messages import (
    COMPACT,
    Errored,
    MessageError,
    Observed,
    Ready,
    Run,
    Start,
    Stop,
    Unsupported,
    clip,
    decode,
    reply_from_json,
)
from fiveup.contract.schemas import (
    SCHEMA_NAMES,
    given_problem,
    message_problem,
    observation_problem,
    observation_schema,
    other_protocol,
    protocol_schema,
)
from fiveup.errors import EngineError, UnsupportedCase, UsageError

from .pipes import EndOfOutput, EngineProcess, LineTooLong, Timeout
from .sandbox import Sandbox
from .text import printable

__all__ = [
    "DEFAULT_MEMORY",
    "MAX_MEMORY",
    "MAX_TIMEOUT",
    "MIN_MEMORY",
    "MIN_TIMEOUT",
    "SCHEMA_NAMES",
    "Failure",
    "ProcessEngine",
    "ProcessEngineError",
    "check_memory",
    "check_seconds",
    "given_problem",
    "message_problem",
    "observation_problem",
    "protocol_schema",
    "run_line",
    "seconds_range",
]

MAX_TIMEOUT: Final = 3600.0
"""The longest time limit an engine call may be given, in seconds."""
MIN_TIMEOUT: Final = 0.05
"""The shortest time limit taken, in seconds: a limit no engine can meet (``1e-300``) would fail
the reference itself, and the report would blame the engine for the caller's mistake."""
_EXIT_GRACE = 0.5
"""How long an engine that closed its stdout may take to exit before it is killed."""


def check_seconds(value: float, name: str = "timeout", most: float = MAX_TIMEOUT) -> float:
    """``value``, when it is a time limit a clock can keep: :data:`MIN_TIMEOUT` to ``most``.

    Else UsageError naming ``name``. NaN and infinity are refused here: they pass or fail a
    comparison quietly and then break a timer deep inside a call, where the engine would be
    blamed for the caller's mistake.
    """
    if isinstance(value, bool) or not (
        isinstance(value, int | float) and MIN_TIMEOUT <= value <= most
    ):
        said = f"{name} {value!r}" if name else repr(value)
        raise UsageError(f"{said} is out of range: {seconds_range(most)}")
    return float(value)


def seconds_range(most: float = MAX_TIMEOUT) -> str:
    """What :func:`check_seconds` takes, as its messages say it."""
    return f"at least {MIN_TIMEOUT:g} and at most {most:g} seconds"


def _default_memory() -> int:
    try:
        physical = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError):
        physical = 0
    return min(4 << 30, max(MIN_MEMORY, physical // 2)) if physical > 0 else 4 << 30


MIN_MEMORY: Final = 64 << 20
"""The least data memory an engine process may be given: 64 MiB (a Python engine needs ~30)."""
MAX_MEMORY: Final = 1 << 40
"""The most: 1 TiB."""
DEFAULT_MEMORY: Final = _default_memory()
"""The data memory (``RLIMIT_DATA``) each process of an engine may use by default: 4 GiB, or
half the machine's memory when that is less. An engine that allocates without end fails to
allocate and crashes, instead of taking the machine (and the harness) down with it."""


def check_memory(value: int, name: str = "memory") -> int:
    """``value``, when it is a whole number of bytes from :data:`MIN_MEMORY` to :data:`MAX_MEMORY`.

    Else UsageError naming ``name`` (an option quotes itself and its own words).
    """
    if type(value) is not int or not MIN_MEMORY <= value <= MAX_MEMORY:
        raise UsageError(
            f"{name} is out of range: from {MIN_MEMORY >> 20:,} to {MAX_MEMORY >> 20:,} MiB"
        )
    return value


# --------------------------------------------------------------------------- errors


class Failure(enum.Enum):
    """What an engine process did wrong; the value is the reason as the report shows it."""

    CANNOT_START = "cannot start the engine"
    """The command could not be executed, or it failed to start too many times in a row."""
    CRASHED = "engine crashed"
    """The process exited (or closed its stdout) without being asked to stop."""
    TIMEOUT = "engine timed out"
    """No ready message or no reply within the timeout; the engine's processes were killed."""
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
    TOO_DEEP = "message nested too deeply"
    """A line whose JSON nests deeper than the harness reads or checks; the process restarts."""
    ERRORED = "engine reported an error"
    """The engine answered ``errored``: it could not play the case. The process lives on."""

    @property
    def restarts(self) -> bool:
        """True when the process is killed and the next case starts a new one."""
        return self not in (Failure.BAD_OBSERVATION, Failure.ERRORED)


class ProcessEngineError(EngineError):
    """An engine process misbehaved; ``kind`` says how, the message says what it did.

    ``exit_code`` is the engine's own exit status when it exited by itself (negative: killed
    by that signal); ``stderr_tail`` is the end of what it wrote on stderr; ``not_executable``
    is True when the command could not be executed at all (a missing program, no permission);
    ``stopped`` is True for a timeout while a process of the engine was stopped by a signal.
    """

    def __init__(
        self,
        kind: Failure,
        detail: str,
        *,
        exit_code: int | None = None,
        stderr_tail: str = "",
        not_executable: bool = False,
        stopped: bool = False,
    ) -> None:
        """Describe a failure of ``kind``; ``detail`` says what the engine did."""
        message = f"{kind.value}: {detail}"
        if stderr_tail:  # quoted line by line: no line of the engine's can pass for a report's
            quoted_tail = "\n".join(f"| {line}" for line in stderr_tail.split("\n"))
            message += f"\nengine stderr (tail):\n{quoted_tail}"
        super().__init__(message)
        self.kind = kind
        self.detail = detail
        self.exit_code = exit_code
        self.stderr_tail = stderr_tail
        self.not_executable = not_executable
        self.stopped = stopped


def _identity(info: EngineInfo) -> tuple[object, ...]:
    return (info["name"], sorted(info["levels"]), sorted(info.get("features", [])))


def _who(info: EngineInfo) -> str:
    """An engine's name, version and claims, printable, for a message."""
    claims = [*info["levels"], *info.get("features", [])]
    said = f"{info['name']} {info['version']} claiming {', '.join(claims) or 'nothing'}"
    return printable(clip(said, 200))


def _excerpt(data: bytes, limit: int = 120) -> str:
    return repr(clip(data.decode("utf-8", "replace"), limit))


def _describe_exit(code: int | None) -> str:
    if code is None:
        return "closed its stdout but did not exit"
    if code < 0:
        try:
            return f"was killed by signal {signal.Signals(-code).name}"
        except ValueError:
            return f"was killed by signal {-code}"
    return f"exited with code {code}"


# --------------------------------------------------------------------------- the engine

_InFlight = tuple[EngineProcess, int, str, float, dict[str, JSON] | None, bytes | None]
"""The request in flight: process, seq, level, deadline, known observation and its reply."""


class ProcessEngine:
    """An engine in another process, spoken to over the process protocol.

    ``command`` is an argv list, or a string split like a POSIX shell would (no shell runs).
    ``timeout`` bounds each case (request to reply) and ``start_timeout`` the handshake
    (default: ``timeout``), in seconds. A line longer than ``max_line_bytes`` is a flood; the
    last ``stderr_tail_bytes`` of the engine's stderr are kept for error messages. After
    ``max_failed_starts`` failed starts in a row the engine is not started again, and after
    ``max_timeouts`` cases of a level in a row without a reply in time it is not asked that
    level's cases again. With a
    ``sandbox`` the command runs under bubblewrap (checked at once: UsageError when bwrap is
    missing or cannot build the sandbox here).

    May be shared between threads: calls are serialised by a lock, one case at a time.
    """

    checks_observations: Final = True
    """Every observation it returns already follows the protocol's schemas, so the case runner
    need not check it again."""

    def __init__(
        self,
        command: str | Sequence[str],
        *,
        timeout: float = 10.0,
        start_timeout: float | None = None,
        stop_timeout: float = 2.0,
        max_line_bytes: int = 1 << 20,
        stderr_tail_bytes: int = 4096,
        max_failed_starts: int = 3,
        max_timeouts: int = 5,
        cwd: str | os.PathLike[str] | None = None,
        env: Mapping[str, str] | None = None,
        sandbox: Sandbox | None = None,
        memory: int | None = DEFAULT_MEMORY,
    ) -> None:
        """Prepare the connection; the engine starts with the first :meth:`info` or :meth:`run`.

        ``cwd`` and ``env`` are the engine's working directory and environment (default:
        inherited). ``memory`` bounds the data memory of each of its processes, in bytes
        (default :data:`DEFAULT_MEMORY`; None: unbounded); macOS may not enforce it.
        """
        if os.name != "posix":
            raise UsageError("engines in other processes need a POSIX system (Linux, macOS)")
        try:
            argv = shlex.split(command) if isinstance(command, str) else list(command)
        except ValueError as exc:  # shlex's own words: "No closing quotation", "No escaped ..."
            raise UsageError(f"the engine command {printable(str(command))}: {exc}") from None
        if not argv:
            raise UsageError("the engine command is empty")
        for name, value in (
            ("timeout", timeout),
            ("stop_timeout", stop_timeout),
            ("start_timeout", timeout if start_timeout is None else start_timeout),
        ):
            check_seconds(value, name)
        if min(max_line_bytes, max_failed_starts, max_timeouts) < 1 or stderr_tail_bytes < 0:
            raise UsageError("max_line_bytes, max_failed_starts and max_timeouts must be positive")
        self.memory = None if memory is None else check_memory(memory)
        self.command: tuple[str, ...] = tuple(argv)
        self.timeout = timeout
        self.start_timeout = timeout if start_timeout is None else start_timeout
        self.stop_timeout = stop_timeout
        self.max_line_bytes = max_line_bytes
        self.stderr_tail_bytes = stderr_tail_bytes
        self.max_failed_starts = max_failed_starts
        self.max_timeouts = max_timeouts
        self._timeouts: dict[str, int] = {}
        """By level: its cases in a row that got no reply within the time limit (an engine that
        hangs on matches only is still asked its rounds)."""
        self._cwd = cwd
        self._env = env
        self.sandbox = sandbox
        self._argv = self.command if sandbox is None else tuple(sandbox.check(argv, cwd))
        self._lock = threading.RLock()
        self._proc: EngineProcess | None = None
        self._info: EngineInfo | None = None
        self._seq = 0
        self._starts = 0
        self._failed_starts = 0
        self._last_start_error = ""
        self._refusal: str | None = None
        self._last_tail = ""
        self._in_flight: _InFlight | None = None

    # ------------------------------------------------------------------ public

    @property
    def pid(self) -> int | None:
        """The process id of the engine running now (None before it starts or after a stop)."""
        proc = self._proc
        return proc.popen.pid if proc is not None else None

    @property
    def starts(self) -> int:
        """How many engine processes were started so far (restarts included)."""
        return self._starts

    @property
    def failed_starts(self) -> int:
        """How many starts in a row failed before a ready message (0 once one succeeds)."""
        return self._failed_starts

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
            info = EngineInfo(
                name=self._info["name"],
                version=self._info["version"],
                protocol=self._info["protocol"],
                levels=list(self._info["levels"]),
            )
            if "features" in self._info:
                info["features"] = list(self._info["features"])
            return info

    def run(self, level: str, given: dict[str, JSON]) -> dict[str, JSON]:
        """Send one run request and return the observation of the reply.

        Raises :class:`ProcessEngineError` when the engine misbehaves or answers ``errored``,
        and :class:`~fiveup.errors.UnsupportedCase` when it does not play ``level`` or answers
        ``unsupported``.
        """
        with self._lock:
            self.submit(level, given)
            return self.collect()

    def submit(
        self, level: str, given: dict[str, JSON], known: dict[str, JSON] | None = None
    ) -> None:
        """Send one run request without waiting for its reply; :meth:`collect` reads it.

        The protocol stays strictly alternating: one request is in flight at a time, and the
        caller may do its own work meanwhile. Raises what :meth:`run` raises for a failure seen
        while sending, and UsageError when a request is already in flight.

        ``known`` is an observation the caller has checked against its schema already (a
        baseline's). When the reply line is, byte for byte, the reply that carries ``known``
        (compact JSON, as ``fiveup engine`` writes it), the observation *is* ``known``:
        :meth:`collect` returns it without parsing the line or checking it again. Any other
        line is read and checked as always. Those bytes are made while the engine plays.
        """
        with self._lock:
            if self._in_flight is not None:
                raise UsageError("a request is already in flight: collect its reply first")
            hung = self._timeouts.get(level, 0)
            if hung >= self.max_timeouts:  # a hung engine: a run stays bounded
                raise ProcessEngineError(
                    Failure.TIMEOUT,
                    f"not asked again: the last {hung} cases of level {printable(level)} in a "
                    f"row got no reply within {self.timeout:g} s",
                )
            proc = self._ensure()
            assert self._info is not None
            claimed = [
                *self._info["levels"],
                *(f.split(".")[0] for f in self._info.get("features", [])),
            ]
            if level not in claimed:
                raise UnsupportedCase(
                    f"the engine does not declare the level {level!r} "
                    f"(it plays {', '.join(dict.fromkeys(claimed))})"
                )
            self._seq += 1
            seq = self._seq
            request = run_line(seq, level, given)
            self._nothing_unrequested(proc, seq)
            deadline = time.monotonic() + self.timeout
            try:
                proc.send(request.encode() + b"\n", deadline)
            except Timeout:
                self._timed_out(proc, seq, level)
            if proc.input_closed and proc.wait_exit(_EXIT_GRACE) is None:
                self._fail(
                    proc,
                    Failure.CRASHED,
                    f"the engine closed its stdin but did not exit: seq {seq} (level {level}) "
                    "could not be sent",
                )
            expected = None if known is None else _reply_bytes(seq, known)
            self._in_flight = (proc, seq, level, deadline, known, expected)

    def collect(self, spin: float = 0.0) -> dict[str, JSON]:
        """The observation of the reply to the request in flight (see :meth:`submit`).

        ``spin``: seconds to poll for the reply before the wait blocks, for a caller that
        expects it within microseconds and would rather not be woken up for it.
        """
        with self._lock:
            if self._in_flight is None:
                raise UsageError("no request is in flight")
            proc, seq, level, deadline, known, expected = self._in_flight
            self._in_flight = None
            line = self._reply_line(proc, seq, level, deadline, spin)
            self._timeouts.pop(level, None)
            if known is not None and line == expected:
                return known
            reply = self._parse(proc, line, f"the reply to seq {seq}")
            return self._observation(proc, seq, level, reply)

    def close(self) -> None:
        """Ask the engine to stop, then kill whatever is left of its processes.

        Never raises. A later :meth:`run` starts a new process.
        """
        self.finish()

    def finish(self) -> str | None:
        """:meth:`close`, and what the engine wrote that nobody asked for since its last reply.

        None when its only line after its last reply is ``{"stopped": true}`` (or it wrote
        nothing, or it is gone): the last reply is then the engine's whole answer. Never raises.
        """
        with self._lock:
            proc, self._proc = self._proc, None
            self._in_flight = None
            if proc is None:
                return None
            deadline = time.monotonic() + self.stop_timeout
            problem = None
            try:
                extra = proc.unrequested()
                if extra is not None:
                    problem = f"after its last reply and before stop: {_excerpt(extra)}"
                proc.send(_STOP_LINE, deadline)
                line = proc.read_line(deadline)
                if problem is None and _a_reply(line):
                    problem = f"a reply in answer to stop: {_excerpt(line)}"
                proc.wait_exit(max(deadline - time.monotonic(), 0.0))
            except (EndOfOutput, Timeout, LineTooLong, OSError):
                pass
            proc.kill()
            self._last_tail = proc.tail.text()
            return None if problem is None else f"the engine wrote {problem}"

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"ProcessEngine({shlex.join(self.command)!r})"

    # ------------------------------------------------------------------ internals

    def _fail(
        self,
        proc: EngineProcess,
        kind: Failure,
        detail: str,
        exit_code: int | None = None,
        stopped: bool = False,
    ) -> NoReturn:
        proc.kill()
        if self._proc is proc:
            self._proc = None
        self._last_tail = tail = proc.tail.text()
        raise ProcessEngineError(
            kind, detail, exit_code=exit_code, stderr_tail=tail, stopped=stopped
        )

    def _fail_late(self, proc: EngineProcess, waited: str) -> NoReturn:
        """A timeout; said so when the engine could not answer because it is stopped."""
        partial = proc.partial
        if partial:
            waited += f", in the middle of the line {_excerpt(partial)} (no newline came)"
        pid = proc.stopped()
        if pid is None:
            self._fail(proc, Failure.TIMEOUT, f"{waited}; the engine's processes were killed")
        who = "the engine" if pid == proc.popen.pid else f"process {pid} of the engine"
        self._fail(
            proc,
            Failure.TIMEOUT,
            f"{waited}: {who} was stopped by a signal (it stopped itself, or another process or "
            "a debugger stopped it); the engine's processes were killed",
            stopped=True,
        )

    def _gone(self, proc: EngineProcess, partial: bytes, doing: str) -> NoReturn:
        code = proc.wait_exit(_EXIT_GRACE)
        how = _describe_exit(code)
        if partial:
            self._fail(
                proc,
                Failure.TRUNCATED,
                f"the engine {how} {doing}, in the middle of the line {_excerpt(partial)}",
                code,
            )
        self._fail(proc, Failure.CRASHED, f"the engine {how} {doing}", code)

    def _ensure(self) -> EngineProcess:
        if self._refusal is not None:
            raise ProcessEngineError(Failure.PROTOCOL_MISMATCH, self._refusal)
        if self._proc is not None:
            return self._proc
        if self._failed_starts >= self.max_failed_starts:
            raise ProcessEngineError(
                Failure.CANNOT_START,
                f"not started again after {self._failed_starts} failed starts in a row; "
                f"the last one: {self._last_start_error}",
            )
        try:
            self._proc = self._start()
        except ProcessEngineError as exc:
            if exc.kind is not Failure.PROTOCOL_MISMATCH:
                self._failed_starts += 1
                self._last_start_error = clip(f"{exc.kind.value}: {exc.detail}", 300)
            raise
        self._failed_starts = 0
        return self._proc

    def _start(self) -> EngineProcess:
        try:
            proc = EngineProcess(
                self._argv,
                self._cwd,
                self._env,
                self.max_line_bytes,
                self.stderr_tail_bytes,
                self.memory,
            )
        except (OSError, ValueError) as exc:  # ValueError: a NUL in the command (exec cannot)
            why = getattr(exc, "strerror", None) or str(exc)
            raise ProcessEngineError(
                Failure.CANNOT_START,
                f"cannot run {shlex.join(self.command)}: {why}",
                not_executable=True,
            ) from exc
        self._starts += 1
        deadline = time.monotonic() + self.start_timeout
        start = json.dumps(Start(PROTOCOL_VERSION).to_json())
        try:
            proc.send(start.encode() + b"\n", deadline)
            line = proc.read_line(deadline)
        except Timeout:
            self._fail_late(proc, f"no ready message within {self.start_timeout:g} s")
        except LineTooLong:
            self._fail(proc, Failure.LINE_TOO_LONG, self._too_long("instead of the ready message"))
        except EndOfOutput as eof:
            self._gone(proc, eof.partial, "before it was ready")
        ready = self._parse(proc, line, "the ready message")
        spoken = other_protocol(ready)
        if spoken is not None:
            self._refusal = (
                f"the engine speaks protocol {clip(repr(spoken), 40)}, "
                f"the harness protocol {PROTOCOL_VERSION}; every case is refused"
            )
            self._fail(proc, Failure.PROTOCOL_MISMATCH, self._refusal)
        try:
            info = Ready.from_json(ready).info()
        except MessageError as exc:
            self._fail(proc, Failure.BAD_MESSAGE, f"the ready message {exc.problem}")
        first = self._info
        if first is not None and _identity(info) != _identity(first):
            # The run was judged and reported for the engine of the first handshake: one that
            # says another name or claims other cases after a restart is not that engine (its
            # version may change: a build stamp, a process id).
            self._fail(
                proc,
                Failure.BAD_MESSAGE,
                f"the engine started again as {_who(info)}, not as {_who(first)}, the engine "
                "the run began with",
            )
        self._info = info
        return proc

    def _too_long(self, what: str) -> str:
        return (
            f"the engine wrote more than {self.max_line_bytes} bytes without a newline "
            f"{what}; it was killed"
        )

    def _parse(self, proc: EngineProcess, line: bytes, what: str) -> JSON:
        try:
            return decode(line.decode("utf-8"))
        except RecursionError:
            self._fail(proc, Failure.TOO_DEEP, f"{what} nests too deeply to read")
        except UnicodeDecodeError:
            self._fail(proc, Failure.NOT_JSON, f"{what} is not UTF-8: {_excerpt(line)}")
        except ValueError as exc:
            self._fail(proc, Failure.NOT_JSON, f"{what} is not JSON ({exc}): {_excerpt(line)}")

    def _nothing_unrequested(self, proc: EngineProcess, seq: int) -> None:
        try:
            extra = proc.unrequested()
        except EndOfOutput as eof:
            self._gone(proc, eof.partial, f"between cases, before seq {seq} was sent")
        if extra is not None:
            self._fail(
                proc,
                Failure.UNREQUESTED_OUTPUT,
                f"the engine wrote {_excerpt(extra)} while no request was in flight "
                f"(found before seq {seq} was sent)",
            )

    def _timed_out(self, proc: EngineProcess, seq: int, level: str) -> NoReturn:
        code = proc.wait_exit(0.0)
        if code is not None:
            # The engine itself is gone; a process it left holds stdout open. Blaming the time
            # limit would hide the exit, which is what the engine did.
            self._fail(
                proc,
                Failure.CRASHED,
                f"the engine {_describe_exit(code)} while seq {seq} (level {level}) ran, "
                f"without a reply; a process it started kept its stdout open until the "
                f"time limit ({self.timeout:g} s), and the engine's processes were killed",
                code,
            )
        self._timeouts[level] = self._timeouts.get(level, 0) + 1
        self._fail_late(proc, f"no reply to seq {seq} (level {level}) within {self.timeout:g} s")

    def _reply_line(
        self, proc: EngineProcess, seq: int, level: str, deadline: float, spin: float = 0.0
    ) -> bytes:
        try:
            return proc.read_line(deadline, spin)
        except Timeout:
            self._timed_out(proc, seq, level)
        except LineTooLong:
            self._fail(proc, Failure.LINE_TOO_LONG, self._too_long(f"in reply to seq {seq}"))
        except EndOfOutput as eof:
            self._gone(proc, eof.partial, f"while running seq {seq} (level {level})")

    def _observation(
        self, proc: EngineProcess, seq: int, level: str, reply: JSON
    ) -> dict[str, JSON]:
        try:
            return self._checked(proc, seq, level, reply)
        except RecursionError:
            self._fail(proc, Failure.TOO_DEEP, f"the reply to seq {seq} nests too deeply to check")

    def _checked(self, proc: EngineProcess, seq: int, level: str, reply: JSON) -> dict[str, JSON]:
        try:
            read = reply_from_json(reply)
        except MessageError as exc:
            self._fail(proc, Failure.BAD_MESSAGE, f"the reply to seq {seq} {exc.problem}")
        if read.seq != seq:
            self._fail(
                proc,
                Failure.WRONG_SEQ,
                f"the reply carries seq {read.seq}, the request in flight is seq {seq}",
            )
        if isinstance(read, Unsupported):
            raise UnsupportedCase(printable(clip(read.reason, 2000)))  # one line, as errored
        if isinstance(read, Errored):
            raise ProcessEngineError(Failure.ERRORED, printable(clip(read.reason, 2000)))
        observation = read.observation
        problem = shapes.problem(observation_schema(level), observation)
        if problem:
            raise ProcessEngineError(
                Failure.BAD_OBSERVATION, f"the {level} observation of seq {seq} {problem}"
            )
        return observation


_STOP_LINE: Final = COMPACT.encode(Stop().to_json()).encode() + b"\n"


def _a_reply(line: bytes) -> bool:
    """True for a line that is a reply to a run request (it has a ``seq``): a second answer.

    Anything else an engine says to stop is its own business: the run is over.
    """
    try:
        message = decode(line.decode("utf-8"))
    except (ValueError, RecursionError):
        return False
    return isinstance(message, dict) and "seq" in message


def run_line(seq: int, level: str, given: dict[str, JSON]) -> str:
    """The ``run`` request line the harness sends (without its newline), compact JSON."""
    try:
        return COMPACT.encode(Run(seq, level, given).to_json())
    except (TypeError, ValueError, RecursionError) as exc:
        raise UsageError(f"the case's given is not JSON: {exc}") from exc


def _reply_bytes(seq: int, observation: dict[str, JSON]) -> bytes | None:
    """The reply line that carries ``observation``, as compact JSON (None: not JSON)."""
    try:
        text = COMPACT.encode(Observed(seq, observation).to_json())
    except (TypeError, ValueError, RecursionError):
        return None
    return text.encode()
