"""The corpus: loading, requests that hide the expectations, and the map to the documents."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest

from fiveup.contract.engine import Level
from fiveup.errors import FixtureError
from fiveup.harness.corpus import Corpus, engine_given, load_corpus
from fiveup.harness.sources import read_yaml
from fiveup.harness.spec_index import document_pins

SEEDS = Path(__file__).resolve().parents[2] / "shared" / "seeds"
DOCUMENTS = ("000_96af858cdc3e1333.txt", "001_b3d5bbf0db206018.txt", "003_f4c4ac2d6b649ddc.txt")
LABELS = ("Posata: ", "Asetettu ", "Angelegt: ")
WORKED = (
    "[1|2]",
    "[1|5]",
    "[0|5]",
    "[1|3]",
    "[4|4]",
    "[3|4]",
    "[2|2]",
    "[1|4]",
    "[1|1]",
    "[6|6]",
    "[0|0]",
)
"""The tiles whose placement each of the documents' 11 worked positions shows."""


@pytest.fixture(scope="module")
def corpus() -> Corpus:
    return load_corpus()


def test_the_bundled_corpus_loads_with_a_stable_digest(corpus: Corpus) -> None:
    first, second = corpus, load_corpus()
    assert len(first.cases) > 150
    assert first.digest == second.digest and len(first.digest) == 16
    assert len(first.by_id()) == len(first.cases)


def test_every_level_is_present(corpus: Corpus) -> None:
    assert {c.level for c in corpus.cases} == set(Level)


def test_requests_never_carry_expectations_ids_or_titles(corpus: Corpus) -> None:
    for case in corpus.cases:
        text = repr(case.request())
        assert case.id not in text
        assert "expect" not in case.request()
        for key in ("error", "events", "state", "steps"):
            assert key not in case.request()


def test_a_deal_becomes_one_deck_in_seat_order() -> None:
    hands = [
        ["[0|0]", "[0|1]", "[0|2]", "[0|3]", "[0|4]"],
        ["[0|5]", "[0|6]", "[1|1]", "[1|2]", "[1|3]"],
    ]
    given = {
        "players": 2,
        "hands": hands,
        "boneyard": ["[6|6]"],
        "opener": 1,
        "actions": ["1 draw"],
    }
    request = engine_given(Level.ROUND, given)
    assert request == {
        "players": 2,
        "deck": [*hands[0], *hands[1], "[6|6]"],
        "opener": 1,
        "scores": [0, 0],
        "actions": ["1 draw"],
    }
    match = engine_given(Level.MATCH, {"players": 4, "rounds": [{**given, "opener": 3}]})
    assert match["scores"] == [0, 0] and match["rounds"][0]["opener"] == 3


def test_a_broken_corpus_raises_fixture_error_with_places(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("cases:\n  - id: a.b\n")
    with pytest.raises(FixtureError, match=re.escape(f"{bad}:2: /cases/0: schema:")):
        load_corpus([bad])


def test_a_bad_yaml_file_reports_its_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("cases:\n  - id: x\n    title: [\n")
    src = read_yaml(bad)
    assert src.data is None
    assert src.problems[0].line == 4 and "YAML error" in src.problems[0].message


@pytest.mark.parametrize("tile", WORKED)
def test_each_worked_example_of_the_documents_has_its_fixture(corpus: Corpus, tile: str) -> None:
    found = [
        c
        for c in corpus.cases
        if c.id.startswith("doc.")
        and c.provenance.get("source") == "documents"
        and all(f"{label}{tile}" in str(c.provenance.get("example", "")) for label in LABELS)
    ]
    assert len(found) == 1, f"no single fixture transcribes the example that places {tile}"
    case = found[0]
    assert set(case.provenance["documents"]) == set(DOCUMENTS)
    assert case.given["placements"][-1].startswith(tile)


@pytest.mark.skipif(not SEEDS.is_dir(), reason="the rule documents (../shared/seeds) are not here")
def test_the_documents_show_exactly_these_worked_examples() -> None:
    for name, label in zip(DOCUMENTS, LABELS, strict=True):
        text = (SEEDS / name).read_text(encoding="utf-8")
        shown = re.findall(rf"^{re.escape(label)}(\[\d\|\d\])$", text, flags=re.MULTILINE)
        assert sorted(shown) == sorted(WORKED), name


@pytest.mark.skipif(not SEEDS.is_dir(), reason="the rule documents (../shared/seeds) are not here")
def test_the_spec_pins_each_document_by_its_sha256() -> None:
    pins = document_pins()
    assert sorted(pins) == sorted(DOCUMENTS)
    for name, pinned in pins.items():
        assert hashlib.sha256((SEEDS / name).read_bytes()).hexdigest() == pinned, name
