"""Certification: run the selected cases against an engine and account for expected failures.

The front ends (``fiveup certify`` and the pytest plugin) build on this and on the modules it
re-exports under their 1.0 names: :mod:`.engines` (finding and opening engines),
:mod:`.selection` (``-k`` and ``--case``) and :mod:`.expectations` (expected failures).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from fiveup.contract.engine import Engine, EngineInfo

from .corpus import Case, Corpus
from .engines import ENTRY_POINT_GROUP, TimedEngine, handshake, load_engine, open_engine
from .expectations import Outcome, Verdict, judge, load_expected_failures
from .runner import CaseResult, Status, run_case
from .selection import keyword_matcher, select

__all__ = [
    "ENTRY_POINT_GROUP",
    "Outcome",
    "Run",
    "TimedEngine",
    "Verdict",
    "certify",
    "handshake",
    "judge",
    "keyword_matcher",
    "load_engine",
    "load_expected_failures",
    "open_engine",
    "select",
]


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
