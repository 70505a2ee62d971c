"""Pipe I/O with one engine process: bounded line reads, deadlines, and every process killed.

:class:`EngineProcess` owns one running engine: its stdin and stdout in non-blocking mode, a
thread that drains its stderr into a bounded :class:`Tail`, and a finalizer that kills the
engine's whole :class:`Family` at garbage collection and at exit. It knows nothing of the
protocol's messages.

A :class:`Family` is every process the engine started, however it tried to get away: on Linux
the harness makes itself a *child subreaper* (``prctl(PR_SET_CHILD_SUBREAPER)``, no privilege
needed), so a descendant whose parent dies (a ``setsid`` child, a double-forked daemon) is
re-parented to the harness instead of to init, and the family is found in ``/proc`` when it is
killed. Elsewhere (macOS, the BSDs) only the engine's process group is killed, as before:
descendants that leave it with ``setsid`` survive there.

POSIX only: stdout is read with ``selectors``.
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import os
import resource
import secrets
import selectors
import signal
import subprocess
import sys
import threading
import time
import weakref
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any, Final

from .polling import Credit

__all__ = [
    "TOKEN_VARIABLE",
    "EndOfOutput",
    "EngineProcess",
    "Family",
    "LineTooLong",
    "Tail",
    "Timeout",
    "become_subreaper",
    "become_worker",
    "continue_stopped",
    "descendants",
    "die_with_parent",
    "kill_descendants",
    "pool_manager",
    "pool_workers",
    "start_resource_tracker",
    "starting_workers",
    "stop_pool",
    "tracks_descendants",
]

_CHUNK = 1 << 16

TOKEN_VARIABLE = "FIVEUP_ENGINE_TOKEN"
"""The environment variable that marks the processes of one engine: a fresh value per start."""

_PR_SET_CHILD_SUBREAPER = 36
_PR_SET_PDEATHSIG = 1
_KILL_SECONDS = 5.0
"""How long killing a family may take before what is left is given up on."""
_FREEZE_ROUNDS = 100


class EndOfOutput(Exception):
    """The engine closed its stdout; ``partial`` is what it wrote after its last newline."""

    def __init__(self, partial: bytes) -> None:
        """The stream ended after ``partial``."""
        super().__init__()
        self.partial = partial


class Timeout(Exception):
    """The deadline passed before the engine wrote a whole line (or read its input)."""


class LineTooLong(Exception):
    """The engine wrote more than the limit without a newline: a flood."""


class Tail:
    """The last ``limit`` bytes of a stream, filled by a draining thread."""

    def __init__(self, limit: int) -> None:
        """Keep at most ``limit`` bytes."""
        self._limit = limit
        self._data = bytearray()
        self._lock = threading.Lock()

    def add(self, chunk: bytes) -> None:
        """Append ``chunk``, dropping the oldest bytes beyond the limit."""
        with self._lock:
            self._data += chunk
            if len(self._data) > self._limit:
                del self._data[: len(self._data) - self._limit]

    def text(self) -> str:
        """What is kept, decoded leniently."""
        with self._lock:
            return self._data.decode("utf-8", "replace").strip()


def _drain(stream: Any, tail: Tail) -> None:
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


# --------------------------------------------------------------------------- the family


def tracks_descendants() -> bool:
    """True when every descendant of an engine is found and killed (Linux, with ``/proc``).

    Elsewhere only the engine's process group is killed: a descendant that calls ``setsid``
    survives the engine there.
    """
    return sys.platform.startswith("linux") and os.path.exists("/proc/self/stat")


@functools.cache
def become_subreaper() -> bool:
    """Make this process the child subreaper of all its descendants; True when it is.

    An orphaned descendant is then re-parented to this process instead of to init, so it can
    still be found (and reaped). Linux only, and needs no privilege; the attribute lasts for the
    life of the process.
    """
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return bool(libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0)
    except (OSError, AttributeError):
        return False


def die_with_parent(parent: int) -> None:
    """Be killed (SIGKILL) when the process ``parent`` ends, even by ``kill -9`` (Linux).

    For a worker of ``--jobs``: its tasks reach it through pipes it holds both ends of, so a
    harness killed outright would leave it waiting on them forever. Called first thing in the
    worker (a pool's ``initializer``): a parent gone already ends it at once. Elsewhere, and
    where the call fails, nothing is done.
    """
    if not sys.platform.startswith("linux"):
        return
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:  # it ended before the request was made
        os._exit(1)


def start_resource_tracker() -> None:
    """Start multiprocessing's resource tracker, deaf to SIGHUP as it is to SIGINT and SIGTERM.

    It shares the process group: a closed terminal's SIGHUP killed it, and the pool started
    another, which printed a warning and a traceback for every semaphore it had not seen.
    Call it before a pool of ``--jobs`` starts; a tracker already running is kept.
    """
    from multiprocessing import resource_tracker

    hangup = getattr(signal, "SIGHUP", None)
    if hangup is None or threading.current_thread() is not threading.main_thread():
        resource_tracker.ensure_running()
        return
    previous = signal.signal(hangup, signal.SIG_IGN)  # inherited by the tracker it starts
    try:
        resource_tracker.ensure_running()
    finally:
        signal.signal(hangup, previous)


_ENDING: Final = tuple(
    getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)
)
"""The signals that end a run: Ctrl-C, ``kill``, a closed terminal."""
_MASKS: Final = hasattr(signal, "pthread_sigmask")
"""Whether signals can be blocked (not on Windows, where the workers are not born deaf)."""


@contextlib.contextmanager
def starting_workers() -> Iterator[None]:
    """Within: workers started are born deaf to Ctrl-C, and this process's signals wait.

    A signal that lands while a pool starts its processes (inside its locks and queues) could
    leave the pool hung, and a worker not yet at :func:`become_worker` died of Ctrl-C with a
    traceback. So :data:`_ENDING` are recorded, not acted on, until the block ends, when the
    first is raised again at once; and SIGINT is blocked, a mask the workers inherit (as
    multiprocessing's resource tracker does). Main thread only; elsewhere nothing changes.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []

    def later(signum: int, frame: object) -> None:
        caught.append(signum)

    previous: dict[int, Any] = {}
    try:
        previous.update({signum: signal.signal(signum, later) for signum in _ENDING})
        if _MASKS:
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        yield
    finally:
        if _MASKS:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})  # a pending one: caught
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        if caught:
            signal.raise_signal(caught[0])


def stop_pool(pool: Executor) -> None:
    """End a pool of ``--jobs`` that did not finish: nothing more runs, its workers are killed.

    The workers are killed and reaped through multiprocessing itself: a child reaped behind
    its back (:func:`kill_descendants`) stays alive in its books for ever, and the pool's
    thread then waits for it at exit. That thread is waited for too (5 s at most) as it sees
    them gone and closes its pipes: at exit, Python would otherwise write to one it is
    closing, and print the OSError after the command's last line.
    """
    manager = pool_manager(pool)  # shutdown forgets them
    workers = pool_workers(pool)
    pool.shutdown(wait=False, cancel_futures=True)
    for worker in workers:
        worker.kill()
    for worker in workers:
        worker.join(5)
    if manager is not None and manager is not threading.current_thread():
        manager.join(5)


def pool_manager(pool: Executor) -> threading.Thread | None:
    """The thread a process pool runs its work from (None when it has none, or not yet)."""
    manager = getattr(pool, "_executor_manager_thread", None)
    return manager if isinstance(manager, threading.Thread) else None


def pool_workers(pool: Executor) -> list[Any]:
    """The worker processes of a process pool (``multiprocessing.Process``), this pool's only.

    Not every child of this process: a program running the command line in-process may have
    children of its own.
    """
    processes = getattr(pool, "_processes", None)
    return list(processes.values()) if isinstance(processes, dict) else []


def become_worker(parent: int) -> None:
    """Start a worker of ``--jobs``: it dies with ``parent``, and leaves Ctrl-C to it.

    See :func:`die_with_parent`. A terminal's Ctrl-C reaches the whole process group; the
    parent ends the run and kills its workers, so a worker that took it too would only print a
    traceback of its own.
    """
    die_with_parent(parent)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if _MASKS:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})  # as starting_workers left it


@dataclass(frozen=True, slots=True)
class _Stat:
    """What ``/proc/<pid>/stat`` says of one process."""

    ppid: int
    session: int
    start: int
    """Start time in clock ticks since boot: a later process has a larger one."""
    zombie: bool
    """Ended and not yet reaped: every thread of the process, its first thread included."""
    stopped: bool = False
    """Stopped by a signal (SIGSTOP, SIGTSTP...) or by a tracer: state ``T`` or ``t``."""


def _stat(pid: int) -> _Stat | None:
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            data = fh.read()
    except OSError:
        return None
    fields = data[data.rfind(b")") + 2 :].split()  # the name may hold spaces and brackets
    try:
        return _Stat(
            int(fields[1]),
            int(fields[3]),
            int(fields[19]),
            # The state is the first thread's: one that ended by pthread_exit leaves a zombie
            # leader while the other threads run on. Dead only once no other thread is left.
            fields[0] in (b"Z", b"X") and int(fields[17]) <= 1,
            fields[0] in (b"T", b"t"),
        )
    except (IndexError, ValueError):
        return None


def _table() -> dict[int, _Stat]:
    """Every process of the system that ``/proc`` shows, by pid."""
    try:
        names = os.listdir("/proc")
    except OSError:
        return {}
    table = {}
    for name in names:
        stat = _stat(int(name)) if name.isdigit() else None
        if stat is not None:
            table[int(name)] = stat
    return table


def _token_of(pid: int) -> str | None:
    """The engine token in the environment ``pid`` started with, if it can be read."""
    prefix = TOKEN_VARIABLE.encode() + b"="
    try:
        with open(f"/proc/{pid}/environ", "rb") as fh:
            entries = fh.read().split(b"\0")
    except OSError:
        return None
    for entry in entries:
        if entry.startswith(prefix):
            return entry[len(prefix) :].decode("ascii", "replace")
    return None


def _descendants(table: Mapping[int, _Stat], seeds: Iterable[int]) -> set[int]:
    """``seeds`` and every process below them in the parent chain."""
    children: dict[int, list[int]] = {}
    for pid, stat in table.items():
        children.setdefault(stat.ppid, []).append(pid)
    found: set[int] = set()
    todo = list(seeds)
    while todo:
        pid = todo.pop()
        if pid not in found:
            found.add(pid)
            todo.extend(children.get(pid, ()))
    return found


def _signal(pid: int, signum: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.kill(pid, signum)


def _reap(pid: int) -> None:
    with contextlib.suppress(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)


_live_lock = threading.Lock()
_live: dict[str, int] = {}
"""The token and root pid of every engine process started and not yet killed."""


def _live_tokens() -> set[str]:
    """The tokens of the engines of this process that are running now."""
    with _live_lock:
        return set(_live)


class Family:
    """One engine's processes: the one the harness started, and every one it started in turn.

    A process belongs to the family when it is the root, descends from the root, is in the
    root's session, carries the family's token in its environment, or is an orphan the harness
    adopted as subreaper (its parent is the harness, it is not one of the harness's own
    engines, it is outside the harness's session, it started after the root and it carries no
    other live engine's token: a made-up one is no token); and so do all the processes below
    those. A descendant can leave its session and its process group, clear or forge its
    environment and change its name, but it cannot start before the engine, re-enter the
    harness's session or escape the subreaper.
    """

    def __init__(self, root: int, token: str) -> None:
        """The family of the process ``root``, started with ``token`` in its environment."""
        self.root = root
        self.token = token
        stat = _stat(root) if tracks_descendants() else None
        self.start = stat.start if stat is not None else 0
        with _live_lock:
            _live[token] = root

    def members(self) -> dict[int, _Stat]:
        """Every process of the family still in ``/proc`` (zombies included), by pid."""
        table = _table()
        with _live_lock:
            others = {root for token, root in _live.items() if token != self.token}
        me, session = os.getpid(), os.getsid(0)
        seeds = [
            pid
            for pid, stat in table.items()
            if pid != me and pid not in others and self._claims(pid, stat, me, session)
        ]
        return {pid: table[pid] for pid in _descendants(table, seeds) if pid != me}

    def _claims(self, pid: int, stat: _Stat, me: int, session: int) -> bool:
        if pid == self.root:
            return stat.start == self.start  # not a later process that reuses the pid
        if stat.session == session or stat.start < self.start:
            return False
        if stat.session == self.root:
            return True  # still in the engine's session, wherever its parent went
        token = _token_of(pid)
        if token == self.token:
            return True
        if token is not None and token in _live_tokens():
            return False  # another engine's: its family claims it
        return stat.ppid == me  # an orphan with no token, or one no engine of this run has

    def kill(self, popen: subprocess.Popen[bytes]) -> None:
        """SIGKILL every process of the family and reap the ones re-parented to the harness.

        Each process is stopped first (SIGSTOP), until a look at ``/proc`` finds no new one,
        so none can fork while the others die. Without ``/proc``, the process group is killed.
        """
        try:
            if tracks_descendants():
                for pid in self._freeze():
                    _signal(pid, signal.SIGKILL)
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(popen.pid, signal.SIGKILL)
            with contextlib.suppress(subprocess.TimeoutExpired):
                popen.wait(_KILL_SECONDS)
            if tracks_descendants():
                self._bury()
        finally:
            with _live_lock:
                _live.pop(self.token, None)

    def _freeze(self) -> set[int]:
        frozen: set[int] = set()
        for _ in range(_FREEZE_ROUNDS):
            new = [p for p, stat in self.members().items() if p not in frozen and not stat.zombie]
            if not new:
                break
            for pid in new:
                _signal(pid, signal.SIGSTOP)
            frozen.update(new)
        return frozen

    def _bury(self) -> None:
        """Wait until no process of the family is left, reaping the harness's adopted ones."""
        me = os.getpid()
        deadline = time.monotonic() + _KILL_SECONDS
        while time.monotonic() < deadline:
            left = self.members()
            left.pop(self.root, None)  # reaped by its Popen, or beyond help
            waiting = False
            for pid, stat in left.items():
                if not stat.zombie:
                    _signal(pid, signal.SIGKILL)  # one that was forking while the others froze
                elif stat.ppid == me:
                    _reap(pid)
                waiting = waiting or not stat.zombie or stat.ppid in left or stat.ppid == me
            if not waiting:
                return
            time.sleep(0.002)


def continue_stopped(pids: Collection[int]) -> None:
    """Send SIGCONT to each of ``pids`` that a signal stopped.

    A worker of ``fuzz --jobs`` is its engine's parent, so the engine can SIGSTOP it; the pool
    would then wait for it for ever. Only the workers are named: an orphan of an engine
    re-parented here may be stopped on purpose, by the freeze that precedes its kill.
    """
    for pid in pids:
        stat = _stat(pid)
        if stat is not None and stat.stopped:
            _signal(pid, signal.SIGCONT)


def descendants() -> set[int]:
    """The processes below this one now (empty where ``/proc`` does not tell)."""
    if not tracks_descendants():
        return set()
    me = os.getpid()
    return _descendants(_table(), [me]) - {me}


def kill_descendants(spare: Collection[int] = ()) -> None:
    """SIGKILL every process below this one but ``spare``, and reap those re-parented to it.

    What is left when the workers of ``fuzz --jobs`` died before they could end their engines
    (an engine that killed its parent, the worker): with this process their subreaper, the
    engines' processes came to it, wherever they went. Linux only.
    """
    if not tracks_descendants():
        return
    me = os.getpid()
    deadline = time.monotonic() + _KILL_SECONDS
    while time.monotonic() < deadline:
        table = _table()
        below = _descendants(table, [me]) - {me} - set(spare)
        alive = [pid for pid in below if not table[pid].zombie]
        for pid in alive:
            _signal(pid, signal.SIGSTOP)
        for pid in alive:
            _signal(pid, signal.SIGKILL)
        for pid in below:
            if table[pid].ppid == me:
                _reap(pid)
        if not below:
            return
        time.sleep(0.002)


# --------------------------------------------------------------------------- the process


def memory_limiter(limit: int) -> Callable[[], None]:
    """What the engine's process runs before its ``exec``: ``RLIMIT_DATA`` set to ``limit``.

    Soft and hard, so the engine cannot raise it again, and inherited by every process it
    starts (bubblewrap's too). Set in the child, not from outside after the start: a sandbox
    forks its engine before the harness could reach it. A C function and its arguments, so the
    forked child runs no Python code; a limit above this process's own hard limit is lowered
    to it (setrlimit would fail, and the start with it).
    """
    _, hard = resource.getrlimit(resource.RLIMIT_DATA)
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    return functools.partial(resource.setrlimit, resource.RLIMIT_DATA, (limit, limit))


class EngineProcess:
    """One running engine: its pipes, its stdout buffer and its drained stderr."""

    def __init__(
        self,
        argv: Sequence[str],
        cwd: str | os.PathLike[str] | None,
        env: Mapping[str, str] | None,
        max_line: int,
        tail_bytes: int,
        memory: int | None = None,
    ) -> None:
        """Start ``argv`` in a new session with piped standard streams.

        The environment (``env``, else this process's) gains :data:`TOKEN_VARIABLE`, which
        marks the engine's processes; on Linux the harness becomes their subreaper first.
        ``memory`` bounds the engine's data memory (:func:`memory_limiter`); it costs the start a
        ``fork`` of this process instead of a ``vfork`` (a few milliseconds of CPU).
        """
        become_subreaper()
        token = secrets.token_hex(12)
        environment = dict(os.environ if env is None else env)
        environment[TOKEN_VARIABLE] = token
        self.popen = subprocess.Popen(
            list(argv),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            bufsize=0,
            cwd=cwd,
            env=environment,
            start_new_session=True,
            preexec_fn=None if memory is None else memory_limiter(memory),
        )
        self.family = Family(self.popen.pid, token)
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
        self._credit = Credit()
        self.tail = Tail(tail_bytes)
        self._stderr_thread = threading.Thread(
            target=_drain,
            args=(self.popen.stderr, self.tail),
            daemon=True,
            name=f"engine-stderr-{self.popen.pid}",
        )
        self._stderr_thread.start()
        # Also at garbage collection and interpreter exit: no engine outlives the harness.
        self._killer = weakref.finalize(self, _kill_family, self.popen, self.family)
        self.input_closed = False
        """True once a write found the engine's stdin closed: it reads no more requests."""

    def send(self, data: bytes, deadline: float) -> None:
        """Write all of ``data``; a closed pipe sets :attr:`input_closed`, for the caller.

        An engine that exited is reported by the read that follows, as EOF.
        """
        view = memoryview(data)
        while view:
            try:
                view = view[os.write(self._in, view) :]
                continue
            except BlockingIOError:
                pass
            except (BrokenPipeError, ConnectionResetError):
                self.input_closed = True
                return
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not self._writable.select(remaining):
                raise Timeout

    def _fill(self, timeout: float, spin: float = 0.0) -> bool:
        """Read what is available within ``timeout``; False when nothing came.

        What is there already is read at once. Otherwise the pipe is polled for up to ``spin``
        seconds, giving the processor away between polls, before the wait blocks: a reply
        expected within microseconds is then taken without waking this process up again.
        """
        if self._eof:
            raise EndOfOutput(bytes(self._buf))
        chunk: bytes | None = None
        try:
            chunk = os.read(self._out, _CHUNK)
        except BlockingIOError:
            if spin > 0 and timeout > 0 and self._credit.worth_polling():
                chunk = self._spin(min(spin, timeout))
                self._credit.polled(chunk is not None)
        if chunk is None:
            if timeout <= 0 or not self._readable.select(timeout):
                return False
            try:
                chunk = os.read(self._out, _CHUNK)
            except BlockingIOError:
                return False
        if not chunk:
            self._eof = True
            raise EndOfOutput(bytes(self._buf))
        self._buf += chunk
        return True

    def _spin(self, seconds: float) -> bytes | None:
        """What the pipe gives within ``seconds`` of polling (None: nothing yet)."""
        until = time.monotonic() + seconds
        while time.monotonic() < until:
            os.sched_yield()
            try:
                return os.read(self._out, _CHUNK)
            except BlockingIOError:
                continue
        return None

    def read_line(self, deadline: float, spin: float = 0.0) -> bytes:
        """The next line of stdout without its newline, read before ``deadline``.

        ``spin``: how long to poll for it before blocking (see :meth:`_fill`).
        """
        while True:
            end = self._buf.find(b"\n", self._scanned)
            if end >= 0:
                if end > self._max_line:
                    raise LineTooLong
                line = bytes(self._buf[:end])
                del self._buf[: end + 1]
                self._scanned = 0
                return line
            self._scanned = len(self._buf)
            if self._scanned > self._max_line:
                raise LineTooLong
            remaining = deadline - time.monotonic()
            filled = remaining > 0 and self._fill(remaining, spin)
            if remaining <= 0 or (not filled and time.monotonic() >= deadline):
                raise Timeout

    @property
    def partial(self) -> bytes:
        """What the engine wrote of a line it has not ended yet (after a :class:`Timeout`)."""
        return bytes(self._buf)

    def unrequested(self) -> bytes | None:
        """Whatever the engine wrote on stdout since the last line was read, without waiting."""
        if not self._buf:
            self._fill(0.0)
        return bytes(self._buf) if self._buf else None

    def wait_exit(self, seconds: float) -> int | None:
        """The exit status once the process exits within ``seconds``, else None.

        The process is not reaped, so its pid (and process group id) stays reserved until
        :meth:`kill` has killed the family.
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

    def stopped(self) -> int | None:
        """The pid of a process of the engine that is stopped by a signal or a tracer, else None.

        The engine's own process is looked at first, then the others of its family (under a
        sandbox the engine runs below bwrap). Always None where ``/proc`` cannot tell.
        """
        if not tracks_descendants() or not self._killer.alive:
            return None
        root = _stat(self.popen.pid)
        if root is not None and root.stopped:
            return self.popen.pid
        return min((p for p, stat in self.family.members().items() if stat.stopped), default=None)

    def kill(self) -> None:
        """Kill every process of the engine's family, reap them and release the pipes."""
        if not self._killer.alive:
            return
        self._killer()
        self._readable.close()
        self._writable.close()
        self._stderr_thread.join(1.0)


def _kill_family(popen: subprocess.Popen[bytes], family: Family) -> None:
    family.kill(popen)
    for stream in (popen.stdin, popen.stdout):  # stderr belongs to its draining thread
        if stream is not None:
            stream.close()
