"""The index of spec rules read from spec/rules.md (fiveup.harness.spec_index)."""

from __future__ import annotations

import re

from fiveup.harness.spec_index import _rules_text, parse_rules, spec_rules

SPEC = """\
## SPN: spinners

**SPN-1** Every double is a spinner. The refusal order puts
**SPN-9** after the others, which is a reference inside a paragraph.

**SPN-2** *(conduct)* Players keep the table tidy.
It goes on here.
"""


def test_parse_rules_reads_a_rule_paragraph_with_its_wrapped_lines() -> None:
    rules, sections = parse_rules(SPEC)
    assert sections["SPN"].title == "spinners"
    assert rules["SPN-1"].text.startswith("Every double is a spinner.")
    assert rules["SPN-1"].text.endswith("a reference inside a paragraph.")
    assert (rules["SPN-1"].section, rules["SPN-1"].line, rules["SPN-1"].checkable) == (
        "SPN",
        3,
        True,
    )


def test_parse_rules_takes_a_bold_id_on_a_wrapped_line_for_a_reference_not_a_rule() -> None:
    assert sorted(parse_rules(SPEC)[0]) == ["SPN-1", "SPN-2"]


def test_parse_rules_marks_a_conduct_rule_unobservable() -> None:
    rule = parse_rules(SPEC)[0]["SPN-2"]
    assert not rule.checkable
    assert rule.text == "Players keep the table tidy. It goes on here."


def test_every_rule_of_the_bundled_spec_starts_its_own_paragraph_once() -> None:
    lines = _rules_text().splitlines()
    starts = [
        m[1]
        for i, line in enumerate(lines)
        if (m := re.match(r"\*\*([A-Z]{3}-\d+)\*\*", line)) and (i == 0 or not lines[i - 1].strip())
    ]
    assert len(starts) == len(set(starts))
    assert list(spec_rules()) == starts
    assert all(rule.id.startswith(rule.section + "-") for rule in spec_rules().values())
