"""Answers its first case with 2 MiB and more on stdout, without a newline."""

import sys

from _hostile import Message, serve


def run(request: Message) -> Message:
    while True:
        sys.stdout.write("{" * 65536)
        sys.stdout.flush()


serve("stdout_torrent", on_run=run)
