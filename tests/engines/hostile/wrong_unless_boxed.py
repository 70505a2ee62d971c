"""Right only inside bubblewrap (its own PID namespace, where bwrap is process 1): outside it,
every value is off (a number by five, a tally by a fifty). ``--sandbox`` must run it boxed."""

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
    if isinstance(value, dict):
        reply["observation"]["value"] = {**value, "fifties": value["fifties"] + 1}
    else:
        reply["observation"]["value"] = value + 5
    return reply


serve("wrong_unless_boxed", on_run=run)
