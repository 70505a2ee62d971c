"""``fiveup bench-fuzz``: bench's 2-player rate and both fuzz rates, side by side."""

from __future__ import annotations

import io
import json

import pytest

from fiveup.cli import main


def _run(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(["bench-fuzz", *args], out, err)
    return code, out.getvalue(), err.getvalue()


def test_the_json_report_gives_three_positive_rates_with_ratios_and_targets() -> None:
    code, out, err = _run("--rounds", "30", "--cases", "40", "--format", "json")
    assert code == 0, err
    data = json.loads(out)
    assert data["cases"] == "round, 2 players"
    assert data["bench"]["players"] == 2 and data["bench"]["rounds_per_second"] > 0
    rows = {row["kind"]: row for row in data["fuzz"]}
    assert rows.keys() == {"in-process", "protocol"}
    assert (rows["in-process"]["target"], rows["protocol"]["target"]) == (0.3, 0.15)
    for row in rows.values():
        assert row["cases"] == row["rounds"] == 40 and row["divergences"] == 0
        assert row["rounds_per_second"] > 0 and row["ratio"] > 0
        ratio = row["rounds_per_second"] / data["bench"]["rounds_per_second"]
        assert row["ratio"] == pytest.approx(ratio)
        assert row["met"] is (row["ratio"] >= row["target"])
        assert row["harness_cpu_us_per_round"] > 0
    assert rows["in-process"]["engine_cpu_us_per_round"] is None
    engine_cpu = rows["protocol"]["engine_cpu_us_per_round"]
    assert engine_cpu is None or engine_cpu >= 0


def test_the_text_report_puts_the_figures_side_by_side() -> None:
    code, out, _ = _run("--rounds", "20", "--cases", "20", "--mix", "--seed", "2")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("Fuzz speed beside bench (seed 2") and "default mix" in lines[0]
    assert lines[2].split()[-4:] == ["rounds/s", "ratio", "target", "verdict"]
    rows = lines[3 : lines.index("", 3)]
    assert [row.split(",")[0] for row in rows] == ["bench", "fuzz", "fuzz"]
    assert [row.split()[-2] for row in rows[1:]] == ["0.30", "0.15"]
    assert all(row.split()[-1] in ("met", "below") for row in rows[1:])
    cpu = lines[lines.index("", 3) + 3 :]
    assert [line.split(":")[0].strip() for line in cpu] == ["in-process", "protocol"]
    assert all(" us" in line for line in cpu)


@pytest.mark.parametrize("argv", [["--cases", "0"], ["--rounds", "x"], ["--format", "xml"]])
def test_bad_arguments_exit_2_with_a_message(argv: list[str]) -> None:
    code, out, err = _run(*argv)
    assert code == 2 and out == ""
    assert "fiveup bench-fuzz" in err and "error:" in err
