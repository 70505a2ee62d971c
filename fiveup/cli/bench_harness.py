"""``fiveup bench-harness``: the whole corpus in-process and over the protocol, side by side.

The reference engine is timed in-process and through ``fiveup engine`` over the process
protocol; with ``--engine`` or ``--engine-cmd`` the engine under test is timed on the same
corpus beside them. The best of ``--repeat`` runs is kept.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence

from fiveup.contract.engine import DEFAULT_ENGINE, Engine
from fiveup.errors import UsageError
from fiveup.harness.certify import certify
from fiveup.harness.corpus import Case, Corpus, load_corpus
from fiveup.harness.engines import close_engine, load_engine, open_engine, start_now
from fiveup.harness.process import ProcessEngine

from .common import Streams, add_engine_options, check_engine_command
from .options import count, seconds

NAME = "bench-harness"
HELP = "time the corpus in-process and through the process protocol"
MAX_REPEAT = 100
"""The most runs of each kind: the best of a hundred is as good as the best of more."""


def configure(parser: argparse.ArgumentParser) -> None:
    """The options of ``bench-harness``."""
    parser.add_argument(
        "--repeat",
        type=count(MAX_REPEAT, low=1),
        default=3,
        metavar="N",
        help=f"runs of each kind, the best kept (default 3, at most {MAX_REPEAT})",
    )
    add_engine_options(parser, "also time this engine")
    parser.add_argument(
        "--timeout", type=seconds, default=10.0, metavar="SECONDS", help="per case (default 10)"
    )


def _best(
    engine: Engine, corpus: Corpus, cases: Sequence[Case], repeat: int, must_pass: bool
) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        result = certify(engine, corpus, cases)
        times.append(time.perf_counter() - start)
        if must_pass and not result.ok:
            raise UsageError("the reference engine does not pass the corpus")
    return min(times)


def _candidate(engine: Engine, args: argparse.Namespace, corpus: Corpus) -> tuple[float, int]:
    """The best time of the engine under test on the cases of its levels, and their number."""
    try:
        levels = engine.info()["levels"]  # start-up is not part of the per-case cost
        cases = [case for case in corpus.cases if case.level.value in levels]
        return _best(engine, corpus, cases, args.repeat, must_pass=False), len(cases)
    finally:
        close_engine(engine)


def run(args: argparse.Namespace, streams: Streams) -> int:
    """Time the corpus and print the figures; 0 always."""
    if args.repeat < 1:
        raise UsageError("--repeat must be at least 1")
    candidate = None
    if args.engine is not None or args.engine_cmd is not None:  # a wrong name fails at once
        check_engine_command(args)
        candidate = open_engine(args.engine, args.engine_cmd, args.timeout)
        start_now(candidate)  # a command that cannot run: said before the reference's figures
    corpus = load_corpus()
    cases = list(corpus.cases)
    in_process = _best(load_engine(DEFAULT_ENGINE), corpus, cases, args.repeat, True)
    with ProcessEngine([sys.executable, "-m", "fiveup", "engine"]) as proc:
        proc.info()
        through_process = _best(proc, corpus, cases, args.repeat, True)
    out = streams.stdout
    ratio = through_process / in_process if in_process else float("inf")
    out.write(f"{len(cases)} cases, best of {args.repeat}\n")
    out.write(f"{'in-process':<18} {in_process * 1000:9.1f} ms\n")
    out.write(f"{'process protocol':<18} {through_process * 1000:9.1f} ms\n")
    out.write(f"{'ratio':<18} {ratio:9.2f} x\n")
    if candidate is not None:
        seconds, played = _candidate(candidate, args, corpus)
        versus = seconds / in_process if in_process else float("inf")
        note = f"  ({played} cases of its levels)" if played != len(cases) else ""
        out.write(f"{'engine under test':<18} {seconds * 1000:9.1f} ms{note}\n")
        out.write(f"{'ratio to in-process':<18} {versus:9.2f} x\n")
    return 0
