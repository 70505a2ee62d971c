"""The spec index (fiveup.harness.spec_index): the rules of spec/rules.md, the pins of the rule
documents, and the register of open questions."""

from __future__ import annotations

import json
import re

from fiveup.contract.schemas import fixture_schema, protocol_schema
from fiveup.harness import traceability
from fiveup.harness.spec_index import (
    QUESTION_ID,
    RULE_ID,
    _rules_text,
    parse_open_questions,
    parse_pins,
    parse_register,
    parse_rules,
    spec_open_questions,
    spec_register,
    spec_rules,
    spec_text,
)

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


def test_every_spec_file_that_names_the_suite_version_names_the_package_version() -> None:
    from pathlib import Path

    from fiveup import __version__

    spec = Path(__file__).resolve().parent.parent / "spec"
    named = {}
    for path in sorted(spec.glob("*.md")):
        found = re.findall(
            r"Suite version \**(\d+\.\d+\.\d+(?:\.?[a-z]+\d*)?)", path.read_text("utf-8")
        )
        if found:
            named[path.name] = set(found)
    assert {"rules.md", "terms.md", "open-questions.md"} <= set(named)
    assert {name: versions for name, versions in named.items() if versions != {__version__}} == {}


def test_a_rule_id_has_no_leading_zero_and_a_question_id_likewise() -> None:
    assert [bool(re.fullmatch(RULE_ID, i)) for i in ("SPN-1", "SPN-10", "SPN-01", "SPN-0")] == [
        True,
        True,
        False,
        False,
    ]
    assert [bool(re.fullmatch(QUESTION_ID, i)) for i in ("OQ-6", "OQ-24", "OQ-06")] == [
        True,
        True,
        False,
    ]
    assert sorted(parse_rules("**SPN-01** Not a rule.\n\n**SPN-2** A rule.\n")[0]) == ["SPN-2"]


def test_parse_pins_reads_the_table_of_documents_and_their_sha256() -> None:
    digest = "ab" * 32
    table = (
        "| Document | SHA-256 |\n|---|---|\n"
        f"| `000_0123456789abcdef.txt` (It) | `{digest}` |\n"
        f"| `001_0123456789abcdef.txt` (Fi) | `{digest[:-1]}` |\n"
    )
    assert parse_pins(table) == {"000_0123456789abcdef.txt": digest}


REGISTER = """\
# Open questions

Preamble naming OQ-2.

## OQ-1: First?

- **Rules.** SPN-1, DRW-02 and [SCR-3](rules.md#SCR-3).
- **Decision.** Names SPN-4, not on the Rules line.

## OQ-2: Second?

No Rules line.

## Conventions

## OQ-3: After another heading
"""


def test_parse_register_cuts_the_entries_and_reads_each_rules_line() -> None:
    register = parse_register(REGISTER)
    assert register.head == "# Open questions\n\nPreamble naming OQ-2.\n\n"
    assert [(q.id, q.rules) for q in register.questions] == [
        ("OQ-1", ("SPN-1", "SCR-3", "SCR-3")),
        ("OQ-2", ()),
    ]
    assert register.questions[1].text == "## OQ-2: Second?\n\nNo Rules line.\n\n"
    assert register.tail == "## Conventions\n\n## OQ-3: After another heading\n"
    assert "".join([register.head, *(q.text for q in register.questions), register.tail]) == (
        REGISTER
    )


def test_the_bundled_register_is_one_list_of_questions_for_every_reader() -> None:
    ids = list(spec_open_questions())
    assert ids == [q.id for q in spec_register().questions]
    assert ids == list(traceability.spec_questions())
    assert ids == list(parse_open_questions(spec_text("open-questions.md")))
    assert ids == [f"OQ-{n}" for n in range(1, len(ids) + 1)]


def test_the_spec_is_read_once() -> None:
    assert spec_text("rules.md") is _rules_text()


def test_the_schemas_write_the_rule_and_question_id_patterns_as_the_spec_index_does() -> None:
    # JSON Schema has no import: the schemas' patterns are the index's, spelled in its dialect.
    def as_schema(pattern: str) -> str:
        return "^" + pattern.replace(r"\d", "[0-9]") + "$"

    common = protocol_schema("common")["$defs"]
    assert isinstance(common, dict) and isinstance(common["rule"], dict)
    assert common["rule"]["pattern"] == as_schema(RULE_ID)
    fixture = json.dumps(fixture_schema())
    assert json.dumps(as_schema(QUESTION_ID)) in fixture
    assert '"^OQ-' not in fixture.replace(json.dumps(as_schema(QUESTION_ID)), "")
