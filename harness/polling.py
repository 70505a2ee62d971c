"""Polling for the other side's line before blocking on it, while polling pays.

Both sides of the process protocol wait for each other's line in turn, one request in flight
(``spec/protocol.md``). A line that comes within microseconds is taken sooner by polling for it,
giving the processor away between polls, than by blocking: a process that blocks is put to sleep
and must be woken up again, which costs tens of microseconds a line on a machine whose cores are
otherwise idle. Polling in vain costs processor time instead, so each side polls only while its
polls keep finding lines (:class:`Credit`). The harness polls for replies
(:class:`~fiveup.harness.pipes.EngineProcess`), ``fiveup engine`` for requests
(:func:`~fiveup.harness.server.serve`).
"""

from __future__ import annotations

import os
import select
import stat
import time
from typing import Final

__all__ = ["SPIN", "Credit", "InputPoller"]

SPIN: Final = 0.0002
"""Seconds to poll for the other side's line before blocking: long enough for a harness that has
its next request ready, or an engine about to answer; short enough to cost little when not."""


class Credit:
    """Whether polling pays: one credit per line taken while polling, less two per poll in vain.

    At zero a wait blocks at once, except every :attr:`RETRY` waits, when it polls again to see
    whether the other side has become quick.
    """

    MOST: Final = 8
    RETRY: Final = 64

    def __init__(self) -> None:
        """Half the most credit, to start."""
        self.credit = self.MOST // 2
        self.waits = 0

    def worth_polling(self) -> bool:
        """Whether to poll before this wait (each call counts a wait)."""
        self.waits += 1
        return self.credit > 0 or self.waits % self.RETRY == 0

    def polled(self, came: bool) -> None:
        """Record a poll: ``came`` when the line came while polling."""
        self.credit = min(self.credit + 1, self.MOST) if came else self.credit - 2


class InputPoller:
    """Polls a file descriptor for input before a read that would block (pipes and sockets).

    A stream that never blocks (a regular file) or is not backed by a descriptor gets none
    (:meth:`of`): reading it waits for nothing.
    """

    def __init__(self, fd: int, seconds: float = SPIN) -> None:
        """Poll ``fd`` for up to ``seconds`` before each wait that polling pays for."""
        self.seconds = seconds
        self.credit = Credit()
        self._poll = select.poll()
        self._poll.register(fd, select.POLLIN)

    @classmethod
    def of(cls, stream: object, seconds: float = SPIN) -> InputPoller | None:
        """A poller for the pipe or socket ``stream`` reads from; None for any other stream."""
        fileno = getattr(stream, "fileno", None)
        if fileno is None:
            return None
        try:
            fd = fileno()
            mode = os.fstat(fd).st_mode
        except (OSError, ValueError):  # io.UnsupportedOperation is both
            return None
        if not isinstance(fd, int) or not (stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)):
            return None
        if not hasattr(select, "poll"):  # Windows: a pipe is read as it was, blocking at once
            return None
        return cls(fd, seconds)

    def wait(self) -> None:
        """Poll until input is there, for up to :attr:`seconds`, when polling pays."""
        if not self.credit.worth_polling():
            return
        poll = self._poll.poll
        until = time.monotonic() + self.seconds
        while not poll(0):
            if time.monotonic() >= until:
                self.credit.polled(False)
                return
            _give_way()
        self.credit.polled(True)


_give_way = getattr(os, "sched_yield", lambda: time.sleep(0))
"""Let another runnable process have the processor between two polls."""
