"""Expected failures (fiveup.harness.expectations): the file, and how each result counts."""

from __future__ import annotations

from pathlib import Path

import pytest
from fakes import CORPUS

from fiveup.errors import UsageError
from fiveup.harness.expectations import Verdict, judge, load_expected_failures
from fiveup.harness.runner import CaseResult, Status


def test_expected_failures_file(tmp_path: Path) -> None:
    path = tmp_path / "xfail.yaml"
    path.write_text("doc.scoring.credit-15: our engine rounds differently\n")
    assert load_expected_failures(path, CORPUS) == {
        "doc.scoring.credit-15": "our engine rounds differently"
    }
    path.write_text("doc.scoring.credit-15: ok\nno.such.case: why\n")
    with pytest.raises(UsageError, match=rf"{path}:2: no case 'no.such.case'"):
        load_expected_failures(path, CORPUS)
    path.write_text("doc.scoring.credit-15: ''\n")
    with pytest.raises(UsageError, match="give the reason"):
        load_expected_failures(path, CORPUS)
    path.write_text("[unclosed\n")
    with pytest.raises(UsageError, match="YAML error"):
        load_expected_failures(path, CORPUS)


def test_verdicts_with_expected_failures() -> None:
    c = CORPUS.cases[0]
    xfail = {c.id: "known"}
    assert judge(CaseResult(c, Status.PASS), {}).verdict is Verdict.PASSED
    assert judge(CaseResult(c, Status.FAIL), {}).verdict is Verdict.FAILED
    assert judge(CaseResult(c, Status.FAIL), xfail).verdict is Verdict.XFAILED
    assert judge(CaseResult(c, Status.ERROR), xfail).verdict is Verdict.XFAILED
    stale = judge(CaseResult(c, Status.PASS), xfail)
    assert stale.verdict is Verdict.XPASSED and stale.verdict.bad
    assert judge(CaseResult(c, Status.UNSUPPORTED), xfail).verdict is Verdict.UNSUPPORTED
