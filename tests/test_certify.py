"""Certification runs (fiveup.harness.certify): an engine, the cases, the verdicts."""

from __future__ import annotations

from typing import Any

import pytest
from fakes import CORPUS, Broken

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
