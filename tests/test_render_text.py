"""``fiveup.render.text``: layouts described as the documents describe their worked positions."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fiveup.contract.engine import JSON, Level
from fiveup.harness.corpus import Case, load_corpus
from fiveup.harness.levels import LEVELS
from fiveup.render.text import LANGS, Lang, describe, summary

SEEDS = Path(__file__).resolve().parents[1].parent / "shared" / "seeds"
"""The rule documents, at ``../shared/seeds`` from the project root."""

LABEL = re.compile(r"^(Posata:|Asetettu|Angelegt:) \[[0-6]\|[0-6]\]$")
LANG_OF_LABEL = {"Posata:": Lang.IT, "Asetettu": Lang.FI, "Angelegt:": Lang.DE}


@dataclass(frozen=True)
class Position:
    """One worked position of a document: its label, summary and description lines."""

    file: str
    line: int
    lang: Lang
    label: str
    summary: str
    description: str


def document_positions() -> list[Position]:
    """Every labelled position of the documents, in file and line order."""
    found = []
    for path in sorted(SEEDS.glob("*.txt")):
        lines = path.read_text(encoding="utf-8").splitlines()
        for i, text in enumerate(lines):
            match = LABEL.match(text)
            if match and i + 2 < len(lines):
                lang = LANG_OF_LABEL[match.group(1)]
                found.append(Position(path.name, i + 1, lang, text, lines[i + 1], lines[i + 2]))
    return found


def needs_documents() -> None:
    if not SEEDS.is_dir() or not any(SEEDS.glob("*.txt")):
        pytest.skip(f"the rule documents are not at {SEEDS} (../shared/seeds)")


def first_difference(expected: str, actual: str) -> str:
    """Where two lines first differ, with the text around that place in each."""
    at = next(
        (i for i, (a, b) in enumerate(zip(expected, actual, strict=False)) if a != b),
        min(len(expected), len(actual)),
    )
    start = max(0, at - 30)
    return (
        f"first difference at character {at} (of {len(expected)} expected, {len(actual)} got):\n"
        f"  expected ...{expected[start : at + 30]!r}\n"
        f"  got      ...{actual[start : at + 30]!r}"
    )


def case_of(position: Position, cases: list[Case]) -> Case:
    """The fixture case that transcribes a document's position (by its provenance label)."""
    matching = [
        c
        for c in cases
        if position.label in str(c.provenance.get("example", "")).split(" / ")
        and c.provenance.get("source") == "documents"
    ]
    assert len(matching) == 1, f"{position.file}:{position.line}: {position.label!r}: {matching}"
    return matching[0]


def expected_table(case: Case) -> tuple[Mapping[str, JSON], int | None]:
    """A layout case's expected layout and the credit of its last step."""
    layout = LEVELS[case.level].layout_of(dict(case.expect))
    steps = case.expect.get("steps") or [{}]
    return layout, steps[-1].get("credit")


def test_the_documents_have_33_description_lines_11_in_each_language() -> None:
    needs_documents()
    positions = document_positions()
    assert len(positions) == 33
    for lang in (Lang.IT, Lang.FI, Lang.DE):
        assert sum(p.lang is lang for p in positions) == 11, lang
    for p in positions:
        assert p.description.startswith(p.summary + " "), f"{p.file}:{p.line}"


@pytest.mark.parametrize("lang", [Lang.IT, Lang.FI, Lang.DE], ids=lambda lang: lang.value)
def test_each_description_line_of_the_documents_is_rendered_from_its_fixture(lang: Lang) -> None:
    needs_documents()
    cases = [c for c in load_corpus().cases if c.level is Level.LAYOUT]
    positions = [p for p in document_positions() if p.lang is lang]
    assert len(positions) == 11
    seen = set()
    for p in positions:
        case = case_of(p, cases)
        seen.add(case.id)
        layout, credit = expected_table(case)
        where = f"{p.file}:{p.line + 2} ({p.label}, case {case.id})"
        got = describe(layout, lang, credit=credit)
        assert got == p.description, f"{where}: {first_difference(p.description, got)}"
        got = summary(layout, lang, credit=credit)
        assert got == p.summary, f"{where}: summary: {first_difference(p.summary, got)}"
    assert len(seen) == 11  # each position its own case


def test_without_the_documents_the_check_is_skipped_with_the_reason(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setitem(globals(), "SEEDS", tmp_path / "absent")
    with pytest.raises(pytest.skip.Exception, match="rule documents are not at"):
        needs_documents()


def test_first_difference_names_the_position_where_two_lines_part() -> None:
    assert "at character 3 " in first_difference("abcdef", "abcxef")
    assert "at character 3 " in first_difference("abc", "abcd")


# --------------------------------------------------------------------------- English and forms

OPENING_1_4: dict[str, JSON] = {
    "tiles": ["[1|4]"],
    "spinners": [],
    "connections": [],
    "points": {"[1|4]:low": 1, "[1|4]:high": 4},
    "contributions": [["[1|4]", 1], ["[1|4]", 4]],
    "sum": 5,
}

CHAIN_1_1: dict[str, JSON] = {
    "tiles": ["[1|4]", "[1|1]"],
    "spinners": ["[1|1]"],
    "connections": [["[1|4]:low", "[1|1]:line-a"]],
    "points": {"[1|4]:high": 4, "[1|1]:line-b": 1},
    "contributions": [["[1|4]", 4], ["[1|1]", 2]],
    "sum": 6,
}


def test_english_follows_the_documents_structure_in_the_words_of_terms_md() -> None:
    assert describe(CHAIN_1_1, Lang.EN, credit=0) == (
        "Counted contributions: 2 + 4 = 6. "
        "Credit of the placement: 0 raw points (0 displayed points). "
        "Tiles: [1|4], [1|1]. Spinners: [1|1]. "
        "Connections: [1|4] (lower end) \u2013 [1|1] (line side A). "
        "Available connection points: [1|1] (line side B, 1); [1|4] (higher end, 4). "
        "Counted contributions: [1|1]: 2; [1|4]: 4."
    )


def test_english_names_every_slot_of_a_started_branch_and_an_empty_list() -> None:
    layout: dict[str, JSON] = {
        "tiles": ["[1|1]", "[1|2]", "[1|3]", "[1|5]"],
        "spinners": ["[1|1]"],
        "connections": [
            ["[1|1]:line-a", "[1|2]:low"],
            ["[1|1]:line-b", "[1|3]:low"],
            ["[1|1]:branch-a", "[1|5]:low"],
        ],
        "points": {"[1|1]:branch-b": 1},
        "contributions": [],
        "sum": 0,
    }
    text = describe(layout, "en")
    assert "[1|1] (branch A) \u2013 [1|5] (lower end)" in text
    assert "Available connection points: [1|1] (branch B, 1)." in text
    assert text.startswith("Counted contributions: none = 0. Tiles: ")
    assert text.endswith("Counted contributions: none.")


def test_the_opening_lists_the_higher_end_first_whatever_the_order_given() -> None:
    # The documents: "[1|4] (estremità di valore maggiore, 4); [1|4] (... minore, 1)", "4 + 1".
    text = describe(OPENING_1_4, Lang.EN, credit=5)
    assert text.startswith(
        "Counted contributions: 4 + 1 = 5. Credit of the placement: 5 raw points (1 displayed "
        "point). Tiles: [1|4]. Spinners: none. Connections: none. "
    )
    assert "points: [1|4] (higher end, 4); [1|4] (lower end, 1)." in text
    reordered = dict(OPENING_1_4, contributions=[["[1|4]", 4], ["[1|4]", 1]])
    assert describe(reordered, Lang.EN, credit=5) == text


@pytest.mark.parametrize(
    ("lang", "credit", "words"),
    [
        (Lang.EN, 5, "5 raw points (1 displayed point)"),
        (Lang.EN, 10, "10 raw points (2 displayed points)"),
        (Lang.IT, 5, "5 punti grezzi (1 punto visualizzato)"),
        (Lang.IT, 0, "0 punti grezzi (0 punti visualizzati)"),
        (Lang.FI, 5, "5 raakapistettä (1 näyttöpiste)"),
        (Lang.FI, 15, "15 raakapistettä (3 näyttöpistettä)"),
        (Lang.DE, 5, "5 Rohpunkte (1 Anzeigepunkt)"),
        (Lang.DE, 10, "10 Rohpunkte (2 Anzeigepunkte)"),
        (Lang.EN, 7, "7 raw points (1.4 displayed points)"),
        (Lang.IT, 7, "7 punti grezzi (1,4 punti visualizzati)"),
        (Lang.FI, 1, "1 raakapiste (0,2 näyttöpistettä)"),
    ],
)
def test_the_credit_in_singular_and_plural_and_a_credit_no_placement_earns(
    lang: Lang, credit: int, words: str
) -> None:
    assert f": {words}." in summary(OPENING_1_4, lang, credit=credit)


def test_without_a_credit_the_summary_is_the_sum_alone() -> None:
    assert summary(OPENING_1_4, Lang.EN) == "Counted contributions: 4 + 1 = 5."
    assert summary(OPENING_1_4, "de") == "Gewertete Beiträge: 4 + 1 = 5."
    assert describe(OPENING_1_4, Lang.EN).startswith("Counted contributions: 4 + 1 = 5. Tiles:")


@pytest.mark.parametrize(
    ("lang", "none_tiles", "none"),
    [
        (Lang.IT, "Tessere: nessuna.", "Spinner: nessuno."),
        (Lang.FI, "Laatat: ei yhtään.", "Spinnerit: ei yhtään."),
        (Lang.DE, "Steine: keine.", "Spinner: keine."),
        (Lang.EN, "Tiles: none.", "Spinners: none."),
    ],
)
def test_an_empty_table_says_none_in_each_language(lang: Lang, none_tiles: str, none: str) -> None:
    empty: dict[str, JSON] = {"tiles": [], "spinners": [], "connections": []}
    empty.update(points={}, contributions=[], sum=0)
    text = describe(empty, lang)
    assert none_tiles in text and none in text
    assert text.count(".") == 6  # six sentences, each about one key


def test_a_partial_layout_leaves_out_the_sentences_of_absent_keys() -> None:
    partial: dict[str, JSON] = {"points": {"[6|6]:line-b": 6, "[2|6]:high": 6}, "sum": 18}
    assert describe(partial, Lang.EN) == (
        "Sum of counted ends: 18. "
        "Available connection points: [2|6] (higher end, 6); [6|6] (line side B, 6)."
    )
    assert summary(partial, Lang.IT) == "Somma delle estremità: 18."
    assert summary({"contributions": [["[2|6]", 6]]}, Lang.EN) == "Counted contributions: 6."
    assert describe({}, Lang.EN) == ""


def test_a_language_is_named_by_its_code_and_an_unknown_one_is_refused() -> None:
    assert LANGS == (Lang.IT, Lang.FI, Lang.DE, Lang.EN)
    assert describe(OPENING_1_4, "IT") == describe(OPENING_1_4, Lang.IT)
    with pytest.raises(ValueError, match="no language 'sv'; there are it, fi, de, en"):
        describe(OPENING_1_4, "sv")


# --------------------------------------------------------------------------- malformed layouts


def test_a_malformed_observation_is_described_as_it_is() -> None:
    layout: dict[str, JSON] = {
        "tiles": ["[1|4]"],
        "spinners": ["[6|6]"],  # a spinner not on the table
        "connections": [["[1|4]:low", "[2|2]:line-a"]],  # a tile not in tiles
        "points": {"[5|5]:branch-b": 9, "[1|4]:high": 4},  # a wrong value, a tile not in tiles
        "contributions": [["[1|4]", 4], ["[0|3]", 1]],  # does not sum to sum
        "sum": 12,
    }
    assert describe(layout, Lang.EN, credit=0) == (
        "Counted contributions: 1 + 4 = 12. "
        "Credit of the placement: 0 raw points (0 displayed points). "
        "Tiles: [1|4]. Spinners: [6|6]. "
        "Connections: [1|4] (lower end) \u2013 [2|2] (line side A). "
        "Available connection points: [1|4] (higher end, 4); [5|5] (branch B, 9). "
        "Counted contributions: [0|3]: 1; [1|4]: 4."
    )


def test_values_outside_the_schema_are_shown_as_json_on_one_line() -> None:
    layout: dict[str, JSON] = {
        "tiles": "[1|4]\n[2|2]",
        "spinners": [None, True, {"a": [1]}],
        "connections": [["[1|4]:low"], "x", ["[1|4]:low", "[1|4]:sideways"], 3],
        "points": ["[1|4]:high", 7],
        "contributions": [["[1|4]"], ["[1|4]", "four"], 5, ["[0|0]", True]],
        "sum": [1, 2],
    }
    text = describe(layout, Lang.DE, credit=-5)
    assert "\n" not in text and "\\n" in text
    assert "Steine: [1|4]\\n[2|2]." in text
    assert "[1|4] (Ende mit kleinerer Augenzahl) \u2013 [1|4]:sideways" in text
    assert "= [1, 2]." in text and "-5 Rohpunkte (-1 Anzeigepunkt)" in text
    assert describe(layout, Lang.DE, credit=-5) == text


def test_numbers_too_long_to_print_are_named_by_their_size() -> None:
    huge = 10**5000
    text = describe({"sum": huge, "contributions": [["[1|4]", huge]]}, Lang.EN, credit=huge)
    assert text.startswith("Counted contributions: an integer of 16610 bits = an integer of ")
    assert "Credit of the placement: an integer of 16610 bits raw points (an integer of " in text


def test_a_layout_that_is_not_a_mapping_is_described_as_empty() -> None:
    assert describe([1, 2], Lang.EN) == ""  # type: ignore[arg-type]
    assert summary("tiles", Lang.EN, credit=5) == (  # type: ignore[arg-type]
        "Credit of the placement: 5 raw points (1 displayed point)."
    )


JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-50, 50)
    | st.sampled_from(["[1|4]", "[1|1]:branch-a", "[2|3]:low", "x:y", ":", ""])
    | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=12,
)
LAYOUT_KEYS = ["tiles", "spinners", "connections", "points", "contributions", "sum"]


@settings(max_examples=60, deadline=None)
@given(st.dictionaries(st.sampled_from(LAYOUT_KEYS), JSON_VALUES), st.sampled_from(LANGS))
def test_any_json_layout_is_described_without_failing(layout: dict[str, JSON], lang: Lang) -> None:
    text = describe(layout, lang, credit=10)
    assert "\n" not in text
    assert text.startswith(summary(layout, lang, credit=10))
    assert describe(json.loads(json.dumps(layout)), lang, credit=10) == text


# --------------------------------------------------------------------------- the whole corpus


def corpus_layouts() -> list[tuple[Case, Mapping[str, JSON]]]:
    """Every case of the bundled corpus that expects a table, with that table."""
    found: list[tuple[Case, Mapping[str, JSON]]] = []
    for case in load_corpus().cases:
        layout = LEVELS[case.level].layout_of(dict(case.expect))
        if isinstance(layout, dict):
            found.append((case, layout))
    return found


def test_every_layout_of_the_corpus_is_described_in_every_language() -> None:
    layouts = corpus_layouts()
    assert sum(c.level is Level.LAYOUT for c, _ in layouts) >= 11
    assert any(c.level is Level.ROUND for c, _ in layouts)
    for case, layout in layouts:
        for lang in LANGS:
            text = describe(layout, lang, credit=5)
            assert "\n" not in text, (case.id, lang)
            for tile in layout.get("tiles", []):
                assert tile in text, (case.id, lang, tile)
            for point, value in layout.get("points", {}).items():
                assert f"{point.split(':')[0]} (" in text and f", {value})" in text
            if "sum" in layout:
                assert str(layout["sum"]) in summary(layout, lang), (case.id, lang)
