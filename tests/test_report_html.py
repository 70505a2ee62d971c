"""The HTML report: what the text report says, as one page, with the failing layouts drawn.

A deliberately wrong engine (the mutant cnt1_sums_connection_points) is certified
in-process against the bundled corpus for a report with failures; a hostile engine's words show
that nothing from an engine reaches the page unescaped.
"""

from __future__ import annotations

import dataclasses
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from fiveup import SUITE_VERSION
from fiveup.cli.tally import tally_text
from fiveup.contract.engine import Engine, Level
from fiveup.harness.certify import Outcome, Run, Verdict, certify
from fiveup.harness.corpus import Case, Corpus, load_corpus
from fiveup.harness.report import conclusion_line, summaries
from fiveup.harness.report_html import MAX_DETAILED, html_report
from fiveup.harness.runner import CaseResult, Difference, Status
from fiveup.mutants import mutant_named

ROOT = Path(__file__).resolve().parent.parent
XHTML = "{http://www.w3.org/1999/xhtml}"


def _wrong_engine() -> Engine:
    return mutant_named("cnt1_sums_connection_points").engine()


@pytest.fixture(scope="module")
def wrong_run() -> Run:
    corpus = load_corpus()
    return certify(_wrong_engine(), corpus, corpus.cases)


def parse(page: str) -> ET.Element:
    """The page as XML: it must be well-formed XHTML below its doctype."""
    assert page.startswith("<!DOCTYPE html>\n")
    return ET.fromstring(page.removeprefix("<!DOCTYPE html>\n"))


def by_id(root: ET.Element, ident: str) -> ET.Element:
    found = [e for e in root.iter() if e.get("id") == ident]
    assert len(found) == 1, ident
    return found[0]


def text_of(element: ET.Element) -> str:
    return "".join(element.itertext())


def test_fiveup_harness_report_html_a_run_with_failures_is_one_wellformed_page(
    wrong_run: Run,
) -> None:
    page = html_report(wrong_run, ["--engine-cmd", "python cnt1.py"])
    root = parse(page)
    assert text_of(by_id(root, "verdict")) == conclusion_line(wrong_run)
    assert conclusion_line(wrong_run).startswith("DOES NOT CONFORM")
    identity = text_of(by_id(root, "identity"))
    assert f"mutant-cnt1_sums_connection_points {SUITE_VERSION}" in identity
    assert wrong_run.corpus.digest in identity
    assert "--engine-cmd 'python cnt1.py'" in identity
    counts = text_of(by_id(root, "counts"))
    assert f"{wrong_run.counts.failed} failed" in counts
    assert f"{wrong_run.counts.passed} passed" in counts


def test_fiveup_harness_report_html_the_tables_give_the_json_reports_counts(
    wrong_run: Run,
) -> None:
    root = parse(html_report(wrong_run, []))
    by = summaries(wrong_run)
    for name in ("level", "section", "rule"):
        for group, counts in by[name].items():
            row = by_id(root, f"{name}-{group}")
            cells = [text_of(td) for td in row.iter(f"{XHTML}td")]
            assert cells[0] == group
            keys = ("cases", "passed", "failed", "errored", "xfailed", "xpassed", "unsupported")
            assert [int(c) for c in cells[1:8]] == [counts[k] for k in keys]
            assert ("bad" in (row.get("class") or "")) == bool(counts["failed"])
    assert "connection points and counted ends" in text_of(by_id(root, "section-CNT"))


def test_fiveup_harness_report_html_every_failing_case_is_told_with_its_rerun(
    wrong_run: Run,
) -> None:
    root = parse(html_report(wrong_run, ["--engine-cmd", "x"]))
    failed = [o for o in wrong_run.outcomes if o.verdict is Verdict.FAILED]
    articles = [a for a in root.iter(f"{XHTML}article")]
    assert len(articles) == len(failed) > 0
    first = text_of(next(a for a in articles if a.get("id") == f"case-{failed[0].result.case.id}"))
    case = failed[0].result.case
    assert case.id in first and failed[0].result.rule in first
    assert failed[0].result.differences[0].path in first
    assert f"fiveup certify --engine-cmd x --case {case.id}" in first
    assert "request" in first


def _with_layouts(run: Run) -> list[Outcome]:
    """The failed cases that have a layout, worked examples first (the page's order)."""
    found = [
        o
        for o in run.outcomes
        if o.verdict is Verdict.FAILED and o.result.case.level in (Level.LAYOUT, Level.ROUND)
    ]
    return sorted(found, key=lambda o: not o.result.case.id.startswith("doc."))


def test_fiveup_harness_report_html_every_failing_layout_is_drawn_worked_examples_first(
    wrong_run: Run,
) -> None:
    drawn: list[tuple[str, int | None]] = []

    def diagram(layout: object, title: str, credit: int | None) -> str:
        drawn.append((title, credit))
        return f'<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"><title>{title}</title></svg>'

    page = html_report(wrong_run, [], diagram=diagram)
    root = parse(page)
    pairs = [d for d in root.iter(f"{XHTML}div") if d.get("class") == "diagrams"]
    with_layouts = _with_layouts(wrong_run)
    assert len(with_layouts) > 20  # more than the page once drew
    assert len(pairs) == len(with_layouts)
    assert [t for t, _ in drawn[:2]] == ["expected", "the engine's"]
    assert "<?xml" not in page and "layouts are drawn for the first" not in page
    articles = [a.get("id") for a in root.iter(f"{XHTML}article")]
    worked = [a for a in articles if a and a.startswith("case-doc.")]
    assert worked and articles[: len(worked)] == worked  # the worked examples lead
    svg = "{http://www.w3.org/2000/svg}svg"
    for pair in pairs:  # each side drawn, or saying why not
        figures = list(pair.iter(f"{XHTML}figure"))
        assert len(figures) == 2
        notes = [p for f in figures for p in f.iter(f"{XHTML}p") if p.get("class") == "note"]
        assert len(list(pair.iter(svg))) + len(notes) == 2


HOSTILE = "<script>alert(1)</script>&amp;\x01\udcff"


def _hostile_run() -> Run:
    case = Case(
        id="rule.layout.hostile",
        title="a case",
        rules=("CNT-1",),
        level=Level.LAYOUT,
        given={"placements": ["[1|4]"]},
        expect={"layout": {"tiles": ["[1|4]"]}, "steps": [{"sum": 5, "credit": 5}]},
        provenance={},
        description="",
        file="fixtures/layout/x.yaml",
        line=3,
    )
    observation = {"layout": {"tiles": [HOSTILE, *["[0|0]"] * 40]}, "steps": [HOSTILE]}
    result = CaseResult(
        case,
        Status.FAIL,
        (
            Difference("/layout/tiles", ["[1|4]"], [HOSTILE], note=HOSTILE),
            *(Difference(f"/steps/{i}", 5, HOSTILE * 100) for i in range(100)),
        ),
        HOSTILE,
        observation,
        request={"placements": [HOSTILE]},
    )
    errored = CaseResult(case, Status.ERROR, message=HOSTILE * 3000)
    info = {"name": HOSTILE, "version": HOSTILE, "protocol": 1, "levels": ["layout"]}
    corpus = Corpus((case,), "d1", ("fixtures/layout/x.yaml",))
    outcomes = (Outcome(result, Verdict.FAILED), Outcome(errored, Verdict.ERRORED))
    return Run(info, "", corpus, outcomes)  # type: ignore[arg-type]


def test_fiveup_harness_report_html_nothing_from_the_engine_reaches_the_page_unescaped() -> None:
    page = html_report(_hostile_run(), ["--engine-cmd", HOSTILE])
    root = parse(page)  # no stray tag, no control character XML refuses
    assert "<script" not in page
    assert "content=\"default-src 'none'; style-src 'unsafe-inline'" in page  # nor would one run
    assert "&lt;script&gt;alert(1)&lt;/script&gt;&amp;amp;" in page
    assert "\\x01" in page and "\\xff" in page
    assert "not drawn: 41 tiles, more than a set holds" in page
    message = next(e for e in root.iter(f"{XHTML}pre") if e.get("class") == "message")
    assert "more characters not shown" in text_of(message)
    assert "and 71 more differences not listed" in page
    assert len(page) < 80_000


def test_fiveup_harness_report_html_scores_that_differ_are_shown_as_tallies() -> None:
    case = Case(
        id="rule.match.x", title="t", rules=("MAT-1",), level=Level.MATCH, given={},
        expect={}, provenance={}, description="", file="f.yaml", line=1,
    )  # fmt: skip
    diff = Difference("/scores", [305, 60], [-5, 7])
    outcome = Outcome(CaseResult(case, Status.FAIL, (diff,), "1 difference"), Verdict.FAILED)
    run = Run(None, "", Corpus((case,), "d", ("f.yaml",)), (outcome,))
    with_tally = html_report(run, [], tally=tally_text)
    assert "as tallies: expected [xXx xXx xXx xXx xXx xXx | / xXx ||], got [-5 / 7]" in with_tally
    assert "as tallies" not in html_report(run, [])


def test_fiveup_harness_report_html_a_run_without_engine_says_nothing_checked() -> None:
    run = Run(None, "the engine exited <at once>", Corpus((), "d", ()), ())
    root = parse(html_report(run, ["--engine-cmd", "false"]))
    assert text_of(by_id(root, "verdict")).startswith("NOTHING CHECKED")
    assert "the engine exited <at once>" in text_of(by_id(root, "identity"))
    assert not re.search(r"<table", html_report(run, []))


def test_fiveup_harness_report_html_the_default_diagrams_carry_the_english_description(
    wrong_run: Run,
) -> None:
    root = parse(html_report(wrong_run, []))
    svg = "{http://www.w3.org/2000/svg}"
    drawn = list(root.iter(f"{svg}svg"))
    assert 2 * len(_with_layouts(wrong_run)) - 5 <= len(drawn) <= 2 * len(_with_layouts(wrong_run))
    first = drawn[0]
    assert first.findtext(f"{svg}title") == "expected"
    assert "Tiles:" in (first.findtext(f"{svg}desc") or "")
    assert first.get("role") == "img"


def test_fiveup_harness_report_html_the_rule_table_says_what_it_counts(wrong_run: Run) -> None:
    root = parse(html_report(wrong_run, []))
    said = text_of(by_id(root, "rule-counts"))
    assert said.startswith("by rule: cases whose first difference falls under the rule")


class _Declining:
    """Declares scoring and declines every case that is not a credit (a partial engine)."""

    def info(self) -> dict[str, object]:
        return {"name": "declining", "version": "1", "protocol": 1, "levels": ["scoring"]}

    def run(self, level: str, given: dict[str, object]) -> dict[str, object]:
        from fiveup.errors import UnsupportedCase

        if given.get("function") != "credit":
            raise UnsupportedCase(f"no {given.get('function')} here")
        total = given["input"]
        assert isinstance(total, int)
        return {"value": total if total > 0 and total % 5 == 0 else 0}


def test_fiveup_harness_report_html_declines_that_fail_the_run_lead_the_page() -> None:
    corpus = load_corpus()
    run = certify(_Declining(), corpus, corpus.cases)  # type: ignore[arg-type]
    failing = run.declined()
    assert failing
    page = html_report(run, [])
    root = parse(page)
    top = text_of(by_id(root, "declines"))
    said = " ".join(top.split())
    assert f"{len(failing)} declined cases of a declared level ({len(failing)} of scoring)" in said
    assert "10 cases: no displayed here" in said
    assert (
        page.index('id="declines"') < page.index('id="identity"') < page.index('id="unsupported"')
    )


def test_fiveup_harness_report_html_a_declined_case_of_a_claimed_feature_has_its_column() -> None:
    from fiveup.harness.engines import load_engine

    corpus = load_corpus()  # CreditOnly claims scoring whole and answers the credit alone
    run = certify(load_engine("tests.engines.verdicts:CreditOnly"), corpus, corpus.cases)
    declined = sum(o.verdict is Verdict.DECLINED for o in run.outcomes)
    assert declined > 0
    root = parse(html_report(run, ["--engine", "credit-only"]))
    section = by_id(root, "by-level")
    head = [text_of(e) for e in section.iter() if e.tag.rpartition("}")[2] == "th"]
    assert "declined" in head
    row = by_id(root, "level-scoring")
    cells = [text_of(e) for e in row.iter() if e.tag.rpartition("}")[2] == "td"]
    assert cells[head.index("declined")] == str(declined)
    assert f"<b>{declined}</b> declined" in html_report(run, ["--engine", "credit-only"])


def test_fiveup_harness_report_html_names_claimed_features_and_counts_failing_fresh_cases() -> None:
    corpus = load_corpus()
    case = next(c for c in corpus.cases if c.level is Level.SCORING)
    fresh = Outcome(
        CaseResult(
            dataclasses.replace(case, id="fresh.scoring.s3-0", file="(fresh)", line=0),
            Status.FAIL,
            (Difference("/value", 15, 10, rule="SCR-2"),),
        ),
        Verdict.FAILED,
    )
    info = {
        "name": "partial",
        "version": "1",
        "protocol": 1,
        "levels": [],
        "features": ["scoring.credit"],
    }
    run = Run(info, "", corpus, (), fresh=(fresh,), fresh_seed=3)  # type: ignore[arg-type]
    root = parse(html_report(run, ["--engine-cmd", "partial"]))
    identity = text_of(by_id(root, "identity"))
    assert "levels declarednone" in identity and "features declaredscoring.credit" in identity
    assert "1 of 1 fresh cases failing" in text_of(by_id(root, "counts"))


def test_fiveup_harness_report_html_the_title_leads_with_the_verdict_not_the_engines_name(
    wrong_run: Run,
) -> None:
    forged = "fake: CONFORMS at levels scoring, layout, round, match, moves" + " " * 500 + "x"
    assert wrong_run.engine is not None
    engine = wrong_run.engine.copy()
    engine["name"] = forged
    run = dataclasses.replace(wrong_run, engine=engine)
    root = parse(html_report(run, []))
    title = text_of(next(root.iter(f"{XHTML}title")))
    assert title.startswith("DOES NOT CONFORM: fake: CONFORMS at levels")
    assert len(title) < 250  # the name is cut: the verdict and the suite stay in sight
    assert title.endswith("(Five Up conformance)")


def _failed(index: int, prefix: str = "rule.layout.many") -> Outcome:
    case = Case(
        id=f"{prefix}-{index}", title="t", rules=("CNT-1",), level=Level.LAYOUT, given={},
        expect={}, provenance={}, description="", file="f.yaml", line=1,
    )  # fmt: skip
    result = CaseResult(case, Status.FAIL, (Difference("/sum", 5, 6, rule="CNT-1"),), "1")
    return Outcome(result, Verdict.FAILED)


def test_fiveup_harness_report_html_every_link_in_the_page_finds_its_anchor_past_the_detailed() -> (
    None
):
    outcomes = tuple(_failed(i) for i in range(MAX_DETAILED + 30))
    fresh = tuple(_failed(i, "fresh.layout.s5") for i in range(MAX_DETAILED + 20))
    corpus = Corpus(tuple(o.result.case for o in outcomes), "d", ("f.yaml",))
    run = dataclasses.replace(Run(None, "", corpus, outcomes), fresh=fresh, fresh_seed=5)
    root = parse(html_report(run, []))
    ids = [e.get("id") for e in root.iter() if e.get("id")]
    assert len(ids) == len(set(ids))  # each anchor once
    links = {e.get("href", "")[1:] for e in root.iter(f"{XHTML}a") if e.get("href", "")[:1] == "#"}
    assert links and not links - set(ids), sorted(links - set(ids))[:5]
    page = html_report(run, [])
    for o in (outcomes[-1], fresh[-1]):  # past the detailed ones: listed, not dropped
        assert f"<code>{o.result.case.id}</code>" in page
