"""The pipes of an engine process: lines read whole, at once or after a wait, polled or not."""

from __future__ import annotations

import contextlib
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


_MIDDLE = """
import subprocess, sys, time
child = subprocess.Popen([sys.executable, "-c", sys.argv[1], str(__import__("os").getpid())])
print(child.pid, flush=True)
time.sleep(60)
"""
_WORKER = """
import sys, time
from fiveup.harness.pipes import die_with_parent
die_with_parent(int(sys.argv[1]))
print("ready", flush=True)
time.sleep(60)
"""


def _gone(pid: int, seconds: float) -> bool:
    """Whether ``pid`` is gone (or a zombie) within ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except (FileNotFoundError, ProcessLookupError):
            return True
        if state in ("Z", "X"):
            return True
        time.sleep(0.02)
    return False


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_a_worker_dies_with_its_parent_killed_outright() -> None:
    import subprocess

    with subprocess.Popen(
        [sys.executable, "-c", _MIDDLE, _WORKER], stdout=subprocess.PIPE, text=True
    ) as middle:
        assert middle.stdout is not None
        worker = int(middle.stdout.readline())
        try:
            assert not _gone(worker, 0.5)  # it waits, as a worker of a pool does
            middle.kill()  # kill -9: no handler, no clean-up of the parent runs
            middle.wait()
            assert _gone(worker, 10)
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.kill(worker, 9)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_a_worker_whose_parent_is_gone_already_ends_at_once() -> None:
    import subprocess

    done = subprocess.run(
        [sys.executable, "-c", _WORKER, "1"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 1 and "ready" not in done.stdout


def test_stop_pool_kills_the_pools_workers_and_no_other_child_of_the_process() -> None:
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    from fiveup.harness.pipes import pool_workers, stop_pool

    context = multiprocessing.get_context("spawn")
    mine = context.Process(target=time.sleep, args=(60,))  # a caller's own child
    mine.start()
    pool = ProcessPoolExecutor(1, mp_context=context)
    try:
        pool.submit(time.sleep, 60)
        deadline = time.monotonic() + 60
        while not pool_workers(pool) and time.monotonic() < deadline:
            time.sleep(0.05)
        (worker,) = pool_workers(pool)
        stop_pool(pool)
        assert not worker.is_alive()
        assert mine.is_alive()  # running the command line in-process kills nothing of its own
    finally:
        mine.kill()
        mine.join(5)


def test_starting_workers_without_signal_masks_still_defers_signals_and_restores_handlers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import signal

    from fiveup.harness import pipes

    monkeypatch.setattr(pipes, "_MASKS", False)  # as on Windows, which has no pthread_sigmask
    before = signal.getsignal(signal.SIGTERM)
    with pytest.raises(KeyboardInterrupt), pipes.starting_workers():
        signal.raise_signal(signal.SIGINT)  # recorded, then raised again as the block ends
        assert signal.getsignal(signal.SIGTERM) is not before
    assert signal.getsignal(signal.SIGTERM) is before
