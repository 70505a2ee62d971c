"""At its first case, closes its stdout and goes on living, deaf to polite signals."""

import os

from _hostile import Message, serve, sleep_forever


def run(request: Message) -> Message:
    os.close(1)
    sleep_forever()


serve("close_stdout", on_run=run)
