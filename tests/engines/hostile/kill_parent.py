"""Sends SIGTERM to its parent, the harness, as soon as it starts; then plays fair.

It exits at the end of its input, as an engine should, once the harness is gone.
"""

import contextlib
import os
import signal

from _hostile import serve


def strike() -> None:
    with contextlib.suppress(OSError):
        os.kill(os.getppid(), signal.SIGTERM)


serve("kill_parent", on_start=strike)
