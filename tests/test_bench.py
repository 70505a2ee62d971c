"""The reference bench: figures per player count, its two report forms, random requests."""

from __future__ import annotations

import gc
import json
import random

import pytest

from fiveup.errors import UsageError
from fiveup.reference.bench import (
    YARDSTICK_TARGET,
    BenchReport,
    MatchFigures,
    RoundFigures,
    YardstickFigures,
    action_loop_rounds,
    bare_rounds,
    format_text,
    format_yardstick,
    random_round_requests,
    reference_rounds,
    run_bench,
    time_against_bare,
    to_json,
)


@pytest.fixture(scope="module")
def report() -> BenchReport:
    return run_bench(rounds=300, matches=2, seed=5)


def test_run_bench_plays_every_player_count(report: BenchReport) -> None:
    assert [r.players for r in report.rounds] == [2, 3, 4]
    assert [m.players for m in report.matches] == [2, 3, 4]
    for figures in report.rounds:
        assert figures.rounds == 300
        # at least the opening; at most every tile
        assert 300 <= figures.placements <= 300 * 28
        assert figures.seconds > 0
        assert figures.rounds_per_second == pytest.approx(300 / figures.seconds)
        assert figures.placements_per_second > figures.rounds_per_second
    for match in report.matches:
        assert match.matches == 2
        assert match.rounds >= 2
        assert match.matches_per_second > 0
        assert match.rounds_per_match == match.rounds / 2
    assert report.seed == 5
    assert report.python.startswith(("CPython", "PyPy"))
    assert gc.isenabled()


def test_the_counts_are_reproducible(report: BenchReport) -> None:
    again = run_bench(rounds=300, matches=2, seed=5)
    assert [r.placements for r in again.rounds] == [r.placements for r in report.rounds]
    assert [m.rounds for m in again.matches] == [m.rounds for m in report.matches]


def test_zero_work_gives_zero_rates() -> None:
    assert RoundFigures(2, 0, 0, 0.0).rounds_per_second == 0.0
    assert RoundFigures(2, 0, 0, 0.0).placements_per_second == 0.0
    assert MatchFigures(2, 0, 0, 0.0).matches_per_second == 0.0
    assert MatchFigures(2, 0, 0, 0.0).rounds_per_match == 0.0
    with pytest.raises(UsageError):
        run_bench(rounds=-1)


def test_text_report(report: BenchReport) -> None:
    text = format_text(report)
    lines = text.splitlines()
    assert "seed 5" in lines[0]
    assert "rounds/s" in text and "placements/s" in text and "matches/s" in text
    assert sum(line.split()[:2] == [str(p), "300"] for line in lines for p in (2, 3, 4)) == 3


def test_json_report(report: BenchReport) -> None:
    data = json.loads(to_json(report))
    assert data["seed"] == 5
    assert [r["players"] for r in data["rounds"]] == [2, 3, 4]
    first = data["rounds"][0]
    assert first["rounds_per_second"] == pytest.approx(first["rounds"] / first["seconds"])
    assert {"matches", "rounds", "seconds", "matches_per_second", "rounds_per_match"} <= set(
        data["matches"][0]
    )


def test_random_round_requests_replay_whole_rounds() -> None:
    from fiveup.reference.engine import ReferenceEngine

    requests = random_round_requests(3, 5, seed=7)
    assert requests == random_round_requests(3, 5, seed=7)
    assert len(requests) == 5
    for given in requests:
        observation = ReferenceEngine().run("round", given)
        assert observation["error"] is None
        assert observation["state"]["result"] is not None  # played to its end


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_bare_loop_plays_the_very_rounds_of_the_reference(players: int) -> None:
    ours = reference_rounds(players, 300, random.Random(players))
    bare = bare_rounds(players, 300, random.Random(players))
    assert bare == ours == action_loop_rounds(players, 300, random.Random(players))
    assert ours[0] > 300 * 8  # tiles placed: whole rounds, not a few moves


def test_the_yardstick_times_both_loops_on_the_same_rounds() -> None:
    figures = time_against_bare(3, 40, seed=5)
    assert (figures.players, figures.rounds) == (3, 40)
    assert figures.reference_seconds > 0 and figures.bare_seconds > 0
    assert figures.loop_seconds > 0
    assert figures.ratio == figures.bare_seconds / figures.reference_seconds
    assert figures.loop_ratio == figures.bare_seconds / figures.loop_seconds
    assert "      3        40" in format_yardstick([figures])
    with pytest.raises(UsageError):
        time_against_bare(2, -1)


@pytest.mark.parametrize(("bare", "verdict"), [(0.75, "met"), (0.74, "below")])
def test_the_yardstick_prints_its_target_and_whether_the_ratio_meets_it(
    bare: float, verdict: str
) -> None:
    figures = YardstickFigures(2, 10, 1.0, bare)
    assert figures.target == YARDSTICK_TARGET == 0.75
    assert figures.met is (verdict == "met")
    row = format_yardstick([figures]).splitlines()[4]
    assert row.split()[4:7] == [f"{bare:.2f}", "0.75", verdict]
