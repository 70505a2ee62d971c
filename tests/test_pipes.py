"""The pipes of an engine process: lines read whole, at once or after a wait, polled or not."""

from __future__ import annotations

import os
import resource
import sys
import time
from pathlib import Path

import pytest

from fiveup.harness.pipes import EngineProcess, Timeout, memory_limiter
from fiveup.harness.process import DEFAULT_MEMORY, MIN_MEMORY


def _process(script: str) -> EngineProcess:
    return EngineProcess([sys.executable, "-c", script], None, None, 1 << 20, 4096)


@pytest.mark.parametrize("spin", [0.0, 0.001])
def test_a_line_that_comes_after_the_polling_is_still_read(spin: float) -> None:
    proc = _process("import time; time.sleep(0.05); print('late', flush=True)")
    try:
        assert proc.read_line(time.monotonic() + 30, spin) == b"late"
    finally:
        proc.kill()


def test_lines_already_there_are_read_at_once_one_by_one() -> None:
    proc = _process("print('one'); print('two', flush=True); import time; time.sleep(5)")
    try:
        assert proc.read_line(time.monotonic() + 30, 0.001) == b"one"
        assert proc.read_line(time.monotonic() + 30, 0.001) == b"two"
        assert proc.unrequested() is None
        with pytest.raises(Timeout):
            proc.read_line(time.monotonic() + 0.05, 0.001)
    finally:
        proc.kill()


def _data_limit(pid: int) -> str:
    line = next(x for x in Path(f"/proc/{pid}/limits").read_text().splitlines() if "data" in x)
    return " ".join(line.split()[3:5])


@pytest.mark.skipif(not os.path.exists("/proc/self/limits"), reason="read through /proc")
def test_an_engine_and_its_children_get_the_memory_limit_soft_and_hard() -> None:
    script = (
        "import subprocess, sys\n"
        "sys.stdin.readline()\n"  # the limit is set by then: the harness sets it, then writes
        "print(open('/proc/self/limits').read().count('134217728'), flush=True)\n"
        "child = subprocess.run([sys.executable, '-c', 'x = bytearray(256 << 20)'])\n"
        "print(child.returncode, flush=True)\n"
        "import resource\n"
        "try:\n"
        "    resource.setrlimit(resource.RLIMIT_DATA, (1 << 30, 1 << 30))\n"
        "except ValueError:\n"
        "    print('cannot raise it', flush=True)\n"
    )
    proc = EngineProcess([sys.executable, "-c", script], None, None, 1 << 20, 4096, 128 << 20)
    deadline = time.monotonic() + 60
    proc.send(b"go\n", deadline)
    assert proc.read_line(deadline) == b"2"  # soft and hard
    assert proc.read_line(deadline) == b"1"  # the child's allocation failed: MemoryError
    assert proc.read_line(deadline) == b"cannot raise it"
    proc.kill()
    free = _process("import time; time.sleep(30)")
    try:
        assert _data_limit(free.popen.pid) == "unlimited unlimited"
    finally:
        free.kill()
    assert MIN_MEMORY < DEFAULT_MEMORY <= 4 << 30


def test_a_memory_limit_above_the_harnesss_own_hard_limit_is_lowered_to_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    script = "import sys; sys.stdin.readline(); print(open('/proc/self/limits').read())"
    with monkeypatch.context() as patched:  # this process's limits stay as they are
        patched.setattr(resource, "getrlimit", lambda which: (1 << 30, 1 << 40))
        limiter = memory_limiter(2 << 40)
    assert limiter.args == (resource.RLIMIT_DATA, (1 << 40, 1 << 40))  # type: ignore[attr-defined]
    assert memory_limiter(MIN_MEMORY).args[1] == (MIN_MEMORY, MIN_MEMORY)  # type: ignore[attr-defined]
    proc = EngineProcess([sys.executable, "-c", script], None, None, 1 << 20, 4096, MIN_MEMORY)
    deadline = time.monotonic() + 60
    proc.send(b"go\n", deadline)
    lines = [proc.read_line(deadline) for _ in range(6)]
    proc.kill()
    assert any(b"Max data size" in line and str(MIN_MEMORY).encode() in line for line in lines)
