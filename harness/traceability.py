"""The traceability table: per rule of the spec, the sentences of the three documents that state it.

``spec/traceability.yaml`` has one entry per rule ID of ``spec/rules.md``, in the spec's order. Each
entry says whether the rule restates the documents, is the suite's decision where they are silent
or differ (naming the open questions of ``spec/open-questions.md`` it decides), or both; and quotes,
verbatim, the sentences of the Italian, Finnish and German documents that state it.

The file is read like a fixture file (bounded, safe YAML with the line of every value), and every
problem is reported as ``file:line: /pointer: message``: :func:`problems` lists them, and
:func:`load` raises :class:`~fiveup.errors.FixtureError` with all of them.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any, Final

from fiveup.errors import FixtureError

from .sources import MAX_PROBLEMS, TOO_MANY_PROBLEMS, Problem, SourceFile, pointer, read_yaml
from .spec_index import QUESTION_ID, RULE_ID, Rule, spec_file, spec_open_questions, spec_rules

__all__ = [
    "LANGUAGES",
    "Trace",
    "TraceKind",
    "bundled_path",
    "check",
    "load",
    "parse",
    "problems",
    "spec_questions",
]

LANGUAGES: Final = ("it", "fi", "de")
"""The documents' languages, in the order of their file names (000 Italian, 001 Finnish, 003
German)."""

_KEYS: Final = frozenset({"kind", "decisions", "note", *LANGUAGES})
_RULE_ID_RE: Final = re.compile(rf"^{RULE_ID}$")
_QUESTION_ID_RE: Final = re.compile(rf"^{QUESTION_ID}$")


class TraceKind(enum.Enum):
    """How a rule relates to the documents."""

    RESTATES = "restates"
    """The rule says what the documents say."""
    DECISION = "decision"
    """The rule is the suite's decision where the documents are silent or differ."""
    BOTH = "both"
    """The rule restates the documents and adds a decision."""


@dataclass(frozen=True, slots=True)
class Trace:
    """One rule's entry: its kind, the decisions it takes and the documents' sentences."""

    rule: str
    kind: TraceKind
    decisions: tuple[str, ...]
    """The open questions (``OQ-n``) the rule's wording decides; empty for a restatement."""
    sentences: Mapping[str, tuple[str, ...]]
    """The verbatim sentences by language, ``it``, ``fi`` and ``de`` (each key present)."""
    note: str
    """What the rule adds to the documents, or why a language has no sentence; may be empty."""


def bundled_path() -> Path:
    """Where the packaged ``spec/traceability.yaml`` is."""
    return Path(str(spec_file("traceability.yaml")))


@cache
def spec_questions() -> tuple[str, ...]:
    """The IDs of the open questions of the bundled ``spec/open-questions.md``, in order."""
    return tuple(spec_open_questions())


class _Reader:
    """Turns one parsed file into traces, noting every problem with its place."""

    def __init__(self, src: SourceFile) -> None:
        self.src = src
        self.problems: list[Problem] = []
        self.found = 0
        """Every problem found, also those past :data:`MAX_PROBLEMS` that are not kept."""
        self.traces: dict[str, Trace] = {}

    def report(self, parts: Sequence[str | int], message: str) -> None:
        self.found += 1
        if len(self.problems) < MAX_PROBLEMS:
            self.problems.append(self.src.problem(pointer(parts), message))
        elif len(self.problems) == MAX_PROBLEMS:
            self.problems.append(Problem(self.src.name, 0, "", TOO_MANY_PROBLEMS))

    def read(self) -> None:
        data = self.src.data
        if not isinstance(data, dict):
            self.report([], "expected a mapping with the key 'rules'")
            return
        for key in data:
            if key != "rules":
                self.report([key], f"unknown key {key!r}: the file holds only 'rules'")
        rules = data.get("rules")
        if not isinstance(rules, dict):
            where = ["rules"] if "rules" in data else []
            self.report(where, "'rules' must be a mapping of rule IDs to entries")
            return
        for rule_id, entry in rules.items():
            if not _RULE_ID_RE.match(str(rule_id)):
                self.report(["rules", rule_id], f"{rule_id!r} is not a rule ID like 'SPN-3'")
            elif isinstance(entry, dict):
                self._entry(str(rule_id), entry)
            else:
                self.report(["rules", rule_id], "an entry must be a mapping with 'kind'")

    def _entry(self, rule: str, entry: Mapping[str, Any]) -> None:
        at: list[str | int] = ["rules", rule]
        before = self.found
        for key in entry:
            if key not in _KEYS:
                known = ", ".join(sorted(_KEYS))
                self.report([*at, key], f"unknown key {key!r} (known: {known})")
        kind = self._kind(entry, at)
        decisions = self._strings(entry, "decisions", at, _QUESTION_ID_RE, "an open question ID")
        sentences = {lang: self._strings(entry, lang, at, None, "a sentence") for lang in LANGUAGES}
        note = entry.get("note", "")
        if not isinstance(note, str):
            self.report([*at, "note"], "'note' must be a string")
            note = ""
        if kind is not None and self.found == before:
            self.traces[rule] = Trace(
                rule, kind, decisions, MappingProxyType(sentences), note.strip()
            )

    def _kind(self, entry: Mapping[str, Any], at: list[str | int]) -> TraceKind | None:
        if "kind" not in entry:
            self.report(at, "missing key 'kind' (restates, decision or both)")
            return None
        try:
            return TraceKind(entry["kind"])
        except ValueError:
            self.report(
                [*at, "kind"],
                f"unknown kind {entry['kind']!r}: expected restates, decision or both",
            )
            return None

    def _strings(
        self,
        entry: Mapping[str, Any],
        key: str,
        at: list[str | int],
        pattern: re.Pattern[str] | None,
        what: str,
    ) -> tuple[str, ...]:
        values = entry.get(key, [])
        if not isinstance(values, list):
            self.report([*at, key], f"{key!r} must be a list")
            return ()
        good: list[str] = []
        for i, value in enumerate(values):
            if not isinstance(value, str) or not value.strip():
                self.report([*at, key, i], f"expected {what} (a non-empty string), got {value!r}")
            elif value != value.strip():
                self.report([*at, key, i], f"{what} with a space at its start or end: {value!r}")
            elif pattern is not None and not pattern.match(value):
                self.report([*at, key, i], f"{value!r} is not {what} like 'OQ-24'")
            elif value in good:
                self.report([*at, key, i], f"{value!r} is listed twice")
            else:
                good.append(value)
        return tuple(good)


def parse(path: Path) -> tuple[dict[str, Trace], list[Problem]]:
    """The well-formed entries of the file at ``path`` and the problems of reading it.

    Never raises: a file that cannot be read, is not safe YAML within the limits, or has
    entries of the wrong shape gives problems naming the file, line and place.
    """
    _, traces, found = _parse(path)
    return traces, found


def _parse(path: Path) -> tuple[SourceFile, dict[str, Trace], list[Problem]]:
    src = read_yaml(path)
    if src.problems:
        return src, {}, list(src.problems)
    reader = _Reader(src)
    reader.read()
    return src, reader.traces, reader.problems


def check(
    traces: Mapping[str, Trace],
    src: SourceFile,
    rules: Mapping[str, Rule],
    questions: Sequence[str],
) -> list[Problem]:
    """What makes well-formed entries disagree with the spec.

    Every rule has an entry, in the spec's order; no entry names an unknown rule; every
    decision names an existing open question; a ``decision`` or ``both`` rule names at least one;
    a ``restates`` rule names none; a ``restates`` or ``both`` rule quotes each language or says
    in its note why not.
    """
    found: list[Problem] = []

    def report(parts: Sequence[str | int], message: str) -> None:
        found.append(src.problem(pointer(parts), message))

    for rule in rules:
        if rule not in traces:
            report(["rules"], f"rule {rule} of spec/rules.md has no entry")
    if [r for r in traces if r in rules] != [r for r in rules if r in traces]:
        report(["rules"], "the entries are not in the order of spec/rules.md")
    for rule, trace in traces.items():
        if rule not in rules:
            report(["rules", rule], f"{rule} is not a rule of spec/rules.md")
        for parts, message in _entry_problems(trace, questions):
            report(["rules", rule, *parts], message)
    return found


def _entry_problems(trace: Trace, questions: Sequence[str]) -> list[tuple[list[str | int], str]]:
    found: list[tuple[list[str | int], str]] = [
        (["decisions", i], f"{question} is not in spec/open-questions.md")
        for i, question in enumerate(trace.decisions)
        if question not in questions
    ]
    if trace.kind is TraceKind.RESTATES and trace.decisions:
        found.append((["decisions"], "a rule that only restates the documents decides none"))
    if trace.kind is not TraceKind.RESTATES and not trace.decisions:
        found.append((["decisions"], f"a {trace.kind.value} rule names the questions it decides"))
    missing = [lang for lang in LANGUAGES if not trace.sentences[lang]]
    if trace.kind is not TraceKind.DECISION and missing and not trace.note:
        found.append(([], f"no sentence in {', '.join(missing)} and no note saying why"))
    return found


def problems(
    path: Path | None = None,
    *,
    rules: Mapping[str, Rule] | None = None,
    questions: Sequence[str] | None = None,
) -> list[Problem]:
    """Every problem of the traceability file (the packaged one by default), sorted."""
    return _checked(bundled_path() if path is None else path, rules, questions)[1]


def _checked(
    path: Path, rules: Mapping[str, Rule] | None, questions: Sequence[str] | None
) -> tuple[dict[str, Trace], list[Problem]]:
    src, traces, found = _parse(path)
    if not found:
        rules = spec_rules() if rules is None else rules
        questions = spec_questions() if questions is None else questions
        found = check(traces, src, rules, questions)
    return traces, sorted(found, key=lambda p: (p.file, p.line, p.pointer, p.message))


def load(
    path: Path | None = None,
    *,
    rules: Mapping[str, Rule] | None = None,
    questions: Sequence[str] | None = None,
) -> Mapping[str, Trace]:
    """The traces of the file at ``path`` (the packaged one by default), by rule ID.

    The entries come in the spec's order. Raises FixtureError listing every problem, each as
    ``file:line: /pointer: message``, when the file is broken or disagrees with the spec
    (``rules`` and ``questions`` default to the bundled spec's).
    """
    traces, found = _checked(bundled_path() if path is None else path, rules, questions)
    if found:
        raise FixtureError("\n".join(p.text for p in found))
    return MappingProxyType(traces)
