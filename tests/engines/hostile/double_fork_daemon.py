"""Daemonizes a child the classic way: fork, setsid, fork again, the middle one exits.

The daemon is nobody's child but init's (or the subreaper's) and sleeps forever.
"""

import os

from _hostile import detach_stdio, serve, sleep_forever


def daemonize() -> None:
    middle = os.fork()
    if middle:
        os.waitpid(middle, 0)
        return
    os.setsid()
    if os.fork():
        os._exit(0)
    detach_stdio()
    os.chdir("/")
    sleep_forever()


serve("double_fork_daemon", on_start=daemonize)
