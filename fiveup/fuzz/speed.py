"""How fast fuzzing is, beside ``fiveup bench``: the figures of ``fiveup bench-fuzz``.

One run measures three rates on the same machine: ``fiveup bench``'s 2-player in-process rate
(random rounds dealt and played to their end), a campaign of the reference against itself in
process, and one of the reference against ``fiveup engine`` over the process protocol. A fuzz
rate counts round cases per second of the campaign's whole time (generation, both engines,
every check); by default the campaigns play 2-player round cases only, the unit ``fiveup
bench`` counts, and with ``mix`` the default mix of every level and player count, of which only
the round cases are counted.

Bench and the in-process campaign are timed on this process's CPU time and take turns of a few
hundredths of a second (as ``fiveup bench``'s yardstick does), so a busy machine slows both
alike and their ratio holds still. The campaign over the protocol runs on two processes: its
rate is on wall time, with each process's CPU time beside it.
"""

from __future__ import annotations

import math
import os
import platform
import sys
import time
from dataclasses import dataclass
from typing import Final

from fiveup.contract.engine import Engine, Level
from fiveup.harness.engines import open_engine
from fiveup.harness.process import ProcessEngine
from fiveup.reference.bench import time_rounds
from fiveup.reference.engine import ReferenceEngine

from .campaign import Findings, run_campaign

__all__ = ["TARGETS", "FuzzFigures", "SpeedReport", "measure"]

BENCH_TURN: Final = 500
"""Bench rounds per turn of the interleaved run (about as long as a turn of fuzz cases)."""
FUZZ_TURN: Final = 150
"""In-process fuzz cases per turn of the interleaved run."""
TARGETS: Final = {"in-process": 0.3, "protocol": 0.15}
"""The least fuzz rate of each kind, as a share of bench's 2-player rate (issue 15 item 5
withdrew issue 10's 0.5 in process)."""
ENGINE_COMMAND: Final = (sys.executable, "-m", "fiveup", "engine")
"""The candidate over the protocol: the reference served by ``fiveup engine``."""


@dataclass(frozen=True, slots=True)
class FuzzFigures:
    """One campaign: what it played, how long it took, and its rate beside bench's."""

    kind: str
    """``in-process`` or ``protocol``."""
    candidate: str
    cases: int
    rounds: int
    divergences: int
    seconds: float
    """The time its rate is measured on: CPU in process, wall over the protocol."""
    bench_rate: float
    harness_cpu: float = 0.0
    """CPU seconds the harness process spent on the campaign."""
    engine_cpu: float | None = None
    """CPU seconds the engine process spent on it (None: in process, or not measurable)."""

    @property
    def harness_cpu_per_round(self) -> float:
        """The harness's CPU time per round case, in microseconds."""
        return self.harness_cpu / self.rounds * 1e6 if self.rounds else 0.0

    @property
    def engine_cpu_per_round(self) -> float | None:
        """The engine process's CPU time per round case, in microseconds (None: none)."""
        if self.engine_cpu is None or not self.rounds:
            return None
        return self.engine_cpu / self.rounds * 1e6

    @property
    def rounds_per_second(self) -> float:
        """Round cases judged per second of the whole campaign."""
        return self.rounds / self.seconds if self.seconds else 0.0

    @property
    def ratio(self) -> float:
        """The rate as a share of bench's 2-player in-process rate."""
        return self.rounds_per_second / self.bench_rate if self.bench_rate else 0.0

    @property
    def target(self) -> float:
        """The least ratio the issue asks for."""
        return TARGETS[self.kind]

    @property
    def met(self) -> bool:
        """True when the ratio reaches the target."""
        return self.ratio >= self.target


@dataclass(frozen=True, slots=True)
class SpeedReport:
    """The three figures of one ``bench-fuzz`` run."""

    seed: int
    python: str
    mix: bool
    bench_rounds: int
    bench_seconds: float
    """CPU seconds of bench's rounds."""
    fuzz: tuple[FuzzFigures, ...]
    turns: int = 1
    """Turns bench and the in-process campaign took, one after the other."""

    @property
    def bench_rate(self) -> float:
        """``fiveup bench``'s 2-player rounds per second, in process."""
        return self.bench_rounds / self.bench_seconds if self.bench_seconds else 0.0


def _campaign(
    candidate: Engine, seed: int, cases: range, mix: bool
) -> tuple[Findings, float]:  # fmt: skip
    """The campaign's tally and the CPU seconds this process spent on it."""
    start = time.process_time()
    if mix:
        tally = run_campaign(ReferenceEngine(), candidate, seed, cases)
    else:
        tally = run_campaign(
            ReferenceEngine(), candidate, seed, cases, players=2, levels=(Level.ROUND,)
        )
    return tally, time.process_time() - start


def _share(count: int, turns: int, turn: int) -> range:
    """The part of ``range(count)`` that turn ``turn`` of ``turns`` plays."""
    return range(count * turn // turns, count * (turn + 1) // turns)


def _interleaved(
    bench_rounds: int, cases: int, seed: int, mix: bool
) -> tuple[float, tuple[Findings, float], int]:  # fmt: skip
    """Bench's CPU seconds and the in-process campaign's, taking turns; and the turns.

    Turn ``t`` of bench plays ``time_rounds(2, n, seed + t)``; the campaign's turns play its
    cases in order, so together they are the cases of one campaign.
    """
    turns = max(1, math.ceil(bench_rounds / BENCH_TURN), math.ceil(cases / FUZZ_TURN))
    candidate = open_engine("reference", None, 10.0)
    tally, bench_cpu, fuzz_cpu = Findings(seed), 0.0, 0.0
    for turn in range(turns):
        rounds = len(_share(bench_rounds, turns, turn))
        if rounds:
            start = time.process_time()
            time_rounds(2, rounds, seed + turn)
            bench_cpu += time.process_time() - start
        part = _share(cases, turns, turn)
        if part:
            played, cpu = _campaign(candidate, seed, part, mix)
            tally.merge(played)
            fuzz_cpu += cpu
    return bench_cpu, (tally, fuzz_cpu), turns


def _cpu_of(pid: int | None) -> float | None:
    """The CPU seconds (user and system) a process has used so far, from /proc (Linux)."""
    if pid is None:
        return None
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            fields = fh.read().rsplit(b")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return None


def _figures(
    kind: str, name: str, played: tuple[Findings, float], seconds: float, bench_rate: float,
    engine_cpu: float | None = None,
) -> FuzzFigures:  # fmt: skip
    tally, cpu = played
    return FuzzFigures(
        kind, name, tally.cases, tally.rounds, len(tally.divergences), seconds, bench_rate,
        cpu, engine_cpu,
    )  # fmt: skip


def measure(bench_rounds: int, cases: int, seed: int = 0, *, mix: bool = False) -> SpeedReport:
    """Time bench's 2-player rounds and a campaign in process, in turns, then one over the protocol.

    Each campaign plays ``cases`` cases; the engine process is started and has shaken hands
    before its campaign's clock starts.
    """
    bench_seconds, in_process, turns = _interleaved(bench_rounds, cases, seed, mix)
    rate = bench_rounds / bench_seconds if bench_seconds else 0.0
    with ProcessEngine(list(ENGINE_COMMAND)) as engine:
        engine.info()
        before = _cpu_of(engine.pid)
        protocol = _campaign(engine, seed, range(cases), mix)
        after = _cpu_of(engine.pid)
    spent = after - before if after is not None and before is not None else None
    python = f"{platform.python_implementation()} {platform.python_version()}"
    figures = (
        _figures("in-process", "reference in process", in_process, in_process[1], rate),
        _figures(
            "protocol", "fiveup engine over the protocol", protocol, protocol[0].seconds, rate,
            spent,
        ),
    )  # fmt: skip
    return SpeedReport(seed, python, mix, bench_rounds, bench_seconds, figures, turns)
