"""Closes its stdin at its first case, answers it, and goes on living, deaf to polite signals.

The next request cannot be written (stdin is closed before the reply the harness waits for):
the engine must be reported at once, not after a timeout.
"""

import os

from _hostile import Message, right, send, serve, sleep_forever


def run(request: Message) -> Message:
    os.close(0)
    send(right(request))
    sleep_forever()


serve("close_stdin", on_run=run)
