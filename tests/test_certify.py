"""Certification pieces: engine loading, selection, expected failures, handshakes, timeouts."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest

from fiveup.contract.engine import JSON, Engine, EngineInfo, Level
from fiveup.errors import EngineError, UsageError
from fiveup.harness.certify import (
    TimedEngine,
    Verdict,
    certify,
    handshake,
    judge,
    keyword_matcher,
    load_engine,
    load_expected_failures,
    select,
)
from fiveup.harness.corpus import Case, Corpus
from fiveup.harness.runner import CaseResult, Status


def make_case(
    case_id: str,
    title: str = "t",
    rules: tuple[str, ...] = ("SCR-2",),
    level: Level = Level.SCORING,
) -> Case:
    return Case(
        id=case_id,
        title=title,
        rules=rules,
        level=level,
        given={"function": "credit", "input": 5},
        expect={"value": 5},
        provenance={"source": "derived", "note": "t"},
        description="",
        file="fixtures/scoring.yaml",
        line=3,
    )


CORPUS = Corpus(
    cases=(
        make_case("doc.scoring.credit-15", "a sum of 15 credits 15"),
        make_case(
            "rule.layout.spinner-branch", "branch before line sides", ("SPN-2",), Level.LAYOUT
        ),
        make_case("rule.layout.spinner-branch-2", "branch b first", ("SPN-3",), Level.LAYOUT),
    ),
    digest="d",
    files=("x",),
)


@pytest.mark.parametrize(
    ("expr", "ids"),
    [
        ("credit", ["doc.scoring.credit-15"]),
        ("SPN-2", ["rule.layout.spinner-branch"]),
        ("layout and not SPN-3", ["rule.layout.spinner-branch"]),
        ("(credit or spn-3)", ["doc.scoring.credit-15", "rule.layout.spinner-branch-2"]),
        ("not layout", ["doc.scoring.credit-15"]),
        (
            "scoring.yaml",
            ["doc.scoring.credit-15", "rule.layout.spinner-branch", "rule.layout.spinner-branch-2"],
        ),
    ],
)
def test_keyword_expressions_select_like_pytest(expr: str, ids: list[str]) -> None:
    assert [c.id for c in select(CORPUS, expr)] == ids


@pytest.mark.parametrize("expr", ["", "and", "(credit", "credit or", "credit )"])
def test_a_bad_keyword_expression_is_a_usage_error(expr: str) -> None:
    with pytest.raises(UsageError, match="-k"):
        keyword_matcher(expr)


def test_case_ids_select_exactly() -> None:
    assert [c.id for c in select(CORPUS, ids=["rule.layout.spinner-branch"])] == [
        "rule.layout.spinner-branch"
    ]
    with pytest.raises(UsageError, match="no case nope"):
        select(CORPUS, ids=["nope"])


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


class Broken:
    def __init__(self, info: Any = None, delay: float = 0.0) -> None:
        self._info = info
        self.delay = delay

    def info(self) -> EngineInfo:
        if isinstance(self._info, Exception):
            raise self._info
        return self._info  # type: ignore[no-any-return]

    def run(self, level: str, given: dict[str, JSON]) -> dict[str, JSON]:
        time.sleep(self.delay)
        return {"value": 5}


@pytest.mark.parametrize(
    ("info", "words"),
    [
        (RuntimeError("boom"), "boom"),
        ("hello", "answered str"),
        ({"name": "x", "version": "1", "protocol": 1}, "lacks 'levels'"),
        ({"name": "x", "version": "1", "protocol": 2, "levels": []}, "protocol version mismatch"),
    ],
)
def test_an_engine_that_fails_its_handshake_errs_every_case(info: Any, words: str) -> None:
    run = certify(Broken(info), CORPUS, CORPUS.cases)
    assert not run.ok and run.engine is None and words in run.handshake_error
    assert {o.verdict for o in run.outcomes} == {Verdict.ERRORED}


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


def test_a_hanging_in_process_engine_is_cut_off() -> None:
    info = {"name": "x", "version": "1", "protocol": 1, "levels": ["scoring"]}
    engine = TimedEngine(Broken(info, delay=5), timeout=0.2)
    started = time.monotonic()
    with pytest.raises(EngineError, match=r"within 0\.2 s"):
        engine.run("scoring", {})
    assert time.monotonic() - started < 2


def test_engines_load_by_entry_point_and_by_module_attribute() -> None:
    by_name = load_engine("reference")
    by_path = load_engine("fiveup.reference.engine:ReferenceEngine")
    assert isinstance(by_name, Engine) and isinstance(by_path, Engine)
    assert by_name.info()["name"] == by_path.info()["name"] == "fiveup-reference"


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("no-such-engine", "no engine of that name (installed: reference"),
        ("no_such_module:X", "cannot import 'no_such_module'"),
        ("fiveup.reference.engine:Nope", "has no 'Nope'"),
        ("fiveup.contract.notation:ALL_TILES", "has no info() and run"),
    ],
)
def test_a_bad_engine_name_is_a_usage_error(name: str, words: str) -> None:
    with pytest.raises(UsageError, match=re.escape(words)):
        load_engine(name)
