"""At its first case, starts a setsid child that inherits stdout, and exits without answering.

The child keeps the pipe open, so the harness never sees the end of the output.
"""

import os
import subprocess
import sys

from _hostile import MARKER, SLEEPER, Message, serve


def run(request: Message) -> Message:
    subprocess.Popen(
        [sys.executable, "-c", SLEEPER, MARKER], start_new_session=True, stdin=subprocess.DEVNULL
    )
    os._exit(0)


serve("child_holds_stdout", on_run=run)
