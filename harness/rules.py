"""The index of spec rules, read from ``spec/rules.md``.

A rule is a paragraph starting with ``**XXX-n**`` (a bold ID inside a paragraph, or at the start of
one of its wrapped lines, is a reference, not a rule); ``*(conduct)*`` right after the ID marks a
rule that governs the table and cannot be observed through an engine.
"""

from __future__ import annotations

import importlib.resources
import re
from dataclasses import dataclass
from functools import cache

_RULE_RE = re.compile(r"^\*\*([A-Z]{3}-\d+)\*\*(\s*\*\(conduct\)\*)?\s*(.*)$")
_SECTION_RE = re.compile(r"^##\s+([A-Z]{3}):\s*(.*)$")
_RETIRED_RE = re.compile(r"^\| `([^`]+)` \| (rule|case) \| ([^|]+?) \| ([^|]*?) \|$")


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
    text = importlib.resources.files("fiveup.spec").joinpath("README.md").read_text("utf-8")
    return parse_retired(text)


def _rules_text() -> str:
    return importlib.resources.files("fiveup.spec").joinpath("rules.md").read_text("utf-8")
