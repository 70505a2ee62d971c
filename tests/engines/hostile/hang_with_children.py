"""At its first case, starts three setsid sleepers and hangs without answering."""

import time

from _hostile import Message, serve, sleeper


def run(request: Message) -> Message:
    for _ in range(3):
        sleeper(setsid=True)
    while True:
        time.sleep(60)


serve("hang_with_children", on_run=run)
