"""Small cases, a small corpus and a scripted engine shared by the harness's tests."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from fiveup.contract.engine import JSON, EngineInfo, Level
from fiveup.harness.corpus import Case, Corpus


def make_case(
    case_id: str,
    title: str = "t",
    rules: tuple[str, ...] = ("SCR-2",),
    level: Level = Level.SCORING,
) -> Case:
    return Case(
        id=case_id,
        title=title,
        rules=rules,
        level=level,
        given={"function": "credit", "input": 5},
        expect={"value": 5},
        provenance={"source": "derived", "note": "t"},
        description="",
        file="fixtures/scoring.yaml",
        line=3,
    )


CORPUS = Corpus(
    cases=(
        make_case("doc.scoring.credit-15", "a sum of 15 credits 15"),
        make_case(
            "rule.layout.spinner-branch", "branch before line sides", ("SPN-2",), Level.LAYOUT
        ),
        make_case("rule.layout.spinner-branch-2", "branch b first", ("SPN-3",), Level.LAYOUT),
    ),
    digest="d",
    files=("x",),
)


class Broken:
    """An engine whose info() answers (or raises) what it is given, and that credits 5."""

    def __init__(self, info: Any = None, delay: float = 0.0) -> None:
        self._info = info
        self.delay = delay

    def info(self) -> EngineInfo:
        if isinstance(self._info, Exception):
            raise self._info
        return self._info  # type: ignore[no-any-return]

    def run(self, level: str, given: dict[str, JSON]) -> dict[str, JSON]:
        time.sleep(self.delay)
        return {"value": 5}


def disk_full_at(monkeypatch: pytest.MonkeyPatch, full: Path) -> None:
    """Make writing ``full`` fail as a full disk does, while every other file is written."""
    import fiveup.harness.files as files

    staged = files._staged

    def staged_unless_full(target: Path, data: str | bytes) -> str:
        if target == full:
            raise OSError(28, "No space left on device")
        return staged(target, data)

    monkeypatch.setattr(files, "_staged", staged_unless_full)
