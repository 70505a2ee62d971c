"""Pipe I/O with one engine process: bounded line reads, deadlines and a killed group.

:class:`EngineProcess` owns one running engine: its stdin and stdout in non-blocking mode, a
thread that drains its stderr into a bounded :class:`Tail`, and a finalizer that kills its whole
process group at garbage collection and at exit. It knows nothing of the protocol's messages.

POSIX only: stdout is read with ``selectors`` and the process group is killed with ``killpg``.
"""

from __future__ import annotations

import contextlib
import os
import selectors
import signal
import subprocess
import threading
import time
import weakref
from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["EndOfOutput", "EngineProcess", "LineTooLong", "Tail", "Timeout"]

_CHUNK = 1 << 16


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


class EngineProcess:
    """One running engine: its pipes, its stdout buffer and its drained stderr."""

    def __init__(
        self,
        argv: Sequence[str],
        cwd: str | os.PathLike[str] | None,
        env: Mapping[str, str] | None,
        max_line: int,
        tail_bytes: int,
    ) -> None:
        """Start ``argv`` in a new session with piped standard streams."""
        self.popen = subprocess.Popen(
            list(argv),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            bufsize=0,
            cwd=cwd,
            env=None if env is None else dict(env),
            start_new_session=True,
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
        self.tail = Tail(tail_bytes)
        self._stderr_thread = threading.Thread(
            target=_drain,
            args=(self.popen.stderr, self.tail),
            daemon=True,
            name=f"engine-stderr-{self.popen.pid}",
        )
        self._stderr_thread.start()
        # Also at garbage collection and interpreter exit: no engine outlives the harness.
        self._killer = weakref.finalize(self, _kill_group, self.popen)

    def send(self, data: bytes, deadline: float) -> None:
        """Write all of ``data``; a closed pipe is left for the read to report as EOF."""
        view = memoryview(data)
        while view:
            try:
                view = view[os.write(self._in, view) :]
                continue
            except BlockingIOError:
                pass
            except (BrokenPipeError, ConnectionResetError):
                return
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not self._writable.select(remaining):
                raise Timeout

    def _fill(self, timeout: float) -> bool:
        """Read what is available within ``timeout``; False when nothing came."""
        if self._eof:
            raise EndOfOutput(bytes(self._buf))
        if not self._readable.select(max(timeout, 0.0)):
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

    def read_line(self, deadline: float) -> bytes:
        """The next line of stdout without its newline, read before ``deadline``."""
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
            if remaining <= 0 or (not self._fill(remaining) and time.monotonic() >= deadline):
                raise Timeout

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
