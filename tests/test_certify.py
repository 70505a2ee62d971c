"""Certification runs (fiveup.harness.certify): an engine, the cases, the verdicts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fakes import CORPUS, Broken, disk_full_at

from fiveup.harness.certify import Conclusion, Verdict, certify, handshake


@pytest.mark.parametrize(
    ("info", "words"),
    [
        (RuntimeError("boom"), "boom"),
        ("hello", "answered str"),
        ({"name": "x", "version": "1", "protocol": 1}, "lacks 'levels'"),
        ({"name": "x", "version": "1", "protocol": 2, "levels": []}, "protocol version mismatch"),
    ],
)
def test_an_engine_that_fails_its_handshake_runs_no_case(info: Any, words: str) -> None:
    run = certify(Broken(info), CORPUS, CORPUS.cases)
    assert not run.ok and run.engine is None and words in run.handshake_error
    assert run.outcomes == () and run.selected == len(CORPUS.cases)
    assert run.conclusion is Conclusion.NOTHING_CHECKED and run.exit_code == 1


def test_a_good_handshake() -> None:
    info = {"name": "x", "version": "1", "protocol": 1, "levels": ["scoring"]}
    assert handshake(Broken(info)) == info
    run = certify(Broken(info), CORPUS, CORPUS.cases)
    assert [o.verdict for o in run.outcomes] == [
        Verdict.PASSED,
        Verdict.UNSUPPORTED,
        Verdict.UNSUPPORTED,
    ]
    assert run.ok


def test_fiveup_cli_certify_writes_its_report_baseline_and_badge_all_or_none(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import io

    from fiveup.cli import main

    report, baseline, badge = tmp_path / "r.txt", tmp_path / "b.yaml", tmp_path / "badge.json"
    report.write_text("old report", encoding="utf-8")
    disk_full_at(monkeypatch, badge)
    err = io.StringIO()
    argv = ["certify", "--fresh", "0", "--output", str(report)]
    argv += ["--write-expected-failures", str(baseline), "--badge", str(badge)]
    assert main(argv, stdout=io.StringIO(), stderr=err) == 2
    assert f"--badge {badge}: cannot be written: No space left on device" in err.getvalue()
    assert report.read_text(encoding="utf-8") == "old report" and not baseline.exists()


def test_fiveup_cli_certify_puts_the_html_reports_spec_copy_in_place_with_its_files_or_not(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import io

    from fiveup.cli import main

    page, badge = tmp_path / "report.html", tmp_path / "badge.json"
    copy = tmp_path / "report-spec"
    copy.mkdir()
    (copy / "index.html").write_text("the old copy", encoding="utf-8")
    (copy / ".fiveup-site").write_text("", encoding="utf-8")  # an earlier copy fiveup wrote
    disk_full_at(monkeypatch, badge)
    argv = ["certify", "--fresh", "0", "--format", "html", "--output", str(page)]
    assert main([*argv, "--badge", str(badge)], stdout=io.StringIO(), stderr=io.StringIO()) == 2
    assert (copy / "index.html").read_text(encoding="utf-8") == "the old copy"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report-spec"]  # no page, no staging
    assert main(argv, stdout=io.StringIO(), stderr=io.StringIO()) == 0
    assert page.is_file() and "the old copy" not in (copy / "index.html").read_text()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report-spec", "report.html"]


def test_fiveup_cli_certify_refuses_an_html_report_whose_spec_copy_would_replace_other_files(
    tmp_path: Path,
) -> None:
    import io

    from fiveup.cli import main

    page, notes = tmp_path / "notes.html", tmp_path / "notes-spec"
    notes.mkdir()
    (notes / "thesis.txt").write_text("a year of work", encoding="utf-8")
    err = io.StringIO()
    argv = ["certify", "--fresh", "0", "--format", "html", "--output", str(page)]
    assert main(argv, stdout=io.StringIO(), stderr=err) == 2
    assert (notes / "thesis.txt").read_text(encoding="utf-8") == "a year of work"
    assert not page.exists()
    assert f"--output: {notes} holds files that are not a copy of the spec" in err.getvalue()
    (tmp_path / "empty.html").touch()
    (tmp_path / "empty-spec").mkdir()  # an empty folder takes the copy
    argv = ["certify", "--fresh", "0", "--format", "html", "--output", str(tmp_path / "empty.html")]
    assert main(argv, stdout=io.StringIO(), stderr=io.StringIO()) == 0
    assert (tmp_path / "empty-spec" / ".fiveup-site").is_file()


@pytest.mark.parametrize("name", ["run #5.html", "a?b.html", "100%.html"])
def test_fiveup_cli_certify_an_html_report_s_links_into_its_spec_copy_resolve_whatever_its_name(
    tmp_path: Path, name: str
) -> None:
    import html
    import io
    import re
    from urllib.parse import unquote, urlsplit

    from fiveup.cli import main

    page = tmp_path / name
    wrong = "fiveup.mutants.engines:pen2_remainder_three_rounds_down"  # its rules are linked
    argv = ["certify", "--engine", wrong, "--format", "html", "--output", str(page), "-k", "PEN"]
    assert main(argv, stdout=io.StringIO(), stderr=io.StringIO()) == 1
    hrefs = {html.unescape(h) for h in re.findall(r'href="([^"#][^"]*)"', page.read_text())}
    local = [h for h in hrefs if not h.startswith(("http:", "https:"))]
    assert local, "the page links into its copy of the spec"
    for href in local:
        target = tmp_path / unquote(urlsplit(href).path)
        assert target.is_file(), href
