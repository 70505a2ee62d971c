"""Expected failures: a YAML mapping of case ID to reason, and how each result counts."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from fiveup.errors import UsageError

from .corpus import Corpus
from .runner import CaseResult, Status
from .sources import pointer, read_yaml

__all__ = ["Outcome", "Verdict", "baseline_text", "judge", "load_expected_failures"]


def load_expected_failures(path: Path, corpus: Corpus) -> dict[str, str]:
    """Read an expected-failures file: a YAML mapping of case ID to the reason it fails.

    The file is read as fixture files are, within the same limits (spec/fixtures.md, "Limits").
    """
    src = read_yaml(path)
    if src.problems:
        raise UsageError("\n".join(p.text for p in src.problems))
    if src.data is None:
        return {}
    if not isinstance(src.data, dict):
        raise UsageError(f"{src.name}:1: expected a mapping of case ID to reason")
    known = corpus.by_id()
    problems = []
    for case_id, reason in src.data.items():
        where = f"{src.name}:{src.line_of(pointer([case_id]))}"
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


def baseline_text(run: Any) -> str:
    """The failures of ``run`` as an expected-failures file: each with its first difference."""
    lines = [
        "# Expected failures, written by fiveup certify --write-expected-failures.",
        "# A case listed here that passes again fails the run: remove it then.",
    ]
    for outcome in run.outcomes:
        if outcome.verdict not in (Verdict.FAILED, Verdict.ERRORED, Verdict.XFAILED):
            continue
        result = outcome.result
        reason = result.differences[0].text if result.differences else result.message
        entry = yaml.safe_dump(
            {result.case.id: reason.splitlines()[0] if reason else "fails"},
            allow_unicode=True,
            width=10_000,
        )
        lines.append(entry.rstrip())
    return "\n".join(lines) + "\n"
