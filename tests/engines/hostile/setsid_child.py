"""Starts a child in a session of its own (setsid) that sleeps forever, deaf to SIGTERM.

Killing the engine's process group does not reach it; it must still die with certify.
"""

from _hostile import serve, sleeper


def start() -> None:
    sleeper(setsid=True)


serve("setsid_child", on_start=start)
