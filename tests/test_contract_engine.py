"""``fiveup.contract.engine``: Engine and its optional capabilities, read in one place."""

from __future__ import annotations

from fiveup.contract.engine import (
    CAPABILITIES,
    JSON,
    Engine,
    EngineInfo,
    Pipelined,
    checks_observations,
    claimed_features,
    closer,
    pipelined,
    unwrapped,
    validates_requests,
)
from fiveup.harness.engines import TimedEngine
from fiveup.harness.process import ProcessEngine
from fiveup.reference.engine import ReferenceEngine


class _Bare:
    """An engine with the two methods and no optional capability."""

    def info(self) -> EngineInfo:
        return {"name": "bare", "version": "1", "protocol": 1, "levels": ["scoring"]}

    def run(self, level: str, given: dict[str, JSON]) -> dict[str, JSON]:
        return {"value": 0}


class _Every(_Bare):
    """An engine with every optional capability."""

    validates_requests = True
    checks_observations = True

    def __init__(self) -> None:
        self.features = ["scoring.credit"]
        self.closed = 0
        self.engine = _Bare()

    def close(self) -> None:
        self.closed += 1

    def submit(
        self, level: str, given: dict[str, JSON], known: dict[str, JSON] | None = None
    ) -> None:
        pass

    def collect(self, spin: float = 0.0) -> dict[str, JSON]:
        return {"value": 0}


class _Pretending(_Bare):
    """Attributes named like capabilities that cannot be called."""

    close = None
    submit = "later"
    collect = 3


def test_an_engine_without_capabilities_has_none_of_them() -> None:
    bare = _Bare()
    assert isinstance(bare, Engine)
    assert claimed_features(bare) is None and closer(bare) is None and pipelined(bare) is None
    assert unwrapped(bare) is bare
    assert not validates_requests(bare) and not checks_observations(bare)


def test_each_capability_is_read_when_the_engine_has_it() -> None:
    every = _Every()
    assert claimed_features(every) == ["scoring.credit"]
    assert validates_requests(every) and checks_observations(every)
    close = closer(every)
    assert close is not None
    close()
    assert every.closed == 1
    assert pipelined(every) is every and isinstance(every, Pipelined)
    assert unwrapped(every) is every.engine


def test_attributes_that_cannot_be_called_are_no_capability() -> None:
    pretending = _Pretending()
    assert closer(pretending) is None and pipelined(pretending) is None


def test_the_harness_wrappers_and_engines_show_their_capabilities() -> None:
    reference = ReferenceEngine()
    timed = TimedEngine(reference, 1.0)
    assert unwrapped(timed) is reference and pipelined(timed) is None
    assert validates_requests(reference) and not checks_observations(reference)
    process = ProcessEngine(["true"])
    assert pipelined(process) is process and closer(process) is not None
    assert checks_observations(process)


def test_every_capability_has_a_name_of_its_own() -> None:
    assert len(set(CAPABILITIES)) == len(CAPABILITIES) == 7
    assert {"info", "run"}.isdisjoint(CAPABILITIES)
