"""Expected failures: a YAML mapping of case ID to reason, and how each result counts."""

from __future__ import annotations

import enum
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import yaml

from fiveup.contract.engine import Level
from fiveup.errors import UsageError

from .corpus import Corpus
from .levels import Claims, optional_feature
from .runner import CaseResult, Status
from .sources import MAX_PROBLEMS, TOO_MANY_PROBLEMS, key_text, pointer, read_yaml
from .text import cut, printable

__all__ = [
    "FRESH_ID",
    "Baseline",
    "Outcome",
    "Verdict",
    "baseline_text",
    "judge",
    "load_expected_failures",
]


class Baseline(dict[str, str]):
    """An expected-failures file: case ID to the reason it fails, and the status it had.

    A mapping of case ID to reason (as in 1.0); ``statuses`` holds the status each entry was
    written with (``fail``, ``error``, ``unsupported`` for a declined case), absent for an entry
    of an old file, which stands for a failure or an error.
    """

    def __init__(
        self,
        reasons: Mapping[str, str] | None = None,
        statuses: Mapping[str, str] | None = None,
        seed: int | None = None,
    ) -> None:
        """The entries ``reasons``, with the ``statuses`` they were written with."""
        super().__init__(reasons or {})
        self.statuses: dict[str, str] = dict(statuses or {})
        self.seed = seed
        """The ``fresh_seed`` the file names (the seed of the run that wrote it)."""

    @property
    def fresh_seed(self) -> int | None:
        """The seed of the fresh cases of the run that wrote the baseline, or None."""
        if self.seed is not None:
            return self.seed
        for case_id in self:
            match = FRESH_ID.match(case_id)
            if match:
                return int(match.group(2))
        return None


FRESH_ID: Final = re.compile(r"^fresh\.([a-z]+)\.s([0-9]{1,19})-([0-9]{1,9})$")
"""A fresh case's ID (``fresh.<level>.s<seed>-<index>``): a baseline may list one, a report
reruns one by its seed and index."""
_STATUSES = ("fail", "error", "unsupported")
SEED_KEY = "fresh_seed"
MAX_REASON_CHARS: Final = 300
"""The most characters of a failure's first difference (or message) written as its reason."""
MAX_BASELINE_BYTES: Final = 8 << 20
"""The largest expected-failures file read: one that ``--write-expected-failures`` writes for
every case of ``--fresh 1000`` failing, its reasons at :data:`MAX_REASON_CHARS`, is under 3 MB."""
"""The key of a baseline that names the seed of its run's fresh cases (the same run again
plays the same ones)."""


def _seed(value: object) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 1 << 63:
        return None
    return value


def _entry(case_id: str, entry: object, reasons: dict[str, str], statuses: dict[str, str]) -> str:
    """Keep one entry (``reason``, or ``{status, reason}``); what is wrong with it, or empty."""
    status = None
    reason = entry
    if isinstance(entry, dict):
        status, reason = entry.get("status"), entry.get("reason")
        extra = sorted(str(k) for k in entry if k not in ("status", "reason"))
        if extra:
            return f"unknown key {printable(extra[0])[:80]!r}"
        if status not in _STATUSES:
            return f"status must be one of {', '.join(_STATUSES)}"
    if not isinstance(reason, str) or not reason.strip():
        return "give the reason it is expected to fail"
    reasons[case_id] = reason
    if status is not None:
        statuses[case_id] = str(status)
    return ""


def load_expected_failures(path: Path, corpus: Corpus) -> Baseline:
    """Read an expected-failures file: a YAML mapping of case ID to the reason it fails.

    An entry is a reason (``id: reason``, the 1.0 form) or ``id: {status: S, reason: R}`` with
    the status the case had when the file was written. An ID is a case of the corpus or a fresh
    case (``fresh.layout.s7-3``); all fresh entries have one seed. The file is read as fixture
    files are, within the same limits (spec/fixtures.md, "Limits") but for its size, which may
    be up to :data:`MAX_BASELINE_BYTES`.
    """
    src = read_yaml(path, MAX_BASELINE_BYTES)
    if src.problems:
        raise UsageError("\n".join(p.text for p in src.problems))
    if src.data is None:
        return Baseline()
    if not isinstance(src.data, dict):
        raise UsageError(f"{src.name}:1: expected a mapping of case ID to reason")
    baseline, problems = _baseline(src, corpus)
    if len(problems) > MAX_PROBLEMS:  # as for a fixture file: not a megabyte of one mistake
        problems = [*problems[:MAX_PROBLEMS], f"{src.name}: {TOO_MANY_PROBLEMS}"]
    if problems:
        raise UsageError("\n".join(problems))
    return baseline


def _baseline(src: Any, corpus: Corpus) -> tuple[Baseline, list[str]]:
    """The entries of a read baseline file, and every problem found in them."""
    known = corpus.by_id()
    levels = {level.value for level in Level}
    problems = []
    reasons: dict[str, str] = {}
    statuses: dict[str, str] = {}
    seeds: set[str] = set()
    seed = None
    for case_id, entry in src.data.items():
        where = f"{src.name}:{src.line_of(pointer([case_id]))}"
        if case_id == SEED_KEY:  # never a case ID: those have a dot
            seed = _seed(entry)
            if seed is None:
                problems.append(f"{where}: {SEED_KEY} must be a whole number from 0 to 2**63-1")
            seeds.add(str(seed))
            continue
        fresh = FRESH_ID.match(case_id) if isinstance(case_id, str) else None
        if fresh is not None and fresh.group(1) in levels:
            if _seed(int(fresh.group(2))) is None:
                problems.append(f"{where}: {case_id}: a fresh case's seed is at most 2**63-1")
                continue
            seeds.add(fresh.group(2))
        elif not isinstance(case_id, str) or case_id not in known:
            named = repr(case_id) if isinstance(case_id, str) else key_text(case_id)
            problems.append(f"{where}: no case {printable(named)[:200]} in the corpus")
            continue
        problem = _entry(case_id, entry, reasons, statuses)
        if problem:
            problems.append(f"{where}: {case_id}: {problem}")
    if len(seeds) > 1:
        problems.append(
            f"{src.name}: fresh cases of more than one seed ({', '.join(sorted(seeds))})"
        )
    return Baseline(reasons, statuses, seed), problems


class Verdict(enum.Enum):
    """How one case counts for the run, expected failures taken into account."""

    PASSED = "passed"
    FAILED = "failed"
    ERRORED = "errored"
    UNSUPPORTED = "unsupported"
    DECLINED = "declined"
    """The engine declined a case of a feature it claims (not an optional one)."""
    XFAILED = "expected failure"
    XPASSED = "unexpectedly passed"
    CHANGED = "changed"
    """A baseline entry whose case now fails in another way (another status)."""

    @property
    def bad(self) -> bool:
        """True when this verdict fails the run."""
        return self in _BAD


_BAD = frozenset(
    {Verdict.FAILED, Verdict.ERRORED, Verdict.DECLINED, Verdict.XPASSED, Verdict.CHANGED}
)


@dataclass(frozen=True, slots=True)
class Outcome:
    """A case result with its verdict."""

    result: CaseResult
    verdict: Verdict
    reason: str = ""
    """Why the case is an expected failure, when it is listed as one."""


def judge(
    result: CaseResult, expected_failures: Mapping[str, str], claims: Claims | None = None
) -> Outcome:
    """The verdict of one result given the expected failures and what the engine claims.

    A case the engine declined though it claims its feature (and it is not optional) is
    DECLINED (with ``claims``; without, every declined case is unsupported). A baseline entry
    turns a failure of the status it lists into an expected failure; one that now passes is
    XPASSED, one that fails in another way CHANGED.
    """
    case = result.case
    verdict = {
        Status.PASS: Verdict.PASSED,
        Status.FAIL: Verdict.FAILED,
        Status.ERROR: Verdict.ERRORED,
        Status.UNSUPPORTED: Verdict.UNSUPPORTED,
    }[result.status]
    if (
        verdict is Verdict.UNSUPPORTED
        and claims is not None
        and claims.claims(case.level, case.given)
        and not (case.optional or optional_feature(case.level, case.given))
    ):
        verdict = Verdict.DECLINED
    reason = expected_failures.get(case.id)
    if reason is None or verdict is Verdict.UNSUPPORTED:
        return Outcome(result, verdict, reason or "")
    if verdict is Verdict.PASSED:
        return Outcome(result, Verdict.XPASSED, reason)
    statuses = getattr(expected_failures, "statuses", {})
    listed = statuses.get(case.id)
    if listed is None:  # a 1.0 entry: a failure or an error
        same = verdict in (Verdict.FAILED, Verdict.ERRORED)
    else:
        same = listed == result.status.value
    return Outcome(result, Verdict.XFAILED if same else Verdict.CHANGED, reason)


def baseline_text(run: Any) -> str:
    """Every case of ``run`` that did not pass, fresh ones included, as an expected-failures file.

    Each entry has its status and its first difference (or message), so that the same run
    with this file concludes NO NEW FAILURES; a case the run's baseline listed that still fails
    as it did keeps the baseline's reason (a hand-written one, a ticket), not a new one.
    """
    lines = [
        "# Expected failures, written by fiveup certify --write-expected-failures.",
        "# A case listed here that passes again, or fails in another way, fails the run.",
    ]
    if run.fresh_seed is not None:
        lines.append(f"{SEED_KEY}: {run.fresh_seed}")
    kept = (Verdict.FAILED, Verdict.ERRORED, Verdict.DECLINED, Verdict.XFAILED, Verdict.CHANGED)
    for outcome in (*run.outcomes, *run.fresh):
        if outcome.verdict not in kept:
            continue
        result = outcome.result
        reason = result.differences[0].text if result.differences else result.message
        first = reason.splitlines()[0] if reason and reason.strip() else "fails"
        # an engine's text: read back, a control's escape is refused; long, it is cut
        first = cut(printable(first), MAX_REASON_CHARS)
        if outcome.verdict is Verdict.XFAILED and outcome.reason.strip():
            first = outcome.reason  # as read from a baseline: it reads back
        entry = yaml.safe_dump(
            {result.case.id: {"status": result.status.value, "reason": first}},
            allow_unicode=True,
            width=10_000,
            sort_keys=False,
            default_flow_style=None,
        )
        lines.append(entry.rstrip())
    return "\n".join(lines) + "\n"
