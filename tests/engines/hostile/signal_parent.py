"""Starts a child in a session of its own, deaf to SIGTERM, then sends its parent the signal
named by its argument (``KILL``, ``TERM``, ``STOP``) at the first case; then plays fair.

Under ``fiveup fuzz --jobs`` the parent is a worker of the pool, not the process that handles
signals: a killed worker must fail the campaign in one sentence, a stopped one must not hang
it, and the child must die either way.
"""

import contextlib
import os
import signal

from _hostile import ARGS, Message, serve, sleeper

SIGNAL = getattr(signal, f"SIG{ARGS[0] if ARGS else 'TERM'}")
struck = False


def strike(request: Message) -> None:
    global struck
    if not struck:
        struck = True
        sleeper(setsid=True)
        with contextlib.suppress(OSError):
            os.kill(os.getppid(), SIGNAL)


serve("signal_parent", on_run=strike)
