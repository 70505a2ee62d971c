"""``fiveup bench``: the reference's figures, an engine under test beside them, its mistakes."""

from __future__ import annotations

import io
import json
import sys

import pytest

from fiveup.cli import main


def test_bench_writes_the_chosen_format() -> None:
    out, err = io.StringIO(), io.StringIO()
    code = main(["bench", "--rounds", "20", "--matches", "1", "--format", "json"], out, err)
    assert code == 0
    assert err.getvalue() == ""
    assert json.loads(out.getvalue())["rounds"][0]["rounds"] == 20
    out = io.StringIO()
    assert main(["bench", "--rounds", "5", "--matches", "0", "--seed", "3"], out, err) == 0
    assert out.getvalue().startswith("Five Up reference engine bench (seed 3")


@pytest.mark.parametrize(
    "argv",
    [["--rounds", "x"], ["--rounds", "-4"], ["--format", "xml"], ["--speed"], ["extra"]],
)
def test_bad_arguments_give_exit_code_2_and_a_message(argv: list[str]) -> None:
    out, err = io.StringIO(), io.StringIO()
    assert main(["bench", *argv], out, err) == 2
    assert out.getvalue() == ""
    assert "usage: fiveup bench" in err.getvalue()
    assert "error:" in err.getvalue()


def test_help_goes_to_stdout() -> None:
    out, err = io.StringIO(), io.StringIO()
    assert main(["bench", "--help"], out, err) == 0
    assert "--rounds N" in out.getvalue()
    assert err.getvalue() == ""


@pytest.mark.parametrize(
    "engine",
    [["--engine", "reference"], ["--engine-cmd", f"{sys.executable} -m fiveup engine"]],
    ids=["in-process", "process"],
)
def test_an_engine_under_test_is_measured_beside_the_reference(engine: list[str]) -> None:
    out, err = io.StringIO(), io.StringIO()
    argv = ["bench", "--rounds", "5", "--matches", "0", "--requests", "4", *engine]
    assert main(argv, out, err) == 0, err.getvalue()
    text = out.getvalue()
    assert "round requests, reference in-process beside fiveup-reference" in text
    rows = [
        line.split()
        for line in text.splitlines()
        if line.split()[:2] in (["2", "4"], ["3", "4"], ["4", "4"])
    ]
    assert [row[0] for row in rows] == ["2", "3", "4"]
    assert all(row[-1] == "0" for row in rows)  # no errors


def test_the_engine_figures_in_json() -> None:
    out, err = io.StringIO(), io.StringIO()
    argv = ["bench", "--rounds", "1", "--matches", "0", "--requests", "2", "--engine", "reference"]
    assert main([*argv, "--format", "json"], out, err) == 0, err.getvalue()
    rows = json.loads(out.getvalue())["engine"]
    assert [row["players"] for row in rows] == [2, 3, 4]
    assert all(row["engine"]["requests"] == 2 and row["engine"]["errors"] == 0 for row in rows)


def test_an_engine_that_fails_every_request_is_counted_not_fast() -> None:
    out, err = io.StringIO(), io.StringIO()
    argv = ["bench", "--rounds", "1", "--matches", "0", "--requests", "3"]
    argv += ["--engine", "tests.engines.verdicts:DeclinesAll"]
    assert main(argv, out, err) == 0, err.getvalue()
    rows = [line.split() for line in out.getvalue().splitlines()[-3:]]
    assert [row[-1] for row in rows] == ["3", "3", "3"]


def test_an_engine_without_the_round_level_is_told_what_bench_measures() -> None:
    out, err = io.StringIO(), io.StringIO()
    argv = ["bench", "--rounds", "1", "--matches", "0"]
    argv += ["--engine", "examples.adapters.python.minimal_engine:MinimalEngine"]
    assert main(argv, out, err) == 2
    assert "does not declare the round level" in err.getvalue()
