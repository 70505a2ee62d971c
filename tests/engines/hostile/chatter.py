"""Answers every case twice, both lines in one write."""

import json

from _hostile import Message, right, serve


def run(request: Message) -> str:
    line = json.dumps(right(request)) + "\n"
    return line + line


serve("chatter", on_run=run)
