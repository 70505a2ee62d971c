"""The engine contract: what an engine under test provides, and the levels it may play.

An engine answers one request per case. A request carries only what the case gives (the
start and the actions, never the expected values); the engine answers with an *observation*:
everything it sees after playing the request, in the shapes of ``spec/protocol.md``. The
harness compares the observation with the case's expectations itself.

The same request and observation travel as JSON over the process protocol, so a Python engine
and an engine in another language are checked by the same case runner.
"""

from __future__ import annotations

import enum
from typing import Any, Final, NotRequired, Protocol, TypedDict, runtime_checkable

__all__ = [
    "DEFAULT_ENGINE",
    "ENTRY_POINT_GROUP",
    "JSON",
    "Engine",
    "EngineInfo",
    "Level",
    "checks_observations",
    "validates_requests",
]

ENTRY_POINT_GROUP: Final = "fiveup.engines"
"""The entry-point group in which Python engines register under a name."""
DEFAULT_ENGINE: Final = "reference"
"""The engine certified when none is named: the reference, found by its entry point."""


class Level(enum.Enum):
    """What an engine can play; a case needs exactly one level."""

    SCORING = "scoring"
    """The pure scoring functions: credit, displayed, penalty, side_penalty, tally."""
    LAYOUT = "layout"
    """Placements on a table without hands: connection points, counted ends, credits."""
    ROUND = "round"
    """Whole rounds from a stacked deal: turns, drawing, passing, going out, blocks, penalties."""
    MATCH = "match"
    """Several rounds: openers, the target, ties and the winner."""
    MOVES = "moves"
    """Move counts from a round position: the legal actions, and the action sequences to a
    depth (perft). Optional: an engine that does not declare it still conforms at the others."""


class EngineInfo(TypedDict):
    """An engine's identity, sent in the handshake."""

    name: str
    version: str
    protocol: int
    levels: list[str]
    """The levels claimed whole: every feature of each (may be empty when ``features`` is not)."""
    features: NotRequired[list[str]]
    """Optional: features claimed one by one, ``"<level>.<feature>"`` (``"scoring.credit"``).

    The claim is the union of ``levels`` and ``features`` (spec/protocol.md, "Handshake"); an
    engine without the key claims exactly its levels, as before."""


JSON = Any
"""A JSON-shaped value: dict, list, str, int, bool or None."""


@runtime_checkable
class Engine(Protocol):
    """A Five Up engine under test: two methods.

    ``run`` receives ``level`` (one of the ``levels`` in ``info``) and ``given`` (the case's
    start and actions, see ``spec/protocol.md``) and returns the observation. It reports an
    action the rules forbid inside the observation (``error`` with the rule ID), not by raising;
    an exception means the engine itself failed.

    Optional capabilities are attributes beyond these two, read only through the functions of
    this module: :func:`validates_requests`, :func:`checks_observations`. An engine that
    implements only some features of a level claims them in ``info()["features"]``
    (``["scoring.credit"]``) or carries them as a ``features`` attribute (a list of the same
    strings); the harness sends it only the cases of what it claims.
    """

    def info(self) -> EngineInfo:
        """Name, version, protocol version and supported levels."""
        ...

    def run(self, level: str, given: dict[str, JSON]) -> dict[str, JSON]:
        """Play one case's start and actions; return what the engine observes."""
        ...


# Optional capabilities: attributes an engine may have beyond the two methods, each read here.


def validates_requests(engine: object) -> bool:
    """Whether ``engine`` checks each request's ``given`` itself (``validates_requests = True``).

    A server then skips the schema check of a request the engine answers, and asks the schema
    only when the engine fails (the reference engine has it).
    """
    return bool(getattr(engine, "validates_requests", False))


def checks_observations(engine: object) -> bool:
    """Whether ``engine``'s observations are already shape-checked (``checks_observations``).

    A process engine checks every reply against the schemas as it reads it; the runner then
    skips its own check.
    """
    return bool(getattr(engine, "checks_observations", False))
