"""The spec index: what the bundled spec's documents declare, read once and held here.

Every other module asks this one: the rules of ``spec/rules.md`` with their IDs and sections, the
pins of the three rule documents it names (their SHA-256), the identifiers ``spec/README.md``
retired, and the register of open questions of ``spec/open-questions.md``. The spec's files are
reached through :func:`spec_file` alone, and a rule ID is recognised by :data:`RULE_ID` alone.

A rule is a paragraph starting with ``**XXX-n**`` (a bold ID inside a paragraph, or at the start of
one of its wrapped lines, is a reference, not a rule); ``*(conduct)*`` right after the ID marks a
rule that governs the table and cannot be observed through an engine.
"""

from __future__ import annotations

import importlib.resources
import re
from dataclasses import dataclass
from functools import cache
from importlib.resources.abc import Traversable
from typing import Final

__all__ = [
    "CONVENTIONS",
    "QUESTION_ID",
    "RULE_ID",
    "Question",
    "Register",
    "Retired",
    "Rule",
    "Section",
    "decision_number",
    "document_pins",
    "parse_open_questions",
    "parse_pins",
    "parse_register",
    "parse_retired",
    "parse_rules",
    "retired_ids",
    "spec_file",
    "spec_open_questions",
    "spec_register",
    "spec_rules",
    "spec_sections",
    "spec_text",
]

RULE_ID: Final = r"[A-Z]{3}-[1-9]\d*"
"""The pattern of a rule ID: a section's three capitals and a number with no leading zero
(``SPN-1``), as spec/rules.md numbers them."""
QUESTION_ID: Final = r"OQ-[1-9]\d*"
"""The pattern of an open question's ID (``OQ-6``), numbered like rules."""

_RULE_RE: Final = re.compile(rf"^\*\*({RULE_ID})\*\*(\s*\*\(conduct\)\*)?\s*(.*)$")
_SECTION_RE: Final = re.compile(r"^##\s+([A-Z]{3}):\s*(.*)$")
_RETIRED_RE: Final = re.compile(r"^\| `([^`]+)` \| (rule|case) \| ([^|]+?) \| ([^|]*?) \|$")
_PIN_RE: Final = re.compile(
    r"^\| `(\d{3}_[0-9a-f]{16}\.txt)` \([A-Z][a-z]\) \| `([0-9a-f]{64})` \|$", re.MULTILINE
)
_OQ_HEADING: Final = re.compile(rf"^## ({QUESTION_ID}): (.+)$", re.MULTILINE)
_OQ_START: Final = re.compile(rf"## ({QUESTION_ID}):")
_RULES_LINE: Final = re.compile(r"(?ms)^- \*\*Rules\.\*\*(.*?)(?=^- \*\*|\Z)")
_RULE_MENTION: Final = re.compile(rf"\b{RULE_ID}\b")

CONVENTIONS: Final = frozenset(
    {"OQ-1", "OQ-2", "OQ-11", "OQ-12", "OQ-13", "OQ-14", "OQ-21", "OQ-27", "OQ-31"}
)
"""Decisions no case lists: conventions every case follows alike (the notation, the side a
joined double is named by, the comparison, the deal, the words, the seat numbers, the space on
the table, a joined double with one line side free counting both halves) and OQ-11, which no
expectation can show (spec/fixtures.md, "Decisions")."""


def spec_file(name: str) -> Traversable:
    """A file of the bundled spec (``fiveup.spec``) by its name, such as ``rules.md``."""
    return importlib.resources.files("fiveup.spec").joinpath(name)


@cache
def spec_text(name: str) -> str:
    """The text of a file of the bundled spec, read once."""
    return spec_file(name).read_text("utf-8")


@dataclass(frozen=True, slots=True)
class Rule:
    """One normative rule of the spec."""

    id: str
    section: str
    title: str
    checkable: bool
    text: str
    line: int
    """Where the rule stands in spec/rules.md."""


@dataclass(frozen=True, slots=True)
class Section:
    """A section of the spec: its three-letter prefix and heading."""

    prefix: str
    title: str


def parse_rules(markdown: str) -> tuple[dict[str, Rule], dict[str, Section]]:
    """Parse rule paragraphs and section headings out of the spec's Markdown."""
    rules: dict[str, Rule] = {}
    sections: dict[str, Section] = {}
    current = Section("", "")
    lines = markdown.splitlines()
    for i, line in enumerate(lines):
        starts_paragraph = i == 0 or not lines[i - 1].strip()
        if m := _SECTION_RE.match(line):
            current = Section(m[1], m[2].strip())
            sections[current.prefix] = current
        elif starts_paragraph and (m := _RULE_RE.match(line)):
            text = [m[3]]
            for follow in lines[i + 1 :]:
                if not follow.strip():
                    break
                text.append(follow.strip())
            rules[m[1]] = Rule(
                m[1],
                current.prefix,
                current.title,
                m[2] is None,
                " ".join(t for t in text if t),
                i + 1,
            )
    return rules, sections


@cache
def spec_rules() -> dict[str, Rule]:
    """Every rule of the bundled spec by ID."""
    return parse_rules(_rules_text())[0]


@cache
def spec_sections() -> dict[str, Section]:
    """Every section of the bundled spec by prefix."""
    return parse_rules(_rules_text())[1]


@dataclass(frozen=True, slots=True)
class Retired:
    """An identifier the ledger in spec/README.md retired: it may never be used again."""

    id: str
    kind: str
    version: str
    why: str


def parse_retired(markdown: str) -> dict[str, Retired]:
    """The rows of the table under the heading "Retired identifiers", by ID."""
    _, heading, after = markdown.partition("### Retired identifiers\n")
    section = after.split("\n#", 1)[0] if heading else ""
    rows = (_RETIRED_RE.match(line) for line in section.splitlines())
    return {m[1]: Retired(m[1], m[2], m[3], m[4]) for m in rows if m}


@cache
def retired_ids() -> dict[str, Retired]:
    """Every identifier retired by the bundled spec."""
    return parse_retired(spec_text("README.md"))


def _rules_text() -> str:
    return spec_text("rules.md")


def parse_pins(markdown: str) -> dict[str, str]:
    """The rule documents a spec pins, by file name: the SHA-256 of each, in hex."""
    return dict(_PIN_RE.findall(markdown))


@cache
def document_pins() -> dict[str, str]:
    """The SHA-256 the bundled spec/rules.md pins each rule document to, by file name."""
    return parse_pins(_rules_text())


# --------------------------------------------------------------------------- open questions


def parse_open_questions(markdown: str) -> dict[str, str]:
    """The entries of a register of decisions: each ``## OQ-n: title`` heading, in order."""
    return {m[1]: m[2].strip() for m in _OQ_HEADING.finditer(markdown)}


@cache
def spec_open_questions() -> dict[str, str]:
    """Every open question of the bundled spec/open-questions.md: its title by ID, in order."""
    return parse_open_questions(spec_text("open-questions.md"))


def decision_number(oq: str) -> int:
    """The number of ``OQ-n``, by which decisions are ordered (OQ-2 before OQ-10)."""
    return int(oq.split("-")[1])


@dataclass(frozen=True, slots=True)
class Question:
    """One entry of the register: its ID, its Markdown and the rule IDs its "Rules." line names."""

    id: str
    text: str
    """The entry's Markdown, from its ``## OQ-n:`` heading to the next heading."""
    rules: tuple[str, ...]
    """Every rule-shaped ID on the entry's ``- **Rules.**`` line, in order (known or not)."""


@dataclass(frozen=True, slots=True)
class Register:
    """The register of open questions cut into its preamble, its entries and what follows."""

    head: str
    questions: tuple[Question, ...]
    tail: str
    """Every section after the first heading that is not an entry, and all that follows it."""


def parse_register(markdown: str) -> Register:
    """Cut a register at its ``## `` headings.

    The entries are the run of ``## OQ-n:`` sections after the preamble, up to the first other
    heading.
    """
    chunks = re.split(r"(?m)^(?=## )", markdown)
    entries: list[Question] = []
    tail: list[str] = []
    for chunk in chunks[1:]:
        m = _OQ_START.match(chunk)
        if m and not tail:
            line = _RULES_LINE.search(chunk)
            rules = tuple(_RULE_MENTION.findall(line[1])) if line else ()
            entries.append(Question(m[1], chunk, rules))
        else:
            tail.append(chunk)
    return Register(chunks[0], tuple(entries), "".join(tail))


@cache
def spec_register() -> Register:
    """The bundled spec/open-questions.md, cut into its entries."""
    return parse_register(spec_text("open-questions.md"))
