"""Measuring a corpus: certify it against every mutant, in-process, and list who kills whom.

A case *kills* a mutant when it fails or errs against it. The reference engine is certified
first: a case that it does not pass itself (a broken third-party case, say) would kill every
mutant and tell nothing, so it is set aside and reported instead of counted.
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, wait
from dataclasses import dataclass
from multiprocessing.context import BaseContext

from fiveup.errors import UsageError
from fiveup.harness.certify import Verdict, certify
from fiveup.harness.corpus import Case, Corpus
from fiveup.harness.pipes import (
    become_worker,
    pool_manager,
    start_resource_tracker,
    starting_workers,
    stop_pool,
)
from fiveup.reference import ReferenceEngine

from .catalogue import CATALOGUE, Mutant, mutant_named

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


_WORK: tuple[Corpus, list[Case]] | None = None
"""A worker process's corpus and counted cases, sent once when it starts (``--jobs``)."""


def _set_work(parent: int, work: str) -> None:
    """A worker's start: it dies with the process that runs the pool, then reads its work.

    The corpus and the cases come in a file, not as the pool's arguments: those are written to
    each worker as it starts, and one that dies before it has read them all (a SIGTERM to the
    whole group) left the pool writing to it for ever.
    """
    global _WORK
    become_worker(parent)
    with open(work, "rb") as fh:
        _WORK = pickle.load(fh)


def _killers_named(name: str) -> tuple[str, ...]:
    """``_killers`` in a worker process, of the catalogue's mutant of that name.

    A name, not the mutant: a mutant's rules may hold local functions, which pickle cannot send.
    """
    assert _WORK is not None
    return _killers(mutant_named(name), *_WORK)


def _all_killers(
    mutants: Sequence[Mutant], corpus: Corpus, counted: list[Case], jobs: int
) -> Iterator[tuple[str, ...]]:
    """The killers of each of ``mutants``, in order, measured in ``jobs`` processes."""
    if jobs == 1:
        yield from (_killers(mutant, corpus, counted) for mutant in mutants)
        return
    catalogue = {mutant.name: mutant for mutant in CATALOGUE}
    for mutant in mutants:
        if catalogue.get(mutant.name) is not mutant:
            raise ValueError(f"{mutant.name}: only the catalogue's mutants run in several jobs")
    context = multiprocessing.get_context("spawn")  # no fork of a caller's threads
    start_resource_tracker()
    with tempfile.NamedTemporaryFile(
        prefix="fiveup-mutants-", suffix=".pickle", delete=False
    ) as fh:
        pickle.dump((corpus, counted), fh)  # a private file (0600), removed below
    try:
        yield from _pooled(mutants, jobs, context, fh.name)
    finally:
        os.unlink(fh.name)


def _pooled(
    mutants: Sequence[Mutant], jobs: int, context: BaseContext, work: str
) -> Iterator[tuple[str, ...]]:
    """:func:`_all_killers` in a pool of ``jobs`` workers, which read their work from ``work``."""
    pool = ProcessPoolExecutor(
        jobs, mp_context=context, initializer=_set_work, initargs=(os.getpid(), work)
    )
    ended = False
    failed: list[BaseException | None] = []
    previous = threading.excepthook  # a thread's failure is said once, in the error below
    threading.excepthook = lambda hook: failed.append(hook.exc_value)
    try:
        with starting_workers():  # the workers start with the first tasks
            futures = [pool.submit(_killers_named, mutant.name) for mutant in mutants]
        for future in futures:
            while not future.done():
                wait([future], timeout=_WATCH_SECONDS)
                _check_pool(pool, failed)
            yield future.result()
        ended = True
    finally:
        threading.excepthook = previous
        if ended:
            pool.shutdown(wait=True)
        else:  # interrupted (a second Ctrl-C among them): no wait for workers that may not end
            stop_pool(pool)


_WATCH_SECONDS = 0.5
"""How often a run of several jobs checks that its pool still works."""


def _check_pool(pool: ProcessPoolExecutor, failed: Sequence[BaseException | None]) -> None:
    """UsageError when the pool's own thread has died, saying why.

    ``failed`` holds what threads raised meanwhile, kept from being printed as tracebacks.
    Under a tight memory limit the thread that feeds the workers fails to start a thread, and
    with it gone no result ever comes: the run would wait for ever.
    """
    manager = pool_manager(pool)
    if manager is not None and not manager.is_alive():
        why = next((str(exc) for exc in failed if exc is not None), "it ended")
        raise UsageError(f"the pool of --jobs stopped working ({why}): run with --jobs 1")


def measure(
    corpus: Corpus,
    cases: Sequence[Case],
    mutants: Sequence[Mutant] = CATALOGUE,
    on_measured: Callable[[Measurement], None] | None = None,
    jobs: int = 1,
) -> Report:
    """Certify ``cases`` against the reference, then against each of ``mutants``, in order.

    ``on_measured`` is called with each measurement as soon as it is made, in the order of
    ``mutants``. ``jobs`` above 1 measures the mutants (which must be the catalogue's) in that
    many worker processes; the report is the same.
    """
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, not {jobs}")
    start = time.perf_counter()
    run = certify(ReferenceEngine(), corpus, cases)
    passed_by_reference = {o.result.case.id for o in run.outcomes if o.verdict is Verdict.PASSED}
    broken = tuple(c.id for c in cases if c.id not in passed_by_reference)
    counted = [c for c in cases if c.id in passed_by_reference]
    measurements = []
    for mutant, killers in zip(mutants, _all_killers(mutants, corpus, counted, jobs), strict=True):
        measurement = Measurement(mutant, killers)
        measurements.append(measurement)
        if on_measured is not None:
            on_measured(measurement)
    return Report(tuple(measurements), len(counted), broken, time.perf_counter() - start)
