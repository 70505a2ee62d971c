"""The pytest plugin: ``pytest --fiveup-engine=NAME`` runs the corpus as one test per case.

Registered under the ``pytest11`` entry point, so it is active wherever the suite is installed,
and does nothing unless ``--fiveup-engine`` or ``--fiveup-engine-cmd`` is given. Test IDs are
``fiveup::<case id>``: fully qualified and stable, so ``-k``, ``--deselect``, ``--junitxml``
and pytest-xdist's ``-n`` work as usual.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from fiveup.contract.engine import Engine, EngineInfo
from fiveup.errors import FiveUpError

from .certify import (
    Outcome,
    Verdict,
    handshake,
    judge,
    load_expected_failures,
    open_engine,
)
from .corpus import Case, Corpus, load_corpus
from .runner import run_case

_STATE = pytest.StashKey["_Session"]()


def pytest_addoption(parser: pytest.Parser) -> None:
    """Add the ``--fiveup-*`` options."""
    group = parser.getgroup("fiveup", "Five Up conformance suite")
    group.addoption(
        "--fiveup-engine",
        metavar="NAME",
        help="certify a Python engine: entry-point name or module:attribute",
    )
    group.addoption(
        "--fiveup-engine-cmd",
        metavar="COMMAND",
        help="certify an engine in any language over the process protocol",
    )
    group.addoption(
        "--fiveup-fixtures",
        action="append",
        metavar="PATH",
        help="fixture files or folders instead of the bundled corpus",
    )
    group.addoption(
        "--fiveup-expected-failures",
        metavar="FILE",
        help="YAML mapping of case ID to the reason it is expected to fail",
    )
    group.addoption(
        "--fiveup-timeout",
        type=float,
        default=10.0,
        metavar="SECONDS",
        help="time limit per case (default 10)",
    )


class _Session:
    """The engine and corpus of one pytest run, opened on first use."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        fixtures = config.getoption("fiveup_fixtures")
        self.corpus: Corpus = load_corpus([Path(p) for p in fixtures] if fixtures else None)
        xfail = config.getoption("fiveup_expected_failures")
        self.expected_failures = load_expected_failures(Path(xfail), self.corpus) if xfail else {}
        self._engine: Engine | None = None
        self._info: EngineInfo | None = None
        self._failure: str | None = None

    def engine(self) -> tuple[Engine, EngineInfo]:
        if self._failure is not None:
            raise FiveUpError(self._failure)
        if self._engine is None or self._info is None:
            timeout = float(self.config.getoption("fiveup_timeout"))
            command = self.config.getoption("fiveup_engine_cmd")
            try:
                name = self.config.getoption("fiveup_engine")
                self._engine = open_engine(name, command, timeout)
                self._info = handshake(self._engine)
            except Exception as exc:
                self._failure = f"the engine failed its handshake: {exc}"
                raise FiveUpError(self._failure) from None
        return self._engine, self._info

    def close(self) -> None:
        close = getattr(self._engine, "close", None)
        if callable(close):
            close()


def _active(config: pytest.Config) -> bool:
    return bool(config.getoption("fiveup_engine") or config.getoption("fiveup_engine_cmd"))


def pytest_configure(config: pytest.Config) -> None:
    """Load the corpus once, when the plugin is asked for."""
    if _active(config):
        if config.getoption("fiveup_engine") and config.getoption("fiveup_engine_cmd"):
            raise pytest.UsageError("give --fiveup-engine or --fiveup-engine-cmd, not both")
        try:
            config.stash[_STATE] = _Session(config)
        except FiveUpError as exc:
            raise pytest.UsageError(f"fiveup: {exc}") from None


def pytest_unconfigure(config: pytest.Config) -> None:
    """Stop a process engine."""
    state = config.stash.get(_STATE, None)
    if state is not None:
        state.close()


class CorpusCollector(pytest.Collector):
    """The node under which every case sits: ``fiveup``."""

    def collect(self) -> Iterator[CaseItem]:
        """One item per case."""
        for case in self.config.stash[_STATE].corpus.cases:
            yield CaseItem.from_parent(self, name=case.id, case=case)


class CaseFailure(Exception):
    """A case did not pass; carries the outcome for the report."""

    def __init__(self, outcome: Outcome) -> None:
        """Keep the outcome."""
        super().__init__(outcome.result.message)
        self.outcome = outcome


class CaseItem(pytest.Item):
    """One fixture case run against the engine under test."""

    def __init__(self, *, case: Case, **kwargs: Any) -> None:
        """Make the item for ``case``."""
        super().__init__(**kwargs)
        self.case = case
        self.extra_keyword_matches.update({case.level.value, *case.rules})

    def runtest(self) -> None:
        """Run the case; fail, skip or xfail as the verdict says."""
        state = self.config.stash[_STATE]
        engine, info = state.engine()
        outcome = judge(run_case(engine, self.case, info["levels"]), state.expected_failures)
        if outcome.verdict is Verdict.UNSUPPORTED:
            pytest.skip(f"unsupported: {outcome.result.message}")
        if outcome.verdict is Verdict.XFAILED:
            pytest.xfail(outcome.reason)
        if outcome.verdict.bad:
            raise CaseFailure(outcome)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        """The case, its rules and every difference, instead of a traceback."""
        if isinstance(excinfo.value, CaseFailure):
            outcome = excinfo.value.outcome
            lines = [
                f"{self.case.id}: {self.case.title}",
                f"rules: {', '.join(self.case.rules)}",
                f"fixture: {self.case.file}:{self.case.line}",
            ]
            if outcome.verdict is Verdict.XPASSED:
                lines.append(f"listed as an expected failure ({outcome.reason}) but it passes")
            if outcome.result.message:
                lines.append(f"{outcome.verdict.value}: {outcome.result.message}")
            lines.extend(f"  {d.text}" for d in outcome.result.differences)
            return "\n".join(lines)
        if isinstance(excinfo.value, FiveUpError):
            return f"{self.case.id}: {excinfo.value}"
        return str(super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[Path, int, str]:
        """Where the case is written."""
        return Path(self.case.file), self.case.line - 1, f"fiveup case {self.case.id}"


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(
    session: pytest.Session, config: pytest.Config, items: list[pytest.Item]
) -> None:
    """Add the cases before ``-k`` and ``--deselect`` pick among the items."""
    if _STATE not in config.stash:
        return
    collector = CorpusCollector.from_parent(session, name="fiveup", nodeid="fiveup")
    items.extend(collector.collect())
