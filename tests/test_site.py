"""The spec site: every page well-formed, every link landing, every rule with its cases.

The site is built once from the bundled spec and corpus; the tests read it as a person
following links would: from the index to every rule, from a rule to its cases, the documents'
sentences and the open questions it decides, and back.
"""

from __future__ import annotations

import os
import xml.etree.ElementTree as ET
from pathlib import Path
from urllib.parse import urldefrag

import pytest

from fiveup.contract.engine import JSON
from fiveup.errors import UsageError
from fiveup.harness.corpus import Case, load_corpus
from fiveup.harness.spec_index import spec_rules
from fiveup.harness.traceability import load
from fiveup.render.text import Lang, describe
from fiveup.site.build import (
    WORKED_EXAMPLE_PAGES,
    WORKED_EXAMPLES,
    case_anchor,
    fixture_name,
    layout_of,
    write_site,
)

X = "{http://www.w3.org/1999/xhtml}"
SVG = "{http://www.w3.org/2000/svg}svg"
CORPUS = load_corpus()


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site")
    write_site(out)
    return out


@pytest.fixture(scope="module")
def pages(site: Path) -> dict[Path, ET.Element]:
    """Every page parsed as XML (it must be well-formed XHTML below its doctype)."""
    parsed = {}
    for path in sorted(site.rglob("*.html")):
        text = path.read_text(encoding="utf-8")
        assert text.startswith("<!DOCTYPE html>\n"), path
        parsed[path] = ET.fromstring(text.removeprefix("<!DOCTYPE html>\n"))
    return parsed


def ids(root: ET.Element) -> set[str]:
    return {e.get("id") or "" for e in root.iter()} - {""}


def article(root: ET.Element, case: Case) -> ET.Element:
    found = [a for a in root.iter(f"{X}article") if a.get("id") == case_anchor(case.id)]
    assert len(found) == 1, case.id
    return found[0]


def hrefs(root: ET.Element) -> list[str]:
    return [a.get("href") or "" for a in root.iter(f"{X}a")]


def test_fiveup_site_build_every_page_is_wellformed_with_unique_anchors(
    pages: dict[Path, ET.Element], site: Path
) -> None:
    names = {p.relative_to(site).as_posix() for p in pages}
    assert {"index.html", "worked-examples.html", "open-questions.html", "terms.html"} <= names
    assert {f"rules/{rule}.html" for rule in spec_rules()} <= names
    for path, root in pages.items():
        every = [e.get("id") for e in root.iter() if e.get("id") and e.tag != SVG]
        every = [i for i in every if not (i or "").startswith("fiveup-")]
        assert len(every) == len(set(every)), path


def test_fiveup_site_build_every_internal_link_lands_on_a_file_and_an_anchor(
    pages: dict[Path, ET.Element],
) -> None:
    anchors = {path.resolve(): ids(root) for path, root in pages.items()}
    broken = []
    count = 0
    for path, root in pages.items():
        for href in hrefs(root):
            if href.startswith(("http://", "https://")):
                continue
            count += 1
            name, fragment = urldefrag(href)
            target = (path.parent / name).resolve() if name else path.resolve()
            if not target.is_file():
                broken.append(f"{path.name}: {href} (no file)")
            elif fragment and target.suffix == ".html" and fragment not in anchors[target]:
                broken.append(f"{path.name}: {href} (no anchor)")
    assert count > 5000
    assert broken == []


def test_fiveup_site_build_the_index_lists_every_rule_and_links_checkable_ones_to_cases(
    pages: dict[Path, ET.Element], site: Path
) -> None:
    index = pages[site / "index.html"]
    rows = {r.get("id"): r for r in index.iter(f"{X}tr") if r.get("id")}
    sections = [e.get("id") for e in index.iter() if e.tag in (f"{X}h2", f"{X}tr")]
    for rule in spec_rules().values():  # each row under its own section's heading
        before = sections[: sections.index(f"rule-{rule.id}")]
        assert [s for s in before if s and not s.startswith("rule-")][-1] == rule.section
        assert rule.section == rule.id.split("-")[0]
    for rule in spec_rules().values():
        row = rows[f"rule-{rule.id}"]
        cells = list(row.iter(f"{X}td"))
        assert "".join(cells[1].itertext()).strip(), rule.id  # a summary
        if rule.checkable:
            assert f"rules/{rule.id}.html#cases" in hrefs(row), rule.id
        else:
            assert "conduct" in "".join(cells[3].itertext())
    assert {"open-questions.html", "terms.html", "protocol.html"} <= set(hrefs(index))
    meaning = "".join(next(e for e in index.iter() if e.get("id") == "count-meaning").itertext())
    assert "name it in their rules" in meaning and "first difference" in meaning


def test_fiveup_site_build_every_rule_page_shows_every_case_that_checks_it_with_a_diagram(
    pages: dict[Path, ET.Element], site: Path
) -> None:
    for rule in spec_rules().values():
        root = pages[site / "rules" / f"{rule.id}.html"]
        checking = [c for c in CORPUS.cases if rule.id in c.rules]
        articles = [a for a in root.iter(f"{X}article")]
        assert len(articles) == len(checking), rule.id
        if rule.checkable:
            assert checking, f"{rule.id} is checkable and no case checks it"
        for case in checking:
            block = article(root, case)
            text = "".join(block.itertext())
            assert case.id in text and case.title in text and case.level.value in text
            assert f"../{fixture_name(case.file)}" in hrefs(block)
            assert all(f"../rules/{r}.html" in hrefs(block) for r in case.rules)
            drawn = list(block.iter(SVG))
            assert len(drawn) == (1 if layout_of(case) else 0), case.id
    assert len([c for c in CORPUS.cases if layout_of(c) is not None]) > 50


def test_fiveup_site_build_the_traceability_table_gives_three_languages_and_the_kind(
    pages: dict[Path, ET.Element], site: Path
) -> None:
    traces = load()
    for rule_id, trace in traces.items():
        root = pages[site / "rules" / f"{rule_id}.html"]
        tables = [t for t in root.iter(f"{X}table") if t.get("class") == "traceability"]
        assert len(tables) == 1
        text = "".join(tables[0].itertext())
        assert all(lang in text for lang in ("Italiano", "Suomi", "Deutsch"))
        for lang, sentences in trace.sentences.items():
            assert all(s in text for s in sentences), (rule_id, lang)
        kind = next(e for e in root.iter() if e.get("id") == "kind")
        assert kind.text == trace.kind.value
        for question in trace.decisions:
            assert f"../open-questions.html#{question}" in hrefs(root)


def test_fiveup_site_build_open_questions_list_their_rules_and_dependent_cases(
    pages: dict[Path, ET.Element], site: Path
) -> None:
    root = pages[site / "open-questions.html"]
    dependent = [c for c in CORPUS.cases if c.decisions]
    assert dependent
    lists = {u.get("id"): u for u in root.iter(f"{X}ul") if (u.get("id") or "").startswith("c")}
    for case in dependent:
        for question in case.decisions:
            href = f"rules/{case.primary_rule}.html#{case_anchor(case.id)}"
            assert href in hrefs(lists[f"cases-{question}"]), (case.id, question)
            rule_page = pages[site / "rules" / f"{case.primary_rule}.html"]
            assert f"../open-questions.html#{question}" in hrefs(article(rule_page, case))
    traces = load()
    for rule_id, trace in traces.items():
        for question in trace.decisions:
            assert question in ids(root)
            assert f"rules/{rule_id}.html" in hrefs(root)


SEEDS = Path(__file__).resolve().parents[1].parent / "shared" / "seeds"
"""The rule documents, at ``../shared/seeds`` from the project root."""
SEED_OF = {"it": "000_", "fi": "001_", "de": "003_"}
LEGEND_OF = {
    "it": "Numero pieno: contributo conteggiato",
    "fi": "Täytetty numero: pisteytykseen laskettu arvo",
    "de": "Ausgefüllte Zahl: gewerteter Beitrag",
    "en": "Filled number: counted contribution",
}
LABEL_OF = {"it": "Posata: ", "fi": "Asetettu ", "de": "Angelegt: ", "en": "Placed: "}


def worked_page(pages: dict[Path, ET.Element], site: Path, lang: str) -> ET.Element:
    return pages[site / WORKED_EXAMPLE_PAGES[Lang(lang)]]


@pytest.mark.parametrize("lang", ["it", "fi", "de", "en"])
def test_fiveup_site_build_the_worked_examples_are_drawn_and_described_in_each_language(
    pages: dict[Path, ET.Element], site: Path, lang: str
) -> None:
    root = worked_page(pages, site, lang)
    assert root.get("lang") == lang
    examples = [c for c in CORPUS.cases if fixture_name(c.file) == WORKED_EXAMPLES]
    assert len(examples) >= 11
    labelled = 0
    for case in examples:
        block = article(root, case)
        (svg,) = block.iter(SVG)
        assert LEGEND_OF[lang] in "".join(svg.itertext()), case.id
        found = layout_of(case)
        assert found is not None
        caption = block.findtext(f".//{X}figcaption")
        assert caption == describe(found[0], Lang(lang), credit=found[1]), case.id
        heading = block.find(f"{X}h2")
        assert heading is not None and heading.text
        assert " / " not in heading.text  # one language's label, not the three joined
        if heading.text.startswith(LABEL_OF[lang]):
            assert heading.get("lang") == lang
            labelled += 1
        else:
            assert heading.get("lang") == "en" and heading.text == case.title
        assert case.id in "".join(block.itertext())
        assert f"rules/{case.primary_rule}.html#{case_anchor(case.id)}" in hrefs(block)
    assert labelled == 11  # the documents' eleven labelled positions


@pytest.mark.parametrize("lang", ["it", "fi", "de", "en"])
def test_fiveup_site_build_each_worked_examples_page_links_to_the_other_languages(
    pages: dict[Path, ET.Element], site: Path, lang: str
) -> None:
    root = worked_page(pages, site, lang)
    (switch,) = [p for p in root.iter(f"{X}p") if p.get("class") == "langs-switch"]
    others = {page for other, page in WORKED_EXAMPLE_PAGES.items() if other.value != lang}
    assert set(hrefs(switch)) == others
    assert not list(root.iter(f"{X}script"))


@pytest.mark.parametrize("lang", ["it", "fi", "de"])
def test_fiveup_site_build_the_position_headings_are_the_documents_labels(
    pages: dict[Path, ET.Element], site: Path, lang: str
) -> None:
    if not SEEDS.is_dir() or not any(SEEDS.glob("*.txt")):
        pytest.skip(f"the rule documents are not at {SEEDS} (../shared/seeds)")
    (document,) = SEEDS.glob(f"{SEED_OF[lang]}*.txt")
    lines = set(document.read_text(encoding="utf-8").splitlines())
    headings = [h.text or "" for h in worked_page(pages, site, lang).iter(f"{X}h2")]
    labels = [h for h in headings if h.startswith(LABEL_OF[lang])]
    assert len(labels) == 11
    assert set(labels) <= lines, set(labels) - lines


def test_fiveup_site_build_the_same_suite_writes_the_same_bytes_from_any_folder(
    site: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # case.file is then an absolute path
    again = tmp_path / "again"
    written = write_site(again)
    assert len(written) == len([p for p in site.rglob("*") if p.is_file()])
    for path in written:
        assert path.read_bytes() == (site / path.relative_to(again)).read_bytes(), path


def test_fiveup_site_build_the_fixture_files_are_copied_beside_the_pages(site: Path) -> None:
    for name in CORPUS.files:
        copied = site / fixture_name(name)
        assert copied.read_bytes() == Path(name).read_bytes(), name
    assert (site / WORKED_EXAMPLES).is_file()


def test_fiveup_site_build_a_file_in_place_of_the_folder_is_refused(tmp_path: Path) -> None:
    target = tmp_path / "taken"
    target.write_text("x")
    with pytest.raises(UsageError, match="not a folder"):
        write_site(target)
    assert target.read_text() == "x"


def test_fiveup_site_build_a_fifo_or_a_link_of_a_page_name_is_replaced_not_written_through(
    tmp_path: Path, site: Path
) -> None:
    out, victim = tmp_path / "site", tmp_path / "victim.txt"
    out.mkdir()
    victim.write_text("keep")
    os.mkfifo(out / "index.html")
    (out / "fixture-format.html").symlink_to(victim)
    reader = os.open(out / "index.html", os.O_RDONLY | os.O_NONBLOCK)  # else a write blocks
    try:
        written = write_site(out)
    finally:
        os.close(reader)
    assert victim.read_text() == "keep"
    for name in ("index.html", "fixture-format.html"):
        page = out / name
        assert page.is_file() and not page.is_symlink()
        assert page.read_bytes() == (site / name).read_bytes()
    assert not list(out.rglob("*.tmp")) and len(written) == len(list(site.rglob("*.*")))


def test_fiveup_site_build_a_partial_expectation_draws_the_whole_table_it_is_given(
    tmp_path: Path,
) -> None:
    partial = CORPUS.by_id()["rule.layout.lay-4.occupied-end-refused"]
    whole = CORPUS.by_id()["rule.layout.cnt-4.internal-double-one-branch-started"]
    expected = layout_of(partial)
    assert expected is not None and "connections" not in expected[0]
    asked: list[str] = []

    def table(case: Case) -> JSON:
        asked.append(case.id)
        return {
            **expected[0],
            "connections": [["[1|4]:high", "[4|5]:low"]],
            "tiles": ["[1|4]", "[4|5]"],
        }

    corpus = load_corpus([Path(partial.file), Path(whole.file)])
    write_site(tmp_path, corpus=corpus, table=table)
    page = (tmp_path / "rules" / "LAY-4.html").read_text(encoding="utf-8")
    root = ET.fromstring(page.removeprefix("<!DOCTYPE html>\n"))
    text = "".join(article(root, partial).itertext())
    assert "the diagram draws the whole table its given builds" in text
    assert "checks only contributions, points, sum, tiles of the table" in text
    assert "[1|4] (higher end) \u2013 [4|5] (lower end)" in text
    assert partial.id in asked and whole.id not in asked

    plain = tmp_path / "plain"
    write_site(plain, corpus=corpus)
    text = (plain / "rules" / "LAY-4.html").read_text(encoding="utf-8")
    assert "the diagram draws the whole table" not in text
