"""The case runner shared by every front end (CLI, pytest plugin, tests).

Given an engine and a case it sends the case's start and actions (never its expectations),
receives the observation, and compares it with the expectations. For a refused action it also
replays the accepted prefix and checks that the refusal left the game exactly as it was.
"""

from __future__ import annotations

import enum
import time
import traceback
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from fiveup.contract.engine import JSON, Engine, Level
from fiveup.contract.schemas import observation_problem
from fiveup.errors import EngineError, UnsupportedCase

from .corpus import Case


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
class Difference:
    """One expected value the engine did not produce."""

    path: str
    expected: JSON
    actual: JSON
    note: str = ""

    @property
    def text(self) -> str:
        """``/path: expected X, got Y``."""
        extra = f" ({self.note})" if self.note else ""
        return (
            f"{self.path or '/'}: expected {_show(self.expected)}, got {_show(self.actual)}{extra}"
        )

    def to_json(self) -> dict[str, JSON]:
        """The difference as a JSON object."""
        return {
            "path": self.path,
            "expected": self.expected,
            "actual": self.actual,
            "note": self.note,
        }


_MISSING = "<missing>"


def _show(value: JSON) -> str:
    if value == _MISSING:
        return "nothing"
    text = repr(value) if not isinstance(value, str) else value
    return text if len(text) <= 300 else text[:297] + "..."


@dataclass(frozen=True, slots=True)
class CaseResult:
    """The outcome of one case against one engine."""

    case: Case
    status: Status
    differences: tuple[Difference, ...] = ()
    message: str = ""
    observation: JSON = None
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        """True when the case passed."""
        return self.status is Status.PASS


# --------------------------------------------------------------------------- comparison


@dataclass(slots=True)
class _Diff:
    found: list[Difference] = field(default_factory=list)

    def add(self, path: str, expected: JSON, actual: JSON, note: str = "") -> None:
        self.found.append(Difference(path, expected, actual, note))


def _get(obj: JSON, key: str) -> JSON:
    return obj.get(key, _MISSING) if isinstance(obj, dict) else _MISSING


def _same(expected: JSON, actual: JSON) -> bool:
    # JSON keeps true and 1 apart; Python's == does not.
    return bool(expected == actual) and isinstance(expected, bool) == isinstance(actual, bool)


def _exact(d: _Diff, path: str, exp: JSON, act: JSON) -> None:
    if not _same(exp, act):
        d.add(path, exp, act)


def _as_set(d: _Diff, path: str, exp: list[JSON], act: JSON) -> None:
    if not isinstance(act, list):
        d.add(path, exp, act, "not a list")
    elif Counter(map(_key, exp)) != Counter(map(_key, act)):
        d.add(path, sorted(exp, key=_key), sorted(act, key=_key), "order does not matter")


def _key(value: JSON) -> str:
    return repr(value)


def _partial_list(
    d: _Diff,
    path: str,
    exp: Sequence[Mapping[str, JSON]],
    act: JSON,
    each: Callable[[_Diff, str, Mapping[str, JSON], JSON], None],
) -> None:
    if not isinstance(act, list):
        d.add(path, f"{len(exp)} entries", act, "not a list")
        return
    if len(exp) != len(act):
        d.add(f"{path}", f"{len(exp)} entries", f"{len(act)} entries")
    for i, (e, a) in enumerate(zip(exp, act, strict=False)):
        each(d, f"{path}/{i}", e, a)


def _partial(d: _Diff, path: str, exp: Mapping[str, JSON], act: JSON) -> None:
    for key, value in exp.items():
        _exact(d, f"{path}/{key}", value, _get(act, key))


def _layout(d: _Diff, path: str, exp: Mapping[str, JSON], act: JSON) -> None:
    for key, value in exp.items():
        got = _get(act, key)
        if key in ("spinners", "contributions"):
            _as_set(d, f"{path}/{key}", value, got)
        elif key == "points":
            _points(d, f"{path}/points", value, got)
        else:
            _exact(d, f"{path}/{key}", value, got)


def _points(d: _Diff, path: str, exp: Mapping[str, int], act: JSON) -> None:
    if not isinstance(act, dict):
        d.add(path, exp, act, "not a mapping")
        return
    for point in sorted(set(exp) | set(act)):
        e, a = exp.get(point, _MISSING), act.get(point, _MISSING)
        if e == _MISSING:
            d.add(f"{path}/{point}", e, a, "the engine offers a point the rules do not open")
        elif a == _MISSING:
            d.add(f"{path}/{point}", e, a, "an available point the engine does not offer")
        elif e != a:
            d.add(f"{path}/{point}", e, a)


def _state(d: _Diff, path: str, exp: Mapping[str, JSON], act: JSON) -> None:
    for key, value in exp.items():
        got = _get(act, key)
        if key == "layout":
            _layout(d, f"{path}/layout", value, got)
        elif key == "hands":
            if not isinstance(got, list) or len(got) != len(value):
                d.add(f"{path}/hands", value, got)
            else:
                for i, (e, a) in enumerate(zip(value, got, strict=True)):
                    _as_set(d, f"{path}/hands/{i}", e, a)
        elif key == "result" and isinstance(value, dict):
            if not isinstance(got, dict):
                d.add(f"{path}/result", value, got, "the round is not over")
            else:
                _partial(d, f"{path}/result", value, got)
        else:
            _exact(d, f"{path}/{key}", value, got)


def _round_entry(d: _Diff, path: str, exp: Mapping[str, JSON], act: JSON) -> None:
    if "events" in exp:
        _partial_list(d, f"{path}/events", exp["events"], _get(act, "events"), _partial)
    if "state" in exp:
        _state(d, f"{path}/state", exp["state"], _get(act, "state"))


def _error(d: _Diff, exp: Mapping[str, JSON], act: JSON, keys: Sequence[str]) -> None:
    want = exp.get("error")
    got = _get(act, "error")
    if want is None:
        if got not in (None, _MISSING):
            d.add("/error", None, got, "the engine refused an action the rules allow")
        return
    if not isinstance(got, dict):
        d.add("/error", want, got, "the engine accepted an action the rules forbid")
        return
    for key in keys:
        _exact(d, f"/error/{key}", want[key], _get(got, key))


def compare(level: Level, expect: Mapping[str, JSON], observation: JSON) -> list[Difference]:
    """Every difference between a case's expectations and an engine's observation."""
    d = _Diff()
    if level is Level.SCORING:
        _exact(d, "/value", expect["value"], _get(observation, "value"))
    elif level is Level.LAYOUT:
        if "steps" in expect:
            _partial_list(d, "/steps", expect["steps"], _get(observation, "steps"), _partial)
        if "layout" in expect:
            _layout(d, "/layout", expect["layout"], _get(observation, "layout"))
        _error(d, expect, observation, ("at", "rule"))
    elif level is Level.ROUND:
        _round_entry(d, "", expect, observation)
        _error(d, expect, observation, ("at", "rule"))
    else:
        if "rounds" in expect:
            _partial_list(d, "/rounds", expect["rounds"], _get(observation, "rounds"), _round_entry)
        for key in ("over", "winner", "scores"):
            if key in expect:
                _exact(d, f"/{key}", expect[key], _get(observation, key))
        _error(d, expect, observation, ("round", "at", "rule"))
    return d.found


# --------------------------------------------------------------------------- running

ObservationCheck = Callable[[Level, JSON], str | None]
"""Checks an observation's shape; returns what is wrong, or None (default: the protocol's
JSON Schemas, so an in-process engine is held to the same shapes as a process engine)."""


def _prefix_request(level: Level, given: dict[str, JSON], at: int) -> dict[str, JSON]:
    prefix = dict(given)
    key = "placements" if level is Level.LAYOUT else "actions"
    prefix[key] = list(given[key])[:at]
    return prefix


def _unchanged(level: Level, refused: JSON, before: JSON) -> list[Difference]:
    """The state after a refused action must equal the state before it."""
    d = _Diff()
    keys = ("steps", "layout") if level is Level.LAYOUT else ("events", "state")
    for key in keys:
        if _get(refused, key) != _get(before, key):
            d.add(
                f"/{key}",
                _get(before, key),
                _get(refused, key),
                "a refused action changed the game: this is the state before it",
            )
    return d.found


def run_case(
    engine: Engine, case: Case, levels: Sequence[str], check_shape: ObservationCheck | None = None
) -> CaseResult:
    """Run one case against an engine and judge the result."""
    start = time.perf_counter()

    def done(
        status: Status,
        message: str = "",
        diffs: Sequence[Difference] = (),
        observation: JSON = None,
    ) -> CaseResult:
        return CaseResult(
            case, status, tuple(diffs), message, observation, time.perf_counter() - start
        )

    if case.level.value not in levels:
        return done(
            Status.UNSUPPORTED, f"the engine does not declare the level {case.level.value!r}"
        )
    given = case.request()
    check = check_shape
    if check is None and not getattr(engine, "checks_observations", False):
        check = observation_problem

    def ask(request: dict[str, JSON]) -> Any:
        observation = engine.run(case.level.value, request)
        problem = check(case.level, observation) if check else None
        if problem:
            raise EngineError(f"the observation does not follow the protocol: {problem}")
        return observation

    try:
        observation = ask(given)
        diffs = compare(case.level, case.expect, observation)
        error = case.expect.get("error")
        if not diffs and isinstance(error, dict) and case.level in (Level.LAYOUT, Level.ROUND):
            before = ask(_prefix_request(case.level, given, error["at"]))
            diffs = _unchanged(case.level, observation, before)
    except UnsupportedCase as exc:
        return done(Status.UNSUPPORTED, str(exc))
    except EngineError as exc:
        return done(Status.ERROR, str(exc))
    except Exception as exc:  # an in-process engine's own failure is a case error, not ours
        tail = "".join(traceback.format_exception_only(type(exc), exc)).strip()
        return done(Status.ERROR, f"the engine raised {tail}")
    if diffs:
        return done(Status.FAIL, f"{len(diffs)} difference(s)", diffs, observation)
    return done(Status.PASS, observation=observation)
