"""Leaves orphans whose environment carries an engine token that is no running engine's.

As scrubbed_orphan, but one orphan carries ``FIVEUP_ENGINE_TOKEN=bogus`` and one an empty
token: a token the harness did not hand out must not make a process nobody's.
"""

import os

from _hostile import serve, sleeper


def start() -> None:
    for token in ("bogus", ""):
        middle = os.fork()
        if middle:
            os.waitpid(middle, 0)
            continue
        sleeper(setsid=True, env={"FIVEUP_ENGINE_TOKEN": token})
        os._exit(0)


serve("forged_token", on_start=start)
