"""Answers its first case, then closes its stdin and goes on living, deaf to polite signals.

The next request cannot be written: the engine must be reported at once, not after a timeout.
"""

import os

from _hostile import Message, right, send, serve, sleep_forever


def run(request: Message) -> Message:
    send(right(request))
    os.close(0)
    sleep_forever()


serve("close_stdin", on_run=run)
