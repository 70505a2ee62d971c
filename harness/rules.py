"""The index of spec rules, read from ``spec/rules.md``.

A rule is a paragraph starting with ``**XXX-n**``; ``*(conduct)*`` right after the ID marks a
rule that governs the table and cannot be observed through an engine.
"""

from __future__ import annotations

import importlib.resources
import re
from dataclasses import dataclass
from functools import cache

_RULE_RE = re.compile(r"^\*\*([A-Z]{3}-\d+)\*\*(\s*\*\(conduct\)\*)?\s*(.*)$")
_SECTION_RE = re.compile(r"^##\s+([A-Z]{3}):\s*(.*)$")


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
        if m := _SECTION_RE.match(line):
            current = Section(m[1], m[2].strip())
            sections[current.prefix] = current
        elif m := _RULE_RE.match(line):
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


def _rules_text() -> str:
    return importlib.resources.files("fiveup.spec").joinpath("rules.md").read_text("utf-8")
