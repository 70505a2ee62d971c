"""``fiveup bench-fuzz``: fuzzing's speed beside ``fiveup bench``'s, measured in one run.

It times bench's 2-player in-process rounds and a fuzz campaign of the reference against
itself in process, taking turns on CPU time, then one against ``fiveup engine`` over the
process protocol on wall time, and prints the three rates with each fuzz rate's share of
bench's and the share the project aims for (0.3 in process, 0.15 over the protocol).
Timings are not a verdict: the exit code is 0 whatever the rates, and 1 only when the
reference diverged from itself.
"""

from __future__ import annotations

import argparse
import json
from typing import TextIO

from fiveup.errors import UsageError
from fiveup.fuzz.speed import SpeedReport, measure

from .common import Streams
from .options import MAX_BENCH_COUNT, count, seed

NAME = "bench-fuzz"
HELP = "fuzzing's speed in process and over the protocol, beside bench's 2-player rate"
DEFAULT_BENCH_ROUNDS = 5000
"""Random 2-player rounds timed for bench's rate."""
DEFAULT_CASES = 3000
"""Cases of each fuzz campaign."""
_WIDTH = 51


def configure(parser: argparse.ArgumentParser) -> None:
    """The options of ``bench-fuzz``."""
    parser.add_argument(
        "--rounds",
        type=count(MAX_BENCH_COUNT, low=1),
        default=DEFAULT_BENCH_ROUNDS,
        metavar="N",
        help=f"2-player rounds for bench's rate (default {DEFAULT_BENCH_ROUNDS})",
    )
    parser.add_argument(
        "--cases",
        type=count(MAX_BENCH_COUNT, low=1),
        default=DEFAULT_CASES,
        metavar="N",
        help=f"cases of each fuzz campaign (default {DEFAULT_CASES})",
    )
    parser.add_argument(
        "--mix",
        action="store_true",
        help="fuzz the campaign's default mix of levels and player counts "
        "(default: 2-player round cases only, the unit bench counts)",
    )
    parser.add_argument(
        "--seed",
        type=seed,
        default=0,
        metavar="S",
        help="seed (default 0)",
    )
    parser.add_argument(
        "--format", choices=("text", "json"), default="text", help="text (default) or json"
    )


def to_json(report: SpeedReport) -> str:
    """The report as JSON text."""
    data = {
        "seed": report.seed,
        "python": report.python,
        "cases": "mix" if report.mix else "round, 2 players",
        "turns": report.turns,
        "bench": {
            "players": 2,
            "rounds": report.bench_rounds,
            "clock": "cpu",
            "seconds": report.bench_seconds,
            "rounds_per_second": report.bench_rate,
        },
        "fuzz": [
            {
                "kind": f.kind,
                "candidate": f.candidate,
                "cases": f.cases,
                "rounds": f.rounds,
                "divergences": f.divergences,
                "clock": "cpu" if f.kind == "in-process" else "wall",
                "seconds": f.seconds,
                "rounds_per_second": f.rounds_per_second,
                "ratio": f.ratio,
                "target": f.target,
                "met": f.met,
                "harness_cpu_us_per_round": f.harness_cpu_per_round,
                "engine_cpu_us_per_round": f.engine_cpu_per_round,
            }
            for f in report.fuzz
        ],
    }
    return json.dumps(data, indent=2) + "\n"


def write_text(report: SpeedReport, out: TextIO) -> None:
    """The report as a small plain-text table."""
    cases = "the default mix" if report.mix else "2-player round cases"
    out.write(f"Fuzz speed beside bench (seed {report.seed}, {report.python}; {cases})\n\n")
    out.write(f"{'measured':<{_WIDTH}}  {'rounds/s':>9}  {'ratio':>6}  {'target':>6}  verdict\n")
    out.write(f"{'bench, 2 players, in process':<{_WIDTH}}  {report.bench_rate:>9,.0f}  ")
    out.write(f"{'1.000':>6}\n")
    for f in report.fuzz:
        verdict = "met" if f.met else "below"
        label = f"fuzz, reference vs {f.candidate}"
        out.write(f"{label:<{_WIDTH}}  {f.rounds_per_second:>9,.0f}  ")
        out.write(f"{f.ratio:>6.3f}  {f.target:>6.2f}  {verdict}\n")
    turns = "1 turn" if report.turns == 1 else f"{report.turns} turns each"
    out.write(
        f"\nBench and fuzz in process: CPU time, taking turns ({turns}); over the protocol:\n"
    )
    out.write("wall time of two processes, bounded by the larger CPU time per round case below\n")
    out.write("on two idle cores, by their sum on one. CPU time per round case:\n")
    for f in report.fuzz:
        engine = f.engine_cpu_per_round
        beside = "" if engine is None else f", fiveup engine {engine:,.0f} us"
        out.write(f"  {f.kind}: harness {f.harness_cpu_per_round:,.0f} us{beside}\n")
    found = sum(f.divergences for f in report.fuzz)
    if found:
        out.write(f"\n{found} divergences: the reference differs from itself (a bug)\n")


def run(args: argparse.Namespace, streams: Streams) -> int:
    """Measure and print the figures; 0 whatever the rates, 1 on a divergence (a bug)."""
    if args.rounds < 1 or args.cases < 1:
        raise UsageError("--rounds and --cases must be at least 1")
    report = measure(args.rounds, args.cases, args.seed, mix=args.mix)
    if args.format == "json":
        streams.stdout.write(to_json(report))
    else:
        write_text(report, streams.stdout)
    return 1 if any(f.divergences for f in report.fuzz) else 0
