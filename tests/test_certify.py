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
