"""The pytest plugin, driven by pytester as a third party would use it."""

from __future__ import annotations

import io
import sys
from pathlib import Path
from typing import Any, cast

import pytest

from fiveup.cli import certify, main
from fiveup.cli.common import Parser
from fiveup.harness import pytest_plugin
from fiveup.harness.corpus import load_corpus
from fiveup.harness.sources import read_bounded

CASE = "doc.layout.branches-1-2"

WRONG_ENGINE = """
from fiveup.reference.engine import ReferenceEngine


class Engine(ReferenceEngine):
    def run(self, level, given):
        observation = super().run(level, given)
        if level == "scoring" and given["function"] == "credit":
            observation["value"] = given["input"]  # credits every sum, multiple of 5 or not
        return observation
"""


def test_inactive_without_an_engine_option(pytester: pytest.Pytester) -> None:
    pytester.makepyfile("def test_own(): pass")
    result = pytester.runpytest()
    result.assert_outcomes(passed=1)


def test_one_test_per_case_with_stable_qualified_names(pytester: pytest.Pytester) -> None:
    result = pytester.runpytest("--fiveup-engine=reference", "--collect-only", "-q")
    lines = [ln for ln in result.outlines if ln.startswith("fiveup::")]
    assert f"fiveup::{CASE}" in lines
    assert len(lines) == len(set(lines)) > 150


def test_the_reference_engine_passes_and_k_selects(pytester: pytest.Pytester) -> None:
    result = pytester.runpytest("--fiveup-engine=reference", "-k", "SPN-2 and layout", "-q")
    outcomes = result.parseoutcomes()
    assert outcomes["passed"] > 5 and "failed" not in outcomes
    assert outcomes["deselected"] > 100


def test_a_wrong_engine_fails_with_a_readable_difference(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(wrong_engine=WRONG_ENGINE)
    pytester.syspathinsert()
    xml = pytester.path / "junit.xml"
    result = pytester.runpytest(
        "--fiveup-engine=wrong_engine:Engine", "-k", "credit", f"--junitxml={xml}"
    )
    outcomes = result.parseoutcomes()
    assert outcomes["failed"] >= 5 and outcomes["passed"] >= 5
    result.stdout.fnmatch_lines(
        [
            "*doc.scoring.credit-12: *",
            "rules: SCR-2*",
            "  /value: expected 0, got 12",
        ]
    )
    assert "Traceback" not in result.stdout.str()
    assert 'name="doc.scoring.credit-12"' in xml.read_text()


def test_expected_failures_and_the_process_protocol(pytester: pytest.Pytester) -> None:
    pytester.makefile(".yaml", xfail=f"{CASE}: listed although it passes\n")
    result = pytester.runpytest(
        f"--fiveup-engine-cmd={sys.executable} -m fiveup engine",
        "--fiveup-expected-failures=xfail.yaml",
        "-k",
        "branches-1",
    )
    result.assert_outcomes(passed=2, failed=1, deselected=result.parseoutcomes()["deselected"])
    result.stdout.fnmatch_lines(["*listed as an expected failure*but it passes*"])


def test_a_broken_engine_is_one_collection_error_and_bad_options_are_usage_errors(
    pytester: pytest.Pytester,
) -> None:
    result = pytester.runpytest(
        f"--fiveup-engine-cmd={sys.executable} -c 'import sys'",
        "--fiveup-timeout=5",
        "-k",
        "credit-15",
    )
    outcomes = result.parseoutcomes()
    assert outcomes["errors"] == 1 and not {"passed", "failed"} & set(outcomes)
    result.stdout.fnmatch_lines(["collected 0 items / 1 error", "*the engine did not start*"])
    result = pytester.runpytest("--fiveup-engine=reference", "--fiveup-engine-cmd=x")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result = pytester.runpytest("--fiveup-engine=reference", "--fiveup-fixtures=/no/such")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    for timeout in ("0", "-1", "1e999", "3601"):  # a user's mistake, not the engine's
        result = pytester.runpytest("--fiveup-engine=reference", f"--fiveup-timeout={timeout}")
        assert result.ret == pytest.ExitCode.USAGE_ERROR, timeout
        result.stderr.fnmatch_lines(["*--fiveup-timeout* is out of range: at least 0.05*"])
    for memory in ("63", "1048577", "-5"):  # certify's bounds of --engine-memory
        result = pytester.runpytest("--fiveup-engine=reference", f"--fiveup-engine-memory={memory}")
        assert result.ret == pytest.ExitCode.USAGE_ERROR, memory
        result.stderr.fnmatch_lines(["*--fiveup-engine-memory* is out of range: from 64 to*"])
    result = pytester.runpytest("--fiveup-engine=reference", "--fiveup-engine-memory=100")
    assert result.ret == pytest.ExitCode.USAGE_ERROR  # it would bound nothing
    result.stderr.fnmatch_lines(["*--fiveup-engine-memory bounds an engine run as a process*"])
    for option in ("--fiveup-engine-cmd", "--fiveup-engine"):  # else the plugin stays off
        result = pytester.runpytest(f"{option}= ")
        assert result.ret == pytest.ExitCode.USAGE_ERROR
        result.stderr.fnmatch_lines([f"*{option} is empty*"])


@pytest.mark.campaign  # three pytest processes, each loading the plugin and the corpus
def test_pytest_xdist_spreads_the_cases(pytester: pytest.Pytester) -> None:
    pytest.importorskip("xdist")
    result = pytester.runpytest_subprocess(
        "--fiveup-engine=reference", "-n", "2", "-k", "scoring", "-q"
    )
    outcomes = result.parseoutcomes()
    assert outcomes["passed"] == 70 and "failed" not in outcomes
    result.stdout.fnmatch_lines(["bringing up nodes*"])


def test_the_header_counts_the_cases(pytester: pytest.Pytester) -> None:
    result = pytester.runpytest("--fiveup-engine=reference", "--collect-only")
    result.stdout.fnmatch_lines([f"collected {len(load_corpus().cases)} items"])


def test_the_plugin_bounds_the_engines_memory_as_certify_does(pytester: pytest.Pytester) -> None:
    hog = Path(__file__).parent / "engines" / "hostile" / "memory_hog.py"
    result = pytester.runpytest(
        f"--fiveup-engine-cmd={sys.executable} {hog} plugin-memory",
        "--fiveup-engine-memory=128",
        "-k",
        "credit-15",
    )
    outcomes = result.parseoutcomes()
    assert outcomes.get("failed", 0) + outcomes.get("errors", 0) == 1, outcomes
    result.stdout.fnmatch_lines(["*MemoryError*"])


@pytest.mark.parametrize("option", ["--fiveup-timeout", "--fiveup-engine-memory"])
@pytest.mark.parametrize("word", ["nan", "inf", "1_000", "٣٠٠", "0x100", "9" * 5000, " "])
def test_the_plugins_numbers_are_read_as_fiveup_certify_reads_them(
    pytester: pytest.Pytester, option: str, word: str
) -> None:
    result = pytester.runpytest("--fiveup-engine=reference", f"{option}={word}")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    said = result.stderr.str()
    assert f"argument {option}: " in said and "Traceback" not in said
    assert ("has more than 30 digits" if len(word) > 30 else "not a ") in said
    out, err = io.StringIO(), io.StringIO()
    certify_option = option.replace("--fiveup-", "--")
    assert main(["certify", f"{certify_option}={word}"], stdout=out, stderr=err) == 2
    assert said.split(f"argument {option}: ")[1].split("\n")[0] in err.getvalue()


class _Options:
    """A stand-in for pytest's parser that keeps what each option was added with."""

    def __init__(self) -> None:
        self.added: dict[str, dict[str, Any]] = {}

    def getgroup(self, *_: str) -> _Options:
        return self

    def addoption(self, name: str, **kwargs: Any) -> None:
        self.added[name] = kwargs


def test_the_plugins_numbers_have_the_types_of_fiveup_certify() -> None:
    options = _Options()
    pytest_plugin.pytest_addoption(cast(pytest.Parser, options))
    parser = Parser(prog="fiveup certify", stdout=io.StringIO())
    certify.configure(parser)
    types = {action.dest: action.type for action in parser._actions}
    assert options.added["--fiveup-timeout"]["type"] is types["timeout"]
    assert options.added["--fiveup-engine-memory"]["type"] is types["engine_memory"]


@pytest.mark.parametrize(
    "option",
    ["--fiveup-expected-failures=", "--fiveup-expected-failures= ", "--fiveup-fixtures="],
)
def test_an_empty_file_name_is_a_usage_error_not_the_current_folder_or_none(
    pytester: pytest.Pytester, option: str
) -> None:
    result = pytester.runpytest("--fiveup-engine=reference", option, "-k", "credit")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"*fiveup: {option.split('=')[0]} is empty: name a file*"])


def test_a_fixtures_folder_with_no_fixture_is_refused_in_certifys_words(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    (pytester.path / "empty").mkdir()
    result = pytester.runpytest("--fiveup-engine=reference", "--fiveup-fixtures=empty")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        ["*fiveup: --fiveup-fixtures empty: no [*].yaml fixture files there"]
    )
    err = io.StringIO()
    monkeypatch.chdir(pytester.path)
    assert main(["certify", "--fixtures", "empty"], stdout=io.StringIO(), stderr=err) == 2
    assert (
        err.getvalue() == "fiveup certify: error: --fixtures empty: no *.yaml fixture files there\n"
    )


def test_a_baseline_name_holding_a_nul_is_a_usage_error_not_a_traceback(
    pytester: pytest.Pytester,
) -> None:
    assert "NUL" in str(read_bounded(Path("known\x00.yaml")))  # os.stat raised ValueError
    result = pytester.runpytest("--fiveup-engine=reference", "--fiveup-expected-failures=a\x00b")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--fiveup-expected-failures a*b: cannot read: *NUL character*"])


def test_an_engine_that_cannot_be_found_or_run_is_named_by_the_plugins_option(
    pytester: pytest.Pytester,
) -> None:
    result = pytester.runpytest("--fiveup-engine=no_such_engine", "-k", "credit-15")
    result.stdout.fnmatch_lines(["*--fiveup-engine no_such_engine: no engine of that name*"])
    result = pytester.runpytest("--fiveup-engine-cmd=/no/such/engine", "-k", "credit-15")
    result.stdout.fnmatch_lines(["*--fiveup-engine-cmd: cannot run /no/such/engine*"])
