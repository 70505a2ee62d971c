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
from fiveup.errors import FiveUpError, UsageError

from .certify import (
    Claims,
    Outcome,
    Run,
    Verdict,
    handshake,
    judge,
    open_engine,
    plan_run,
)
from .corpus import Case, Corpus, check_fixture_paths, load_corpus
from .engines import close_engine, startup_hint
from .numbers import mebibytes, seconds
from .process import DEFAULT_MEMORY, check_memory, check_seconds
from .report import report_model, rerun_command
from .runner import CaseResult, Status, run_case
from .sandbox import IN_PROCESS_REFUSAL, Sandbox
from .text import printable

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
        "--fiveup-without-decision",
        action="append",
        default=[],
        metavar="OQ-n",
        help="leave out every case whose expectation depends on this decision of "
        "spec/open-questions.md (repeatable)",
    )
    group.addoption(
        "--fiveup-sandbox",
        action="store_true",
        help="run the --fiveup-engine-cmd engine under bubblewrap, away from the fixtures "
        "and the reports (spec/protocol.md, Security)",
    )
    group.addoption(
        "--fiveup-engine-memory",
        type=mebibytes,
        default=None,
        metavar="MIB",
        help="the data memory each process of the --fiveup-engine-cmd engine may use, in MiB "
        f"(default {DEFAULT_MEMORY >> 20}, as fiveup certify --engine-memory)",
    )
    group.addoption(
        "--fiveup-timeout",
        type=seconds,
        default=10.0,
        metavar="SECONDS",
        help="time limit per case (default 10)",
    )


_VERDICTS = pytest.StashKey["_Verdicts"]()


class _Session:
    """The engine and corpus of one pytest run; the engine is opened at collection."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        fixtures = [Path(p) for p in config.getoption("fiveup_fixtures") or []]
        check_fixture_paths(fixtures, "--fiveup-fixtures")  # in fiveup certify's words
        self.corpus: Corpus = load_corpus(fixtures or None)
        xfail = config.getoption("fiveup_expected_failures")
        self.plan = plan_run(
            self.corpus,
            decisions=config.getoption("fiveup_without_decision"),
            expected_failures=Path(xfail) if xfail else None,
            decision_option="--fiveup-without-decision",
            baseline_option="--fiveup-expected-failures",
        )
        self.expected_failures = self.plan.baseline
        self.decisions = self.plan.decisions
        self.cases = self.plan.cases
        self.engine: Engine | None = None
        self.info: EngineInfo | None = None
        self.failure = ""
        self.hint = ""

    def open(self) -> bool:
        """Start the engine and shake hands; False (with the reason kept) when it cannot."""
        if self.info is not None or self.failure:
            return self.info is not None
        timeout = float(self.config.getoption("fiveup_timeout"))
        command = self.config.getoption("fiveup_engine_cmd")
        try:
            self.engine = open_engine(
                self.config.getoption("fiveup_engine"),
                command,
                timeout,
                sandbox=self.sandbox(),
                memory=_memory(self.config),
                option="--fiveup-engine",
            )
            self.info = handshake(self.engine, "--fiveup-engine-cmd")
        except FiveUpError as exc:
            self.failure, self.hint = str(exc), startup_hint(exc)
        except Exception as exc:  # an untrusted in-process engine may fail in any way
            self.failure = f"info() raised {type(exc).__name__}: {exc}"
        return self.info is not None

    def sandbox(self) -> Sandbox | None:
        """The sandbox of ``--fiveup-sandbox``: it hides the fixtures and the reports."""
        if not self.config.getoption("fiveup_sandbox"):
            return None
        options = ("fiveup_fixtures", "fiveup_expected_failures", "xmlpath", "report_log")
        paths: list[str] = []
        for option in options:
            value = self.config.getoption(option, None)
            paths += value if isinstance(value, list) else [value] if value else []
        return Sandbox(hide=tuple(Path(p) for p in paths))

    def close(self) -> None:
        close_engine(self.engine)


def _memory(config: pytest.Config) -> int:
    """``--fiveup-engine-memory`` in bytes; UsageError outside the bounds of ``certify``."""
    mib = config.getoption("fiveup_engine_memory")
    if mib is None:
        return DEFAULT_MEMORY
    return check_memory(mib << 20, f"--fiveup-engine-memory {mib}")


def _engine_args(config: pytest.Config) -> list[str]:
    """The ``fiveup certify`` options that name this run's engine and fixtures again."""
    command = config.getoption("fiveup_engine_cmd")
    args = ["--engine-cmd", command] if command else ["--engine", config.getoption("fiveup_engine")]
    if config.getoption("fiveup_sandbox"):
        args.append("--sandbox")
    if config.getoption("fiveup_engine_memory") not in (None, DEFAULT_MEMORY >> 20):
        args += ["--engine-memory", str(config.getoption("fiveup_engine_memory"))]
    for path in config.getoption("fiveup_fixtures") or []:
        args += ["--fixtures", str(path)]
    return args


def _fixtures(config: pytest.Config) -> list[str]:
    return list(config.getoption("fiveup_fixtures") or [])


def _active(config: pytest.Config) -> bool:
    return bool(config.getoption("fiveup_engine") or config.getoption("fiveup_engine_cmd"))


def pytest_configure(config: pytest.Config) -> None:
    """Load the corpus once, when the plugin is asked for."""
    for option, what in (("engine", "name"), ("engine_cmd", "command")):
        value = config.getoption(f"fiveup_{option}")
        if value is not None and not value.strip():  # else the plugin would quietly stay off
            flag = f"--fiveup-{option.replace('_', '-')}"
            raise pytest.UsageError(f"fiveup: {flag} is empty: give the engine's {what}")
    if _active(config):
        named = [("--fiveup-expected-failures", config.getoption("fiveup_expected_failures"))]
        named += [("--fiveup-fixtures", path) for path in _fixtures(config)]
        for flag, path in named:
            if path is not None and not path.strip():
                # Path("") is the current folder; an empty baseline name was no baseline at all
                raise pytest.UsageError(f"fiveup: {flag} is empty: name a file or folder")
        if config.getoption("fiveup_engine") and config.getoption("fiveup_engine_cmd"):
            raise pytest.UsageError("give --fiveup-engine or --fiveup-engine-cmd, not both")
        if config.getoption("fiveup_sandbox") and not config.getoption("fiveup_engine_cmd"):
            raise pytest.UsageError(f"fiveup: {IN_PROCESS_REFUSAL}")
        try:
            check_seconds(config.getoption("fiveup_timeout"), "--fiveup-timeout")
            _memory(config)
            if config.getoption("fiveup_engine_memory") is not None and not config.getoption(
                "fiveup_engine_cmd"
            ):  # as certify refuses it: the rerun command printed would be refused
                raise UsageError(
                    "--fiveup-engine-memory bounds an engine run as a process "
                    "(--fiveup-engine-cmd): an in-process engine uses pytest's own memory"
                )
            config.stash[_STATE] = _Session(config)
        except FiveUpError as exc:
            raise pytest.UsageError(f"fiveup: {exc}") from None
        verdicts = _Verdicts()
        config.stash[_VERDICTS] = verdicts
        config.pluginmanager.register(verdicts, "fiveup-verdicts")


def pytest_unconfigure(config: pytest.Config) -> None:
    """Stop a process engine; say what the run concludes, as the last line of the output.

    pytest writes its own summary line at the end of the session: the conclusion comes after
    it, in the words of the command line (not from pytest-xdist's workers, which print nothing).
    """
    state = config.stash.get(_STATE, None)
    if state is not None:
        state.close()
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if reporter is None or hasattr(config, "workerinput"):
        return
    run = _run_of(config)
    if run is not None:
        reporter.write_line(f"fiveup: {report_model(run).line}")


class CorpusCollector(pytest.Collector):
    """The node under which every case sits: ``fiveup``."""

    def collect(self) -> Iterator[CaseItem]:
        """One item per case."""
        for case in self.config.stash[_STATE].cases:
            yield CaseItem.from_parent(self, name=case.id, case=case)


class CaseFailure(Exception):
    """A case did not pass; carries the outcome for the report."""

    def __init__(self, outcome: Outcome, why: str = "") -> None:
        """Keep the outcome."""
        super().__init__(why or outcome.result.message)
        self.outcome = outcome
        self.why = why


class CaseItem(pytest.Item):
    """One fixture case run against the engine under test."""

    def __init__(self, *, case: Case, **kwargs: Any) -> None:
        """Make the item for ``case``."""
        super().__init__(**kwargs)
        self.case = case
        self.extra_keyword_matches.update({case.level.value, *case.rules, *case.decisions})

    def runtest(self) -> None:
        """Run the case; fail, skip or xfail as the verdict says."""
        state = self.config.stash[_STATE]
        if not state.open():
            raise FiveUpError(state.failure)
        assert state.engine is not None and state.info is not None
        claims = Claims.of(state.info)
        result = run_case(state.engine, self.case, claims)
        outcome = judge(result, state.expected_failures, claims)
        self.user_properties += [
            ("fiveup_verdict", outcome.verdict.name),
            ("fiveup_status", outcome.result.status.value),
            ("fiveup_levels", ",".join(state.info["levels"])),
            ("fiveup_features", ",".join(state.info.get("features", []))),
            ("fiveup_reason", outcome.reason),
        ]
        if outcome.verdict is Verdict.DECLINED:
            raise CaseFailure(outcome, "the engine declined a case of a feature it claims")
        if outcome.verdict is Verdict.UNSUPPORTED:
            pytest.skip(f"unsupported: {outcome.result.message}")
        if outcome.verdict is Verdict.XFAILED:
            pytest.xfail(outcome.reason)
        if outcome.verdict.bad:
            raise CaseFailure(outcome)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        """The case, its rules and every difference, instead of a traceback."""
        if isinstance(excinfo.value, CaseFailure):
            failure = excinfo.value
            outcome = failure.outcome
            lines = [
                f"{self.case.id}: {printable(self.case.title)}",
                f"rules: {', '.join(self.case.rules)}; counted under {outcome.result.rule}",
                f"fixture: {self.case.file}:{self.case.line}",
            ]
            if failure.why:
                lines.append(failure.why)
            if outcome.verdict is Verdict.XPASSED:
                lines.append(
                    f"listed as an expected failure ({printable(outcome.reason)}) but it passes"
                )
            if outcome.result.message:
                lines.append(f"{outcome.verdict.value}: {outcome.result.message}")
            if outcome.verdict is Verdict.CHANGED:
                lines.append(
                    f"listed as an expected failure ({printable(outcome.reason)}) but it fails in "
                    f"another way now ({outcome.result.status.value})"
                )
            lines.extend(f"  {printable(d.text)}" for d in outcome.result.differences)
            lines.append(f"rerun: {rerun_command(_engine_args(self.config), self.case.id)}")
            return "\n".join(lines)
        if isinstance(excinfo.value, FiveUpError):
            return f"{self.case.id}: {excinfo.value}"
        if isinstance(excinfo.value, pytest.xfail.Exception):
            # pytest shows an expected failure by its reason and never this text; a traceback
            # parses every frame's source file, most of an expected failure's cost.
            return excinfo.value.msg or ""
        return str(super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[Path, int, str]:
        """Where the case is written."""
        return Path(self.case.file), self.case.line - 1, f"fiveup case {self.case.id}"


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(
    session: pytest.Session, config: pytest.Config, items: list[pytest.Item]
) -> None:
    """Add the cases before ``-k`` and ``--deselect`` pick among the items.

    The engine is started here: one that cannot start or shake hands is one collection error,
    not one failure per case. The cases are reported as collected, so pytest's header counts
    them.
    """
    if _STATE not in config.stash:
        return
    state = config.stash[_STATE]
    if not state.open():
        hint = f"\nhint: {state.hint}" if state.hint else ""
        report = pytest.CollectReport(
            "fiveup", "failed", f"fiveup: the engine did not start: {state.failure}{hint}", []
        )
        config.hook.pytest_collectreport(report=report)
        return
    collector = CorpusCollector.from_parent(session, name="fiveup", nodeid="fiveup")
    cases: list[pytest.Item | pytest.Collector] = list(collector.collect())
    config.hook.pytest_collectreport(report=pytest.CollectReport("fiveup", "passed", None, cases))
    items.extend(item for item in cases if isinstance(item, pytest.Item))


class _Verdicts:
    """Each case's verdict as its report arrives (also from pytest-xdist's workers)."""

    def __init__(self) -> None:
        self.received: dict[str, dict[str, str]] = {}

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        """Keep the verdict of a case's call."""
        properties = dict(report.user_properties)
        if report.when == "call" and "fiveup_verdict" in properties:
            case_id = report.nodeid.split("::", 1)[-1]
            self.received[case_id] = {str(k): str(v) for k, v in properties.items()}


def _run_of(config: pytest.Config) -> Run | None:
    state = config.stash.get(_STATE, None)
    if state is None:
        return None
    left_out = state.plan.left_out()
    if state.failure:
        return Run(None, state.failure, state.corpus, (), hint=state.hint, left_out=left_out)
    received = config.stash[_VERDICTS].received
    if not received:
        return None
    cases = state.corpus.by_id()
    outcomes = []
    levels: list[str] = []
    features: list[str] = []
    for case_id, props in received.items():
        if case_id not in cases:
            continue
        levels = [level for level in props["fiveup_levels"].split(",") if level]
        features = [f for f in props.get("fiveup_features", "").split(",") if f]
        result = CaseResult(cases[case_id], Status(props["fiveup_status"]))
        outcomes.append(Outcome(result, Verdict[props["fiveup_verdict"]], props["fiveup_reason"]))
    total = len(state.corpus.cases)
    selection = f"{len(outcomes)} of {total} cases" if len(outcomes) < total else ""
    info: EngineInfo = {"name": "", "version": "", "protocol": 1, "levels": levels}
    if features:
        info["features"] = features
    return Run(
        info, "", state.corpus, tuple(outcomes), selection, len(state.expected_failures),
        left_out=left_out,
    )  # fmt: skip


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Fail the session when the conclusion is not conforming though every test passed."""
    run = _run_of(session.config)
    if run is not None and run.exit_code and session.exitstatus == 0:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
