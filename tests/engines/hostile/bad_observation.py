"""Answers with an observation of the wrong shape: a string where a number belongs."""

from _hostile import Message, serve


def run(request: Message) -> Message:
    return {"seq": request["seq"], "observation": {"value": "five"}}


serve("bad_observation", on_run=run)
