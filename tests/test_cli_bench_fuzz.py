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
    notes = lines[lines.index("", 3) + 1 : lines.index("", 3) + 4]
    assert notes[0].startswith("Bench and fuzz in process: CPU time, taking turns (1 turn)")
    assert notes[-1].endswith("CPU time per round case:")
    cpu = lines[lines.index("", 3) + 4 :]
    assert [line.split(":")[0].strip() for line in cpu] == ["in-process", "protocol"]
    assert all(" us" in line for line in cpu)


def test_bench_and_the_in_process_campaign_take_turns_on_cpu_time_and_play_every_case() -> None:
    # 600 rounds and 160 cases make two turns: bench's of 300 rounds, the campaign's of 80 cases
    code, out, err = _run("--rounds", "600", "--cases", "160", "--format", "json")
    assert code == 0, err
    data = json.loads(out)
    assert data["turns"] == 2 and data["bench"]["clock"] == "cpu"
    assert data["bench"]["rounds"] == 600
    rows = {row["kind"]: row for row in data["fuzz"]}
    assert (rows["in-process"]["clock"], rows["protocol"]["clock"]) == ("cpu", "wall")
    assert rows["in-process"]["cases"] == rows["in-process"]["rounds"] == 160
    assert rows["in-process"]["divergences"] == 0
    harness = rows["in-process"]["harness_cpu_us_per_round"]
    assert rows["in-process"]["rounds_per_second"] == pytest.approx(1e6 / harness)


@pytest.mark.parametrize("argv", [["--cases", "0"], ["--rounds", "x"], ["--format", "xml"]])
def test_bad_arguments_exit_2_with_a_message(argv: list[str]) -> None:
    code, out, err = _run(*argv)
    assert code == 2 and out == ""
    assert "fiveup bench-fuzz" in err and "error:" in err
