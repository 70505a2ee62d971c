"""Measuring a corpus: certify it against every mutant, in-process, and list who kills whom.

A case *kills* a mutant when it fails or errs against it. The reference engine is certified
first: a case that it does not pass itself (a broken third-party case, say) would kill every
mutant and tell nothing, so it is set aside and reported instead of counted.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from fiveup.harness.certify import Verdict, certify
from fiveup.harness.corpus import Case, Corpus
from fiveup.reference import ReferenceEngine

from .catalogue import CATALOGUE, Mutant

__all__ = ["Measurement", "Report", "measure"]

_KILLING = frozenset({Verdict.FAILED, Verdict.ERRORED})


@dataclass(frozen=True, slots=True)
class Measurement:
    """One mutant and the IDs of the cases that kill it.

    ``killed_by`` lists first the cases whose primary rule is the mutant's rule, then those that
    check the rule among others, then the rest (caught by accident), each group in corpus order.
    """

    mutant: Mutant
    killed_by: tuple[str, ...]

    @property
    def survived(self) -> bool:
        """True when no case kills the mutant."""
        return not self.killed_by

    @property
    def status(self) -> str:
        """``killed``, ``SURVIVED``, ``equivalent``, or ``NOT EQUIVALENT`` (listed, yet killed)."""
        if self.mutant.required:
            return "SURVIVED" if self.survived else "killed"
        return "equivalent" if self.survived else "NOT EQUIVALENT"


@dataclass(frozen=True, slots=True)
class Report:
    """The measurements of one corpus against mutants.

    ``cases`` is the number of cases measured; ``broken`` the IDs of the selected cases the
    reference itself does not pass (not counted as kills); ``seconds`` the time it all took.
    """

    measurements: tuple[Measurement, ...]
    cases: int
    broken: tuple[str, ...]
    seconds: float

    @property
    def required(self) -> list[Measurement]:
        """The measurements of the mutants that must be killed (not equivalent)."""
        return [m for m in self.measurements if m.mutant.required]

    @property
    def killed(self) -> list[Measurement]:
        """The required mutants that some case kills."""
        return [m for m in self.required if not m.survived]

    @property
    def survivors(self) -> list[Measurement]:
        """The required mutants that no case kills."""
        return [m for m in self.required if m.survived]

    @property
    def equivalents(self) -> list[Measurement]:
        """The mutants listed as equivalent: no case is expected to kill them."""
        return [m for m in self.measurements if not m.mutant.required]

    @property
    def misjudged(self) -> list[Measurement]:
        """Equivalent mutants that a case killed after all: their equivalence claim is wrong."""
        return [m for m in self.equivalents if not m.survived]

    @property
    def exit_code(self) -> int:
        """0 when every required mutant is killed, else 1."""
        return 1 if self.survivors else 0


def _killers(mutant: Mutant, corpus: Corpus, cases: Sequence[Case]) -> tuple[str, ...]:
    """The IDs of the cases that fail or err against ``mutant``, those of its rule first."""
    engine = mutant.engine()
    run = certify(engine, corpus, cases)
    if run.engine is None:  # pragma: no cover - an in-process reference always shakes hands
        raise RuntimeError(f"{engine.name} did not start: {run.handshake_error}")
    killing = [o.result.case for o in run.outcomes if o.verdict in _KILLING]
    ranked = sorted(
        killing,
        key=lambda case: (
            0 if case.primary_rule == mutant.rule else 1 + (mutant.rule not in case.rules)
        ),
    )
    return tuple(case.id for case in ranked)


def measure(
    corpus: Corpus,
    cases: Sequence[Case],
    mutants: Sequence[Mutant] = CATALOGUE,
    on_measured: Callable[[Measurement], None] | None = None,
) -> Report:
    """Certify ``cases`` against the reference, then against each of ``mutants``, in order.

    ``on_measured`` is called with each measurement as soon as it is made.
    """
    start = time.perf_counter()
    run = certify(ReferenceEngine(), corpus, cases)
    passed_by_reference = {o.result.case.id for o in run.outcomes if o.verdict is Verdict.PASSED}
    broken = tuple(c.id for c in cases if c.id not in passed_by_reference)
    counted = [c for c in cases if c.id in passed_by_reference]
    measurements = []
    for mutant in mutants:
        measurement = Measurement(mutant, _killers(mutant, corpus, counted))
        measurements.append(measurement)
        if on_measured is not None:
            on_measured(measurement)
    return Report(tuple(measurements), len(counted), broken, time.perf_counter() - start)
