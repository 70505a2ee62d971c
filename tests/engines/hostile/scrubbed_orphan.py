"""Leaves an orphan that carries nothing of the engine: an empty environment, its own session.

A middle process starts it and exits at once, so the orphan is re-parented. The MARKER is in
its command line only, for the test to find it.
"""

import os

from _hostile import serve, sleeper


def start() -> None:
    middle = os.fork()
    if middle:
        os.waitpid(middle, 0)
        return
    sleeper(setsid=True, env={})
    os._exit(0)


serve("scrubbed_orphan", on_start=start)
