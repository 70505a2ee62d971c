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

import platform
import sys
from dataclasses import dataclass
from typing import Final

from fiveup.contract.engine import Engine, Level
from fiveup.harness.engines import open_engine
from fiveup.harness.process import ProcessEngine
from fiveup.reference.bench import time_rounds
from fiveup.reference.engine import ReferenceEngine

from .campaign import Tally, run_campaign

__all__ = ["TARGETS", "FuzzFigures", "SpeedReport", "measure"]

TARGETS: Final = {"in-process": 0.5, "protocol": 0.15}
"""The least fuzz rate of each kind, as a share of bench's 2-player rate (issue 10, "Speed")."""
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


def _campaign(candidate: Engine, seed: int, cases: int, mix: bool) -> Tally:
    if mix:
        return run_campaign(ReferenceEngine(), candidate, seed, range(cases))
    return run_campaign(
        ReferenceEngine(), candidate, seed, range(cases), players=2, levels=(Level.ROUND,)
    )


def _figures(kind: str, name: str, tally: Tally, bench_rate: float) -> FuzzFigures:
    return FuzzFigures(
        kind, name, tally.cases, tally.rounds, len(tally.divergences), tally.seconds, bench_rate
    )


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
        protocol = _campaign(engine, seed, cases, mix)
    python = f"{platform.python_implementation()} {platform.python_version()}"
    figures = (
        _figures("in-process", "reference in process", in_process, rate),
        _figures("protocol", "fiveup engine over the protocol", protocol, rate),
    )
    return SpeedReport(seed, python, mix, bench.rounds, bench.seconds, figures)
