"""Certification: pick an engine and cases, run them, account for expected failures.

The front ends (``fiveup certify`` and the pytest plugin) build on these pieces.
"""

from __future__ import annotations

import enum
import importlib
import importlib.metadata
import os
import re
import signal
import sys
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import Any

from fiveup.contract.engine import JSON, Engine, EngineInfo
from fiveup.errors import EngineError, UsageError

from .corpus import Case, Corpus
from .runner import CaseResult, Status, run_case
from .sources import read_yaml

ENTRY_POINT_GROUP = "fiveup.engines"


# --------------------------------------------------------------------------- engines


def load_engine(name: str) -> Engine:
    """An engine by entry-point name (group ``fiveup.engines``) or by ``module:attribute``.

    The attribute may be an engine instance, or a class or factory called with no arguments.
    """
    target: Any
    if ":" in name:
        module_name, _, attr = name.partition(":")
        if os.getcwd() not in sys.path:
            # As uvicorn and gunicorn do: a module beside the user is found from the console
            # script, whose sys.path starts at the script's own folder.
            sys.path.insert(0, os.getcwd())
        try:
            module = importlib.import_module(module_name)
        except ImportError as exc:
            raise UsageError(f"--engine {name}: cannot import {module_name!r}: {exc}") from None
        try:
            target = module
            for part in attr.split("."):
                target = getattr(target, part)
        except AttributeError:
            raise UsageError(f"--engine {name}: {module_name!r} has no {attr!r}") from None
    else:
        found = importlib.metadata.entry_points(group=ENTRY_POINT_GROUP, name=name)
        if not found:
            known = sorted(
                ep.name for ep in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP)
            )
            raise UsageError(
                f"--engine {name}: no engine of that name (installed: {', '.join(known) or 'none'};"
                " or give module:attribute)"
            )
        target = next(iter(found)).load()
    if isinstance(target, type) or (callable(target) and not isinstance(target, Engine)):
        try:
            target = target()
        except Exception as exc:
            raise UsageError(f"--engine {name}: creating the engine failed: {exc}") from None
    engine = target
    if not isinstance(engine, Engine):
        raise UsageError(f"--engine {name}: {engine!r} has no info() and run(level, given)")
    return engine


def open_engine(name: str | None, command: str | None, timeout: float) -> Engine:
    """The engine to certify: a process for ``command``, else the Python engine ``name``.

    A Python engine is wrapped in :class:`TimedEngine` so that a hang is cut off as well.
    """
    if command:
        from .process import ProcessEngine

        return ProcessEngine(command, timeout=timeout)
    return TimedEngine(load_engine(name or "reference"), timeout)


class TimedEngine:
    """An in-process engine whose every call is cut off after ``timeout`` seconds.

    Uses SIGALRM, so it works for Python code in the main thread; elsewhere calls run untimed.
    """

    def __init__(self, engine: Engine, timeout: float) -> None:
        """Wrap ``engine``."""
        self.engine = engine
        self.timeout = timeout

    @contextmanager
    def _limit(self) -> Iterator[None]:
        if self.timeout <= 0 or threading.current_thread() is not threading.main_thread():
            yield
            return

        def expire(signum: int, frame: FrameType | None) -> None:
            raise EngineError(f"the engine did not answer within {self.timeout:g} s")

        previous = signal.signal(signal.SIGALRM, expire)
        signal.setitimer(signal.ITIMER_REAL, self.timeout)
        try:
            yield
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)

    def info(self) -> EngineInfo:
        """The wrapped engine's identity."""
        with self._limit():
            return self.engine.info()

    def run(self, level: str, given: dict[str, JSON]) -> dict[str, JSON]:
        """Run one case, within the time limit."""
        with self._limit():
            return self.engine.run(level, given)


# --------------------------------------------------------------------------- selection

_TOKEN = re.compile(r"\s*(\(|\)|[^\s()]+)")


def _either(a: Callable[[str], bool], b: Callable[[str], bool]) -> Callable[[str], bool]:
    return lambda s: a(s) or b(s)


def _both(a: Callable[[str], bool], b: Callable[[str], bool]) -> Callable[[str], bool]:
    return lambda s: a(s) and b(s)


def keyword_matcher(expression: str) -> Callable[[Case], bool]:
    """A ``-k`` expression as in pytest: words joined by ``and``, ``or``, ``not`` and brackets.

    A word matches a case when it is a case-insensitive substring of the case ID, its title,
    its level, its file name, or one of its rule IDs.
    """
    tokens: list[str] = _TOKEN.findall(expression)
    if not tokens:
        raise UsageError("-k: empty expression")
    pos = 0

    def peek() -> str | None:
        return tokens[pos] if pos < len(tokens) else None

    def take() -> str:
        nonlocal pos
        pos += 1
        return tokens[pos - 1]

    def expr() -> Callable[[str], bool]:
        left = term()
        while peek() == "or":
            take()
            left = _either(left, term())
        return left

    def term() -> Callable[[str], bool]:
        left = factor()
        while peek() == "and":
            take()
            left = _both(left, factor())
        return left

    def factor() -> Callable[[str], bool]:
        tok = peek()
        if tok is None:
            raise UsageError(f"-k {expression!r}: the expression ends too early")
        take()
        if tok == "not":
            inner = factor()
            return lambda s: not inner(s)
        if tok == "(":
            inner = expr()
            if peek() != ")":
                raise UsageError(f"-k {expression!r}: a '(' is never closed")
            take()
            return inner
        if tok in (")", "and", "or"):
            raise UsageError(f"-k {expression!r}: unexpected {tok!r}")
        word = tok.lower()
        return lambda s: word in s

    matcher = expr()
    if peek() is not None:
        raise UsageError(f"-k {expression!r}: unexpected {peek()!r}")

    def matches(case: Case) -> bool:
        haystack = " ".join(
            [case.id, case.title, case.level.value, Path(case.file).name, *case.rules]
        ).lower()
        return matcher(haystack)

    return matches


def select(corpus: Corpus, keyword: str | None = None, ids: Sequence[str] = ()) -> list[Case]:
    """The cases picked by ``-k`` and ``--case`` (all when neither is given)."""
    cases = list(corpus.cases)
    if ids:
        known = corpus.by_id()
        unknown = [i for i in ids if i not in known]
        if unknown:
            raise UsageError(f"--case: no case {', '.join(unknown)} in the corpus")
        wanted = set(ids)
        cases = [c for c in cases if c.id in wanted]
    if keyword:
        match = keyword_matcher(keyword)
        cases = [c for c in cases if match(c)]
    return cases


# --------------------------------------------------------------------------- expected failures


def load_expected_failures(path: Path, corpus: Corpus) -> dict[str, str]:
    """Read an expected-failures file: a YAML mapping of case ID to the reason it fails."""
    src = read_yaml(path)
    if src.problems:
        raise UsageError("\n".join(p.text for p in src.problems))
    if src.data is None:
        return {}
    if not isinstance(src.data, dict):
        raise UsageError(f"{path}:1: expected a mapping of case ID to reason")
    known = corpus.by_id()
    problems = []
    for case_id, reason in src.data.items():
        where = f"{path}:{src.line_of('/' + str(case_id))}"
        if not isinstance(case_id, str) or case_id not in known:
            problems.append(f"{where}: no case {case_id!r} in the corpus")
        elif not isinstance(reason, str) or not reason.strip():
            problems.append(f"{where}: {case_id}: give the reason it is expected to fail")
    if problems:
        raise UsageError("\n".join(problems))
    return {str(k): str(v) for k, v in src.data.items()}


class Verdict(enum.Enum):
    """How one case counts for the run, expected failures taken into account."""

    PASSED = "passed"
    FAILED = "failed"
    ERRORED = "errored"
    UNSUPPORTED = "unsupported"
    XFAILED = "expected failure"
    XPASSED = "unexpectedly passed"

    @property
    def bad(self) -> bool:
        """True when this verdict fails the run."""
        return self in (Verdict.FAILED, Verdict.ERRORED, Verdict.XPASSED)


@dataclass(frozen=True, slots=True)
class Outcome:
    """A case result with its verdict."""

    result: CaseResult
    verdict: Verdict
    reason: str = ""
    """Why the case is an expected failure, when it is listed as one."""


def judge(result: CaseResult, expected_failures: Mapping[str, str]) -> Outcome:
    """The verdict of one result given the expected failures."""
    reason = expected_failures.get(result.case.id)
    if reason is not None:
        if result.status is Status.PASS:
            return Outcome(result, Verdict.XPASSED, reason)
        if result.status in (Status.FAIL, Status.ERROR):
            return Outcome(result, Verdict.XFAILED, reason)
    verdict = {
        Status.PASS: Verdict.PASSED,
        Status.FAIL: Verdict.FAILED,
        Status.ERROR: Verdict.ERRORED,
        Status.UNSUPPORTED: Verdict.UNSUPPORTED,
    }[result.status]
    return Outcome(result, verdict, reason or "")


# --------------------------------------------------------------------------- the run


@dataclass(frozen=True, slots=True)
class Run:
    """A whole certification run."""

    engine: EngineInfo | None
    handshake_error: str
    corpus: Corpus
    outcomes: tuple[Outcome, ...]

    @property
    def ok(self) -> bool:
        """True when no case failed, errored or unexpectedly passed."""
        return not any(o.verdict.bad for o in self.outcomes)


def handshake(engine: Engine) -> EngineInfo:
    """Ask the engine who it is, checking the answer's shape."""
    info = engine.info()
    if not isinstance(info, dict):
        raise EngineError(f"info() answered {type(info).__name__}, not an object")
    for key, kind in (("name", str), ("version", str), ("protocol", int), ("levels", list)):
        if not isinstance(info.get(key), kind):
            raise EngineError(f"info() lacks {key!r} ({kind.__name__})")
    from fiveup import PROTOCOL_VERSION

    if info["protocol"] != PROTOCOL_VERSION:
        raise EngineError(
            f"protocol version mismatch: the engine speaks {info['protocol']}, "
            f"the suite {PROTOCOL_VERSION}"
        )
    return info


def certify(
    engine: Engine,
    corpus: Corpus,
    cases: Sequence[Case],
    expected_failures: Mapping[str, str] | None = None,
    on_result: Callable[[Outcome], None] | None = None,
) -> Run:
    """Run ``cases`` against ``engine``; an engine that fails its handshake errs every case."""
    xfails = expected_failures or {}
    try:
        info: EngineInfo | None = handshake(engine)
        failure = ""
    except Exception as exc:  # an untrusted engine may fail in any way
        info, failure = None, f"handshake failed: {exc}"
    outcomes = []
    for case in cases:
        if info is None:
            result = CaseResult(case, Status.ERROR, message=failure)
        else:
            result = run_case(engine, case, info["levels"])
        outcome = judge(result, xfails)
        outcomes.append(outcome)
        if on_result:
            on_result(outcome)
    return Run(info, failure, corpus, tuple(outcomes))
