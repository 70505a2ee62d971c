"""Right only inside bubblewrap (its own PID namespace, where bwrap is process 1): outside it,
every credit is off by five. ``fuzz --sandbox`` must run it boxed; ``fuzz`` runs it plain."""

from _hostile import Message, right, serve


def _boxed() -> bool:
    try:
        with open("/proc/1/comm", encoding="ascii") as fh:
            return fh.read().strip() == "bwrap"
    except OSError:
        return False


BOXED = _boxed()


def run(request: Message) -> Message | None:
    if BOXED:
        return None
    reply = right(request)
    value = reply["observation"]["value"]
    if isinstance(value, int):
        reply["observation"]["value"] = value + 5
    return reply


serve("wrong_unless_boxed", on_run=run)
