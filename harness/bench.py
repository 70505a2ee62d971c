"""Speed of any engine: the time it takes to answer a list of requests.

Timing is done through the :class:`~fiveup.contract.engine.Engine` protocol, so an in-process
engine and one in another process are measured the same way; an answer that is an error counts
as answered (and is counted), so a fast engine that fails shows as failing, not as fast.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from fiveup.contract.engine import JSON, Engine

__all__ = ["RequestFigures", "time_requests"]


@dataclass(frozen=True, slots=True)
class RequestFigures:
    """How long one engine took to answer some requests of one level."""

    engine: str
    requests: int
    errors: int
    seconds: float
    wrong: int = 0
    """Requests answered, but not as the reference answers them (when compared)."""

    @property
    def per_second(self) -> float:
        """Requests answered per second."""
        return self.requests / self.seconds if self.seconds else 0.0


def time_requests(
    engine: Engine,
    name: str,
    level: str,
    requests: Sequence[dict[str, JSON]],
    answers: list[JSON | Exception] | None = None,
) -> RequestFigures:
    """Send every request of ``level`` to ``engine`` once, in order, and time the whole.

    ``answers``, when given, gets each answer (or the exception raised), to be compared after.
    """
    errors = 0
    keep = answers.append if answers is not None else None
    start = time.perf_counter()
    for given in requests:
        answer: JSON | Exception
        try:
            answer = engine.run(level, given)
        except Exception as exc:  # an untrusted engine may fail in any way; it is counted
            errors += 1
            answer = exc
        if keep is not None:
            keep(answer)
    return RequestFigures(name, len(requests), errors, time.perf_counter() - start)
