"""Starts a child in a session of its own, deaf to SIGTERM, then sends SIGTERM to its parent,
the harness, as soon as it starts; then plays fair.

The harness ends (no report) but kills the child first. The engine exits at the end of its
input, as an engine should, once the harness is gone.
"""

import contextlib
import os
import signal

from _hostile import serve, sleeper


def strike() -> None:
    sleeper(setsid=True)
    with contextlib.suppress(OSError):
        os.kill(os.getppid(), signal.SIGTERM)


serve("kill_parent", on_start=strike)
