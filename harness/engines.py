"""Engines under test: found by name, opened, timed, and asked who they are.

A Python engine is found by its entry point (group ``fiveup.engines``; the reference registers
``reference``) or by ``module:attribute``; an engine in any language runs as a process
(:class:`~fiveup.harness.process.ProcessEngine`). The harness never imports the reference.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import os
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any

from fiveup import PROTOCOL_VERSION
from fiveup.contract.engine import ENTRY_POINT_GROUP, JSON, Engine, EngineInfo
from fiveup.contract.schemas import info_problem
from fiveup.errors import EngineError, UsageError

__all__ = ["ENTRY_POINT_GROUP", "TimedEngine", "handshake", "load_engine", "open_engine"]


def load_engine(name: str) -> Engine:
    """An engine by entry-point name (group ``fiveup.engines``) or by ``module:attribute``.

    The attribute may be an engine instance, or a class or factory called with no arguments.
    """
    target: Any
    if ":" in name:
        module_name, _, attr = name.partition(":")
        if os.getcwd() not in sys.path:
            # As uvicorn and gunicorn do: a module beside the user is found from the console
            # script, whose sys.path starts at the script's own folder.
            sys.path.insert(0, os.getcwd())
        try:
            module = importlib.import_module(module_name)
        except ImportError as exc:
            raise UsageError(f"--engine {name}: cannot import {module_name!r}: {exc}") from None
        try:
            target = module
            for part in attr.split("."):
                target = getattr(target, part)
        except AttributeError:
            raise UsageError(f"--engine {name}: {module_name!r} has no {attr!r}") from None
    else:
        found = importlib.metadata.entry_points(group=ENTRY_POINT_GROUP, name=name)
        if not found:
            known = sorted(
                ep.name for ep in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP)
            )
            raise UsageError(
                f"--engine {name}: no engine of that name (installed: {', '.join(known) or 'none'};"
                " or give module:attribute)"
            )
        target = next(iter(found)).load()
    if isinstance(target, type) or (callable(target) and not isinstance(target, Engine)):
        try:
            target = target()
        except Exception as exc:
            raise UsageError(f"--engine {name}: creating the engine failed: {exc}") from None
    engine = target
    if not isinstance(engine, Engine):
        raise UsageError(f"--engine {name}: {engine!r} has no info() and run(level, given)")
    return engine


def open_engine(name: str | None, command: str | None, timeout: float) -> Engine:
    """The engine to certify: a process for ``command``, else the Python engine ``name``.

    A Python engine is wrapped in :class:`TimedEngine` so that a hang is cut off as well.
    """
    if command:
        from .process import ProcessEngine

        return ProcessEngine(command, timeout=timeout)
    return TimedEngine(load_engine(name or "reference"), timeout)


class TimedEngine:
    """An in-process engine whose every call is cut off after ``timeout`` seconds.

    Uses SIGALRM, so it works for Python code in the main thread; elsewhere calls run untimed.
    """

    def __init__(self, engine: Engine, timeout: float) -> None:
        """Wrap ``engine``."""
        self.engine = engine
        self.timeout = timeout

    @contextmanager
    def _limit(self) -> Iterator[None]:
        if self.timeout <= 0 or threading.current_thread() is not threading.main_thread():
            yield
            return

        def expire(signum: int, frame: FrameType | None) -> None:
            raise EngineError(f"the engine did not answer within {self.timeout:g} s")

        previous = signal.signal(signal.SIGALRM, expire)
        signal.setitimer(signal.ITIMER_REAL, self.timeout)
        try:
            yield
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)

    def info(self) -> EngineInfo:
        """The wrapped engine's identity."""
        with self._limit():
            return self.engine.info()

    def run(self, level: str, given: dict[str, JSON]) -> dict[str, JSON]:
        """Run one case, within the time limit."""
        with self._limit():
            return self.engine.run(level, given)


def handshake(engine: Engine) -> EngineInfo:
    """Ask the engine who it is; the answer is judged as its ``ready`` message would be."""
    info = engine.info()
    spoken = info.get("protocol", PROTOCOL_VERSION) if isinstance(info, dict) else None
    if spoken is not None and spoken != PROTOCOL_VERSION:
        raise EngineError(
            f"protocol version mismatch: the engine speaks {spoken!r}, the suite {PROTOCOL_VERSION}"
        )
    problem = info_problem(info)
    if problem is not None:
        raise EngineError(problem)
    return info
