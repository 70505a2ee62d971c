"""Floods stderr from a thread, as fast as it can and forever, while it answers right."""

import sys
import threading

from _hostile import serve

CHUNK = b"noise " * 10_000


def flood() -> None:
    while True:
        sys.stderr.buffer.write(CHUNK)


def start() -> None:
    threading.Thread(target=flood, daemon=True).start()


serve("stderr_torrent", on_start=start)
