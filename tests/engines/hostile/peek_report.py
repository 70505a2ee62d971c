"""Reads the report file of an earlier run (ARGS[0], the --output path) before answering.

It plays right only when it could read something there, and answers `errored` otherwise, so
the test can tell whether the file was in reach.
"""

from _hostile import ARGS, Message, right, serve

seen = ""


def peek() -> None:
    global seen
    try:
        with open(ARGS[0]) as fh:
            seen = fh.read()
    except OSError:
        seen = ""


def run(request: Message) -> Message:
    if seen:
        return right(request)
    return {"seq": request["seq"], "errored": f"the old report {ARGS[0]} is out of sight"}


serve("peek_report", on_start=peek, on_run=run)
