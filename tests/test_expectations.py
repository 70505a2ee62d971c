"""Expected failures (fiveup.harness.expectations): the file, and how each result counts."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from fakes import CORPUS

from fiveup.errors import UsageError
from fiveup.harness.expectations import (
    MAX_BASELINE_BYTES,
    Verdict,
    judge,
    load_expected_failures,
)
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


def _result(status: Status, function: str = "credit") -> CaseResult:
    from dataclasses import replace

    case = replace(CORPUS.cases[0], given={"function": function, "input": 5})
    return CaseResult(case, status)


def test_a_declined_case_of_a_claimed_feature_is_declined() -> None:
    from fiveup.harness.levels import Claims

    info: Any = {"name": "a", "version": "1", "protocol": 1, "levels": [], "features": []}
    info["features"] = ["scoring.credit"]
    claims = Claims.of(info)
    assert judge(_result(Status.UNSUPPORTED), {}, claims).verdict is Verdict.DECLINED
    assert Verdict.DECLINED.bad
    assert judge(_result(Status.UNSUPPORTED), {}).verdict is Verdict.UNSUPPORTED  # no claims
    for function in ("displayed", "tally"):  # not claimed; optional
        info["features"] = ["scoring.credit", "scoring.tally"]
        shown = judge(_result(Status.UNSUPPORTED, function), {}, Claims.of(info))
        assert shown.verdict is Verdict.UNSUPPORTED


def test_a_baseline_entry_counts_its_status() -> None:
    from fiveup.harness.expectations import Baseline

    case_id = CORPUS.cases[0].id
    listed = Baseline({case_id: "r"}, {case_id: "fail"})
    assert judge(_result(Status.FAIL), listed).verdict is Verdict.XFAILED
    assert judge(_result(Status.ERROR), listed).verdict is Verdict.CHANGED
    assert judge(_result(Status.PASS), listed).verdict is Verdict.XPASSED
    old = {case_id: "r"}  # a 1.0 entry: a failure or an error
    assert judge(_result(Status.ERROR), old).verdict is Verdict.XFAILED
    assert Verdict.CHANGED.bad


def test_a_baseline_with_statuses_fresh_cases_and_a_seed(tmp_path: Path) -> None:
    path = tmp_path / "known.yaml"
    path.write_text(
        "fresh_seed: 7\n"
        "doc.scoring.credit-15: {status: unsupported, reason: not yet}\n"
        "fresh.layout.s7-3: {status: fail, reason: a difference}\n"
    )
    baseline = load_expected_failures(path, CORPUS)
    assert baseline == {"doc.scoring.credit-15": "not yet", "fresh.layout.s7-3": "a difference"}
    assert baseline.statuses == {
        "doc.scoring.credit-15": "unsupported",
        "fresh.layout.s7-3": "fail",
    }
    assert baseline.fresh_seed == 7
    for text, words in [
        ("doc.scoring.credit-15: {status: passed, reason: r}\n", "status must be one of"),
        ("doc.scoring.credit-15: {status: fail, why: r}\n", "unknown key 'why'"),
        ("fresh_seed: -1\n", "fresh_seed must be a whole number"),
        ("fresh_seed: 1\nfresh.layout.s2-0: r\n", "fresh cases of more than one seed"),
        ("fresh.chess.s2-0: r\n", "no case 'fresh.chess.s2-0'"),
        # a seed --seed refuses is refused here, not printed in a rerun command
        ("fresh.layout.s9999999999999999999-0: r\n", "a fresh case's seed is at most 2**63-1"),
        # keys YAML reads as null, a boolean or a number, named as YAML writes them
        ("~: r\n", ":1: no case null in the corpus"),
        ("True: r\n", ":1: no case true in the corpus"),
        ("7: r\n", ":1: no case 7 in the corpus"),
        ("null: r\n~: s\n", ":2: /null: duplicate key null (first at line 1)"),
    ]:
        path.write_text(text)
        with pytest.raises(UsageError, match=re.escape(words)):
            load_expected_failures(path, CORPUS)


def test_a_baseline_of_thousands_of_mistakes_reports_the_first_hundred(tmp_path: Path) -> None:
    path = tmp_path / "known.yaml"
    path.write_text("".join(f"no.such.c{i}: r\n" for i in range(20_000)))
    with pytest.raises(UsageError) as refused:
        load_expected_failures(path, CORPUS)
    lines = str(refused.value).splitlines()
    assert len(lines) == 101, len(lines)  # it printed all 20,000: a megabyte on stderr
    assert lines[99] == f"{path}:100: no case 'no.such.c99' in the corpus"
    assert lines[100] == f"{path}: too many problems: only the first 100 of this file are reported"


def test_a_baseline_may_be_larger_than_a_fixture_file_up_to_its_own_limit(tmp_path: Path) -> None:
    path = tmp_path / "known.yaml"
    entry = "doc.scoring.credit-15: {status: fail, reason: rounds differently}\n"
    path.write_text("# written for a --fresh 1000 run\n" * 100_000 + entry)
    assert path.stat().st_size > 3 << 20  # past the 1 MiB of a fixture file
    assert load_expected_failures(path, CORPUS) == {"doc.scoring.credit-15": "rounds differently"}
    path.write_text("#" * MAX_BASELINE_BYTES + "\n" + entry)
    with pytest.raises(
        UsageError, match=f"file too large: [0-9]+ bytes, the limit is {MAX_BASELINE_BYTES} bytes"
    ):
        load_expected_failures(path, CORPUS)
