"""How fast fuzzing is, beside ``fiveup bench``: the figures of ``fiveup bench-fuzz``.

One run measures three rates on the same machine, one after the other: ``fiveup bench``'s
2-player in-process rate (random rounds dealt and played to their end), a campaign of the
reference against itself in process, and one of the reference against ``fiveup engine`` over
the process protocol. A fuzz rate counts round cases per second of the campaign's whole time
(generation, both engines, every check); by default the campaigns play 2-player round cases
only, the unit ``fiveup bench`` counts, and with ``mix`` the default mix of every level and
player count, of which only the round cases are counted.
"""

from __future__ import annotations

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
    fuzz: tuple[FuzzFigures, ...]

    @property
    def bench_rate(self) -> float:
        """``fiveup bench``'s 2-player rounds per second, in process."""
        return self.bench_rounds / self.bench_seconds if self.bench_seconds else 0.0


def _campaign(candidate: Engine, seed: int, cases: int, mix: bool) -> tuple[Findings, float]:
    """The campaign's tally and the CPU seconds this process spent on it."""
    start = time.process_time()
    if mix:
        tally = run_campaign(ReferenceEngine(), candidate, seed, range(cases))
    else:
        tally = run_campaign(
            ReferenceEngine(), candidate, seed, range(cases), players=2, levels=(Level.ROUND,)
        )
    return tally, time.process_time() - start


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
    kind: str, name: str, played: tuple[Findings, float], bench_rate: float,
    engine_cpu: float | None = None,
) -> FuzzFigures:  # fmt: skip
    tally, cpu = played
    return FuzzFigures(
        kind, name, tally.cases, tally.rounds, len(tally.divergences), tally.seconds, bench_rate,
        cpu, engine_cpu,
    )  # fmt: skip


def measure(bench_rounds: int, cases: int, seed: int = 0, *, mix: bool = False) -> SpeedReport:
    """Time bench's 2-player rounds, then a campaign in process and one over the protocol.

    Each campaign plays ``cases`` cases; the engine process is started and has shaken hands
    before its campaign's clock starts.
    """
    bench = time_rounds(2, bench_rounds, seed)
    rate = bench.rounds_per_second
    in_process = _campaign(open_engine("reference", None, 10.0), seed, cases, mix)
    with ProcessEngine(list(ENGINE_COMMAND)) as engine:
        engine.info()
        before = _cpu_of(engine.pid)
        protocol = _campaign(engine, seed, cases, mix)
        after = _cpu_of(engine.pid)
    spent = after - before if after is not None and before is not None else None
    python = f"{platform.python_implementation()} {platform.python_version()}"
    figures = (
        _figures("in-process", "reference in process", in_process, rate),
        _figures("protocol", "fiveup engine over the protocol", protocol, rate, spent),
    )
    return SpeedReport(seed, python, mix, bench.rounds, bench.seconds, figures)
