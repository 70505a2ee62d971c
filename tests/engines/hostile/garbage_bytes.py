"""Answers every case with a line of binary garbage."""

import sys

from _hostile import Message, serve


def run(request: Message) -> Message:
    sys.stdout.buffer.write(b"\x00\xff\xfe garbage \x1b[2J\n")
    sys.stdout.flush()
    while True:  # the harness restarts it; never reached
        pass


serve("garbage_bytes", on_run=run)
