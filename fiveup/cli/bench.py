"""``fiveup bench``: the reference engine's speed, and any engine's beside it.

Without an engine option it plays random rounds and matches with the reference engine itself.
With ``--engine`` or ``--engine-cmd`` it also sends the same random complete rounds, as round
requests, to that engine and to the reference, and prints both rates and their ratio.
"""

from __future__ import annotations

import argparse
import json
from typing import TextIO

from fiveup.contract.engine import DEFAULT_ENGINE
from fiveup.contract.players import PLAYER_COUNTS
from fiveup.errors import UsageError
from fiveup.harness.bench import RequestFigures, time_requests
from fiveup.harness.engines import close_engine, handshake, load_engine, open_engine
from fiveup.reference.bench import (
    DEFAULT_MATCHES,
    DEFAULT_ROUNDS,
    format_text,
    random_round_requests,
    run_bench,
    to_json,
)

from .common import Streams, add_engine_options, check_engine_command, positive_count

NAME = "bench"
HELP = "measure the reference engine, and an engine under test beside it"
DEFAULT_REQUESTS = 200
"""Round requests per player count sent to an engine under test."""


def configure(parser: argparse.ArgumentParser) -> None:
    """The options of ``bench``."""
    parser.add_argument(
        "--rounds",
        type=positive_count,
        default=DEFAULT_ROUNDS,
        metavar="N",
        help=f"random rounds per player count (default {DEFAULT_ROUNDS})",
    )
    parser.add_argument(
        "--matches",
        type=positive_count,
        default=DEFAULT_MATCHES,
        metavar="N",
        help=f"random matches per player count (default {DEFAULT_MATCHES})",
    )
    parser.add_argument("--seed", type=int, default=0, metavar="S", help="seed (default 0)")
    parser.add_argument(
        "--format", choices=("text", "json"), default="text", help="text (default) or json"
    )
    add_engine_options(parser, "also measure this engine")
    parser.add_argument(
        "--requests",
        type=positive_count,
        default=DEFAULT_REQUESTS,
        metavar="N",
        help=f"round requests per player count for the engine (default {DEFAULT_REQUESTS})",
    )
    parser.add_argument(
        "--timeout", type=float, default=10.0, metavar="SECONDS", help="per request (default 10)"
    )


def _engine_figures(args: argparse.Namespace) -> list[tuple[int, RequestFigures, RequestFigures]]:
    check_engine_command(args)
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
            base = time_requests(reference, DEFAULT_ENGINE, "round", requests)
            rows.append((players, base, time_requests(candidate, name, "round", requests)))
    finally:
        close_engine(candidate)
    return rows


def _engine_text(rows: list[tuple[int, RequestFigures, RequestFigures]], out: TextIO) -> None:
    name = rows[0][2].engine if rows else "engine"
    out.write(f"\nround requests, {DEFAULT_ENGINE} in-process beside {name}\n\n")
    out.write(f"{'players':>7}  {'requests':>8}  {'reference/s':>11}  {'engine/s':>9}  ")
    out.write(f"{'ratio':>6}  {'errors':>6}\n")
    for players, base, figures in rows:
        ratio = figures.per_second / base.per_second if base.per_second else 0.0
        out.write(
            f"{players:>7}  {figures.requests:>8}  {base.per_second:>11,.0f}  "
            f"{figures.per_second:>9,.0f}  {ratio:>6.2f}  {figures.errors:>6}\n"
        )


def run(args: argparse.Namespace, streams: Streams) -> int:
    """Measure and print the figures; 0 always (timings are not a verdict)."""
    report = run_bench(args.rounds, args.matches, args.seed)
    measured = args.engine is not None or args.engine_cmd is not None
    rows = _engine_figures(args) if measured else []
    if args.format == "json":
        data = json.loads(to_json(report))
        if measured:
            data["engine"] = [
                {"players": p, "reference": vars_of(b), "engine": vars_of(f)} for p, b, f in rows
            ]
        streams.stdout.write(json.dumps(data, indent=2) + "\n")
        return 0
    streams.stdout.write(format_text(report))
    if measured:
        _engine_text(rows, streams.stdout)
    return 0


def vars_of(figures: RequestFigures) -> dict[str, object]:
    """The figures as a JSON object, with the rate."""
    return {
        "engine": figures.engine,
        "requests": figures.requests,
        "errors": figures.errors,
        "seconds": figures.seconds,
        "per_second": figures.per_second,
    }
