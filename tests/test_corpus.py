"""The corpus: loading, requests that hide the expectations, and the map to the documents."""

from __future__ import annotations

import hashlib
import re
from dataclasses import replace
from pathlib import Path

import pytest

from fiveup.contract.engine import Level
from fiveup.errors import FixtureError
from fiveup.harness import corpus as corpus_module
from fiveup.harness.certify import Verdict, certify
from fiveup.harness.corpus import Case, Corpus, bundled_fixture_dir, engine_given, load_corpus
from fiveup.harness.lint import lint
from fiveup.harness.sources import read_yaml
from fiveup.harness.spec_index import document_pins
from fiveup.mutants import CATALOGUE, Mutant, mutant_named

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
KILLING = frozenset({Verdict.FAILED, Verdict.ERRORED})


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


def test_a_file_named_twice_or_found_again_is_read_once(tmp_path: Path) -> None:
    """``--fixtures F --fixtures F`` (or a folder and a file in it, or a link to it) refused
    every case of F as a duplicate of itself: ``duplicate case ID 'x' (first at F:2)``."""
    fixture = next(bundled_fixture_dir().glob("*.yaml"))
    (tmp_path / "a.yaml").write_bytes(fixture.read_bytes())
    (tmp_path / "link.yaml").symlink_to("a.yaml")
    (tmp_path / "hard.yaml").hardlink_to(tmp_path / "a.yaml")
    once = load_corpus([tmp_path / "a.yaml"])
    for paths in (
        [tmp_path / "a.yaml", tmp_path / "a.yaml"],
        [tmp_path, tmp_path / "a.yaml"],
        [tmp_path / "a.yaml", tmp_path / "." / "link.yaml"],
    ):
        again = load_corpus(paths)
        assert [c.id for c in again.cases] == [c.id for c in once.cases]
        assert len(again.files) == 1


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


# --- every case that depends on a decision carries its tag ------------------------------------


def _played(case: Case) -> list[str]:
    """The placements a case makes, in order, the refused last one left out."""
    if case.level is Level.LAYOUT:
        texts = [str(p) for p in case.given.get("placements") or []]
    elif case.level is Level.ROUND:
        actions = [str(a) for a in case.given.get("actions") or []]
        texts = [a.split(" play ", 1)[1] for a in actions if " play " in a]
    else:
        return []
    return texts[:-1] if "error" in case.expect and texts else texts


def _opens_with_a_double(case: Case) -> bool:
    """OQ-3: the first tile a case places is a double, opening the table."""
    if case.level is Level.LAYOUT:
        texts = [str(p) for p in case.given.get("placements") or []]
    elif case.level is Level.ROUND:
        actions = [str(a) for a in case.given.get("actions") or []]
        texts = [a.split(" play ", 1)[1] for a in actions if " play " in a]
    else:
        texts = []
    first = texts[0] if texts else ""
    return bool(first) and "@" not in first and first[1] == first[3]


def _starts_branch_b_first(case: Case) -> bool:
    """OQ-28: an accepted placement starts branch B of a double whose branch A is free."""
    started_a: set[str] = set()
    for text in _played(case):
        if "@" not in text:
            continue
        double, slot = text.split("@", 1)[1].split(":")
        if slot == "branch-a":
            started_a.add(double)
        elif slot == "branch-b" and double not in started_a:
            return True
    return False


def _misplaces_an_opening(case: Case) -> bool:
    """OQ-29: the refused placement names a point on the empty table, or is a second opening."""
    if "error" not in case.expect:
        return False
    accepted = _played(case)
    if case.level is Level.LAYOUT:
        texts = [str(p) for p in case.given.get("placements") or []]
    elif case.level is Level.ROUND:
        actions = [str(a) for a in case.given.get("actions") or []]
        texts = [a.split(" play ", 1)[1] for a in actions if " play " in a]
    else:
        return False
    error = case.expect["error"]
    rule = error.get("rule") if isinstance(error, dict) else None
    if len(texts) != len(accepted) + 1 or rule not in {"LAY-1", "LAY-4"}:
        return False
    return ("@" in texts[-1]) == (not accepted)


def _scores_a_credit_mid_round(case: Case) -> bool:
    """OQ-30: a round case expects, before the round is over, a score a credit has changed."""
    state = case.expect.get("state")
    if case.level is not Level.ROUND or not isinstance(state, dict) or "scores" not in state:
        return False
    if state.get("result") is not None:
        return False
    scores = list(state["scores"])
    return scores != list(case.given.get("scores") or [0] * len(scores))


STRUCTURAL = {
    "OQ-3": _opens_with_a_double,
    "OQ-28": _starts_branch_b_first,
    "OQ-29": _misplaces_an_opening,
    "OQ-30": _scores_a_credit_mid_round,
}
"""Decisions a case depends on by its own actions and expectations, read from the case."""


@pytest.mark.parametrize("decision", list(STRUCTURAL))
def test_every_case_that_acts_on_a_decision_carries_its_tag(corpus: Corpus, decision: str) -> None:
    untagged = [
        c.id for c in corpus.cases if STRUCTURAL[decision](c) and decision not in c.decisions
    ]
    assert untagged == []


def test_the_structural_detectors_find_the_cases_the_register_names(corpus: Corpus) -> None:
    found = {d: {c.id for c in corpus.cases if test(c)} for d, test in STRUCTURAL.items()}
    assert {
        "rule.layout.spn-3.branch-b-first-leaves-branch-a-open",
        "rule.layout.spn-3.branch-b-first-then-branch-a",
    } <= found["OQ-28"]
    assert "doc.layout.doubles-2-2" in found["OQ-3"]
    assert len(found["OQ-3"]) >= 18 and len(found["OQ-30"]) >= 34


def _alternatives() -> list[tuple[str, Mutant]]:
    """Each mutant that plays the other reading of a decision, with the decision it reads.

    The refusal-order swaps read OQ-16 the other way. OQ-23's mutant is left out: besides the
    opening's credit it zeroes the opening's sum, which the decision does not concern.
    """
    pairs = []
    for mutant in CATALOGUE:
        named = re.match(r"(OQ-\d+) alternative", mutant.description)
        if mutant.name.startswith("order_") and mutant.required:
            pairs.append(("OQ-16", mutant))
        elif named and named[1] != "OQ-23":
            pairs.append((named[1], mutant))
    return pairs


@pytest.mark.campaign  # a mutant of the catalogue certified on the corpus for each decision
@pytest.mark.parametrize(
    ("decision", "mutant"), _alternatives(), ids=[m.name for _, m in _alternatives()]
)
def test_every_case_the_other_reading_of_a_decision_changes_carries_its_tag(
    corpus: Corpus, decision: str, mutant: Mutant
) -> None:
    """A case the other reading kills must carry the decision's tag: the untagged cases, the only
    ones that can break the rule, are certified (a tagged case may fail or not)."""
    cases = (
        [c for c in corpus.cases if "error" in c.expect] if decision == "OQ-16" else corpus.cases
    )
    untagged = [c for c in cases if decision not in c.decisions]
    run = certify(mutant.engine(), corpus, untagged)
    assert len(run.outcomes) == len(untagged) > 0
    assert [o.result.case.id for o in run.outcomes if o.verdict in KILLING] == []


BOUNDARIES = (
    "pts2_target_300",
    "pts2_target_310",
    "mat2_target_exclusive",
    "mat3_tie_at_top_first_side_wins",
    "mat3_tie_at_top_passed_to_next",
    "scr2_five_not_credited",
    "scr2_multiples_of_ten",
    "set4_last_tile_held_back",
    "pen2_remainder_two_rounds_up",
    "pen2_remainder_three_rounds_down",
    "pen2_exact_multiple_rounds_up",
    "pts1_four_raw_per_displayed",
)
"""The one-step-away reading of each threshold and boundary the rules name: the target (61
wins, 60 does not, at least not more than), the tie at the top, the smallest credited sum, the
boneyard minimum, the rounding of penalties and the displayed unit."""


@pytest.mark.parametrize("name", BOUNDARIES)
def test_each_boundary_reading_one_step_away_is_killed_by_two_cases(
    corpus: Corpus, name: str
) -> None:
    """Cases are certified one by one until two kill it, the slow moves cases last."""
    engine = mutant_named(name).engine()
    killed = 0
    for case in sorted(corpus.cases, key=lambda case: case.level is Level.MOVES):
        (outcome,) = certify(engine, corpus, [case]).outcomes
        killed += outcome.verdict in KILLING
        if killed == 2:
            break
    assert killed == 2


def test_a_corpus_loaded_again_is_read_again_when_its_files_changed(tmp_path: Path) -> None:
    source = Path(__file__).resolve().parent.parent / "fixtures" / "scoring.yaml"
    mine = tmp_path / "scoring.yaml"
    mine.write_bytes(source.read_bytes())
    first = load_corpus([tmp_path])
    assert load_corpus([tmp_path]) is first  # the same contents: linted once
    text = mine.read_text(encoding="utf-8")
    case = first.cases[0]
    mine.write_text(text.replace(f"id: {case.id}\n", f"id: {case.id}-again\n", 1), "utf-8")
    again = load_corpus([tmp_path])
    assert again is not first
    assert again.cases[0].id == f"{case.id}-again" and again.digest != first.digest


def test_a_corpus_seen_from_another_folder_or_copy_is_the_one_a_fresh_load_gives(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Parsed files are shared by their contents; each load names the files as it sees them."""
    source = Path(__file__).resolve().parent.parent / "fixtures" / "scoring.yaml"
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "scoring.yaml").write_bytes(source.read_bytes())
    loads = [(tmp_path, Path("a")), (tmp_path / "a", Path(".")), (tmp_path, Path("b"))]
    seen = []
    for where, folder in loads:
        monkeypatch.chdir(where)
        loaded = load_corpus([folder])  # from the parsed files of the load before, but the first
        monkeypatch.setattr(corpus_module, "_LOADED", {})
        monkeypatch.setattr(corpus_module, "_LINTED", {})
        assert loaded == load_corpus([folder])  # as if never loaded before
        seen.append(loaded)
    assert [c.cases[0].file for c in seen] == ["a/scoring.yaml", "scoring.yaml", "b/scoring.yaml"]
    assert seen[0].cases == tuple(replace(c, file="a/scoring.yaml") for c in seen[2].cases)
    monkeypatch.undo()  # the caches of the run, which hold the bundled corpus
    load_corpus()
    monkeypatch.chdir(tmp_path)
    elsewhere = load_corpus()
    monkeypatch.setattr(corpus_module, "_LOADED", {})
    monkeypatch.setattr(corpus_module, "_LINTED", {})
    assert elsewhere == load_corpus()
    assert all(Path(case.file).is_absolute() for case in elsewhere.cases)  # seen from outside


def test_a_file_changed_while_the_corpus_loads_is_not_remembered_by_its_old_contents(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = Path(__file__).resolve().parent.parent / "fixtures" / "scoring.yaml"
    mine = tmp_path / "scoring.yaml"
    before = source.read_text(encoding="utf-8")
    case_id = read_yaml(source).data["cases"][0]["id"]
    after = before.replace(f"id: {case_id}\n", f"id: {case_id}-changed\n", 1)
    mine.write_text(before, encoding="utf-8")
    real_lint = lint

    def changing_lint(*args: object, **kwargs: object) -> object:
        mine.write_text(after, encoding="utf-8")  # between the hashing and the reading
        return real_lint(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(corpus_module, "_LOADED", {})
    monkeypatch.setattr(corpus_module, "_LINTED", {})
    monkeypatch.setattr(corpus_module, "lint", changing_lint)
    assert load_corpus([tmp_path]).cases[0].id == f"{case_id}-changed"
    monkeypatch.setattr(corpus_module, "lint", real_lint)
    mine.write_text(before, encoding="utf-8")  # the contents the first load hashed
    assert load_corpus([tmp_path]).cases[0].id == case_id
