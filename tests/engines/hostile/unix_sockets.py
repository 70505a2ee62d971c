"""Connects to the UNIX socket at a path and to an abstract one, and sends its marker to each.

ARGS[0] and ARGS[1] are the path and the name in hexadecimal: an engine knows such a path by
heart, and a path its command named would be bound into the sandbox on purpose.

It plays right only when either connection worked, and answers `errored` otherwise.
"""

import socket

from _hostile import ARGS, MARKER, Message, right, serve

failures: list[str] = []
reached = False


def call() -> None:
    global reached
    for address in (bytes.fromhex(ARGS[0]).decode(), "\0" + bytes.fromhex(ARGS[1]).decode()):
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
                sock.settimeout(2)
                sock.connect(address)
                sock.sendall(MARKER.encode())
            reached = True
        except OSError as exc:
            failures.append(f"{address!r}: {exc}")


def run(request: Message) -> Message:
    if reached:
        return right(request)
    return {"seq": request["seq"], "errored": f"no socket: {'; '.join(failures)}"}


serve("unix_sockets", on_start=call, on_run=run)
