"""Everything the harness does differently for each level, in one record per level.

A case needs one level (:class:`fiveup.contract.engine.Level`); the level decides how the
request is built from the case (spec/protocol.md), which schema its observation follows, what
of its expectation is compared and how (spec/fixtures.md), how a refusal is replayed, and where
the report finds a layout to show. :data:`LEVELS` holds one :class:`LevelSpec` for each, so
the runner, the corpus and the report look the level up instead of branching on it.

Each level has *features* (spec/README.md, "Conformance"): every case belongs to exactly one,
decided by the level from the case's ``given`` (a scoring case's ``function``; one feature,
named like the level, for the others). An engine claims levels whole or features one by one
(spec/protocol.md, "Handshake"); :class:`Claims` is what it claims.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from itertools import chain
from types import MappingProxyType
from typing import Final

from fiveup.contract.engine import JSON, EngineInfo, Level
from fiveup.contract.players import side_count

from .compare import Difference, Row, compare, rows_for

__all__ = ["LEVELS", "Claims", "LevelSpec", "feature_of", "optional_feature"]


@dataclass(frozen=True, slots=True)
class LevelSpec:
    """What one level is to the harness."""

    level: Level
    request: Callable[[Mapping[str, JSON]], dict[str, JSON]]
    """Builds the request's ``given`` (spec/protocol.md) from a case's ``given``."""
    schema: str
    """The protocol schema its observation follows (``observation-<level>``)."""
    expects: tuple[str, ...]
    """The keys at the top of its expectation, in the order they are compared."""
    error_keys: tuple[str, ...]
    """The keys of a named ``error`` compared with the engine's (never ``message``)."""
    script: str | None
    """The request's list of placements or actions, cut before a refused one for the replay
    that checks the refusal left the game unchanged; None: a refusal is not replayed."""
    played: str | None
    """The list of a case's ``given`` that is played in order (placements, actions or the
    match's rounds), which fuzzing cuts to shrink a divergence; None: nothing is played."""
    replayed: tuple[str, ...]
    """The keys of the observation the replay must leave exactly as they were."""
    layout_at: tuple[str, ...] | None
    """Where a layout sits in its observation (the keys leading to it); None: nowhere."""
    credit_at: str | None
    """The list whose last entry holds the credit of the placement that led to the layout
    (``steps``; ``events``, where the last event must be a placement); None: no credit."""
    rows: tuple[Row, ...]
    """The rows of the comparison table (spec/fixtures.md) that apply at this level."""
    features: tuple[str, ...]
    """The level's features, in the order reports name them."""
    feature: Callable[[Mapping[str, JSON]], str]
    """The feature a case's ``given`` belongs to (one of ``features``)."""
    optional: tuple[str, ...] = ()
    """The optional features: a declined case of one never fails the run, claimed or not (the
    paper tally; the corpus tags their cases ``optional``, fresh cases follow this)."""

    def compare(self, expect: Mapping[str, JSON], observation: JSON) -> list[Difference]:
        """Every difference between a case's expectations and an engine's observation."""
        return compare(self.rows, self.expects, self.error_keys, expect, observation)

    def expectation(self, observation: Mapping[str, JSON]) -> dict[str, JSON]:
        """What a case expects that expects all a baseline observed.

        A refusal's message aside: its rule and its place are checked, its words are the
        engine's own.
        """
        expect = {key: observation[key] for key in self.expects if key in observation}
        error = expect.pop("error", None)
        if isinstance(error, dict):  # a null error is what a case that names none expects
            expect["error"] = {key: value for key, value in error.items() if key != "message"}
        return expect

    def prefix(self, given: Mapping[str, JSON], at: int) -> dict[str, JSON]:
        """The request ``given`` with its script cut before the action at index ``at``."""
        if self.script is None:
            raise ValueError(f"a {self.level.value} case is not replayed")
        cut = dict(given)
        cut[self.script] = list(given[self.script])[:at]
        return cut

    def layout_of(self, observation: JSON) -> JSON:
        """The layout of an observation, or None when it has none (or is not an object)."""
        if self.layout_at is None:
            return None
        value = observation
        for key in self.layout_at:
            if not isinstance(value, dict):
                return None
            value = value.get(key)
        return value

    def table_of(self, observation: JSON) -> tuple[dict[str, JSON], int | None] | None:
        """An observation's (or expectation's) layout and the credit that led to it, or None."""
        layout = self.layout_of(observation)
        return (layout, self.credit_of(observation)) if isinstance(layout, dict) else None

    def credit_of(self, observation: JSON) -> int | None:
        """The credit of the placement that led to an observation's (or expectation's) layout.

        None when the level has no such list, the list is empty or malformed, or (for events)
        its last entry is not a placement.
        """
        steps = observation.get(self.credit_at) if isinstance(observation, dict) else None
        if self.credit_at is None or not isinstance(steps, list) or not steps:
            return None
        last = steps[-1]
        if not isinstance(last, dict) or (self.credit_at == "events" and "play" not in last):
            return None
        credit = last.get("credit")
        return credit if isinstance(credit, int) and not isinstance(credit, bool) else None


# --------------------------------------------------------------------------- requests


def _as_given(given: Mapping[str, JSON]) -> dict[str, JSON]:
    return dict(given)


def _deck(start: Mapping[str, JSON]) -> list[JSON]:
    deck: list[JSON] = list(chain.from_iterable(start["hands"]))
    deck.extend(start["boneyard"])
    return deck


def _scores(given: Mapping[str, JSON]) -> list[JSON]:
    if "scores" in given:
        return list(given["scores"])
    return [0] * side_count(given["players"])


def _round_request(given: Mapping[str, JSON]) -> dict[str, JSON]:
    return {
        "players": given["players"],
        "deck": _deck(given),
        "opener": given["opener"],
        "scores": _scores(given),
        "actions": list(given["actions"]),
    }


def _moves_request(given: Mapping[str, JSON]) -> dict[str, JSON]:
    request = _round_request(given)
    request["depth"] = given["depth"]
    request["divide"] = bool(given.get("divide", False))
    return request


def _match_round(start: Mapping[str, JSON]) -> dict[str, JSON]:
    item: dict[str, JSON] = {"deck": _deck(start), "actions": list(start["actions"])}
    if "opener" in start:
        item["opener"] = start["opener"]
    return item


def _match_request(given: Mapping[str, JSON]) -> dict[str, JSON]:
    return {
        "players": given["players"],
        "scores": _scores(given),
        "rounds": [_match_round(r) for r in given["rounds"]],
    }


# --------------------------------------------------------------------------- features

_SCORING_FEATURES: Final = ("credit", "displayed", "penalty", "side_penalty", "tally")


def _function(given: Mapping[str, JSON]) -> str:
    return str(given["function"])


def _whole(level: Level) -> Callable[[Mapping[str, JSON]], str]:
    def feature(given: Mapping[str, JSON]) -> str:
        return level.value

    return feature


# --------------------------------------------------------------------------- the registry

LEVELS: Final[Mapping[Level, LevelSpec]] = MappingProxyType(
    {
        Level.SCORING: LevelSpec(
            level=Level.SCORING,
            request=_as_given,
            schema="observation-scoring",
            expects=("value",),
            error_keys=(),
            script=None,
            played=None,
            replayed=(),
            layout_at=None,
            credit_at=None,
            rows=rows_for(Level.SCORING),
            features=_SCORING_FEATURES,
            feature=_function,
            optional=("tally",),
        ),
        Level.LAYOUT: LevelSpec(
            level=Level.LAYOUT,
            request=_as_given,
            schema="observation-layout",
            expects=("steps", "layout", "error"),
            error_keys=("at", "rule"),
            script="placements",
            played="placements",
            replayed=("steps", "layout"),
            layout_at=("layout",),
            credit_at="steps",
            rows=rows_for(Level.LAYOUT),
            features=("layout",),
            feature=_whole(Level.LAYOUT),
        ),
        Level.ROUND: LevelSpec(
            level=Level.ROUND,
            request=_round_request,
            schema="observation-round",
            expects=("events", "state", "error"),
            error_keys=("at", "rule"),
            script="actions",
            played="actions",
            replayed=("events", "state"),
            layout_at=("state", "layout"),
            credit_at="events",
            rows=rows_for(Level.ROUND),
            features=("round",),
            feature=_whole(Level.ROUND),
        ),
        Level.MATCH: LevelSpec(
            level=Level.MATCH,
            request=_match_request,
            schema="observation-match",
            expects=("rounds", "over", "winner", "scores", "error"),
            error_keys=("round", "at", "rule"),
            script=None,
            played="rounds",
            replayed=(),
            layout_at=None,
            credit_at=None,
            rows=rows_for(Level.MATCH),
            features=("match",),
            feature=_whole(Level.MATCH),
        ),
        Level.MOVES: LevelSpec(
            level=Level.MOVES,
            request=_moves_request,
            schema="observation-moves",
            expects=("legal", "count", "divide", "error"),
            error_keys=("at", "rule"),
            script="actions",
            played="actions",
            replayed=("legal", "count", "divide"),
            layout_at=None,
            credit_at=None,
            rows=rows_for(Level.MOVES),
            features=("moves",),
            feature=_whole(Level.MOVES),
        ),
    }
)
"""The record of every level."""


def feature_of(level: Level, given: Mapping[str, JSON]) -> str:
    """The feature of a case of ``level`` with this ``given``: ``credit``, ``layout``..."""
    return LEVELS[level].feature(given)


def optional_feature(level: Level, given: Mapping[str, JSON]) -> bool:
    """True when the case of ``level`` with this ``given`` is of an optional feature."""
    return feature_of(level, given) in LEVELS[level].optional


@dataclass(frozen=True, slots=True)
class Claims:
    """What an engine claims: levels whole, and features one by one (spec/protocol.md)."""

    features: frozenset[tuple[Level, str]] = frozenset()
    """Every claimed (level, feature), those of a level claimed whole included."""

    @staticmethod
    def of(info: EngineInfo | None) -> Claims:
        """The claims of a handshake: the union of its ``levels`` and its ``features``."""
        if info is None:
            return Claims()
        claimed: set[tuple[Level, str]] = set()
        for name in info["levels"]:
            level = Level(name)
            claimed.update((level, feature) for feature in LEVELS[level].features)
        for text in info.get("features", []):
            name, _, feature = text.partition(".")
            level = Level(name)
            if feature in LEVELS[level].features:
                claimed.add((level, feature))
        return Claims(frozenset(claimed))

    def touches(self, level: Level) -> bool:
        """True when some feature of ``level`` is claimed: its cases are sent."""
        return any(claimed == level for claimed, _ in self.features)

    def claims(self, level: Level, given: Mapping[str, JSON]) -> bool:
        """True when the feature of the case of ``level`` with this ``given`` is claimed."""
        return (level, feature_of(level, given)) in self.features

    def whole(self, level: Level) -> bool:
        """True when every feature of ``level`` is claimed."""
        return all((level, f) in self.features for f in LEVELS[level].features)

    @property
    def touched_levels(self) -> list[str]:
        """The levels with a claimed feature, in the order of the protocol."""
        return [level.value for level in Level if self.touches(level)]

    @property
    def claimed(self) -> list[str]:
        """What is claimed, for a conclusion: ``["scoring (credit)", "layout"]``."""
        return Claims.named(self.features)

    @property
    def unclaimed(self) -> list[str]:
        """What is not claimed: ``["scoring (displayed, penalty)", "round"]``."""
        every = {(level, f) for level in Level for f in LEVELS[level].features}
        return Claims.named(every - self.features)

    @property
    def partial(self) -> bool:
        """True when some level is claimed in part only."""
        return any(self.touches(level) and not self.whole(level) for level in Level)

    def of_level(self, level: Level) -> tuple[str, ...]:
        """The claimed features of ``level``, in the order the level lists them."""
        return tuple(f for f in LEVELS[level].features if (level, f) in self.features)

    @staticmethod
    def named(features: Iterable[tuple[Level, str]]) -> list[str]:
        """Some features as a conclusion names them: ``["scoring (tally)", "layout"]``.

        A level all of whose features are given is named alone, as in :attr:`claimed`.
        """
        given = set(features)
        out = []
        for level in Level:
            these = [f for f in LEVELS[level].features if (level, f) in given]
            if these:
                whole = len(these) == len(LEVELS[level].features)
                out.append(level.value if whole else f"{level.value} ({', '.join(these)})")
        return out

    def feature_names(self, claimed: bool = True) -> list[str]:
        """The claimed (or unclaimed) features as ``"<level>.<feature>"``, in protocol order."""
        return [
            f"{level.value}.{f}"
            for level in Level
            for f in LEVELS[level].features
            if ((level, f) in self.features) is claimed
        ]
