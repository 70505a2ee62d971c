"""Two runs side by side (``fiveup compare OLD.json NEW.json``): what broke, what was fixed.

The comparison reads the JSON reports of ``fiveup certify --format json`` and compares each
case's *status*, what the engine did, so that a baseline of expected failures in either run does
not hide a change. A case that passed in the old run and fails or errs in the new one is a
**regression**; the reverse is a **fix**; a case that fails in both with other differences has
**changed**.

Two runs are compared only when they are alike: the same engine (by name; its version may
change), the same suite version and the same corpus. Anything else compares two different
things, and :func:`unlike` says how.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from fiveup.contract.messages import decode, values_over
from fiveup.contract.schemas import fixture_schema
from fiveup.errors import UsageError

from .compare import Difference
from .lint import FRESH_PREFIX
from .report import plural
from .runner import Status
from .sources import read_bounded
from .text import printable

__all__ = [
    "REPORT_MAX_BYTES",
    "REPORT_MAX_VALUES",
    "CaseChange",
    "Comparison",
    "compare_reports",
    "read_report",
    "summary",
    "unlike",
]

_BAD = ("fail", "error")


@dataclass(frozen=True, slots=True)
class CaseChange:
    """One case whose outcome differs between the runs."""

    id: str
    old: str
    """The old status (``pass``, ``fail``, ``error``, ``unsupported``, or ``absent``)."""
    new: str
    first_difference: str = ""
    """The new run's first difference, or its message, to say what is wrong now."""


@dataclass(frozen=True, slots=True)
class Comparison:
    """Everything that changed between an old and a new run."""

    regressions: tuple[CaseChange, ...]
    fixed: tuple[CaseChange, ...]
    changed: tuple[CaseChange, ...]
    other: tuple[CaseChange, ...]
    """Cases added, removed, or now (no longer) unsupported."""
    unchanged: int

    @property
    def exit_code(self) -> int:
        """1 when something that passed now fails, else 0."""
        return 1 if self.regressions else 0


REPORT_MAX_BYTES: Final = 64 << 20
"""The largest report read: 64 MiB (one of ``certify --fresh 1000`` failing 1,850 of 2,226
cases has 9 MB)."""
REPORT_MAX_VALUES: Final = 2_000_000
"""The most JSON values (member names included) a report read may hold: the one of 9 MB holds
430,000. Decoding builds ~100 bytes at most for each, so a report takes at most ~200 MB beside
its text; a file of 64 MiB of ``[],`` alone would have built 22 million lists, about 3 GB."""


def read_report(path: Path) -> dict[str, Any]:
    """A JSON report of ``fiveup certify``, or UsageError naming the file and the problem.

    Only a regular file of at most :data:`REPORT_MAX_BYTES` is read: a FIFO or a device is
    refused, never waited on; one of more than :data:`REPORT_MAX_VALUES` values is refused
    before any is built.
    """
    name = printable(str(path))
    raw = read_bounded(path, REPORT_MAX_BYTES)
    if isinstance(raw, str):
        raise UsageError(f"{name}: {raw}")
    if values_over(raw, REPORT_MAX_VALUES):
        raise UsageError(
            f"{name}: not read: more than {REPORT_MAX_VALUES:,} JSON values "
            "(compare reads no more: a certify run of the corpus has far fewer, one with "
            "--fresh 1000 of a failing engine may have more)"
        )
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UsageError(f"{name}: not UTF-8 text: {exc.reason} at byte {exc.start}") from None
    del raw  # the text is all that is needed: the bytes would double the memory the decoding takes
    try:
        data: dict[str, Any] = decode(text)
    except RecursionError:
        raise UsageError(f"{name}: not read: the JSON nests too deeply") from None
    except ValueError as exc:
        raise UsageError(f"{name}: not JSON: {printable(str(exc))}") from None
    cases = data.get("cases") if isinstance(data, dict) else None
    if not isinstance(cases, list) or not all(
        isinstance(c, dict) and isinstance(c.get("id"), str) and isinstance(c.get("status"), str)
        for c in cases
    ):
        raise UsageError(
            f"{name}: not a report of 'fiveup certify --format json' (no list of cases)"
        )
    problem = _case_problem(cases)
    if problem:
        raise UsageError(f"{name}: not a report of 'fiveup certify --format json': {problem}")
    return data


_STATUSES: Final = frozenset(status.value for status in Status)
_ID_SCHEMA: Final = fixture_schema()["$defs"]["case"]["properties"]["id"]
_CASE_ID: Final = re.compile(_ID_SCHEMA["pattern"])
_MAX_ID: Final[int] = _ID_SCHEMA["maxLength"]
_SHOWN: Final = 60


def _case_problem(cases: list[dict[str, Any]]) -> str:
    """What no report of certify holds in its cases (an edited id, status or difference), or ''.

    Case IDs are those of a linted corpus, each once: a report with anything else would
    compare as cases that no run had.
    """
    seen: set[str] = set()
    for number, case in enumerate(cases):
        case_id, status = case["id"], case["status"]
        where = f"case {number + 1}"
        if len(case_id) > _MAX_ID or _CASE_ID.fullmatch(case_id) is None or "\n" in case_id:
            return f"{where}: {printable(case_id[:_SHOWN])!r} is not a case ID"
        if case_id in seen:
            return f"{where}: {case_id} is listed twice"
        if status not in _STATUSES:
            return f"{where} ({case_id}): no status {printable(status[:_SHOWN])!r}"
        differences = case.get("differences")
        if differences is not None and not (
            isinstance(differences, list) and all(isinstance(d, dict) for d in differences)
        ):
            return f"{where} ({case_id}): 'differences' is not a list of differences"
        message = case.get("message")
        if message is not None and not isinstance(message, str):
            return f"{where} ({case_id}): 'message' is not text"
        seen.add(case_id)
    return ""


def _what(case: Mapping[str, Any]) -> str:
    """The first difference in certify's words (``/value: expected 5, got nothing``)."""
    differences = case.get("differences") or []
    if differences and isinstance(differences[0], dict):
        first = differences[0]
        note = first.get("note")
        return Difference(
            str(first.get("path") or ""),
            first.get("expected"),
            first.get("actual"),
            note if isinstance(note, str) else "",
        ).text
    return str(case.get("message") or "")


def _named(value: object, unknown: str) -> str:
    """A report's name of something: text as it is, any other value as JSON writes it."""
    if value is None:
        return unknown
    return value if isinstance(value, str) else json.dumps(value)


def _engine(report: Mapping[str, Any]) -> str:
    engine = report.get("engine")
    return _named(engine.get("name") if isinstance(engine, dict) else None, "an unknown engine")


def _corpus(report: Mapping[str, Any]) -> str:
    corpus = report.get("corpus")
    digest = corpus.get("digest") if isinstance(corpus, dict) else None
    return _named(digest, "an unknown corpus")


def unlike(old: Mapping[str, Any], new: Mapping[str, Any]) -> list[str]:
    """How two reports are not of alike runs: ``engine a (old) against b (new)``, or nothing."""
    found = []
    for what, value in (
        ("engine", _engine),
        ("suite version", lambda r: _named(r.get("suite"), "unknown")),
        ("corpus", _corpus),
    ):
        before, after = value(old)[:100], value(new)[:100]  # a report may name anything
        if before != after:
            found.append(f"{what} {before} against {after}")
    if not found:
        dropped = _corpus_ids(old) - _corpus_ids(new)
        if dropped:  # a selection (-k, --case) or a run cut short: its absences are no passes
            first = min(dropped)
            found.append(
                f"cases: the new run has no result for {plural(len(dropped), 'case')} of the "
                f"corpus the old one ran (such as {first})"
            )
    return found


def _corpus_ids(report: Mapping[str, Any]) -> set[str]:
    """The IDs of a report's cases of the corpus (its fresh cases depend on the seed)."""
    return {c["id"] for c in report["cases"] if not c["id"].startswith(FRESH_PREFIX)}


def compare_reports(old: Mapping[str, Any], new: Mapping[str, Any]) -> Comparison:
    """Compare two reports case by case."""
    before = {c["id"]: c for c in old["cases"]}
    after = {c["id"]: c for c in new["cases"]}
    regressions, fixed, changed, other = [], [], [], []
    unchanged = 0
    for case_id in sorted(set(before) | set(after)):
        was = before.get(case_id, {}).get("status", "absent")
        now_case = after.get(case_id, {})
        now = now_case.get("status", "absent")
        change = CaseChange(case_id, was, now, _what(now_case))
        if was == "pass" and now in _BAD:
            regressions.append(change)
        elif was in _BAD and now == "pass":
            fixed.append(change)
        elif was in _BAD and now in _BAD:
            if before[case_id].get("differences") != now_case.get("differences") or was != now:
                changed.append(change)
            else:
                unchanged += 1
        elif was != now:
            other.append(change)
        else:
            unchanged += 1
    return Comparison(tuple(regressions), tuple(fixed), tuple(changed), tuple(other), unchanged)


def summary(result: Comparison) -> str:
    """``1 new failure, 2 fixed, ...``: the last line of the text, counted as certify counts."""
    return (
        f"{plural(len(result.regressions), 'new failure')}, {len(result.fixed)} fixed, "
        f"{len(result.changed)} failing differently, "
        f"{plural(len(result.other), 'other change')}, {result.unchanged} unchanged"
    )
