"""The README's test command beside busy loops: the suite must pass on a machine that is not idle.

Run from the repository root: ``.venv/bin/python tests/busy_check.py [--loops N] [PYTEST ARGS]``.
It starts N (default 2) processes that spin on the CPU, runs ``.venv/bin/pytest`` with the given
arguments beside them, stops the loops as soon as the suite ends (or after ``--limit`` seconds,
when the suite is stopped too), and prints the suite's exit code, wall time and CPU time (user and
system, of the suite and every process it waited for). Its exit code is the suite's.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SPIN = "while True: pass"


def _arguments(argv: list[str]) -> tuple[argparse.Namespace, list[str]]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--loops", type=int, default=2, help="busy loops beside the suite (2)")
    parser.add_argument(
        "--limit", type=float, default=1800.0, help="seconds before everything is stopped (1800)"
    )
    args, rest = parser.parse_known_args(argv)
    if not 0 <= args.loops <= 4 * (os.cpu_count() or 1):
        parser.error(f"--loops {args.loops}: between 0 and four per CPU")
    if args.limit <= 0:
        parser.error(f"--limit {args.limit}: must be positive")
    return args, rest


def main(argv: list[str]) -> int:
    """Run the suite beside the loops and print what it took."""
    args, rest = _arguments(argv)
    pytest = ROOT / ".venv" / "bin" / "pytest"
    command = [str(pytest) if pytest.exists() else "pytest", *rest]
    loops = [subprocess.Popen([sys.executable, "-c", SPIN]) for _ in range(args.loops)]
    try:
        start = time.monotonic()
        suite = subprocess.Popen(command, cwd=ROOT, start_new_session=True)
        if not _ended(suite.pid, args.limit):
            os.killpg(suite.pid, signal.SIGKILL)
            suite.wait()
            print(f"busy check: the suite did not end within {args.limit:.0f} s and was stopped")
            return 1
        _, status, usage = os.wait4(suite.pid, 0)
        suite.returncode = os.waitstatus_to_exitcode(status)
        wall = time.monotonic() - start
    finally:
        for loop in loops:
            loop.kill()
            loop.wait()
    print(
        f"busy check: {' '.join(command)} beside {args.loops} busy loops: exit code "
        f"{suite.returncode}, {wall:.1f} s wall, {usage.ru_utime:.1f} s user + "
        f"{usage.ru_stime:.1f} s sys CPU"
    )
    return suite.returncode


def _ended(pid: int, limit: float) -> bool:
    """True once the process has ended (left unreaped for wait4's usage); False at the limit."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None:
            return True
        time.sleep(0.5)
    return False


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
