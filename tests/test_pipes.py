"""The pipes of an engine process: lines read whole, at once or after a wait, polled or not."""

from __future__ import annotations

import sys
import time

import pytest

from fiveup.harness.pipes import EngineProcess, Timeout


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
