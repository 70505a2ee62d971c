"""Opens a TCP connection to 127.0.0.1:ARGS[0] and sends its marker, then answers.

It plays right only when the connection worked, and answers `errored` otherwise.
"""

import socket

from _hostile import ARGS, MARKER, Message, right, serve

failure = "never tried"


def call() -> None:
    global failure
    try:
        with socket.create_connection(("127.0.0.1", int(ARGS[0])), timeout=2) as sock:
            sock.sendall(MARKER.encode())
        failure = ""
    except OSError as exc:
        failure = str(exc)


def run(request: Message) -> Message:
    if not failure:
        return right(request)
    return {"seq": request["seq"], "errored": f"no network: {failure}"}


serve("phone_home", on_start=call, on_run=run)
