"""``fiveup fuzz``: random cases on a baseline and a candidate, divergences written as fixtures.

The baseline is the reference engine unless ``--baseline``/``--baseline-cmd`` names another (a
team can compare its own previous release). ``--jobs`` spreads a campaign over local processes
and ``--shard I/K`` over machines: shard I of K plays the cases whose index is I modulo K, so K
shards of one seed play the whole campaign once; ``--merge`` sums their JSON reports into the
whole campaign's, and their fixture files (named by seed and index) merge by copying them into
one folder. Every numeric option is bounded and ``--out`` is checked before any case is played.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import tempfile
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any, Final, TextIO

from fiveup.contract.engine import DEFAULT_ENGINE, JSON, Engine, EngineInfo, Level
from fiveup.contract.messages import decode, values_over
from fiveup.contract.players import PLAYER_COUNTS
from fiveup.errors import EngineError, UsageError
from fiveup.fuzz.campaign import KEEP_PER_KIND, Findings, Shard, run_campaign
from fiveup.fuzz.cases import LEVEL_WEIGHTS
from fiveup.fuzz.report import campaign_report, merge_reports, write_text
from fiveup.harness.engines import close_engine, open_engine, start_now
from fiveup.harness.pipes import (
    become_subreaper,
    become_worker,
    continue_stopped,
    descendants,
    kill_descendants,
    pool_workers,
    start_resource_tracker,
    starting_workers,
    stop_pool,
)
from fiveup.harness.regressions import REPORT_MAX_BYTES, REPORT_MAX_VALUES
from fiveup.harness.sandbox import Sandbox
from fiveup.harness.sources import read_bounded
from fiveup.harness.text import json_text, printable

from .common import Streams, add_engine_options, check_engine_command, check_parent
from .options import PLAYERS, WholeNumber, a_file, file_or_folder, seconds, seed

NAME = "fuzz"
HELP = "play random cases on a baseline and an engine; write each divergence as a fixture"


MAX_ROUNDS: Final = 10_000_000
"""The most cases one campaign plays (hours of work at the reference's speed)."""
MAX_KEEP: Final = 100_000
"""The most fixtures written per kind of divergence."""
MAX_MERGED: Final = MAX_ROUNDS
"""The most reports one --merge reads (each is a file of at most 1 MiB)."""
MERGE_MAX_BYTES: Final = REPORT_MAX_BYTES
"""The most bytes the reports of one --merge hold together (64 MiB): all are kept until merged."""
MERGE_MAX_VALUES: Final = REPORT_MAX_VALUES
"""The most JSON values they hold together, as a report of certify (about 200 MB decoded)."""


def _cores() -> int:
    """The most local processes: one per core this process may use (two on a single core)."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not Linux
        cores = os.cpu_count() or 1
    return max(cores, 2)


def _shard(text: str) -> Shard:
    try:
        return Shard.parse(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def configure(parser: argparse.ArgumentParser) -> None:
    """The options of ``fuzz``."""
    add_engine_options(parser, "the engine under test", required=True)
    which = parser.add_mutually_exclusive_group()
    which.add_argument(
        "--baseline", metavar="NAME", help=f"baseline engine (default {DEFAULT_ENGINE})"
    )
    which.add_argument(
        "--baseline-cmd", metavar="COMMAND", help="baseline engine over the protocol"
    )
    parser.add_argument(
        "--rounds",
        type=WholeNumber(1, MAX_ROUNDS),
        default=2000,
        metavar="N",
        help="random cases to play (default 2000)",
    )
    parser.add_argument(
        "--players", type=PLAYERS, choices=PLAYER_COUNTS, help="only this many players"
    )
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
        "--seed",
        type=seed,
        default=0,
        metavar="S",
        help="campaign seed (default 0)",
    )
    parser.add_argument(
        "--out",
        type=file_or_folder,
        metavar="DIR",
        help="write each divergence here as a fixture file",
    )
    parser.add_argument(
        "--keep",
        type=WholeNumber(0, MAX_KEEP),
        default=KEEP_PER_KIND,
        metavar="K",
        help=f"fixtures written per kind of divergence, in each process (default {KEEP_PER_KIND}; "
        "0: every divergence); every divergence is counted",
    )
    parser.add_argument(
        "--jobs",
        type=WholeNumber(1, _cores(), " (one per core this process may use)"),
        default=1,
        metavar="J",
        help="local processes, at most one per core (default 1)",
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
        type=seconds,
        default=10.0,
        metavar="SECONDS",
        help="per case, for engines over the protocol (default 10)",
    )
    parser.add_argument(
        "--sandbox",
        action="store_true",
        help="run the --engine-cmd engine (and a --baseline-cmd one) under bubblewrap, as "
        "certify --sandbox does; --out is hidden from it (spec/protocol.md, Security)",
    )
    parser.add_argument(
        "--format", choices=("text", "json"), default="text", help="text (default) or json"
    )
    parser.add_argument(
        "--merge",
        nargs="+",
        type=a_file,
        metavar="REPORT",
        help="play nothing: sum the JSON reports (--format json) of the K shards of one "
        "campaign into the whole campaign's report",
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
    sandbox: Sandbox | None = None,
) -> Findings:
    """One process's part of a campaign (module-level, so a process pool can run it)."""
    with _opened(candidate, baseline, timeout, sandbox) as (engine, reference):
        return run_campaign(
            reference, engine, seed, indexes, players=players, levels=_levels(levels), out=out,
            keep=keep,
        )  # fmt: skip


@contextmanager
def _opened(
    candidate: EngineSpec, baseline: EngineSpec, timeout: float, sandbox: Sandbox | None = None
) -> Iterator[tuple[Engine, Engine]]:
    """The candidate and the baseline, both stopped at the end (the first if the second fails).

    With a ``sandbox``, every engine of the two that is a command runs in it.
    """
    with ExitStack() as stack:
        engine = open_engine(candidate[0], candidate[1], timeout, sandbox=sandbox)
        stack.callback(close_engine, engine)
        start_now(engine, "--engine-cmd")
        boxed = sandbox if baseline[1] else None
        reference = open_engine(
            baseline[0], baseline[1], timeout, sandbox=boxed, option="--baseline"
        )
        stack.callback(close_engine, reference)
        if baseline[1] is None:
            yield engine, reference
            return
        try:  # the baseline's failures say it is the baseline, not the engine under test
            start_now(reference, "--baseline-cmd")
        except EngineError as exc:
            raise EngineError(f"the baseline (--baseline-cmd) failed: {exc}") from None
        try:
            yield engine, _Baseline(reference)
        except _BaselineFailed as exc:
            raise EngineError(f"the baseline (--baseline-cmd) failed: {exc.__cause__}") from None


class _BaselineFailed(Exception):
    """The baseline engine raised the EngineError this is raised from."""


class _Baseline:
    """A baseline given as a command: its failures are told apart from the candidate's."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def info(self) -> EngineInfo:
        try:
            return self.engine.info()
        except EngineError as exc:
            raise _BaselineFailed from exc

    def run(self, level: str, given: dict[str, JSON]) -> JSON:
        try:
            return self.engine.run(level, given)
        except EngineError as exc:
            raise _BaselineFailed from exc


def _levels(names: list[str] | None) -> list[Level] | None:
    return None if names is None else [Level(name) for name in names]


def _progress(err: TextIO, total: int) -> Callable[[Findings], None]:
    def show(findings: Findings) -> None:
        rate = findings.cases_per_second
        left = (total - findings.cases) / rate if rate else 0.0
        err.write(
            f"\r{findings.cases}/{total} cases, {rate:,.0f}/s, {left:,.0f} s left, "
            f"{len(findings.divergences)} divergences "
        )
        err.flush()

    return show


def _campaign(args: argparse.Namespace, streams: Streams) -> Findings:
    candidate, baseline = _engines(args)
    indexes = list(args.shard.indexes(args.rounds))
    if args.jobs <= 1 or len(indexes) <= 1:
        tty = getattr(streams.stderr, "isatty", lambda: False)()
        show = _progress(streams.stderr, len(indexes)) if tty else None
        with _opened(candidate, baseline, args.timeout, _sandbox(args)) as (engine, reference):
            return run_campaign(
                reference, engine, args.seed, indexes, players=args.players,
                levels=_levels(args.levels), out=args.out, progress=show, keep=_keep(args),
            )  # fmt: skip
    jobs = min(args.jobs, len(indexes))
    parts = [indexes[j::jobs] for j in range(jobs)]
    context = multiprocessing.get_context("spawn")
    findings = Findings(args.seed)
    become_subreaper()  # an engine outliving the worker it killed comes here, to be killed
    start_resource_tracker()  # multiprocessing's own helper: spared below
    spared = descendants()
    with starting_workers():
        pool = ProcessPoolExecutor(
            max_workers=jobs, mp_context=context, initializer=become_worker,
            initargs=(os.getpid(),),
        )  # fmt: skip
    ended = False
    try:
        with starting_workers():  # the workers start with the first tasks
            futures = [
                pool.submit(_play, candidate, baseline, args.seed, part, args.players, args.out,
                            args.timeout, args.levels, _keep(args), _sandbox(args))
                for part in parts
            ]  # fmt: skip
        for future in futures:
            while not future.done():
                wait([future], timeout=_WATCH_SECONDS)
                workers = [worker.pid for worker in pool_workers(pool)]
                continue_stopped([pid for pid in workers if pid is not None])  # SIGSTOP
            findings.merge(future.result())
        ended = True
    except BrokenProcessPool:
        raise EngineError(
            "a worker of --jobs ended before its part of the campaign did (an engine under "
            "test may signal its parent, the worker): run with --jobs 1, or --sandbox"
        ) from None
    finally:
        if ended:
            pool.shutdown(wait=True)  # workers that ended closed their engines
        else:
            stop_pool(pool)  # first, through multiprocessing: the pool must see them end
        kill_descendants(spared)
    return findings


_WATCH_SECONDS: Final = 0.5
"""How often ``--jobs`` looks for a worker its engine stopped."""


def _sandbox(args: argparse.Namespace) -> Sandbox | None:
    """The sandbox of ``--sandbox``: it hides the folder the divergences are written to."""
    if not args.sandbox:
        return None
    return Sandbox(hide=(args.out,) if args.out is not None else ())


def _keep(args: argparse.Namespace) -> int | None:
    return None if args.keep == 0 else int(args.keep)


def _campaign_of(args: argparse.Namespace) -> dict[str, Any]:
    """What names the campaign in its report, so that shards of another one are refused."""
    return {
        "seed": args.seed,
        "rounds": args.rounds,
        "players": args.players,
        "levels": sorted(args.levels) if args.levels else None,
        "engine": args.engine_cmd or args.engine,
        "baseline": args.baseline_cmd or args.baseline or DEFAULT_ENGINE,
        "keep": _keep(args),
    }


def _check_out(out: Path | None) -> None:
    """Refuse, before any case is played, an ``--out`` that is not a folder that can be written.

    Its folder must exist (as every output's must); ``--out`` itself is made when a divergence
    is first written, so that a run refused later (an engine that does not start) leaves none.

    A symbolic link is refused even to a folder: under a shared folder such as /tmp, someone
    else may have planted it to have the fixtures written where they choose.
    """
    if out is None:
        return
    name = printable(str(out))
    if out.is_symlink():
        raise UsageError(f"--out {name}: is a symbolic link; name a folder")
    if out.exists() and not out.is_dir():
        kind = "a file" if out.is_file() else "not a folder (a device, a FIFO or a socket)"
        raise UsageError(f"--out {name}: is {kind}; name a folder for the fixture files")
    check_parent(out, "--out")
    try:  # the folder itself is made when the first fixture is written: not for a refusal
        where = out if out.is_dir() else (out.parent if str(out.parent) else Path("."))
        fd, probe = tempfile.mkstemp(dir=where, prefix=".fiveup-fuzz.", suffix=".tmp")
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        raise UsageError(f"--out {name}: cannot be written: {exc.strerror or exc}") from None


def _read_reports(paths: list[Path]) -> list[tuple[str, object]]:
    """Each report decoded with its name; together within MERGE_MAX_BYTES and MERGE_MAX_VALUES."""
    named: list[tuple[str, object]] = []
    size = values = 0
    for path in paths:
        name = printable(str(path))
        if size and _size(path) > MERGE_MAX_BYTES - size:
            raise UsageError(
                f"--merge {name}: not read: the reports up to this one hold more than "
                f"{MERGE_MAX_BYTES >> 20} MiB together"
            )
        raw = read_bounded(path, MERGE_MAX_BYTES - size)  # a shard may be large: the sum is bound
        if isinstance(raw, str):
            raise UsageError(f"--merge {name}: {raw}")
        size += len(raw)
        if values_over(raw, MERGE_MAX_VALUES - values):
            raise UsageError(
                f"--merge {name}: not read: the reports up to this one hold more than "
                f"{MERGE_MAX_VALUES:,} JSON values together"
            )
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise UsageError(
                f"--merge {name}: not UTF-8 text: {exc.reason} at byte {exc.start}"
            ) from None
        try:
            data = decode(text)
        except RecursionError:
            raise UsageError(f"--merge {name}: not read: the JSON nests too deeply") from None
        except ValueError as exc:
            raise UsageError(f"--merge {name}: not JSON: {printable(str(exc))}") from None
        values += _values(data)
        named.append((name, data))
    return named


def _size(path: Path) -> int:
    """The size of the file at ``path`` (0 when it cannot be seen: reading it says why)."""
    try:
        return os.stat(path).st_size
    except (OSError, ValueError):
        return 0


def _values(data: object) -> int:
    """The values and member names in decoded JSON ``data``, counted as values_over counts."""
    count, stack = 0, [data]
    while stack:
        item = stack.pop()
        count += 1
        if isinstance(item, dict):
            count += len(item)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return count


def _merge(args: argparse.Namespace, streams: Streams) -> int:
    given = [o for o, default in _CAMPAIGN_DEFAULTS.items() if getattr(args, o) != default]
    if given:
        options = ", ".join(f"--{o.replace('_', '-')}" for o in given)
        raise UsageError(f"--merge plays nothing: drop {options} (only --format goes with it)")
    if len(args.merge) > MAX_MERGED:
        raise UsageError(f"--merge: more than {MAX_MERGED:,} reports")
    named = _read_reports(args.merge)
    try:
        report = merge_reports(named)
    except ValueError as exc:
        raise UsageError(f"--merge {printable(str(exc))}") from None
    _write(report, args.format, streams)
    return 1 if report["divergences"] else 0


_CAMPAIGN_DEFAULTS: Final[dict[str, object]] = {
    "engine": None,
    "engine_cmd": None,
    "baseline": None,
    "baseline_cmd": None,
    "rounds": 2000,
    "players": None,
    "levels": None,
    "seed": 0,
    "out": None,
    "keep": KEEP_PER_KIND,
    "jobs": 1,
    "shard": Shard(),
    "timeout": 10.0,
}


def _write(report: dict[str, Any], form: str, streams: Streams) -> None:
    if form == "json":
        streams.stdout.write(json_text(report) + "\n")
    else:
        write_text(report, streams.stdout)


def run(args: argparse.Namespace, streams: Streams) -> int:
    """Fuzz; 1 when the candidate diverges from the baseline, else 0."""
    if args.merge is not None:
        return _merge(args, streams)
    check_engine_command(args)
    if args.baseline_cmd is not None and not args.baseline_cmd.strip():
        raise UsageError("--baseline-cmd is empty: give the command that starts the baseline")
    if args.engine is None and args.engine_cmd is None:
        raise UsageError("name the engine under test: --engine NAME or --engine-cmd COMMAND")
    _check_out(args.out)
    findings = _campaign(args, streams)
    if getattr(streams.stderr, "isatty", lambda: False)():
        streams.stderr.write("\n")
    _write(campaign_report(findings, _campaign_of(args), args.shard), args.format, streams)
    return 1 if findings.divergences else 0
