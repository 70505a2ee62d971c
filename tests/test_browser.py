"""What a person sees: the spec site and a report with failures, opened in headless Chromium.

Each page must load without a console error, an uncaught exception, a logged error or a failed
load, fetch nothing (the pages need no network), and show what it is for: the report its
conclusion, counts, rule rows and the failing layouts drawn; the site its rule index and a rule
with the diagrams of its cases. A screenshot of each page is kept under ``artifacts/`` for CI.

Without Chromium (Debian's ``chromium``, installed by ``.ci/run``) the tests are skipped, except
under CI (the environment variable ``CI`` set), where a missing browser is a failure.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from browser import CHROMIUM, Browser

from fiveup.harness.certify import Run, Verdict, certify
from fiveup.harness.corpus import load_corpus
from fiveup.harness.report import conclusion_line, summaries
from fiveup.harness.report_html import html_report
from fiveup.harness.spec_index import spec_rules
from fiveup.mutants import mutant_named
from fiveup.site.build import write_site

# A long campaign (a browser started, the site built and opened): `pytest -m campaign` runs it.
pytestmark = pytest.mark.campaign

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "artifacts"
WRONG = "cnt1_sums_connection_points"

_VISIBLE_SVGS = """
[...document.querySelectorAll('svg')].filter(s => {
  const r = s.getBoundingClientRect(); return r.width > 50 && r.height > 30;
}).length
"""


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if not os.access(CHROMIUM, os.X_OK):
        if os.environ.get("CI"):
            pytest.fail(f"CI is set and there is no browser at {CHROMIUM} (.ci/run installs it)")
        pytest.skip(f"no browser at {CHROMIUM} (apt-get install chromium)")
    with Browser(CHROMIUM, timeout=60.0) as opened:  # bounds a hang only: generous when busy
        yield opened


def _open(browser: Browser, page: Path, shot: str) -> Path:
    """Open ``page``, check it loaded cleanly and fetched nothing; its screenshot."""
    browser.open(page)
    assert browser.problems.all() == []
    assert browser.evaluate("document.readyState") == "complete"
    assert browser.evaluate("performance.getEntriesByType('resource').length") == 0
    target = browser.screenshot(ARTIFACTS / shot)
    print(f"screenshot: {target}")
    return target


def _wrong_run() -> Run:
    corpus = load_corpus()
    return certify(mutant_named(WRONG).engine(), corpus, corpus.cases)


def test_browser_a_report_with_failures_shows_its_verdict_counts_rules_and_layouts(
    browser: Browser, tmp_path: Path
) -> None:
    run = _wrong_run()
    page = tmp_path / "report.html"
    page.write_text(html_report(run, ["--engine", f"fiveup.mutants.engines:{WRONG}"]), "utf-8")
    shot = _open(browser, page, "report-with-failures.png")
    assert shot.stat().st_size > 10_000
    seen = browser.evaluate("document.body.innerText")
    assert conclusion_line(run) in seen
    assert f"{run.counts.failed}\nfailed" in seen or f"{run.counts.failed} failed" in seen
    rule_rows = browser.evaluate("document.querySelectorAll('table.by-rule tbody tr').length")
    assert rule_rows == len(summaries(run)["rule"])
    failing = [o for o in run.outcomes if o.verdict is Verdict.FAILED]
    assert browser.evaluate("document.querySelectorAll('article.case').length") == len(failing)
    drawn = browser.evaluate("document.querySelectorAll('div.diagrams svg').length")
    assert drawn > 40 and browser.evaluate(_VISIBLE_SVGS) == drawn
    # the rule most of its failures are counted under has its section, with its text
    top = Counter(o.result.rule for o in failing).most_common(1)[0][0]
    assert top in browser.evaluate(f"document.getElementById('rule-{top}').innerText")


def test_browser_the_spec_site_shows_the_rule_index_and_a_rule_with_its_diagrams(
    browser: Browser, tmp_path: Path
) -> None:
    write_site(tmp_path / "site")
    _open(browser, tmp_path / "site" / "index.html", "spec-site-index.png")
    rows = browser.evaluate("document.querySelectorAll('table.rules tbody tr').length")
    assert rows == len(spec_rules())
    seen = browser.evaluate("document.body.innerText")
    assert "CNT-3" in seen and "Open questions" in seen
    _open(browser, tmp_path / "site" / "rules" / "CNT-3.html", "spec-site-rule-CNT-3.png")
    cases = browser.evaluate("document.querySelectorAll('article.case').length")
    assert cases > 5
    assert browser.evaluate(_VISIBLE_SVGS) >= 5
    shown = browser.evaluate("document.querySelector('table.traceability').innerText")
    assert "Italiano" in shown and "Suomi" in shown and "Deutsch" in shown


def test_browser_the_driver_sees_what_would_fail_a_page(browser: Browser, tmp_path: Path) -> None:
    page = tmp_path / "broken.html"
    page.write_text(
        "<!DOCTYPE html><html><body><p>x</p><img src='missing.png'/>"
        "<script>console.error('seen'); throw new Error('thrown');</script></body></html>",
        "utf-8",
    )
    browser.open(page)
    problems = browser.problems.all()
    assert "console: seen" in problems
    assert any(p.startswith("exception: ") for p in problems)
    assert any(p.startswith("failed load: ") for p in problems)


def test_browser_a_failing_rule_of_the_report_links_to_its_text_in_the_spec_copy(
    browser: Browser, tmp_path: Path
) -> None:
    import io
    import sys
    from urllib.parse import unquote, urlparse

    from fiveup.cli import main

    wrong = "-m fiveup engine --mutant spn3_branch_a_before_branch_b"
    report = tmp_path / "report.html"
    args = ["certify", "--engine-cmd", f"{sys.executable} {wrong}", "-k", "layout"]
    code = main([*args, "--format", "html", "--output", str(report)], stdout=io.StringIO())
    assert code == 1
    assert (tmp_path / "report-spec" / "rules" / "SPN-3.html").is_file()  # the copy, beside it
    _open(browser, report, "report-links-to-the-spec.png")
    seen = browser.evaluate("document.getElementById('failing-SPN-3').innerText")
    assert spec_rules()["SPN-3"].text[:60] in " ".join(seen.split())  # the rule text beside it
    href = browser.evaluate("document.querySelector('#failing-SPN-3 a.rule').href")
    url = urlparse(href)
    assert url.scheme == "file" and url.fragment == "SPN-3"
    _open(browser, Path(unquote(url.path)), "report-followed-to-SPN-3.png")
    shown = browser.evaluate("document.querySelector('.rule-text').innerText")
    assert spec_rules()["SPN-3"].text[:60] in " ".join(shown.split())
