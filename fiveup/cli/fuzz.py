"""``fiveup fuzz``: random cases on a baseline and a candidate, divergences written as fixtures.

The baseline is the reference engine unless ``--baseline``/``--baseline-cmd`` names another (a
team can compare its own previous release). ``--jobs`` spreads a campaign over local processes
and ``--shard I/K`` over machines: shard I of K plays the cases whose index is I modulo K, so K
shards of one seed play the whole campaign once, and their fixture files (named by seed and
index) merge by copying them into one folder.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import TextIO

from fiveup.contract.engine import DEFAULT_ENGINE, Engine, Level
from fiveup.contract.players import PLAYER_COUNTS
from fiveup.errors import UsageError
from fiveup.fuzz.campaign import KEEP_PER_KIND, Divergence, Shard, Tally, run_campaign
from fiveup.fuzz.cases import LEVEL_WEIGHTS
from fiveup.harness.engines import close_engine, open_engine

from .common import Streams, add_engine_options, check_engine_command, positive_count

NAME = "fuzz"
HELP = "play random cases on a baseline and an engine; write each divergence as a fixture"


def _shard(text: str) -> Shard:
    try:
        return Shard.parse(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def configure(parser: argparse.ArgumentParser) -> None:
    """The options of ``fuzz``."""
    add_engine_options(parser, "the engine under test")
    which = parser.add_mutually_exclusive_group()
    which.add_argument(
        "--baseline", metavar="NAME", help=f"baseline engine (default {DEFAULT_ENGINE})"
    )
    which.add_argument(
        "--baseline-cmd", metavar="COMMAND", help="baseline engine over the protocol"
    )
    parser.add_argument(
        "--rounds",
        type=positive_count,
        default=2000,
        metavar="N",
        help="random cases to play (default 2000)",
    )
    parser.add_argument("--players", type=int, choices=PLAYER_COUNTS, help="only this many players")
    parser.add_argument(
        "--level",
        dest="levels",
        action="append",
        choices=[level.value for level in LEVEL_WEIGHTS],
        metavar="LEVEL",
        help="only cases of this level (repeatable; default: every level the engine declares; "
        "--level round --players 2 plays the unit fiveup bench counts)",
    )
    parser.add_argument(
        "--seed", type=int, default=0, metavar="S", help="campaign seed (default 0)"
    )
    parser.add_argument(
        "--out", type=Path, metavar="DIR", help="write each divergence here as a fixture file"
    )
    parser.add_argument(
        "--keep",
        type=int,
        default=KEEP_PER_KIND,
        metavar="K",
        help=f"fixtures written per kind of divergence, in each process (default {KEEP_PER_KIND}; "
        "0: every divergence); every divergence is counted",
    )
    parser.add_argument(
        "--jobs", type=int, default=1, metavar="J", help="local processes (default 1)"
    )
    parser.add_argument(
        "--shard",
        type=_shard,
        default=Shard(),
        metavar="I/K",
        help="play only shard I of K (default 0/1: all)",
    )
    parser.add_argument(
        "--timeout",
        type=float,
        default=10.0,
        metavar="SECONDS",
        help="per case, for engines over the protocol (default 10)",
    )
    parser.add_argument(
        "--format", choices=("text", "json"), default="text", help="text (default) or json"
    )


EngineSpec = tuple[str | None, str | None]
"""``(name, command)`` of an engine, one of them None: what a worker process opens."""


def _engines(args: argparse.Namespace) -> tuple[EngineSpec, EngineSpec]:
    return (args.engine, args.engine_cmd), (args.baseline, args.baseline_cmd)


def _play(
    candidate: EngineSpec,
    baseline: EngineSpec,
    seed: int,
    indexes: list[int],
    players: int | None,
    out: Path | None,
    timeout: float,
    levels: list[str] | None = None,
    keep: int | None = KEEP_PER_KIND,
) -> Tally:
    """One process's part of a campaign (module-level, so a process pool can run it)."""
    with _opened(candidate, baseline, timeout) as (engine, reference):
        return run_campaign(
            reference, engine, seed, indexes, players=players, levels=_levels(levels), out=out,
            keep=keep,
        )  # fmt: skip


@contextmanager
def _opened(
    candidate: EngineSpec, baseline: EngineSpec, timeout: float
) -> Iterator[tuple[Engine, Engine]]:
    """The candidate and the baseline, both stopped at the end (the first if the second fails)."""
    with ExitStack() as stack:
        engine = open_engine(candidate[0], candidate[1], timeout)
        stack.callback(close_engine, engine)
        reference = open_engine(baseline[0], baseline[1], timeout)
        stack.callback(close_engine, reference)
        yield engine, reference


def _levels(names: list[str] | None) -> list[Level] | None:
    return None if names is None else [Level(name) for name in names]


def _progress(err: TextIO, total: int) -> Callable[[Tally], None]:
    def show(tally: Tally) -> None:
        rate = tally.cases_per_second
        left = (total - tally.cases) / rate if rate else 0.0
        err.write(
            f"\r{tally.cases}/{total} cases, {rate:,.0f}/s, {left:,.0f} s left, "
            f"{len(tally.divergences)} divergences "
        )
        err.flush()

    return show


def _campaign(args: argparse.Namespace, streams: Streams) -> Tally:
    candidate, baseline = _engines(args)
    indexes = list(args.shard.indexes(args.rounds))
    if args.jobs <= 1:
        tty = getattr(streams.stderr, "isatty", lambda: False)()
        show = _progress(streams.stderr, len(indexes)) if tty else None
        with _opened(candidate, baseline, args.timeout) as (engine, reference):
            return run_campaign(
                reference, engine, args.seed, indexes, players=args.players,
                levels=_levels(args.levels), out=args.out, progress=show, keep=_keep(args),
            )  # fmt: skip
    parts = [indexes[j :: args.jobs] for j in range(args.jobs)]
    context = multiprocessing.get_context("spawn")
    tally = Tally(args.seed)
    with ProcessPoolExecutor(max_workers=args.jobs, mp_context=context) as pool:
        futures = [
            pool.submit(_play, candidate, baseline, args.seed, part, args.players, args.out,
                        args.timeout, args.levels, _keep(args))
            for part in parts
        ]  # fmt: skip
        for future in futures:
            tally.merge(future.result())
    return tally


def _keep(args: argparse.Namespace) -> int | None:
    return None if args.keep == 0 else int(args.keep)


def _kinds(tally: Tally) -> dict[str, list[Divergence]]:
    kinds: dict[str, list[Divergence]] = {}
    for d in tally.divergences:
        kinds.setdefault(d.kind, []).append(d)
    return kinds


def _json(tally: Tally, args: argparse.Namespace) -> str:
    return (
        json.dumps(
            {
                "seed": tally.seed,
                "shard": f"{args.shard.number}/{args.shard.count}",
                "cases": tally.cases,
                "by_level": tally.by_level,
                "seconds": tally.seconds,
                "cases_per_second": tally.cases_per_second,
                "rounds_per_second": tally.rounds / tally.seconds if tally.seconds else 0.0,
                "interrupted": tally.interrupted,
                "divergences": [
                    {
                        "case": d.case.id,
                        "level": d.case.level.value,
                        "rule": d.result.rule,
                        "status": d.result.status.value,
                        "first_difference": d.result.differences[0].text
                        if d.result.differences
                        else d.result.message,
                        "kind": d.kind,
                        "file": d.file or None,
                    }
                    for d in tally.divergences
                ],
                "kinds": [
                    {"kind": kind, "count": len(found), "files": [d.file for d in found if d.file]}
                    for kind, found in _kinds(tally).items()
                ],
            },
            indent=2,
        )
        + "\n"
    )


def _text(tally: Tally, out: TextIO, keep: int | None) -> None:
    kinds = _kinds(tally)
    for found in kinds.values():
        for d in found if keep is None else found[:keep]:
            first = d.result.differences[0].text if d.result.differences else d.result.message
            where = f"  -> {d.file}" if d.file else ""
            out.write(f"DIVERGES: {d.case.id} ({d.result.rule}): {first}{where}\n")
    for kind, found in kinds.items():
        out.write(f"{len(found):6} of kind {kind}\n")
    rate = tally.cases_per_second
    stopped = " (interrupted: what was found so far)" if tally.interrupted else ""
    out.write(
        f"seed {tally.seed}: {tally.cases} cases in {tally.seconds:.1f} s ({rate:,.0f}/s), "
        f"{len(tally.divergences)} divergences of {len(kinds)} kinds{stopped}\n"
    )


def run(args: argparse.Namespace, streams: Streams) -> int:
    """Fuzz; 1 when the candidate diverges from the baseline, else 0."""
    check_engine_command(args)
    if args.engine is None and args.engine_cmd is None:
        raise UsageError("name the engine under test: --engine NAME or --engine-cmd COMMAND")
    if args.jobs < 1:
        raise UsageError("--jobs must be at least 1")
    if args.keep < 0:
        raise UsageError("--keep must be 0 (every divergence) or more")
    tally = _campaign(args, streams)
    if getattr(streams.stderr, "isatty", lambda: False)():
        streams.stderr.write("\n")
    if args.format == "json":
        streams.stdout.write(_json(tally, args))
    else:
        _text(tally, streams.stdout, _keep(args))
    return 1 if tally.divergences else 0
