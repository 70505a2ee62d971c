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
from collections.abc import Callable
from typing import Any, Final, NotRequired, Protocol, TypedDict, cast, runtime_checkable

__all__ = [
    "CAPABILITIES",
    "DEFAULT_ENGINE",
    "ENTRY_POINT_GROUP",
    "JSON",
    "Engine",
    "EngineInfo",
    "Level",
    "Pipelined",
    "checks_observations",
    "claimed_features",
    "closer",
    "pipelined",
    "unwrapped",
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

    Optional capabilities are attributes beyond these two (:data:`CAPABILITIES`), read only
    through the functions of this module, never by name elsewhere:

    - ``features`` (:func:`claimed_features`): an engine that implements only some features of
      a level claims them in ``info()["features"]`` (``["scoring.credit"]``) or carries them as
      a ``features`` attribute (a list of the same strings); the harness sends it only the cases
      of what it claims;
    - ``validates_requests = True`` (:func:`validates_requests`): it checks each request itself;
    - ``checks_observations = True`` (:func:`checks_observations`): its observations are
      already shape-checked;
    - ``close()`` (:func:`closer`): something to stop behind it, such as a process;
    - ``submit`` and ``collect`` (:func:`pipelined`, :class:`Pipelined`): a request can be sent
      and its reply collected later;
    - ``engine`` (:func:`unwrapped`): it runs another engine (a time limit around it, for
      instance), which the harness may look through.
    """

    def info(self) -> EngineInfo:
        """Name, version, protocol version and supported levels."""
        ...

    def run(self, level: str, given: dict[str, JSON]) -> dict[str, JSON]:
        """Play one case's start and actions; return what the engine observes."""
        ...


# Optional capabilities: attributes an engine may have beyond the two methods, each read here.

CAPABILITIES: Final = (
    "features",
    "validates_requests",
    "checks_observations",
    "close",
    "submit",
    "collect",
    "engine",
)
"""The names of the optional capabilities, read by the functions below and nowhere else."""


@runtime_checkable
class Pipelined(Protocol):
    """An engine that can send a request and collect its reply later (a process engine)."""

    def submit(
        self, level: str, given: dict[str, JSON], known: dict[str, JSON] | None = None
    ) -> None:
        """Send one request; ``known``: a schema-valid observation the reply may carry."""

    def collect(self, spin: float = 0.0) -> dict[str, JSON]:
        """The observation of the reply in flight; ``known`` itself when the reply carries it.

        ``spin``: seconds to poll for the reply before blocking.
        """


def claimed_features(engine: object) -> JSON:
    """The engine's optional ``features`` attribute as it is (None when it has none).

    Unchecked: the handshake adds it to an ``info()`` that names no features, then judges the
    whole as the ``ready`` message.
    """
    return getattr(engine, "features", None)


def closer(engine: object) -> Callable[[], object] | None:
    """The engine's ``close`` when it has one to call (a process engine), else None."""
    close = getattr(engine, "close", None)
    return cast(Callable[[], object], close) if callable(close) else None


def pipelined(engine: object) -> Pipelined | None:
    """The engine, when it can ``submit`` a request and ``collect`` its reply later; else None."""
    if callable(getattr(engine, "submit", None)) and callable(getattr(engine, "collect", None)):
        return cast(Pipelined, engine)
    return None


def unwrapped(engine: object) -> object:
    """The engine a wrapper runs (its ``engine`` attribute), or the engine itself."""
    return getattr(engine, "engine", engine)


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
