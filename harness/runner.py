"""The case runner shared by every front end (CLI, pytest plugin, tests).

Given an engine and a case it sends the case's start and actions (never its expectations),
receives the observation, and compares it with the expectations. For a refused action it also
replays the accepted prefix and checks that the refusal left the game exactly as it was.
"""

from __future__ import annotations

import dataclasses
import enum
import json
import time
import traceback
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from fiveup.contract.engine import JSON, Engine, Level, checks_observations
from fiveup.contract.shapes import problem
from fiveup.errors import EngineError, UnsupportedCase

from .attribution import case_rule, rule_of
from .compare import MISSING, Difference, kept, same_json
from .corpus import Case
from .levels import LEVELS, Claims, feature_of
from .text import printable_lines

__all__ = [
    "CaseResult",
    "Difference",
    "ObservationCheck",
    "Status",
    "compare",
    "run_case",
    "schema_problem",
]


class Status(enum.Enum):
    """The outcome of one case."""

    PASS = "pass"
    """The engine observed everything the case expects."""
    FAIL = "fail"
    """The engine observed something else: a rule is broken."""
    ERROR = "error"
    """The engine could not answer: it crashed, hung, broke the protocol or answered garbage."""
    UNSUPPORTED = "unsupported"
    """The case needs a level the engine does not declare, or the engine declined it."""


@dataclass(frozen=True, slots=True)
class CaseResult:
    """The outcome of one case against one engine."""

    case: Case
    status: Status
    differences: tuple[Difference, ...] = ()
    message: str = ""
    observation: JSON = None
    seconds: float = 0.0
    request: JSON = None
    """The ``given`` the engine was sent (None when the case was never sent)."""

    @property
    def ok(self) -> bool:
        """True when the case passed."""
        return self.status is Status.PASS

    @property
    def rule(self) -> str:
        """The rule the result is counted under: its first difference's, else the primary."""
        return case_rule(self.case, self.differences, self.observation)


# --------------------------------------------------------------------------- comparison


def compare(level: Level, expect: Mapping[str, JSON], observation: JSON) -> list[Difference]:
    """Every difference between a case's expectations and an engine's observation."""
    return LEVELS[level].compare(expect, observation)


# --------------------------------------------------------------------------- running

ObservationCheck = Callable[[Level, JSON], str | None]
"""Checks an observation's shape; returns what is wrong, or None (default: the protocol's
JSON Schemas, so an in-process engine is held to the same shapes as a process engine)."""


def schema_problem(level: Level, observation: JSON) -> str | None:
    """What is wrong with the shape of an observation, by its level's protocol schema."""
    return problem(LEVELS[level].schema, observation)


def _unchanged(level: Level, refused: JSON, before: JSON) -> list[Difference]:
    """The state after a refused action must equal the state before it."""
    return [
        Difference(
            f"/{key}",
            _get(before, key),
            _get(refused, key),
            "a refused action changed the game: this is the state before it",
        )
        for key in LEVELS[level].replayed
        if not same_json(_get(refused, key), _get(before, key))
    ]


def _get(obj: JSON, key: str) -> JSON:
    return obj.get(key, MISSING) if isinstance(obj, dict) else MISSING


MAX_MESSAGE_CHARS = 8000
"""The longest message of a case shown (an engine's ``errored`` text, its stderr's tail)."""

_Ask = Callable[[dict[str, JSON]], JSON]


def _asker(engine: Engine, level: Level, check_shape: ObservationCheck | None) -> _Ask:
    """Sends one request; an observation of the wrong shape is the engine's error."""
    check = check_shape
    if check is None and not checks_observations(engine):
        check = schema_problem

    def ask(request: dict[str, JSON]) -> JSON:
        observation = engine.run(level.value, request)
        problem = check(level, observation) if check else None
        if problem:
            raise EngineError(f"the observation does not follow the protocol: {problem}")
        if check is schema_problem:
            _writable(observation)
        return observation

    return ask


def _writable(observation: JSON) -> None:
    """An in-process engine's observation must be JSON a report can write.

    The schemas take any integer, but Python writes none longer than 4,300 digits (a process
    engine cannot send one: the harness does not read it).
    """
    try:
        json.dumps(observation, allow_nan=False)
    except (TypeError, ValueError, RecursionError) as exc:
        raise EngineError(f"the observation is not JSON a report can hold: {exc}") from None


def _judge(case: Case, given: dict[str, JSON], ask: _Ask) -> tuple[JSON, list[Difference]]:
    """The observation of the case and its differences, a refusal replayed to its prefix."""
    spec = LEVELS[case.level]
    observation = ask(given)
    diffs = spec.compare(case.expect, observation)
    error = case.expect.get("error")
    if not diffs and isinstance(error, dict) and spec.script is not None:
        before = ask(spec.prefix(given, error["at"]))
        diffs = _unchanged(case.level, observation, before)
    return observation, diffs


def run_case(
    engine: Engine,
    case: Case,
    levels: Sequence[str] | Claims,
    check_shape: ObservationCheck | None = None,
) -> CaseResult:
    """Run one case against an engine and judge the result.

    ``levels`` is what the engine claims: a case of a level or feature it does not claim is
    not sent, and is unsupported.
    """
    start = time.perf_counter()

    def done(
        status: Status,
        message: str = "",
        diffs: Sequence[Difference] = (),
        observation: JSON = None,
    ) -> CaseResult:
        seconds = time.perf_counter() - start
        shown = printable_lines(message, MAX_MESSAGE_CHARS)
        # kept in every report of a case not passed: bounded, or a report repeats 1 MiB a case
        return CaseResult(case, status, tuple(diffs), shown, kept(observation), seconds, given)

    given = case.request()
    if isinstance(levels, Claims):
        if not levels.touches(case.level):
            return done(
                Status.UNSUPPORTED, f"the engine does not declare the level {case.level.value!r}"
            )
        if not levels.claims(case.level, case.given):
            feature = f"{case.level.value}.{feature_of(case.level, case.given)}"
            return done(Status.UNSUPPORTED, f"the engine does not claim the feature {feature!r}")
    elif case.level.value not in levels:
        return done(
            Status.UNSUPPORTED, f"the engine does not declare the level {case.level.value!r}"
        )
    ask = _asker(engine, case.level, check_shape)
    try:
        observation, diffs = _judge(case, given, ask)
    except UnsupportedCase as exc:
        return done(Status.UNSUPPORTED, str(exc))
    except EngineError as exc:
        return done(Status.ERROR, str(exc))
    except Exception as exc:  # an in-process engine's own failure is a case error, not ours
        tail = "".join(traceback.format_exception_only(type(exc), exc)).strip()
        return done(Status.ERROR, f"the engine raised {tail}")
    if diffs:
        attributed = [dataclasses.replace(d, rule=rule_of(case, d)) for d in diffs]
        return done(Status.FAIL, f"{len(diffs)} difference(s)", attributed, observation)
    return done(Status.PASS, observation=observation)
