"""Starts a child in a session of its own whose first thread ends while another runs on.

The child's main thread calls ``pthread_exit``: ``/proc/<pid>/stat`` then says ``Z`` for the
whole process, which lives on in its second thread, deaf to polite signals. A harness that takes
that state for death leaves it running after certify.
"""

import time

from _hostile import serve, sleeper

LEADER_EXITS = (
    "import ctypes, signal, threading, time\n"
    "for s in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):\n"
    "    signal.signal(s, signal.SIG_IGN)\n"
    "def live():\n"
    "    while True:\n"
    "        time.sleep(60)\n"
    "threading.Thread(target=live).start()\n"
    "time.sleep(0.1)\n"
    "ctypes.CDLL(None).pthread_exit(None)\n"
)


def start() -> None:
    child = sleeper(setsid=True, code=LEADER_EXITS)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:  # ready only once the child looks dead
        with open(f"/proc/{child.pid}/stat", "rb") as fh:
            stat = fh.read()
        if stat[stat.rfind(b")") + 2 :].startswith(b"Z"):
            return
        time.sleep(0.01)


serve("zombie_leader", on_start=start)
