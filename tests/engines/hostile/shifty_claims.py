"""Crashes at its first case, and starts again as another engine.

Its first start leaves a marker file (ARGS[0]); a later start that finds it names itself
``other-engine``. The run was judged and is reported for the first engine: the restart must be
refused, not taken as the engine's word. Under the sandbox the marker cannot be written
(a read-only filesystem), so every start is the first one, and only the crash is seen.
"""

import os

from _hostile import ARGS, Message, serve

LATER = os.path.exists(ARGS[0])


def start() -> None:
    if not LATER:
        try:
            with open(ARGS[0], "w", encoding="ascii") as fh:
                fh.write("started\n")
        except OSError:
            pass


def run(request: Message) -> Message | None:
    if not LATER:
        os._exit(3)
    return None


serve("other-engine" if LATER else "shifty_claims", on_start=start, on_run=run)
