"""``fiveup bench``: the reference engine's speed, and any engine's beside it.

Without an engine option it plays random rounds and matches with the reference engine itself,
then the same random rounds by the reference and by a bare loop (``bare_rounds``), interleaved
on CPU time, and prints the ratio.
With ``--engine`` or ``--engine-cmd`` it also sends the same random complete rounds, as round
requests, to that engine and to the reference, and prints both rates and their ratio.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import subprocess
import sys
from typing import TextIO

from fiveup.contract.engine import DEFAULT_ENGINE, JSON, Level
from fiveup.contract.players import PLAYER_COUNTS
from fiveup.errors import UsageError
from fiveup.harness.bench import RequestFigures, time_requests
from fiveup.harness.engines import close_engine, handshake, load_engine, open_engine
from fiveup.harness.levels import LEVELS
from fiveup.reference.bench import (
    DEFAULT_MATCHES,
    DEFAULT_ROUNDS,
    format_text,
    format_yardstick,
    random_round_requests,
    run_bench,
    time_against_bare,
    to_json,
)

from .common import Streams, add_engine_options, check_engine_command
from .options import MAX_BENCH_COUNT, count, seconds, seed

NAME = "bench"
HELP = "measure the reference engine, and an engine under test beside it"
DEFAULT_REQUESTS = 200
"""Round requests per player count sent to an engine under test."""


def configure(parser: argparse.ArgumentParser) -> None:
    """The options of ``bench``."""
    parser.add_argument(
        "--rounds",
        type=count(MAX_BENCH_COUNT),
        default=DEFAULT_ROUNDS,
        metavar="N",
        help=f"random rounds per player count (default {DEFAULT_ROUNDS})",
    )
    parser.add_argument(
        "--matches",
        type=count(MAX_BENCH_COUNT),
        default=DEFAULT_MATCHES,
        metavar="N",
        help=f"random matches per player count (default {DEFAULT_MATCHES})",
    )
    parser.add_argument("--seed", type=seed, default=0, metavar="S", help="seed (default 0)")
    parser.add_argument(
        "--format", choices=("text", "json"), default="text", help="text (default) or json"
    )
    add_engine_options(parser, "also measure this engine")
    parser.add_argument(
        "--requests",
        type=count(MAX_BENCH_COUNT),
        default=DEFAULT_REQUESTS,
        metavar="N",
        help=f"round requests per player count for the engine (default {DEFAULT_REQUESTS})",
    )
    parser.add_argument(
        "--timeout", type=seconds, default=10.0, metavar="SECONDS", help="per request (default 10)"
    )
    parser.add_argument(
        "--startup",
        action="store_true",
        help="also time the imports of 'fiveup engine' (python -X importtime) beside "
        "'python -c pass'",
    )


ENGINE_STARTUP = (
    "import io, sys; from fiveup.cli import main; main(['engine'], stdin=io.StringIO())"
)
"""What ``fiveup engine`` does before it serves, then the end of its input: it stops at once."""


def import_microseconds(stderr: str) -> int:
    """The total of ``python -X importtime``'s report: the top-level imports' cumulative times."""
    total = 0
    for line in stderr.splitlines():
        parts = line.split("|")
        if (
            len(parts) == 3
            and parts[0].startswith("import time:")
            and parts[1].strip().isdigit()
            and not parts[2].startswith("  ")  # one space after the bar: a top-level import
        ):
            total += int(parts[1])
    return total


def startup_figures(runs: int = 3) -> tuple[int, int]:
    """The fewest import microseconds of ``fiveup engine`` and of ``python -c pass`` in ``runs``."""
    found = []
    for code in (ENGINE_STARTUP, "pass"):
        best = None
        for _ in range(runs):
            done = subprocess.run(
                [sys.executable, "-X", "importtime", "-c", code],
                capture_output=True,
                text=True,
                timeout=60,
                check=False,
            )
            if done.returncode != 0:
                raise UsageError(f"python -X importtime -c {code!r} failed: {done.stderr[-200:]}")
            took = import_microseconds(done.stderr)
            best = took if best is None else min(best, took)
        found.append(best or 0)
    return found[0], found[1]


def _startup_text(engine_us: int, pass_us: int, out: TextIO) -> None:
    out.write("\nstart-up, imports timed by python -X importtime (fewest of 3 runs)\n\n")
    out.write(f"{'python -c pass':>16}  {pass_us / 1000:>8.1f} ms\n")
    out.write(f"{'fiveup engine':>16}  {engine_us / 1000:>8.1f} ms\n")


def _engine_figures(args: argparse.Namespace) -> list[tuple[int, RequestFigures, RequestFigures]]:
    candidate = open_engine(args.engine, args.engine_cmd, args.timeout)
    reference = load_engine(DEFAULT_ENGINE)
    rows = []
    try:
        info = handshake(candidate)
        name = info["name"]
        if "round" not in info["levels"]:
            raise UsageError(
                f"{name} does not declare the round level: bench measures round requests"
            )
        for players in PLAYER_COUNTS:
            requests = random_round_requests(players, args.requests, args.seed + players)
            expected: list[JSON | Exception] = []
            answered: list[JSON | Exception] = []
            base = time_requests(reference, DEFAULT_ENGINE, "round", requests, expected)
            figures = time_requests(candidate, name, "round", requests, answered)
            round_ = LEVELS[Level.ROUND]  # judged as certify judges a case of the round
            wrong = sum(
                not isinstance(got, Exception)
                and isinstance(want, dict)
                and bool(round_.compare(round_.expectation(want), got))
                for got, want in zip(answered, expected, strict=True)
            )
            rows.append((players, base, dataclasses.replace(figures, wrong=wrong)))
    finally:
        close_engine(candidate)
    return rows


def _engine_text(rows: list[tuple[int, RequestFigures, RequestFigures]], out: TextIO) -> None:
    name = rows[0][2].engine if rows else "engine"
    out.write(f"\nround requests, {DEFAULT_ENGINE} in-process beside {name}\n\n")
    out.write(f"{'players':>7}  {'requests':>8}  {'reference/s':>11}  {'engine/s':>9}  ")
    out.write(f"{'ratio':>6}  {'errors':>6}  {'wrong':>6}\n")
    for players, base, figures in rows:
        ratio = figures.per_second / base.per_second if base.per_second else 0.0
        out.write(
            f"{players:>7}  {figures.requests:>8}  {base.per_second:>11,.0f}  "
            f"{figures.per_second:>9,.0f}  {ratio:>6.2f}  {figures.errors:>6}  "
            f"{figures.wrong:>6}\n"
        )
    failed = _failed(rows)
    if failed:
        out.write(
            f"\n{name} failed or answered wrongly {failed} of "
            f"{sum(f.requests for _, _, f in rows)} requests: its rate counts them, and is no "
            "measure of a conforming engine (fiveup certify says what is wrong)\n"
        )


def _failed(rows: list[tuple[int, RequestFigures, RequestFigures]]) -> int:
    """The engine's requests that raised or were answered otherwise than the reference's."""
    return sum(f.errors + f.wrong for _, _, f in rows)


def run(args: argparse.Namespace, streams: Streams) -> int:
    """Measure and print the figures; 0 whatever the speed (timings are not a verdict).

    1 when the engine measured failed a request or answered one otherwise than the reference.
    """
    check_engine_command(args)  # before the reference's figures, which take half a minute
    report = run_bench(args.rounds, args.matches, args.seed)
    yardstick = [time_against_bare(p, args.rounds, args.seed) for p in PLAYER_COUNTS]
    measured = args.engine is not None or args.engine_cmd is not None
    rows = _engine_figures(args) if measured else []
    startup = startup_figures() if args.startup else None
    if args.format == "json":
        data = json.loads(to_json(report))
        data["bare"] = [
            {
                "players": f.players,
                "rounds": f.rounds,
                "reference_seconds": f.reference_seconds,
                "bare_seconds": f.bare_seconds,
                "ratio": f.ratio,
                "target": f.target,
                "met": f.met,
                "loop_seconds": f.loop_seconds,
                "loop_ratio": f.loop_ratio,
            }
            for f in yardstick
        ]
        if startup is not None:
            data["startup"] = {"engine_import_us": startup[0], "pass_import_us": startup[1]}
        if measured:
            data["engine"] = [
                {"players": p, "reference": vars_of(b), "engine": vars_of(f)} for p, b, f in rows
            ]
        streams.stdout.write(json.dumps(data, indent=2) + "\n")
        return 1 if _failed(rows) else 0
    streams.stdout.write(format_text(report))
    streams.stdout.write(format_yardstick(yardstick))
    if measured:
        _engine_text(rows, streams.stdout)
    if startup is not None:
        _startup_text(*startup, streams.stdout)
    return 1 if _failed(rows) else 0


def vars_of(figures: RequestFigures) -> dict[str, object]:
    """The figures as a JSON object, with the rate."""
    return {
        "engine": figures.engine,
        "requests": figures.requests,
        "errors": figures.errors,
        "wrong": figures.wrong,
        "seconds": figures.seconds,
        "per_second": figures.per_second,
    }
