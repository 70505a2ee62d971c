"""Answers every case twice, in one write: the second reply is output nobody asked for.

Before a later request the harness finds it; after the run's last case there is none, so the
harness must find it when it stops the engine.
"""

import json

from _hostile import Message, right, serve


def run(request: Message) -> str:
    line = json.dumps(right(request)) + "\n"
    return line + line


serve("double_reply", on_run=run)
