"""Proof that the suite has teeth: deliberately wrong engines, each breaking one rule, all rejected.

The wrong engines are entries of the mutant catalogue (``WRONG_ENGINES`` of
``fiveup/mutants/catalogue.py``): each is the reference engine with one rule of
``spec/rules.md`` replaced through its public seam (``replace(STANDARD, field=...)``), the way
a real third-party engine gets it wrong, and its entry names the rule, the break and the most
telling cases that must catch it (more cases fail; at least one of those listed checks the broken
rule itself). Each is certified against the bundled corpus: the run must not conform, its telling
cases must be among its failed cases, and no case may error - a wrong engine has to be caught by
a rule, not by a crash. The default run certifies each wrong engine in-process on every level but
``moves``. The campaign (``pytest -m campaign``, which ``.ci/run`` runs) serves each over the
process protocol (``python -m fiveup engine --mutant NAME``) and certifies it on the whole corpus
with ``fiveup certify --engine-cmd``; the reference served the same way (``python -m fiveup
engine``) conforms, so every rejection is due to the break.
"""

from __future__ import annotations

import contextlib
import json
import multiprocessing
import os
import shlex
import sys
from collections.abc import Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from fiveup.cli import main
from fiveup.contract.engine import Level
from fiveup.harness.certify import Conclusion, Verdict, certify
from fiveup.harness.corpus import Corpus, load_corpus
from fiveup.harness.spec_index import spec_rules
from fiveup.mutants import WRONG_ENGINES, Mutant

REFERENCE = "reference"


@dataclass(frozen=True)
class Certification:
    """What one ``fiveup certify --format json`` run gave: its exit code and its report."""

    exit_code: int
    report: dict[str, Any]

    def verdicts(self) -> dict[str, str]:
        """The verdict of every case by its ID."""
        return {case["id"]: case["verdict"] for case in self.report.get("cases", [])}

    def rules(self) -> dict[str, list[str]]:
        """The rule IDs every case checks, by case ID."""
        return {case["id"]: case["rules"] for case in self.report.get("cases", [])}


class Certifications:
    """Certification runs of engines by name, in a pool of worker processes.

    Each run is ``fiveup.cli.main`` certifying one engine command. Asking for one engine's result
    also starts the runs of the next few engines in ``order``, so the pool stays busy while the
    tests go through the list, and a session that runs only some tests (``-k``) certifies little
    more than those. Worker processes rather than threads: most
    of a run is the harness validating the engine's messages, pure Python that threads would take
    turns at. Without a pool (a session that asks for one run) the run is made in this process.
    """

    def __init__(
        self, pool: ProcessPoolExecutor | None, folder: Path, order: list[str], lookahead: int
    ) -> None:
        """Runs in ``pool``, reports in ``folder``; ``order`` is the order tests ask in."""
        self._pool = pool
        self._folder = folder
        self._order = order
        self._lookahead = lookahead
        self._runs: dict[str, Future[int]] = {}

    def _start(self, name: str) -> None:
        if name in self._runs:
            return
        command = [sys.executable, "-m", "fiveup", "engine"]
        if name != REFERENCE:
            command += ["--mutant", name]
        argv = ["certify", "--engine-cmd", shlex.join(command), "--format", "json"]
        argv += ["--output", str(self._folder / f"{name}.json")]
        if self._pool is not None:
            self._runs[name] = self._pool.submit(main, argv)
            return
        done: Future[int] = Future()
        done.set_result(main(argv))
        self._runs[name] = done

    def __getitem__(self, name: str) -> Certification:
        self._start(name)
        if name in self._order:
            at = self._order.index(name)
            for following in self._order[at + 1 : at + 1 + self._lookahead]:
                self._start(following)
        exit_code = self._runs[name].result()
        output = self._folder / f"{name}.json"
        report = json.loads(output.read_text(encoding="utf-8")) if output.exists() else {}
        return Certification(exit_code, report)

    def cancel(self) -> None:
        """Drop the runs not started yet."""
        for run in self._runs.values():
            run.cancel()


@pytest.fixture(scope="module")
def certifications(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Certifications]:
    """The reference and the wrong engines of the collected tests, certified concurrently."""
    order = [REFERENCE]
    for item in request.session.items:
        callspec = getattr(item, "callspec", None)
        engine = callspec.params.get("engine") if callspec is not None else None
        if isinstance(engine, Mutant) and "certifications" in getattr(item, "fixturenames", ()):
            order.append(engine.name)  # only the campaign's tests ask for a protocol run
    workers = os.cpu_count() or 2
    # An xdist worker runs an unknown share of the tests: certify only the engines it asks for.
    lookahead = 0 if "PYTEST_XDIST_WORKER" in os.environ else 2 * workers
    context = multiprocessing.get_context("spawn")  # no fork of the test process
    with contextlib.ExitStack() as stack:
        pool = None
        if len(order) > 1:  # a pool pays for itself only when runs can overlap
            pool = stack.enter_context(ProcessPoolExecutor(max_workers=workers, mp_context=context))
        runs = Certifications(pool, tmp_path_factory.mktemp("wrong_engines"), order, lookahead)
        yield runs
        runs.cancel()


def test_reference_served_the_same_way_conforms(
    certifications: Certifications,
) -> None:
    run = certifications[REFERENCE]
    assert run.exit_code == 0, run.report.get("summary")
    assert run.report["conforms"] is True
    summary = run.report["summary"]
    assert summary["passed"] == run.report["corpus"]["cases"] == len(run.verdicts()) > 0
    assert summary["failed"] == summary["errored"] == summary["unsupported"] == 0


@pytest.fixture(scope="module")
def corpus() -> Corpus:
    return load_corpus()


@pytest.mark.parametrize("engine", WRONG_ENGINES, ids=lambda engine: engine.name)
def test_wrong_engine_in_process_is_rejected_by_the_cases_of_its_rule(
    corpus: Corpus, engine: Mutant
) -> None:
    """The default run's check: in-process, the levels but ``moves`` (the campaign plays all)."""
    cases = [case for case in corpus.cases if case.level is not Level.MOVES]
    run = certify(engine.engine(), corpus, cases)
    verdicts = {o.result.case.id: o.verdict for o in run.outcomes}
    assert run.conclusion is Conclusion.DOES_NOT_CONFORM
    errored = sorted(case for case, verdict in verdicts.items() if verdict is Verdict.ERRORED)
    assert errored == [], "a wrong engine must be caught by a rule, not by a crash"
    assert {case: verdicts.get(case) for case in engine.telling} == {
        case: Verdict.FAILED for case in engine.telling
    }
    by_id = corpus.by_id()
    checked = {rule for case in engine.telling for rule in by_id[case].rules}
    assert engine.rule in checked, f"no listed case checks {engine.rule}: caught only by accident"


@pytest.mark.campaign
@pytest.mark.parametrize("engine", WRONG_ENGINES, ids=lambda engine: engine.name)
def test_wrong_engine_is_rejected_by_the_cases_of_its_rule(
    certifications: Certifications, engine: Mutant
) -> None:
    run = certifications[engine.name]
    assert run.exit_code == 1, run.report.get("summary")
    assert run.report["conforms"] is False
    assert run.report["handshake_error"] is None
    verdicts = run.verdicts()
    assert len(verdicts) == run.report["corpus"]["cases"]
    errored = sorted(case for case, verdict in verdicts.items() if verdict == "errored")
    assert errored == [], "a wrong engine must be caught by a rule, not by a crash"
    assert {case: verdicts.get(case) for case in engine.telling} == {
        case: "failed" for case in engine.telling
    }
    rules = run.rules()
    checked = {rule for case in engine.telling for rule in rules[case]}
    assert engine.rule in checked, f"no listed case checks {engine.rule}: caught only by accident"


def test_every_wrong_engine_breaks_its_own_rule_of_the_spec_and_names_telling_cases() -> None:
    checkable = {rule.id for rule in spec_rules().values() if rule.checkable}
    ids = {case.id for case in load_corpus().cases}
    for engine in WRONG_ENGINES:
        assert engine.rule in checkable, engine.name
        assert engine.name.startswith(engine.rule.lower().replace("-", "")), engine.name
        assert engine.required and engine.telling, engine.name
        assert set(engine.telling) <= ids and len(set(engine.telling)) == len(engine.telling)
    assert len({engine.rule for engine in WRONG_ENGINES}) == len(WRONG_ENGINES) == 36
    assert [engine.name for engine in WRONG_ENGINES] == sorted(e.name for e in WRONG_ENGINES)
