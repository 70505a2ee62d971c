"""Leaves behind a program under another name: `sleep 3600` in its own session.

Nothing in its command line says where it came from; the MARKER is in its environment.
"""

import os
import subprocess

from _hostile import MARKER, serve


def start() -> None:
    subprocess.Popen(
        ["sleep", "3600"],
        start_new_session=True,
        env={**os.environ, "HOSTILE_MARKER": MARKER},
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


serve("renamed_child", on_start=start)
