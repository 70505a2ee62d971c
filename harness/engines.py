"""Engines under test: found by name, opened, timed, and asked who they are.

A Python engine is found by its entry point (group ``fiveup.engines``; the reference registers
``reference``) or by ``module:attribute``; an engine in any language runs as a process
(:class:`~fiveup.harness.process.ProcessEngine`). The harness never imports the reference.
"""

from __future__ import annotations

import difflib
import importlib
import importlib.metadata
import os
import signal
import sys
import sysconfig
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType, ModuleType
from typing import Any, Final

from fiveup import PROTOCOL_VERSION
from fiveup.contract.engine import (
    DEFAULT_ENGINE,
    ENTRY_POINT_GROUP,
    JSON,
    Engine,
    EngineInfo,
    claimed_features,
    closer,
)
from fiveup.contract.schemas import info_problem, other_protocol
from fiveup.errors import EngineError, UsageError

from .process import (
    DEFAULT_MEMORY,
    Failure,
    ProcessEngine,
    ProcessEngineError,
    check_seconds,
)
from .sandbox import IN_PROCESS_REFUSAL, Sandbox
from .text import cut, printable, quoted

__all__ = [
    "ENTRY_POINT_GROUP",
    "NO_ANSWER",
    "TimedEngine",
    "close_engine",
    "handshake",
    "load_engine",
    "no_answer",
    "open_engine",
    "start_now",
    "startup_hint",
]


def load_engine(
    name: str, option: str = "--engine", command_option: str | None = None
) -> Engine:  # fmt: skip
    """An engine by entry-point name (group ``fiveup.engines``) or by ``module:attribute``.

    The attribute may be an engine instance, or a class or factory called with no arguments.
    Every way the name can be wrong is a UsageError that repeats it printable and cut, after
    ``option``, the option that named it (``--baseline`` for fuzz's baseline). When the name
    looks like a program to run (it has a blank or a slash) and ``command_option`` names the
    option that runs one, the error says to use that instead.
    """
    try:
        return _load(name, option)
    except UsageError as exc:
        if command_option is None or not _looks_like_a_command(name):
            raise
        hint = f"; to run a program that speaks spec/protocol.md, give it to {command_option}"
        raise UsageError(f"{exc}{hint}") from None


def _looks_like_a_command(name: str) -> bool:
    return any(char.isspace() or char in "/\\" for char in name.strip())


def _load(name: str, option: str) -> Engine:
    target: Any
    if not name.strip():  # else an empty --engine would quietly be the reference
        raise UsageError(f"{option} is empty: give an entry-point name or module:attribute")
    shown = printable(cut(name, _SHOWN_NAME))
    if ":" in name:
        target = _from_module(name, shown, option)
    else:
        found = importlib.metadata.entry_points(group=ENTRY_POINT_GROUP, name=name)
        if not found:
            known = sorted(
                ep.name for ep in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP)
            )
            raise UsageError(
                f"{option} {shown}: no engine of that name (installed: "
                f"{', '.join(known) or 'none'}; or give module:attribute)"
            )
        try:
            target = next(iter(found)).load()
        except (Exception, SystemExit) as exc:  # the installed package fails as it is imported
            raise UsageError(f"{option} {shown}: loading it failed: {_told(exc)}") from None
    try:
        if isinstance(target, type) or (callable(target) and not isinstance(target, Engine)):
            try:
                target = target()
            except (Exception, SystemExit) as exc:
                why = _told(exc)
                raise UsageError(f"{option} {shown}: creating the engine failed: {why}") from None
        if isinstance(target, Engine):
            return target
        what = printable(cut(repr(target), _SHOWN_NAME))
    except UsageError:
        raise
    except Exception as exc:  # an object whose __getattr__ or __repr__ itself fails
        raise UsageError(f"{option} {shown}: not an engine: {_told(exc)}") from None
    raise UsageError(f"{option} {shown}: {what} has no info() and run(level, given)")


def _told(exc: BaseException) -> str:
    """An exception as one short printable line, even one whose ``__str__`` fails."""
    try:
        if isinstance(exc, ModuleNotFoundError) and exc.name is not None:  # repr()s the name
            text = f"{type(exc).__name__}: No module named {quoted(exc.name)}"
        else:
            text = f"{type(exc).__name__}: {exc}"
    except Exception:
        text = type(exc).__name__
    return printable(cut(text, _SHOWN_NAME))


_SHOWN_NAME = 200
"""The most characters of a name (or of what it names) that an error message repeats."""


def _from_module(name: str, shown: str, option: str = "--engine") -> Any:
    """What ``module:attribute`` (or ``module:a.b``) names, or UsageError saying what is wrong."""
    module_name, _, attr = name.partition(":")
    module_shown = quoted(cut(module_name, _SHOWN_NAME))
    if not module_name or module_name.startswith("."):
        raise UsageError(f"{option} {shown}: {module_shown} is not a module's absolute name")
    if module_name == "fiveup.cli" or module_name.startswith("fiveup.cli."):
        raise UsageError(  # fiveup.cli.app:main would run the command again, inside itself
            f"{option} {shown}: {module_shown} is the command line, which holds no engine"
        )
    if os.getcwd() not in sys.path:
        # As uvicorn and gunicorn do: a module beside the user is found from the console
        # script, whose sys.path starts at the script's own folder.
        sys.path.insert(0, os.getcwd())
    try:
        target: Any = importlib.import_module(module_name)
    except (Exception, SystemExit) as exc:  # missing, or failing (or exiting) as it imports
        raise UsageError(f"{option} {shown}: cannot import {module_shown}: {_told(exc)}") from None
    if _of_the_standard_library(target):
        # os:abort, os:fork, builtins:breakpoint, code:interact: called as a factory, they
        # kill, fork or hold the harness; no engine is there to find.
        raise UsageError(
            f"{option} {shown}: {module_shown} is a module of Python's standard library, "
            "which holds no engine: name your engine's module"
        )
    for part in attr.split("."):
        try:
            target = getattr(target, part)
        except Exception as exc:  # AttributeError, or a module __getattr__'s own failure
            missing = quoted(cut(attr, _SHOWN_NAME))
            hint = _close_names(part, target) if isinstance(exc, AttributeError) else ""
            raise UsageError(f"{option} {shown}: {module_shown} has no {missing}{hint}") from None
    return target


def _of_the_standard_library(module: ModuleType) -> bool:
    """Python's own: built in, or a file of its library (a user's ``test.py`` beside is not)."""
    top = module.__name__.partition(".")[0]
    if top not in sys.stdlib_module_names:
        return False
    found = getattr(module, "__file__", None)
    if found is None:
        return True  # builtins, faulthandler, sys: compiled into the interpreter
    library = {sysconfig.get_path("stdlib"), sysconfig.get_path("platstdlib")}
    where = os.path.realpath(found)
    return any(
        os.path.commonpath([os.path.realpath(root), where]) == os.path.realpath(root)
        for root in library
        if root
    ) and "site-packages" not in where.split(os.sep)


def _close_names(name: str, owner: object) -> str:
    """``; did you mean ...?`` with names of ``owner`` close to ``name`` (its ``dir()``)."""
    try:
        names = [n for n in dir(owner) if isinstance(n, str) and not n.startswith("_")]
    except Exception:  # an object's own __dir__ may fail: no hint, still the error
        return ""
    close = difflib.get_close_matches(name, names, n=3, cutoff=0.6)
    return printable(f"; did you mean {' or '.join(close)}?") if close else ""


def close_engine(engine: Engine | None) -> None:
    """Stop an engine that has a process behind it (its ``close``); others, and None, have none."""
    close = closer(engine)
    if close is not None:
        close()


def open_engine(
    name: str | None,
    command: str | None,
    timeout: float,
    *,
    sandbox: Sandbox | None = None,
    memory: int | None = DEFAULT_MEMORY,
    option: str = "--engine",
) -> Engine:
    """The engine to certify: a process for ``command``, else the Python engine ``name``.

    A Python engine is wrapped in :class:`TimedEngine` so that a hang is cut off as well. With
    a ``sandbox`` the process runs under bubblewrap; an in-process engine cannot be contained,
    so asking for one with a sandbox is a UsageError. ``memory`` bounds each process of a
    process engine (:class:`ProcessEngine`); an in-process engine shares the harness's.
    """
    check_seconds(timeout)
    if sandbox is not None and not command:
        raise UsageError(IN_PROCESS_REFUSAL)
    if command:
        return ProcessEngine(command, timeout=timeout, sandbox=sandbox, memory=memory)
    engine = load_engine(DEFAULT_ENGINE if name is None else name, option, f"{option}-cmd")
    return TimedEngine(engine, timeout)


NO_ANSWER: Final = "the engine did not answer within"
"""How an in-process engine's timeout is told: ``the engine did not answer within 10 s``."""


def no_answer(seconds: float) -> EngineError:
    """The error of an in-process engine that did not answer within ``seconds``."""
    return EngineError(f"{NO_ANSWER} {seconds:g} s")


class TimedEngine:
    """An in-process engine whose every call is cut off after ``timeout`` seconds.

    Uses SIGALRM, so it works for Python code in the main thread; elsewhere calls run untimed.
    """

    def __init__(self, engine: Engine, timeout: float) -> None:
        """Wrap ``engine``; ``timeout`` is checked as :func:`check_seconds` checks it."""
        self.engine = engine
        self.timeout = check_seconds(timeout)

    @contextmanager
    def _limit(self) -> Iterator[None]:
        if threading.current_thread() is not threading.main_thread():
            yield
            return

        def expire(signum: int, frame: FrameType | None) -> None:
            raise no_answer(self.timeout)

        previous = signal.signal(signal.SIGALRM, expire)
        signal.setitimer(signal.ITIMER_REAL, self.timeout)
        try:
            yield
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)

    @property
    def features(self) -> object:
        """The wrapped engine's optional ``features`` claim (None when it has none)."""
        return claimed_features(self.engine)

    def info(self) -> EngineInfo:
        """The wrapped engine's identity."""
        with self._limit():
            return self.engine.info()

    def run(self, level: str, given: dict[str, JSON]) -> dict[str, JSON]:
        """Run one case, within the time limit."""
        with self._limit():
            return self.engine.run(level, given)


MAX_NAME_CHARS = 200
"""The longest engine name or version shown: an engine may send any string."""


_RETRIED = (Failure.CRASHED, Failure.TRUNCATED)


def start_now(engine: Engine, option: str = "--engine-cmd") -> None:
    """Start a process engine now, so that a command that cannot run is refused before work.

    Such a command is the user's mistake: a UsageError naming ``option`` (``--baseline-cmd``),
    not an engine failure found halfway through (or after other figures were printed).
    """
    if not isinstance(engine, ProcessEngine):
        return
    try:
        engine.info()
    except ProcessEngineError as exc:
        if exc.kind is Failure.CANNOT_START and exc.not_executable:
            raise UsageError(f"{option}: {exc.detail}") from None
        raise


def handshake(engine: Engine, option: str = "--engine-cmd") -> EngineInfo:
    """Ask the engine who it is; the answer is judged as its ``ready`` message would be.

    A process engine that crashes while starting is started again, as the protocol says, until
    it has failed ``max_failed_starts`` times in a row. An engine command that cannot be
    executed at all is the user's mistake: UsageError naming ``option``.
    """
    while True:
        try:
            info = engine.info()
            break
        except ProcessEngineError as exc:
            if exc.kind is Failure.CANNOT_START and exc.not_executable:
                raise UsageError(f"{option}: {exc.detail}") from None
            if exc.kind not in _RETRIED or not isinstance(engine, ProcessEngine):
                raise
            if engine.failed_starts >= engine.max_failed_starts:
                raise
    features = claimed_features(engine)
    if isinstance(info, dict) and "features" not in info and features is not None:
        info = {**info, "features": features}  # a Python engine's optional attribute
    spoken = other_protocol(info)
    if spoken is not None:
        raise EngineError(
            f"protocol version mismatch: the engine speaks {spoken!r}, the suite {PROTOCOL_VERSION}"
        )
    problem = info_problem(info)
    if problem is not None:
        raise EngineError(problem)
    return {
        **info,
        "name": printable(cut(info["name"], MAX_NAME_CHARS)),
        "version": printable(cut(info["version"], MAX_NAME_CHARS)),
    }


_HINTS = {
    Failure.TIMEOUT: "is each line flushed? An engine must flush stdout after every reply "
    "(Python: print(..., flush=True); C: fflush(stdout)), or it waits forever",
    Failure.NOT_JSON: "the engine wrote something that is not JSON on stdout: a banner, a "
    "prompt or a log line? stdout carries protocol messages only; write the rest to stderr",
    Failure.PROTOCOL_MISMATCH: "answer the start message with the protocol version the "
    'harness speaks: {"ready": true, "protocol": 1, "engine": {...}}',
    Failure.BAD_MESSAGE: 'the ready message is {"ready": true, "protocol": 1, '
    '"engine": {"name": ..., "version": ..., "levels": [...], "features": [...]}}, '
    '"features" optional, each "<level>.<feature>" like "scoring.credit" (spec/protocol.md)',
    Failure.CRASHED: "the engine exited before it was ready: run the command by hand, or read "
    "its stderr (shown above when it wrote any)",
    Failure.UNREQUESTED_OUTPUT: "the engine wrote more than its ready message; stdout carries "
    "one reply per request and nothing else",
}

_STOPPED_HINT = (
    "a stopped process cannot answer: does the engine send itself SIGSTOP or SIGTSTP (or "
    "raise(SIGSTOP), kill -STOP $$), or does a debugger or job control stop it?"
)


def startup_hint(error: Exception) -> str:
    """What usually causes an engine to fail before it is ready, for the report."""
    if isinstance(error, ProcessEngineError):
        if error.kind is Failure.TIMEOUT and error.stopped:
            return _STOPPED_HINT
        return _HINTS.get(error.kind, "")
    if "protocol version mismatch" in str(error):
        return _HINTS[Failure.PROTOCOL_MISMATCH]
    return ""
