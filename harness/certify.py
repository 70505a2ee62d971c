"""Certification: run the selected cases against an engine and account for expected failures.

The front ends (``fiveup certify`` and the pytest plugin) build on this and on the modules it
re-exports under their 1.0 names: :mod:`.engines` (finding and opening engines),
:mod:`.selection` (``-k`` and ``--case``) and :mod:`.expectations` (expected failures).
"""

from __future__ import annotations

import dataclasses
import enum
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from fiveup.contract.engine import Engine, EngineInfo, Level
from fiveup.contract.schemas import clip
from fiveup.errors import EngineError, UsageError

from .corpus import Case, Corpus
from .engines import (
    ENTRY_POINT_GROUP,
    TimedEngine,
    handshake,
    load_engine,
    open_engine,
    startup_hint,
)
from .expectations import Baseline, Outcome, Verdict, judge, load_expected_failures
from .levels import Claims, feature_of
from .process import Failure, ProcessEngine
from .runner import MAX_MESSAGE_CHARS, Status, run_case
from .selection import (
    check_decisions,
    decision_levels,
    keyword_matcher,
    select,
    without_decisions,
)
from .text import cut, printable, printable_lines

__all__ = [
    "ENTRY_POINT_GROUP",
    "Baseline",
    "Claims",
    "Conclusion",
    "Counts",
    "LeftOut",
    "Outcome",
    "Run",
    "RunPlan",
    "TimedEngine",
    "Verdict",
    "certify",
    "conclude",
    "handshake",
    "judge",
    "keyword_matcher",
    "load_engine",
    "load_expected_failures",
    "open_engine",
    "plan_run",
    "select",
]


class Conclusion(enum.Enum):
    """What a whole run concludes (``spec/README.md``, "Conformance"); the value is its words."""

    CONFORMS = "CONFORMS"
    """Every selected case of every claimed feature passed (optional ones may be declined)."""
    NO_NEW_FAILURES = "NO NEW FAILURES"
    """As CONFORMS but for failures the baseline lists: never called conforming."""
    DOES_NOT_CONFORM = "DOES NOT CONFORM"
    """A case of a claimed feature failed, errored or was declined, or a baseline entry
    passes or fails in another way."""
    NOTHING_CHECKED = "NOTHING CHECKED"
    """No case was checked: nothing claimed, every case declined, or no engine to ask."""

    @property
    def exit_code(self) -> int:
        """0 for CONFORMS and NO NEW FAILURES, 1 otherwise."""
        return 0 if self in (Conclusion.CONFORMS, Conclusion.NO_NEW_FAILURES) else 1


@dataclass(frozen=True, slots=True)
class Counts:
    """How many cases ended in each verdict."""

    passed: int = 0
    failed: int = 0
    errored: int = 0
    unsupported: int = 0
    xfailed: int = 0
    xpassed: int = 0
    declined: int = 0
    changed: int = 0

    @staticmethod
    def of(outcomes: Sequence[Outcome]) -> Counts:
        """The counts of ``outcomes``."""
        c = Counter(o.verdict for o in outcomes)
        return Counts(
            c[Verdict.PASSED],
            c[Verdict.FAILED],
            c[Verdict.ERRORED],
            c[Verdict.UNSUPPORTED],
            c[Verdict.XFAILED],
            c[Verdict.XPASSED],
            c[Verdict.DECLINED],
            c[Verdict.CHANGED],
        )

    def by_verdict(self) -> dict[str, int]:
        """Each verdict's lower-case name and its count, in the order of :class:`Verdict`.

        The fields are named after the verdicts.
        """
        count = asdict(self)
        return {verdict.name.lower(): count[verdict.name.lower()] for verdict in Verdict}


def conclude(
    engine_started: bool, outcomes: Sequence[Outcome], fresh: Sequence[Outcome] = ()
) -> Conclusion:
    """The one rule of what a run concludes (spec/README.md, "Conformance").

    Nothing checked without an engine or when every case is unsupported or declined (a
    declined case counts against the run, but answers nothing); does not conform
    when any case, fresh ones included, has a verdict that counts against the run; no new
    failures when some are expected failures; else conforms.
    """
    everything = [*outcomes, *fresh]
    checked = [o for o in outcomes if o.verdict not in (Verdict.UNSUPPORTED, Verdict.DECLINED)]
    if not engine_started or not checked:
        return Conclusion.NOTHING_CHECKED
    if any(o.verdict.bad for o in everything):
        return Conclusion.DOES_NOT_CONFORM
    if any(o.verdict is Verdict.XFAILED for o in everything):
        return Conclusion.NO_NEW_FAILURES
    return Conclusion.CONFORMS


@dataclass(frozen=True, slots=True)
class LeftOut:
    """What a run without some decisions left out (``certify --without-decision OQ-n``)."""

    decisions: tuple[str, ...]
    """The open questions whose dependent cases were left out, in register order."""
    cases: int
    """How many selected cases depend on one of them and were not run."""
    fresh_levels: tuple[str, ...] = ()
    """The levels whose fresh cases were not played (the levels of the cases that depend on
    the decisions), when fresh cases were asked for."""


@dataclass(frozen=True, slots=True)
class Run:
    """A whole certification run.

    ``selection`` describes how the cases were chosen when they are not the whole bundled
    corpus (``-k credit: 50 of 218 cases``), else it is empty; ``baseline`` is the number of
    entries of the expected-failures file.
    """

    engine: EngineInfo | None
    handshake_error: str
    corpus: Corpus
    outcomes: tuple[Outcome, ...]
    selection: str = ""
    baseline: int = 0
    hint: str = ""
    """For an engine that could not start: what usually causes its failure."""
    selected: int = -1
    """How many cases were selected (-1: as many as were run)."""
    fresh: tuple[Outcome, ...] = ()
    """Fresh random cases played beside the corpus, expected as the reference observes them."""
    fresh_seed: int | None = None
    """The seed of the fresh cases (``certify --seed`` plays the same ones again)."""
    left_out: LeftOut | None = None
    """The decisions left out, and what depended on them; None when none was."""

    @property
    def counts(self) -> Counts:
        """How many cases ended in each verdict."""
        return Counts.of(self.outcomes)

    @property
    def claims(self) -> Claims:
        """What the engine claims: levels whole and features one by one."""
        return Claims.of(self.engine)

    @property
    def declared_levels(self) -> list[str]:
        """The levels with a claimed feature, in the order of the protocol."""
        return self.claims.touched_levels

    @property
    def unclaimed_levels(self) -> list[str]:
        """The levels without a claimed feature."""
        return [level.value for level in Level if level.value not in self.declared_levels]

    def declined(self) -> list[Outcome]:
        """Declined cases of claimed features that are not optional: they fail the run."""
        return [o for o in self.outcomes if o.verdict is Verdict.DECLINED]

    @property
    def declined_features(self) -> list[str]:
        """The claimed features of which the engine declined cases: ``["scoring (tally)"]``.

        Declining an optional feature's cases is harmless, but it is not conformance at that
        feature either: a conclusion names these beside what is claimed.
        """
        claims = self.claims
        return Claims.named(
            (o.result.case.level, feature_of(o.result.case.level, o.result.case.given))
            for o in (*self.outcomes, *self.fresh)
            if o.verdict is Verdict.DECLINED
            or (
                o.verdict is Verdict.UNSUPPORTED
                and claims.claims(o.result.case.level, o.result.case.given)
            )
        )

    @property
    def conclusion(self) -> Conclusion:
        """What the run concludes (:func:`conclude`)."""
        return conclude(self.engine is not None, self.outcomes, self.fresh)

    @property
    def exit_code(self) -> int:
        """0 when the run conforms or has no new failures, else 1."""
        return self.conclusion.exit_code

    @property
    def ok(self) -> bool:
        """True when the exit code is 0."""
        return self.exit_code == 0


@dataclass(frozen=True, slots=True)
class RunPlan:
    """What a run will play, set up the same way by ``fiveup certify`` and the pytest plugin."""

    corpus: Corpus
    chosen: tuple[Case, ...]
    """The cases ``-k`` and ``--case`` picked (every case without them)."""
    cases: tuple[Case, ...]
    """The chosen cases that depend on no left-out decision: what is run."""
    decisions: tuple[str, ...]
    """The decisions left out, each once, in register order."""
    baseline: Baseline
    """The expected failures (empty without a file)."""

    @property
    def skipped_levels(self) -> tuple[str, ...]:
        """The levels a left-out decision touches: no fresh case is played of them."""
        return decision_levels(self.corpus.cases, self.decisions)

    def left_out(self, fresh: bool = False) -> LeftOut | None:
        """What leaving the decisions out left out (with ``fresh``: fresh levels too)."""
        if not self.decisions:
            return None
        return LeftOut(
            self.decisions,
            len(self.chosen) - len(self.cases),
            self.skipped_levels if fresh else (),
        )


def plan_run(
    corpus: Corpus,
    *,
    keyword: str | None = None,
    case_ids: Sequence[str] = (),
    decisions: Sequence[str] = (),
    expected_failures: Path | None = None,
    decision_option: str = "--without-decision",
    baseline_option: str = "--expected-failures",
) -> RunPlan:
    """Choose the cases, leave out the decisions and read the baseline.

    UsageError when a name is wrong or nothing is left to run (``decision_option`` and
    ``baseline_option`` name the options in messages, as do ``-k`` and ``--case``).
    """
    checked = check_decisions(corpus, decisions, decision_option)
    chosen = tuple(select(corpus, keyword, case_ids, ids_option="--case"))
    if not chosen:
        named = [f"-k {printable(clip(keyword, 80))}"] if keyword is not None else []
        named += [f"--case {printable(cut(', '.join(case_ids), 200))}"] if case_ids else []
        raise UsageError(f"{' '.join(named)}: no case matches the selection".lstrip(": "))
    cases = tuple(without_decisions(chosen, checked))
    if not cases:
        raise UsageError(
            f"every selected case depends on {', '.join(checked)}: none is left to run"
        )
    try:
        baseline = (
            load_expected_failures(expected_failures, corpus) if expected_failures else Baseline()
        )
    except UsageError as exc:  # it names the file; the option is said before it
        raise UsageError(f"{baseline_option} {exc}") from None
    return RunPlan(corpus, chosen, cases, checked, baseline)


def _sent(outcomes: Sequence[Outcome]) -> bool:
    return any(o.result.request is not None for o in outcomes)


def _last_answer_checked(
    engine: Engine, outcomes: list[Outcome], xfails: Mapping[str, str], claims: Claims
) -> None:
    """Stop a process engine, and make its last case an error if it wrote more after it.

    Output nobody asked for is found before each request; after the last one there is no next
    request, so a second reply to the last case would go unseen (``ProcessEngine.finish``).
    """
    if not isinstance(engine, ProcessEngine):  # an in-process engine's own finish is its own
        return
    problem = engine.finish()
    if problem is None:
        return
    last = max((i for i, o in enumerate(outcomes) if o.result.request is not None), default=None)
    if last is None:
        return
    said = f"{Failure.UNREQUESTED_OUTPUT.value}: {problem} (found as the run ended)"
    result = dataclasses.replace(
        outcomes[last].result, status=Status.ERROR, message=said, differences=()
    )
    outcomes[last] = judge(result, xfails, claims)


def certify(
    engine: Engine,
    corpus: Corpus,
    cases: Sequence[Case],
    expected_failures: Mapping[str, str] | None = None,
    on_result: Callable[[Outcome], None] | None = None,
    *,
    selection: str = "",
    fresh: Callable[[Claims], Iterable[Case]] | None = None,
    fresh_seed: int | None = None,
    left_out: LeftOut | None = None,
) -> Run:
    """Run ``cases`` against ``engine``, then the fresh cases ``fresh`` makes for its claims.

    An engine that cannot start or complete its handshake runs no case: the run says why once.
    ``left_out`` records the decisions whose cases the caller left out of ``cases``.
    """
    xfails = expected_failures or {}
    try:
        info = handshake(engine)
    except UsageError:
        raise
    except EngineError as exc:
        hint = startup_hint(exc)
        reason = printable_lines(str(exc), MAX_MESSAGE_CHARS)
        return Run(
            None, reason, corpus, (), selection, len(xfails), hint, len(cases),
            left_out=left_out,
        )  # fmt: skip
    except Exception as exc:  # an untrusted in-process engine may fail in any way
        reason = printable_lines(f"info() raised {type(exc).__name__}: {exc}", MAX_MESSAGE_CHARS)
        return Run(
            None, reason, corpus, (), selection, len(xfails), selected=len(cases),
            left_out=left_out,
        )  # fmt: skip
    claims = Claims.of(info)
    outcomes = []
    for case in cases:
        outcome = judge(run_case(engine, case, claims), xfails, claims)
        outcomes.append(outcome)
        if on_result:
            on_result(outcome)
    played = [
        judge(run_case(engine, case, claims), xfails, claims)
        for case in (fresh(claims) if fresh else [])
    ]
    _last_answer_checked(engine, played if _sent(played) else outcomes, xfails, claims)
    return Run(
        info, "", corpus, tuple(outcomes), selection, len(xfails),
        fresh=tuple(played), fresh_seed=fresh_seed, left_out=left_out,
    )  # fmt: skip
