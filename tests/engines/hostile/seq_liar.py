"""Answers right, but with a seq one higher than the request's."""

from _hostile import Message, right, serve


def run(request: Message) -> Message:
    reply = right(request)
    reply["seq"] += 1
    return reply


serve("seq_liar", on_run=run)
