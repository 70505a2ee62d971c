"""Grows a tree of 39 sleeping processes (3 levels of 3), every other one in its own session."""

import os
import signal

from _hostile import deaf, detach_stdio, serve


def grow(depth: int) -> None:
    for branch in range(3):
        if os.fork() == 0:
            detach_stdio()
            deaf()
            if (depth + branch) % 2:
                os.setsid()
            if depth < 3:
                grow(depth + 1)
            while True:
                signal.pause()


def start() -> None:
    if os.fork() == 0:  # the first child stays too: 1 + 3 + 9 + 27 processes
        detach_stdio()
        deaf()
        grow(1)
        while True:
            signal.pause()


serve("process_tree", on_start=start)
