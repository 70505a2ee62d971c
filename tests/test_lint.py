"""The linter refuses broken fixture files, naming the file, the place and the problem."""

from __future__ import annotations

import dataclasses
import io
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from fiveup.cli import main
from fiveup.harness.corpus import bundled_fixture_dir, fixture_files, load_corpus
from fiveup.harness.lint import lint, rounded_penalty
from fiveup.harness.sources import MAX_PROBLEMS
from fiveup.harness.spec_index import (
    CONVENTIONS,
    Retired,
    Rule,
    parse_open_questions,
    parse_retired,
    retired_ids,
    spec_open_questions,
    spec_rules,
    spec_text,
)

GOOD_SCORING = """\
cases:
  - id: t.scoring.credit-15
    title: a sum of 15 credits 15
    rules: [SCR-2]
    provenance: {source: derived, note: test}
    level: scoring
    given: {function: credit, input: 15}
    expect: {value: 15}
"""

TILES = [f"[{a}|{b}]" for a in range(7) for b in range(a, 7)]


def round_case(
    hands: list[list[str]] | None = None,
    boneyard: list[str] | None = None,
    extra_given: str = "",
    expect: str = "state: {turn: 1}",
    actions: str = '["0 play [0|0]"]',
    players: int = 2,
) -> str:
    if hands is None:
        hands = [TILES[5 * s : 5 * s + 5] for s in range(players)]
    if boneyard is None:
        boneyard = TILES[5 * players :]

    def flow(tiles: list[str]) -> str:
        return "[" + ", ".join(f'"{t}"' for t in tiles) + "]"

    hands_text = "\n".join(f"        - {flow(h)}" for h in hands)
    return textwrap.dedent("""\
        cases:
          - id: t.round.one
            title: a round
            rules: [OPN-5]
            provenance: {source: derived, note: test}
            level: round
            given:
              players: %d
              hands:
        %s
              boneyard: %s
              opener: 0
              actions: %s%s
            expect:
              %s
        """) % (players, hands_text, flow(boneyard), actions, extra_given, expect)


def validate(tmp_path: Path, text: str, name: str = "case.yaml") -> tuple[int, str]:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    out = io.StringIO()
    code = main(["validate", str(path)], stdout=out, stderr=out)
    return code, out.getvalue()


def test_a_good_file_passes(tmp_path: Path) -> None:
    code, out = validate(tmp_path, GOOD_SCORING)
    assert code == 0, out
    assert out.startswith("ok: 1 cases in 1 files")


def test_a_good_round_passes(tmp_path: Path) -> None:
    code, out = validate(tmp_path, round_case())
    assert code == 0, out


BROKEN: list[tuple[str, str, int, str]] = [
    # (name, file text, line, words the message must hold)
    ("bad-yaml", "cases:\n  - id: [unclosed\n", 3, "YAML error"),
    ("bad-yaml-context", 'cases:\n  - id: "unclosed\n', 3, "scanning a quoted scalar (line 2)"),
    ("unsafe-tag", "cases: !!python/object/apply:os.system ['echo hi']\n", 1, "tag refused"),
    ("not-utf8", "cases: caf\xe9\n", 1, "not UTF-8"),
    ("empty", "", 1, "empty file"),
    (
        "duplicate-key",
        GOOD_SCORING.replace("    level: scoring\n", "    level: scoring\n    level: layout\n"),
        7,
        "duplicate key 'level'",
    ),
    ("no-cases-key", "tests: []\n", 1, '"cases" is a required property'),
    (
        "missing-rules",
        GOOD_SCORING.replace("    rules: [SCR-2]\n", ""),
        2,
        '"rules" is a required property',
    ),
    ("bad-id", GOOD_SCORING.replace("t.scoring.credit-15", "Not An ID"), 2, "does not match"),
    ("unknown-level", GOOD_SCORING.replace("level: scoring", "level: galaxy"), 6, "is not one of"),
    (
        "unknown-key",
        GOOD_SCORING.replace("    title:", "    colour: blue\n    title:"),
        3,  # the line of the key refused, not of the case that holds it
        '"colour" was unexpected',
    ),
    # the values a schema message names are written as in the file, not as Python's repr
    (
        "boolean-id",
        GOOD_SCORING.replace("id: t.scoring.credit-15", "id: true"),
        2,
        'schema: true is not of type "string"',
    ),
    (
        "null-title",
        GOOD_SCORING.replace("title: a sum of 15 credits 15", "title: null"),
        3,
        'schema: null is not of type "string"',
    ),
    (
        "mapping-rules",
        GOOD_SCORING.replace("rules: [SCR-2]", "rules: {a: 1, b: [true, null]}"),
        4,
        'schema: {"a": 1, "b": [true, null]} is not of type "array"',
    ),
    (
        "unknown-keys",
        GOOD_SCORING.replace("    title:", "    1: x\n    null: y\n    title:"),
        2,
        "Additional properties are not allowed (1, null were unexpected)",
    ),
    ("unknown-rule", GOOD_SCORING.replace("[SCR-2]", "[SCR-99]"), 4, "unknown rule ID SCR-99"),
    ("conduct-rule", GOOD_SCORING.replace("[SCR-2]", "[SET-2]"), 4, "conduct rule"),
    (
        "bad-provenance",
        GOOD_SCORING.replace("{source: derived, note: test}", "{source: rumour}"),
        5,
        "provenance",
    ),
    ("string-input", GOOD_SCORING.replace("input: 15", "input: fifteen"), 7, "input"),
    (
        "list-for-credit",
        GOOD_SCORING.replace("input: 15", "input: [1, 2]"),
        7,
        "takes a whole number",
    ),
    (
        "impossible-tile",
        GOOD_SCORING.replace(
            "level: scoring\n    given: {function: credit, input: 15}\n    expect: {value: 15}",
            'level: layout\n    given: {placements: ["[3|7]"]}\n    expect: {layout: {sum: 10}}',
        ),
        7,
        "does not match",
    ),
    (
        "reversed-tile",
        GOOD_SCORING.replace(
            "level: scoring\n    given: {function: credit, input: 15}\n    expect: {value: 15}",
            'level: layout\n    given: {placements: ["[4|1]"]}\n    expect: {layout: {sum: 5}}',
        ),
        7,
        "not canonical: write '[1|4]'",
    ),
    (
        "slot-of-a-double-on-a-non-double",
        GOOD_SCORING.replace(
            "level: scoring\n    given: {function: credit, input: 15}\n    expect: {value: 15}",
            'level: layout\n    given: {placements: ["[1|4]", "[1|2]@[1|4]:line-a"]}\n'
            "    expect: {layout: {sum: 6}}",
        ),
        7,
        "has no slot 'line-a'",
    ),
    (
        "point-with-wrong-value",
        GOOD_SCORING.replace(
            "level: scoring\n    given: {function: credit, input: 15}\n    expect: {value: 15}",
            'level: layout\n    given: {placements: ["[1|4]"]}\n'
            '    expect:\n      layout:\n        points: {"[1|4]:high": 3}',
        ),
        10,
        "has the value 4, not 3",
    ),
    (
        "contributions-do-not-add-up",
        GOOD_SCORING.replace(
            "level: scoring\n    given: {function: credit, input: 15}\n    expect: {value: 15}",
            'level: layout\n    given: {placements: ["[1|4]"]}\n'
            '    expect:\n      layout:\n        contributions: [["[1|4]", 4], ["[1|4]", 1]]\n'
            "        sum: 6",
        ),
        11,
        "add up to 5",
    ),
    (
        "error-not-last",
        GOOD_SCORING.replace(
            "level: scoring\n    given: {function: credit, input: 15}\n    expect: {value: 15}",
            'level: layout\n    given: {placements: ["[1|4]", "[2|2]", "[1|1]@[1|4]:low"]}\n'
            "    expect:\n      error: {at: 1, rule: LAY-1}",
        ),
        9,
        "must be the last one",
    ),
    (
        "too-many-steps",
        GOOD_SCORING.replace(
            "level: scoring\n    given: {function: credit, input: 15}\n    expect: {value: 15}",
            'level: layout\n    given: {placements: ["[1|4]"]}\n'
            "    expect:\n      steps: [{credit: 5}, {credit: 0}]",
        ),
        9,
        "2 steps listed but 1",
    ),
    (
        "credit-disagrees-with-sum",
        GOOD_SCORING.replace(
            "level: scoring\n    given: {function: credit, input: 15}\n    expect: {value: 15}",
            'level: layout\n    given: {placements: ["[1|3]"]}\n'
            "    expect:\n      steps: [{sum: 4, credit: 4}]",
        ),
        9,
        "a sum of 4 credits 0, not 4",
    ),
    (
        "displayed-disagrees-with-credit",
        GOOD_SCORING.replace(
            "level: scoring\n    given: {function: credit, input: 15}\n    expect: {value: 15}",
            'level: layout\n    given: {placements: ["[1|4]"]}\n'
            "    expect:\n      steps: [{credit: 5, displayed: 5}]",
        ),
        9,
        "5 raw is 1 displayed",
    ),
    (
        "score-not-a-multiple-of-5",
        round_case(extra_given="\n      scores: [0, 7]"),
        15,
        "score 7 is not a multiple of 5",
    ),
    (
        "duplicate-tile-in-deal",
        round_case(boneyard=[*TILES[10:27], "[0|0]"]),
        12,
        "[0|0] is dealt twice (also at hands/0/0)",
    ),
    ("missing-tile-in-deal", round_case(boneyard=TILES[10:27]), 12, "lacks [6|6]"),
    (
        "hand-of-seven",
        round_case(hands=[TILES[0:7], TILES[7:12]], boneyard=TILES[12:]),
        10,
        "dealt 7 tiles, not 5",
    ),
    ("seat-out-of-range", round_case(actions='["3 play [0|0]"]'), 14, "no seat 3 with 2 players"),
    (
        "wrong-penalty",
        round_case(expect="state: {result: {pips: [3, 0], penalties: [0, 0]}}"),
        16,
        "3 pips round to 5, not 0",
    ),
    (
        "scores-for-wrong-sides",
        round_case(extra_given="\n      scores: [0, 0, 0]"),
        15,
        "3 scores for 2 sides",
    ),
    ("bad-action", round_case(actions='["0 jump [0|0]"]'), 14, "does not match"),
    # a seat past int()'s 4,300 digits is a notation problem, not a ValueError's traceback
    (
        "seat-of-5000-digits",
        round_case(actions='["' + "9" * 5000 + ' draw"]'),
        14,
        "a seat of 5,000 digits; at most 18",
    ),
    (
        "zero-padded-seat-of-5000-digits",
        round_case(actions='["' + "0" * 5000 + '1 draw"]'),
        14,
        "a seat of 5,001 digits",
    ),
    # a title is one line, says something and is short; an ID is short and never fresh.*
    (
        "title-with-line-break",
        GOOD_SCORING.replace("a sum of 15 credits 15", '"a\\nsum"'),
        3,
        "line break",
    ),
    ("blank-title", GOOD_SCORING.replace("a sum of 15 credits 15", '"   "'), 3, "a blank title"),
    (
        "long-title",
        GOOD_SCORING.replace("a sum of 15 credits 15", "x" * 400),
        3,
        "400 characters: at most 300",
    ),
    ("long-id", GOOD_SCORING.replace("credit-15", "c" * 200), 2, "210 characters: at most 120"),
    (
        "fresh-id",
        GOOD_SCORING.replace("t.scoring.credit-15", "fresh.scoring.s1-0"),
        2,
        "the prefix 'fresh.' is kept for the fresh cases certify makes",
    ),
]


@pytest.mark.parametrize(("name", "text", "line", "words"), BROKEN, ids=[b[0] for b in BROKEN])
def test_a_broken_file_is_refused_with_file_line_and_problem(
    tmp_path: Path, name: str, text: str, line: int, words: str
) -> None:
    raw = text.encode("latin-1") if name == "not-utf8" else None
    path = tmp_path / f"{name}.yaml"
    if raw is not None:
        path.write_bytes(raw)
    else:
        path.write_text(text, encoding="utf-8")
    out = io.StringIO()
    code = main(["validate", str(path)], stdout=out, stderr=out)
    report = out.getvalue()
    assert code == 2, report
    assert "Traceback" not in report
    located = [ln for ln in report.splitlines() if ln.startswith(f"{path}:{line}:")]
    assert located, f"no problem reported at {path}:{line}:\n{report}"
    assert any(words in ln for ln in located), report


def test_duplicate_ids_across_files_name_both_places(tmp_path: Path) -> None:
    (tmp_path / "a.yaml").write_text(GOOD_SCORING)
    (tmp_path / "b.yaml").write_text(GOOD_SCORING)
    out = io.StringIO()
    assert main(["validate", str(tmp_path)], stdout=out, stderr=out) == 2
    assert (
        f"{tmp_path / 'b.yaml'}:2: /cases/0/id: duplicate case ID 't.scoring.credit-15' "
        f"(first at {tmp_path / 'a.yaml'}:2)" in out.getvalue()
    )


def test_json_format_lists_problems_for_tools(tmp_path: Path) -> None:
    path = tmp_path / "x.yaml"
    path.write_text(GOOD_SCORING.replace("[SCR-2]", "[SCR-99]"))
    out = io.StringIO()
    assert main(["validate", "--format", "json", str(path)], stdout=out, stderr=out) == 2
    import json

    doc = json.loads(out.getvalue())
    assert doc["ok"] is False
    assert doc["problems"] == [
        {
            "file": str(path),
            "line": 4,
            "pointer": "/cases/0/rules/0",
            "message": "unknown rule ID SCR-99 (not in spec/rules.md)",
        }
    ]


def test_a_missing_path_is_a_usage_error(tmp_path: Path) -> None:
    err = io.StringIO()
    assert main(["validate", str(tmp_path / "nope.yaml")], stdout=io.StringIO(), stderr=err) == 2
    assert "no such file or folder" in err.getvalue()


def test_the_bundled_corpus_is_valid_and_covers_every_checkable_rule() -> None:
    out = io.StringIO()
    code = main(["validate", "--coverage"], stdout=out, stderr=out)
    assert code == 0, out.getvalue()
    last = out.getvalue().splitlines()[-1]
    assert last.startswith("ok: ") and last.endswith("(100%)"), last
    assert "NOT COVERED" not in out.getvalue()


def test_coverage_is_required_only_of_the_bundled_corpus(tmp_path: Path) -> None:
    (tmp_path / "a.yaml").write_text(GOOD_SCORING)
    report = lint([tmp_path / "a.yaml"], require_coverage=True)
    assert any("is covered by no case" in p.message for p in report.problems)
    assert not lint([tmp_path / "a.yaml"], require_coverage=False).problems


def test_every_bundled_file_is_found() -> None:
    files = fixture_files([bundled_fixture_dir()])
    assert files and all(f.suffix == ".yaml" for f in files)


@pytest.mark.parametrize(
    ("pips", "penalty"),
    [(0, 0), (1, 0), (2, 0), (3, 5), (4, 5), (5, 5), (7, 5), (8, 10), (12, 10), (13, 15)],
)
def test_the_linters_own_rounding_follows_pen_2(pips: int, penalty: int) -> None:
    assert rounded_penalty(pips) == penalty


def test_the_coverage_table_lists_every_case_of_every_rule() -> None:
    out = io.StringIO()
    assert main(["validate", "--coverage"], stdout=out, stderr=out) == 0
    listed: dict[str, set[str]] = {}
    for line in out.getvalue().splitlines()[1:-1]:
        rule, count, cases = line.split(None, 2)
        shown = cases not in ("conduct, not checkable", "NOT COVERED")
        listed[rule] = set(cases.split(", ")) if shown else set()
        assert len(listed[rule]) == int(count), line
    for case in load_corpus().cases:
        for rule in case.rules:
            assert case.id in listed[rule], (rule, case.id)


LEDGER = """\
| ID | Kind | Retired in | Why |
|---|---|---|---|
| `t.scoring.credit-15` | case | 1.1.0 | replaced by t.scoring.credit-fifteen |
| `SCR-9` | rule | 1.2.0 | merged into SCR-2 |
"""


def test_the_ledger_of_retired_ids_is_read_from_its_table() -> None:
    assert not parse_retired(LEDGER)
    retired = parse_retired(
        "### Retired identifiers\n\ntext\n"
        + LEDGER
        + "\n## Next\n| `XYZ-1` | rule | 9.9.9 | not in the ledger |\n"
    )
    assert sorted(retired) == ["SCR-9", "t.scoring.credit-15"]
    assert retired["SCR-9"] == Retired("SCR-9", "rule", "1.2.0", "merged into SCR-2")
    bundled = spec_text("README.md")
    assert LEDGER.splitlines()[0] in bundled.splitlines()
    assert set(retired_ids()) == set(parse_retired(bundled))


def test_a_case_that_takes_a_retired_id_or_cites_a_retired_rule_is_refused(
    tmp_path: Path,
) -> None:
    (tmp_path / "a.yaml").write_text(GOOD_SCORING.replace("[SCR-2]", "[SCR-2, SCR-9]"))
    rules = {**spec_rules(), "SCR-9": spec_rules()["SCR-2"]}
    report = lint([tmp_path / "a.yaml"], require_coverage=False, rules=rules)
    assert not report.problems
    report = lint(
        [tmp_path / "a.yaml"],
        require_coverage=False,
        rules=rules,
        retired=parse_retired("### Retired identifiers\n" + LEDGER),
    )
    assert [(p.line, p.pointer, p.message) for p in report.problems] == [
        (
            2,
            "/cases/0/id",
            "case ID 't.scoring.credit-15' was retired in 1.1.0 "
            "(replaced by t.scoring.credit-fifteen); IDs are never reused",
        ),
        (
            4,
            "/cases/0/rules/1",
            "rule ID 'SCR-9' was retired in 1.2.0 (merged into SCR-2); IDs are never reused",
        ),
    ]


def _decision_problems(
    tmp_path: Path, text: str, rules: dict[str, Rule] | None = None
) -> list[tuple[str, str]]:
    (tmp_path / "d.yaml").write_text(text, encoding="utf-8")
    report = lint([tmp_path / "d.yaml"], require_coverage=False, rules=rules)
    return [(p.pointer, p.message) for p in report.problems]


TALLY_55 = GOOD_SCORING.replace("[SCR-2]", "[TAL-2]").replace(
    "{function: credit, input: 15}\n    expect: {value: 15}",
    "{function: tally, input: 55}\n    expect: {value: {fifties: 1, strokes: 1}}",
)


def test_lint_decisions_name_open_questions_of_the_register_in_order(tmp_path: Path) -> None:
    listed = GOOD_SCORING.replace("[SCR-2]\n", "[SCR-2]\n    decisions: [OQ-10, OQ-9, OQ-99]\n")
    assert _decision_problems(tmp_path, listed) == [
        ("/cases/0/decisions", "decisions are listed in register order: [OQ-9, OQ-10]"),
        (
            "/cases/0/decisions/2",
            "unknown open question OQ-99 (not in spec/open-questions.md); did you mean OQ-9?",
        ),
    ]
    ordered = listed.replace("[OQ-10, OQ-9, OQ-99]", "[OQ-9, OQ-10]")
    assert _decision_problems(tmp_path, ordered) == []


def test_lint_decisions_refuse_a_repeat_and_a_convention(tmp_path: Path) -> None:
    repeated = GOOD_SCORING.replace("[SCR-2]\n", "[SCR-2]\n    decisions: [OQ-9, OQ-9]\n")
    assert any("non-unique" in message for _, message in _decision_problems(tmp_path, repeated))
    convention = GOOD_SCORING.replace("[SCR-2]\n", "[SCR-2]\n    decisions: [OQ-13]\n")
    [(at, message)] = _decision_problems(tmp_path, convention)
    assert at == "/cases/0/decisions/0"
    assert "OQ-13 (In which order is a stacked deck dealt?) is a convention" in message


def test_lint_a_forgotten_decision_is_named_with_the_reason(tmp_path: Path) -> None:
    [(at, message)] = _decision_problems(tmp_path, TALLY_55)
    assert at == "/cases/0"
    assert message == (
        "decisions lack OQ-18 (How is a score represented in the paper tally?): "
        "it expects a tally with a 50-point mark"
    )
    tagged = TALLY_55.replace("[TAL-2]\n", "[TAL-2]\n    decisions: [OQ-18]\n")
    assert _decision_problems(tmp_path, tagged) == []
    below_fifty = TALLY_55.replace("input: 55", "input: 45").replace(
        "{fifties: 1, strokes: 1}", "{fifties: 0, strokes: 9}"
    )
    assert _decision_problems(tmp_path, below_fifty) == []


def test_lint_a_rule_whose_text_names_an_open_question_asks_for_it(tmp_path: Path) -> None:
    rules = dict(spec_rules())
    rules["SCR-2"] = dataclasses.replace(rules["SCR-2"], text=rules["SCR-2"].text + " (OQ-9)")
    [(at, message)] = _decision_problems(tmp_path, GOOD_SCORING, rules=rules)
    assert at == "/cases/0"
    assert message.startswith("decisions lack OQ-9 (")
    assert message.endswith("it cites SCR-2, whose text in spec/rules.md names OQ-9")
    assert _decision_problems(tmp_path, GOOD_SCORING) == []
    assert "OQ-16" in spec_rules()["TRN-4"].text


def test_lint_the_register_of_decisions_is_read_from_its_headings() -> None:
    register = parse_open_questions("# Register\n\n## OQ-1: One?\n\ntext OQ-7\n## OQ-12: Twelve?\n")
    assert register == {"OQ-1": "One?", "OQ-12": "Twelve?"}
    bundled = spec_open_questions()
    assert list(bundled) == [f"OQ-{n}" for n in range(1, len(bundled) + 1)]
    assert set(bundled) >= CONVENTIONS


def test_lint_every_sign_of_a_decision_in_the_bundled_corpus_is_tagged() -> None:
    corpus = load_corpus()
    blocked = [c for c in corpus.cases if "'end': 'blocked'" in str(c.expect)]
    assert blocked and all("OQ-7" in c.decisions for c in blocked)
    assert all("OQ-16" in c.decisions for c in corpus.cases if "TRN-4" in c.rules)
    assert not {oq for c in corpus.cases for oq in c.decisions} & CONVENTIONS


@pytest.mark.parametrize(
    ("case_id", "decision", "reason"),
    [
        ("rule.round.three-players.out-with-negative-score", "OQ-4", "a score below zero"),
        ("rule.round.four-players.blocked-by-last-draw", "OQ-7", "a blocked round"),
        ("rule.match.first-round-without-opener", "OQ-8", "for want of an opener"),
        ("rule.round.illegal.pending-tile-at-wrong-value", "OQ-16", "it cites TRN-4"),
        ("rule.scoring.tally-305", "OQ-18", "a 50-point mark"),
        ("rule.round.illegal.draw-from-empty-boneyard", "OQ-19", "refused with DRW-2"),
    ],
)
def test_lint_a_tag_taken_off_a_bundled_case_is_missed(
    tmp_path: Path, case_id: str, decision: str, reason: str
) -> None:
    case = load_corpus().by_id()[case_id]
    lines = Path(case.file).read_text(encoding="utf-8").splitlines(keepends=True)
    at = next(i for i in range(case.line, len(lines)) if "decisions:" in lines[i])
    kept = [oq for oq in lines[at].split("[")[1].split("]")[0].split(", ") if oq != decision]
    indent = lines[at][: lines[at].index("decisions:")]
    lines[at] = f"{indent}decisions: [{', '.join(kept)}]\n" if kept else ""
    problems = _decision_problems(tmp_path, "".join(lines))
    assert [message for _, message in problems if decision in message and reason in message]
    assert all(decision in message for _, message in problems)


def test_lint_spec_fixtures_classifies_every_open_question_once() -> None:
    text = spec_text("fixtures.md")
    section = text.split("\n## Decisions\n", 1)[1].split("\n## ", 1)[0]
    tables = [
        [line.split("|")[1].strip() for line in block.splitlines() if line.startswith("| OQ-")]
        for block in section.split("\n\n")
        if block.startswith("| decision |")
    ]
    conventions, listed = tables
    assert set(conventions) == CONVENTIONS
    assert listed == [oq for oq in spec_open_questions() if oq not in CONVENTIONS]


def moves_case(expect: str, actions: str = "[]", depth: int = 2, divide: str = "") -> str:
    """A moves case on the canonical deal (seat 0 opens holding [0|0] to [0|4])."""
    text = round_case(actions=actions, expect=expect, extra_given=f"\n      depth: {depth}{divide}")
    return text.replace("level: round", "level: moves").replace("t.round.one", "t.moves.one")


OPENINGS = '["0 play [0|0]", "0 play [0|1]", "0 play [0|2]", "0 play [0|3]", "0 play [0|4]"]'


def test_lint_a_good_moves_case_passes(tmp_path: Path) -> None:
    divide = "{" + ", ".join(f'"0 play [0|{b}]": 1' for b in range(5)) + "}"
    expect = f"legal: {OPENINGS}\n      count: 5\n      divide: {divide}"
    code, out = validate(tmp_path, moves_case(expect, depth=1, divide="\n      divide: true"))
    assert code == 0, out


@pytest.mark.parametrize(
    ("expect", "depth", "divide", "problem"),
    [
        ("count: 2", 0, "", "depth 0 counts one sequence, the empty one"),
        (f"legal: {OPENINGS}\n      count: 4", 1, "", "at depth 1 the count is the legal actions'"),
        ('legal: ["0 play [0|0]", "0 play [0|0]"]', 1, "", "an action is listed twice"),
        ('legal: ["0 draw", "1 draw"]', 1, "", "the legal actions are those of one seat"),
        ('legal: ["2 draw"]', 1, "", "no seat in '2 draw'"),
        ('divide: {"0 draw": 1}', 1, "", "a divide is expected but not asked for"),
        ('divide: {"0 draw": 1}', 0, "\n      divide: true", "at depth 0 there is no first action"),
        (
            'legal: ["0 draw"]\n      divide: {"0 pass": 1}',
            1,
            "\n      divide: true",
            "the divide names each legal action, and no other",
        ),
        (
            'count: 3\n      divide: {"0 draw": 1}',
            2,
            "\n      divide: true",
            "the divide adds up to 1",
        ),
        ('divide: {"0  draw": 1}', 1, "\n      divide: true", "schema"),
    ],
)
def test_lint_a_moves_expectation_that_contradicts_itself_is_refused(
    tmp_path: Path, expect: str, depth: int, divide: str, problem: str
) -> None:
    code, out = validate(tmp_path, moves_case(expect, depth=depth, divide=divide))
    assert code == 2 and problem in out, out


def test_lint_a_moves_refusal_must_be_the_last_action_of_the_prefix(tmp_path: Path) -> None:
    text = moves_case("error: {at: 0, rule: DRW-1}", actions='["0 draw", "0 play [0|0]"]')
    code, out = validate(tmp_path, text)
    assert code == 2 and "the refused action must be the last one" in out


def test_a_valid_file_is_linted_without_jsonschema_which_only_describes_problems() -> None:
    probe = (
        "import sys\n"
        "from fiveup.harness.corpus import bundled_fixture_dir\n"
        "from fiveup.harness.lint import lint\n"
        "report = lint([bundled_fixture_dir() / 'scoring.yaml'], require_coverage=False)\n"
        "print(len(report.problems), report.case_count, 'jsonschema' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    problems, cases, imported = done.stdout.split()
    assert (problems, imported) == ("0", "False") and int(cases) > 40, done.stdout


def test_unknown_decisions_past_the_reported_problems_are_not_searched_for_a_hint(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import difflib

    searched: list[str] = []
    close_matches = difflib.get_close_matches

    def counted(word: str, possibilities: list[str], n: int = 3) -> list[str]:
        searched.append(word)
        return close_matches(word, possibilities, n=n)

    monkeypatch.setattr(difflib, "get_close_matches", counted)
    unknown = ", ".join(f"OQ-{n}" for n in range(1000, 2900))
    code, out = validate(
        tmp_path, GOOD_SCORING.replace("[SCR-2]\n", f"[SCR-2]\n    decisions: [{unknown}]\n")
    )
    assert code == 2 and "too many problems" in out, out
    assert 100 <= len(searched) <= MAX_PROBLEMS + 1, len(searched)


def test_a_run_stops_after_a_thousand_problems_and_says_where(tmp_path: Path) -> None:
    broken = GOOD_SCORING.replace("[SCR-2]", "[ZZZ-1]")
    for n in range(40):
        many = "cases:\n" + "".join(
            broken.split("\n", 1)[1].replace("credit-15", f"c{n}-{i}") for i in range(60)
        )
        (tmp_path / f"f{n:02}.yaml").write_text(many)
    out = io.StringIO()
    code = main(["validate", str(tmp_path)], stdout=out, stderr=out)
    lines = out.getvalue().splitlines()
    assert code == 2
    assert lines[-2].endswith(
        "f16.yaml: too many problems in all (1,000 or more): no file after this one was checked"
    ), lines[-2]
    assert "in 17 of 40 files checked" in lines[-1], lines[-1]
    assert not any("f17.yaml" in line for line in lines)


def test_a_problem_inside_an_aliased_value_is_at_the_line_of_the_alias(tmp_path: Path) -> None:
    text = GOOD_SCORING.replace("given: {", "given: &g {") + GOOD_SCORING.split("\n", 1)[1].replace(
        "credit-15", "credit-16"
    ).replace("level: scoring", "level: layout").replace(
        "given: {function: credit, input: 15}", "given: *g"
    )
    code, out = validate(tmp_path, text)
    assert code == 2
    assert "case.yaml:14: /cases/1/given: schema: " in out, out
    assert "case.yaml:6:" not in out, out
