"""Hands the conversation to a forked child and exits: the child answers, deaf to signals,
and ignores stop. The process the harness started is long gone by then.

(The child waits a moment first; under the sandbox it dies with its PID namespace by then.)
"""

import os
import time

from _hostile import deaf, serve, sleep_forever


def start() -> None:
    if os.fork():
        os._exit(0)
    deaf()
    time.sleep(0.2)


serve("handoff", on_start=start, on_stop=sleep_forever)
