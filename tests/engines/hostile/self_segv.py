"""Kills itself with SIGSEGV in the middle of its first case."""

import os
import signal

from _hostile import Message, serve


def run(request: Message) -> Message:
    os.kill(os.getpid(), signal.SIGSEGV)
    raise AssertionError("unreachable")


serve("self_segv", on_run=run)
