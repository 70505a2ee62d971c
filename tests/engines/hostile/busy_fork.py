"""Forks a child that spins in a busy loop forever, deaf to polite signals, then plays fair."""

import os

from _hostile import deaf, detach_stdio, serve


def spin() -> None:
    if os.fork() == 0:
        detach_stdio()
        deaf()
        while True:
            pass


serve("busy_fork", on_start=spin)
