"""``fiveup bench``: the reference's figures, an engine under test beside them, its mistakes."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from fiveup.cli import bench as bench_command
from fiveup.cli import main
from fiveup.cli.bench import import_microseconds, startup_figures


def test_bench_writes_the_chosen_format() -> None:
    out, err = io.StringIO(), io.StringIO()
    code = main(["bench", "--rounds", "20", "--matches", "1", "--format", "json"], out, err)
    assert code == 0
    assert err.getvalue() == ""
    assert json.loads(out.getvalue())["rounds"][0]["rounds"] == 20
    bare = json.loads(out.getvalue())["bare"]
    assert [row["players"] for row in bare] == [2, 3, 4] and bare[0]["rounds"] == 20
    assert all(row["target"] == 0.75 and row["met"] is (row["ratio"] >= 0.75) for row in bare)
    assert all(row["loop_ratio"] == row["bare_seconds"] / row["loop_seconds"] for row in bare)
    out = io.StringIO()
    assert main(["bench", "--rounds", "5", "--matches", "0", "--seed", "3"], out, err) == 0
    assert out.getvalue().startswith("Five Up reference engine bench (seed 3")
    assert "reference against the bare loop" in out.getvalue()
    assert "apply loop s" in out.getvalue()


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
    assert all(row[-2:] == ["0", "0"] for row in rows)  # no errors, no wrong answer


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
    assert main(argv, out, err) == 1, err.getvalue()
    lines = out.getvalue().splitlines()
    rows = [line.split() for line in lines[-5:-2]]
    assert [row[-2:] for row in rows] == [["3", "0"], ["3", "0"], ["3", "0"]]
    assert lines[-1].startswith("declines-all failed or answered wrongly 9 of 9 requests")


def test_an_engine_that_answers_as_certify_accepts_is_not_counted_wrong() -> None:
    out, err = io.StringIO(), io.StringIO()
    argv = ["bench", "--rounds", "1", "--matches", "0", "--requests", "3", "--format", "json"]
    argv += ["--engine", "tests.engines.verdicts:ReversedHands"]  # hands compared as sets
    assert main(argv, out, err) == 0, err.getvalue()
    rows = json.loads(out.getvalue())["engine"]
    assert all(row["engine"]["wrong"] == 0 for row in rows)


def test_an_engine_that_answers_wrongly_is_counted_and_fails_the_run() -> None:
    out, err = io.StringIO(), io.StringIO()
    argv = ["bench", "--rounds", "1", "--matches", "0", "--requests", "3", "--format", "json"]
    mutant = "scr1_last_tile_not_scored"
    argv += ["--engine-cmd", f"{sys.executable} -m fiveup engine --mutant {mutant}"]
    assert main(argv, out, err) == 1, err.getvalue()
    rows = json.loads(out.getvalue())["engine"]
    assert sum(row["engine"]["wrong"] for row in rows) > 0
    assert all(row["engine"]["errors"] == 0 for row in rows)


def test_an_engine_without_the_round_level_is_told_what_bench_measures() -> None:
    out, err = io.StringIO(), io.StringIO()
    argv = ["bench", "--rounds", "1", "--matches", "0"]
    argv += ["--engine", "examples.adapters.python.minimal_engine:MinimalEngine"]
    assert main(argv, out, err) == 2
    assert "does not declare the round level" in err.getvalue()


def test_fiveup_engine_imports_no_other_subcommand() -> None:
    probe = (
        "import io, sys\n"
        "from fiveup.cli import main\n"
        "main(['engine'], stdin=io.StringIO(), stdout=io.StringIO())\n"
        "print(sorted(m for m in sys.modules if m.startswith('fiveup.cli.')))\n"
        "print(sorted(m for m in ('subprocess', 'fiveup.harness.process') if m in sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    cli, process_layer = done.stdout.splitlines()
    assert cli == "['fiveup.cli.app', 'fiveup.cli.common', 'fiveup.cli.engine']", cli
    assert process_layer == "[]", "serving runs no engine process: " + process_layer


def test_the_import_report_is_summed_over_top_level_imports_only() -> None:
    report = (
        "import time: self [us] | cumulative | imported package\n"
        "import time:       100 |        100 |   encodings.utf_8\n"
        "import time:       300 |        700 | site\n"
        "import time:        20 |         20 |   json.decoder\n"
        "import time:        50 |         90 | json\n"
        "some other line\n"
    )
    assert import_microseconds(report) == 790


def test_startup_imports_of_the_engine_are_timed_beside_python_alone() -> None:
    engine_us, pass_us = startup_figures(runs=1)
    assert engine_us > pass_us > 0


def test_the_startup_option_prints_both_figures(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bench_command, "startup_figures", lambda: (123_400, 5_600))
    out, err = io.StringIO(), io.StringIO()
    assert main(["bench", "--rounds", "2", "--matches", "0", "--startup"], out, err) == 0
    text = out.getvalue()
    assert "python -c pass       5.6 ms" in text and "fiveup engine     123.4 ms" in text
    out = io.StringIO()
    argv = ["bench", "--rounds", "2", "--matches", "0", "--startup", "--format", "json"]
    assert main(argv, out, err) == 0
    startup = json.loads(out.getvalue())["startup"]
    assert startup == {"engine_import_us": 123_400, "pass_import_us": 5_600}
