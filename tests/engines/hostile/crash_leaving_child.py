"""Starts a setsid sleeper at every start, then dies (exit 3) at its first case.

Every restart leaves one more orphan, unless the harness kills them each time.
"""

import sys

from _hostile import Message, serve, sleeper


def start() -> None:
    sleeper(setsid=True)


def run(request: Message) -> Message:
    sys.stderr.write("crash_leaving_child: goodbye\n")
    sys.exit(3)


serve("crash_leaving_child", on_start=start, on_run=run)
