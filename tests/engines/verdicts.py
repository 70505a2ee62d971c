"""Small in-process engines, one per conclusion a run can reach (spec/README.md, "Conformance").

Loaded by ``module:attribute`` (``tests.engines.verdicts:DeclinesAll``) from the repository root.
"""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar

from fiveup.contract.engine import JSON, EngineInfo
from fiveup.errors import UnsupportedCase
from fiveup.reference import STANDARD, ReferenceEngine
from fiveup.reference.scoring import rounded_penalty

LEVELS = ["scoring", "layout", "round", "match"]
"""Every level but the optional ``moves``: engines written before it, which still conform."""


def _info(name: str, levels: list[str]) -> EngineInfo:
    return {"name": name, "version": "1", "protocol": 1, "levels": levels}


class DeclinesAll:
    """Declares every level but moves and declines every case."""

    def info(self) -> EngineInfo:
        return _info("declines-all", LEVELS)

    def run(self, level: str, given: dict[str, JSON]) -> dict[str, JSON]:
        raise UnsupportedCase("not implemented yet")


class CreditOnly:
    """Declares the scoring level and answers only the credit function."""

    def info(self) -> EngineInfo:
        return _info("credit-only", ["scoring"])

    def run(self, level: str, given: dict[str, JSON]) -> dict[str, JSON]:
        if given.get("function") != "credit":
            raise UnsupportedCase("only credit")
        total = given["input"]
        return {"value": total if total > 0 and total % 5 == 0 else 0}


class TwoLevels(ReferenceEngine):
    """The reference engine declaring only the scoring and layout levels."""

    def info(self) -> EngineInfo:
        return _info("two-levels", ["scoring", "layout"])


class NoTally(ReferenceEngine):
    """The reference engine without the optional paper tally, declaring every level but moves."""

    def info(self) -> EngineInfo:
        return _info("no-tally", LEVELS)

    def run(self, level: str, given: dict[str, JSON]) -> dict[str, JSON]:
        if level == "scoring" and given.get("function") == "tally":
            raise UnsupportedCase("no paper tally")
        return super().run(level, given)


class CreditAndTallyNoTally(NoTally):
    """Claims the features scoring.credit and scoring.tally, and declines every tally case."""

    def info(self) -> EngineInfo:
        return {**_info("credit-tally", []), "features": ["scoring.credit", "scoring.tally"]}


def _round_up_at_three(pips: int) -> int:
    return pips - pips % 5 if pips % 5 <= 3 else pips + 5 - pips % 5


class FailsSome(ReferenceEngine):
    """The reference engine rounding a remainder of 3 down (PEN-2): some cases fail."""

    def __init__(self, **kwargs: Any) -> None:
        rules = dataclasses.replace(STANDARD, rounded_penalty=_round_up_at_three)
        super().__init__(rules, name="fails-some")


assert rounded_penalty(3) == 5  # the reference rounds 3 up; FailsSome does not


class AllFives(ReferenceEngine):
    """Like the All Fives adapter: claims ``scoring.credit`` and the layout level, declines the
    other scoring functions (it is never asked them: it does not claim them)."""

    features: ClassVar[list[str]] = ["scoring.credit"]
    """The optional claim of a Python engine, as an attribute (spec/protocol.md, "Handshake")."""

    def info(self) -> EngineInfo:
        return _info("all-fives", ["layout"])

    def run(self, level: str, given: dict[str, JSON]) -> dict[str, JSON]:
        if level == "scoring" and given.get("function") != "credit":
            raise UnsupportedCase("only credit")
        return super().run(level, given)


def _never_spins(*_: object) -> bool:
    return False


class AllFivesWrongLayout(AllFives):
    """As :class:`AllFives`, with ``features`` in its info, and no double a spinner: the
    layout cases of spinners fail."""

    features: ClassVar[list[str]] = []

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(dataclasses.replace(STANDARD, spins=_never_spins), name="all-fives-wrong")

    def info(self) -> EngineInfo:
        info = _info("all-fives-wrong", ["layout"])
        info["features"] = ["scoring.credit"]
        return info


class CreditFeatureOnly(CreditOnly):
    """Claims the single feature ``scoring.credit`` and no whole level."""

    def info(self) -> EngineInfo:
        info = _info("credit-feature", [])
        info["features"] = ["scoring.credit"]
        return info


class ReversedHands(ReferenceEngine):
    """The reference, each hand of a round listed backwards: a hand is a set, so it conforms."""

    def run(self, level: str, given: dict[str, JSON]) -> dict[str, JSON]:
        observation = super().run(level, given)
        state = observation.get("state")
        if isinstance(state, dict) and isinstance(state.get("hands"), list):
            state["hands"] = [list(reversed(hand)) for hand in state["hands"]]
        return observation
