"""The traceability table: one entry per rule, true to the documents, and a loader that refuses
a broken file naming the file, the line and the place."""

from __future__ import annotations

import dataclasses
import fnmatch
import hashlib
import io
import re
import tomllib
from pathlib import Path

import pytest

from fiveup.cli import main
from fiveup.errors import FixtureError
from fiveup.harness import traceability
from fiveup.harness.sources import MAX_PROBLEMS, TOO_MANY_PROBLEMS, display_name
from fiveup.harness.spec_index import document_pins, spec_register, spec_rules
from fiveup.harness.traceability import (
    LANGUAGES,
    TraceKind,
    bundled_path,
    load,
    parse,
    problems,
    spec_questions,
)

ROOT = Path(__file__).resolve().parents[1]
SEEDS = ROOT.parent / "shared" / "seeds"
DOCUMENTS = {
    "it": "000_96af858cdc3e1333.txt",
    "fi": "001_b3d5bbf0db206018.txt",
    "de": "003_f4c4ac2d6b649ddc.txt",
}
needs_documents = pytest.mark.skipif(
    not SEEDS.is_dir(), reason="the rule documents (../shared/seeds) are not here"
)
CLAUSE_STARTS = ("\n", ". ", "; ", ": ", ", ", "- ", "? ", "! ")
CLAUSE_ENDS = tuple(".;:,!?|")


def _question_rules() -> dict[str, set[str]]:
    """The rule IDs on the "Rules." line of each entry of open-questions.md."""
    return {q.id: set(q.rules) for q in spec_register().questions}


def _documents() -> dict[str, str]:
    return {lang: (SEEDS / name).read_text(encoding="utf-8") for lang, name in DOCUMENTS.items()}


def _is_sentence_or_clause(quote: str, text: str) -> bool:
    """Some occurrence of ``quote`` starts and ends where a sentence or clause does."""
    at = text.find(quote)
    while at >= 0:
        before = text[max(0, at - 2) : at]
        starts = at == 0 or text[at - 1] == "\n" or before in CLAUSE_STARTS
        end = at + len(quote)
        ends = quote.endswith(CLAUSE_ENDS) or end == len(text) or text[end] == "\n"
        if starts and ends:
            return True
        at = text.find(quote, at + 1)
    return False


def test_every_rule_of_the_spec_has_one_entry_in_the_spec_order() -> None:
    assert list(load()) == list(spec_rules())
    assert all(trace.rule == rule for rule, trace in load().items())


def test_the_bundled_file_has_no_problems() -> None:
    assert problems() == []


def test_the_open_questions_are_numbered_from_one_without_gaps() -> None:
    questions = spec_questions()
    assert questions == tuple(f"OQ-{n}" for n in range(1, len(questions) + 1))
    assert len(questions) >= 25


def test_every_decision_names_an_open_question_that_lists_the_rule() -> None:
    listed = _question_rules()
    for rule, trace in load().items():
        for question in trace.decisions:
            assert question in listed, (rule, question)
            assert rule in listed[question], f"{question}'s Rules line does not name {rule}"


def test_decision_rules_name_their_questions_and_restatements_none() -> None:
    for rule, trace in load().items():
        if trace.kind is TraceKind.RESTATES:
            assert trace.decisions == (), rule
        else:
            assert trace.decisions, rule
    kinds = {trace.kind for trace in load().values()}
    assert kinds == set(TraceKind)


def test_each_rule_that_restates_the_documents_quotes_every_language_or_says_why() -> None:
    for rule, trace in load().items():
        assert set(trace.sentences) == set(LANGUAGES), rule
        if trace.kind is not TraceKind.DECISION:
            missing = [lang for lang in LANGUAGES if not trace.sentences[lang]]
            assert not missing or trace.note, (rule, missing)
            assert any(trace.sentences.values()), rule


def test_the_rule_the_register_says_is_not_in_german_has_no_german_sentence() -> None:
    opn2 = load()["OPN-2"]
    assert opn2.sentences["de"] == ()
    assert "German" in opn2.note


@needs_documents
def test_the_documents_are_the_ones_the_spec_pins_by_sha256() -> None:
    pins = document_pins()
    assert sorted(pins) == sorted(DOCUMENTS.values())
    for name, pinned in pins.items():
        assert hashlib.sha256((SEEDS / name).read_bytes()).hexdigest() == pinned, name


@needs_documents
@pytest.mark.parametrize("rule", list(spec_rules()))
def test_every_quoted_sentence_occurs_verbatim_in_its_document(rule: str) -> None:
    texts = _documents()
    for lang, quotes in load()[rule].sentences.items():
        for quote in quotes:
            assert quote in texts[lang], f"{rule} {lang}: not in {DOCUMENTS[lang]}: {quote!r}"
            assert _is_sentence_or_clause(quote, texts[lang]), f"{rule} {lang}: {quote!r}"


def test_a_quote_must_be_a_whole_sentence_or_clause() -> None:
    text = "Prima frase, con una virgola. Seconda frase.\n- Una voce"
    assert _is_sentence_or_clause("Prima frase, con una virgola.", text)
    assert _is_sentence_or_clause("con una virgola.", text)
    assert _is_sentence_or_clause("Prima frase,", text)
    assert _is_sentence_or_clause("Una voce", text)
    assert not _is_sentence_or_clause("frase, con", text)
    assert not _is_sentence_or_clause("Seconda frase", text)


def test_a_trace_is_frozen() -> None:
    trace = load()["SPN-3"]
    with pytest.raises(dataclasses.FrozenInstanceError):
        trace.note = "changed"  # type: ignore[misc]
    with pytest.raises(TypeError):
        trace.sentences["it"] = ()  # type: ignore[index]


def test_the_wheel_ships_the_table_with_the_spec() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["fiveup.spec"]
    assert any(fnmatch.fnmatch(bundled_path().name, p) for p in patterns)
    assert bundled_path().is_file()


def _line_of(text: str, marker: str) -> int:
    assert text.count(marker) == 1, marker
    return text[: text.index(marker)].count("\n") + 1


SPN3 = """\
  SPN-3:
    kind: both
    decisions: [OQ-24, OQ-28]
    it: ["Solo dopo puoi iniziare uno dei due rami laterali."]
"""
"""The start of the bundled entry the broken files below change. A problem of an entry is
reported at the entry's first line below its ID, as the fixture linter reports a case's."""
ENTRY = (lambda t: t[t.index(SPN3) : t.index("  SPN-4:\n")])(bundled_path().read_text("utf-8"))
"""The whole bundled entry."""

BROKEN = {  # the part of the bundled file replaced, by what, and the problem: line, place, message
    "missing-kind": (
        SPN3,
        SPN3.replace("    kind: both\n", ""),
        'decisions: [OQ-24, OQ-28]\n    it: ["Solo',
        "/rules/SPN-3",
        "missing key 'kind'",
    ),
    "unknown-kind": (
        SPN3,
        SPN3.replace("kind: both", "kind: maybe"),
        "kind: maybe",
        "/rules/SPN-3/kind",
        "unknown kind 'maybe': expected restates, decision or both",
    ),
    "sentence-not-a-string": (
        SPN3,
        SPN3.replace('["Solo dopo puoi iniziare uno dei due rami laterali."]', "[42]"),
        "it: [42]",
        "/rules/SPN-3/it/0",
        "expected a sentence (a non-empty string), got 42",
    ),
    "sentence-empty": (
        SPN3,
        SPN3.replace('"Solo dopo puoi iniziare uno dei due rami laterali."', '"  "'),
        'it: ["  "]',
        "/rules/SPN-3/it/0",
        "expected a sentence (a non-empty string)",
    ),
    "sentence-padded": (
        SPN3,
        SPN3.replace('"Solo dopo puoi', '" Solo dopo puoi'),
        'it: [" Solo',
        "/rules/SPN-3/it/0",
        "a sentence with a space at its start or end: ' Solo dopo",
    ),
    "sentences-not-a-list": (
        SPN3,
        SPN3.replace('["Solo dopo puoi iniziare uno dei due rami laterali."]', '"Solo dopo."'),
        'it: "Solo dopo."',
        "/rules/SPN-3/it",
        "'it' must be a list",
    ),
    "unknown-key": (
        SPN3,
        SPN3 + "    en: []\n",
        "    en: []",
        "/rules/SPN-3/en",
        "unknown key 'en'",
    ),
    "unknown-question": (
        SPN3,
        SPN3.replace("[OQ-24, OQ-28]", "[OQ-99]"),
        "[OQ-99]",
        "/rules/SPN-3/decisions/0",
        "OQ-99 is not in spec/open-questions.md",
    ),
    "not-a-question-id": (
        SPN3,
        SPN3.replace("[OQ-24, OQ-28]", "[SPN-2]"),
        "[SPN-2]",
        "/rules/SPN-3/decisions/0",
        "'SPN-2' is not an open question ID",
    ),
    "restatement-deciding": (
        SPN3,
        SPN3.replace("kind: both", "kind: restates"),
        'decisions: [OQ-24, OQ-28]\n    it: ["Solo',
        "/rules/SPN-3/decisions",
        "a rule that only restates the documents decides none",
    ),
    "decision-without-questions": (
        SPN3,
        SPN3.replace("[OQ-24, OQ-28]", "[]"),
        'decisions: []\n    it: ["Solo',
        "/rules/SPN-3/decisions",
        "a both rule names the questions it decides",
    ),
    "unknown-rule": (
        SPN3,
        SPN3.replace("SPN-3:", "SPN-9:"),
        'kind: both\n    decisions: [OQ-24, OQ-28]\n    it: ["Solo',
        "/rules/SPN-9",
        "SPN-9 is not a rule of spec/rules.md",
    ),
    "not-a-rule-id": (
        SPN3,
        SPN3.replace("SPN-3:", "spinners:"),
        'kind: both\n    decisions: [OQ-24, OQ-28]\n    it: ["Solo',
        "/rules/spinners",
        "'spinners' is not a rule ID like 'SPN-3'",
    ),
    "entry-not-a-mapping": (
        ENTRY,
        "  SPN-3: restates\n",
        "  SPN-3: restates",
        "/rules/SPN-3",
        "an entry must be a mapping with 'kind'",
    ),
}


def _broken(tmp_path: Path, old: str, new: str) -> tuple[Path, str]:
    text = bundled_path().read_text("utf-8")
    assert text.count(old) == 1
    broken = text.replace(old, new)
    path = tmp_path / "traceability.yaml"
    path.write_text(broken, encoding="utf-8")
    return path, broken


@pytest.mark.parametrize("kind", list(BROKEN))
def test_a_broken_file_is_refused_naming_the_file_line_and_place(tmp_path: Path, kind: str) -> None:
    old, new, marker, at, message = BROKEN[kind]
    path, text = _broken(tmp_path, old, new)
    with pytest.raises(FixtureError) as refused:
        load(path)
    expected = f"{display_name(path)}:{_line_of(text, marker)}: {at}: {message}"
    lines = str(refused.value).splitlines()
    assert any(line.startswith(expected) for line in lines), lines


def test_a_missing_rule_and_a_wrong_order_are_reported_at_the_rules(tmp_path: Path) -> None:
    text = bundled_path().read_text("utf-8")
    spn4 = text[text.index("  SPN-4:\n") : text.index("  CNT-1:\n")]
    moved = tmp_path / "moved.yaml"
    moved.write_text(text.replace(spn4, "").replace(SPN3, spn4 + SPN3), encoding="utf-8")
    found = [p.text for p in problems(moved)]
    line = _line_of(moved.read_text("utf-8"), "rules:\n") + 1
    assert found == [
        f"{display_name(moved)}:{line}: /rules: the entries are not in the order of spec/rules.md"
    ]
    dropped = tmp_path / "dropped.yaml"
    dropped.write_text(text.replace(spn4, ""), encoding="utf-8")
    assert [p.message for p in problems(dropped)] == ["rule SPN-4 of spec/rules.md has no entry"]


def test_a_duplicate_entry_is_refused(tmp_path: Path) -> None:
    path, text = _broken(tmp_path, SPN3, SPN3 + SPN3)
    found = problems(path)
    assert found
    assert found[0].line == text.count("\n", 0, text.rindex("  SPN-3:")) + 1
    assert found[0].message.startswith("duplicate key 'SPN-3'")
    assert found[0].pointer == "/rules/SPN-3"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("- SPN-3\n", "expected a mapping with the key 'rules'"),
        ("rules: [SPN-3]\n", "'rules' must be a mapping of rule IDs to entries"),
        ("rule: {}\n", "unknown key 'rule': the file holds only 'rules'"),
        ("rules: {SPN-3: !!python/object {}}\n", "tag"),
        ("rules: {SPN-3: [\n", "YAML"),
        ("rules: " + "[" * 5000 + "]" * 5000 + "\n", "nesting"),
        (
            "a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a]\n"
            "c: &c [*b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c]\n"
            "e: [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\nrules: {}\n",
            "too many values",
        ),
    ],
)
def test_a_file_of_the_wrong_shape_gives_problems_not_exceptions(
    tmp_path: Path, text: str, message: str
) -> None:
    path = tmp_path / "t.yaml"
    path.write_text(text, encoding="utf-8")
    traces, found = parse(path)
    assert traces == {}
    assert found
    assert all(p.file == display_name(path) and p.line >= 1 for p in found)
    assert any(message.lower() in p.message.lower() for p in found), [p.text for p in found]
    with pytest.raises(FixtureError, match=re.escape(display_name(path))):
        load(path)


def test_a_huge_list_gives_at_most_the_first_hundred_problems(tmp_path: Path) -> None:
    path = tmp_path / "t.yaml"
    twice = ", ".join(["OQ-1"] * 1_900)
    path.write_text(f"rules:\n  SPN-3:\n    kind: decision\n    decisions: [{twice}]\n")
    traces, found = parse(path)
    assert traces == {}
    assert len(found) == MAX_PROBLEMS + 1 and found[-1].message == TOO_MANY_PROBLEMS
    assert (
        found[0].text == f"{display_name(path)}:4: /rules/SPN-3/decisions/1: 'OQ-1' is listed twice"
    )


def test_a_missing_file_is_a_problem(tmp_path: Path) -> None:
    traces, found = parse(tmp_path / "absent.yaml")
    assert traces == {}
    assert len(found) == 1
    assert "absent.yaml" in found[0].text


def test_validate_reports_a_broken_table_like_a_broken_fixture(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path, text = _broken(tmp_path, SPN3, SPN3.replace("kind: both", "kind: maybe"))
    monkeypatch.setattr(traceability, "bundled_path", lambda: path)
    out = io.StringIO()
    code = main(["validate"], stdout=out, stderr=out)
    assert code == 2
    line = _line_of(text, "kind: maybe")
    assert f"{display_name(path)}:{line}: /rules/SPN-3/kind: unknown kind 'maybe'" in out.getvalue()
    assert "Traceback" not in out.getvalue()
    assert "problem(s)" in out.getvalue().splitlines()[-1]
    good = io.StringIO()
    monkeypatch.setattr(traceability, "bundled_path", lambda: ROOT / "spec" / "traceability.yaml")
    main(["validate"], stdout=good, stderr=good)
    assert "traceability.yaml" not in good.getvalue()
