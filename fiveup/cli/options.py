"""The types of every numeric option of ``fiveup``: one home, so every command bounds alike.

A count, a seed or a time limit is read as ASCII digits (``int`` would also take ``5_000``,
``٣`` or 4,300 digits) within stated bounds, and a time limit as a finite number of seconds
(``float`` would take ``nan`` and ``inf``, which an engine would then be blamed for). Each type
is a :class:`WholeNumber` or :class:`Seconds` whose bounds a test can read, so that a new option
that does not use one is found.
"""

from __future__ import annotations

import argparse
import re
from dataclasses import dataclass
from typing import Final

from fiveup.contract.players import MAX_PLAYERS, MIN_PLAYERS
from fiveup.contract.schemas import clip
from fiveup.errors import UsageError
from fiveup.harness.process import (
    MAX_MEMORY,
    MAX_TIMEOUT,
    MIN_MEMORY,
    check_seconds,
    seconds_range,
)
from fiveup.harness.text import printable

__all__ = [
    "DIGITS",
    "MAX_BENCH_COUNT",
    "MAX_SEED",
    "MAX_TIMEOUT",
    "PLAYERS",
    "Seconds",
    "WholeNumber",
    "any_number",
    "count",
    "mebibytes",
    "seconds",
    "seed",
]

DIGITS: Final = 30
"""The most digits a number is written with: more would name a count nobody can act on."""
MAX_SEED: Final = 2**63
"""Seeds lie in -2**63 <= S < 2**63."""
MAX_BENCH_COUNT: Final = 1_000_000
"""The most rounds, matches, requests or cases one benchmark plays: a benchmark is a short run."""
_QUOTED = 40
"""The most characters of a word a message quotes."""
_WHOLE: Final = re.compile(r"[+-]?[0-9]+")
_DECIMAL: Final = re.compile(r"[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]{1,3})?")


def _quoted(text: str) -> str:
    return f"'{printable(clip(text, _QUOTED))}'"  # escaped once, not again by repr


def _read(text: str, pattern: re.Pattern[str], what: str) -> str:
    """``text`` without its blanks, when it is ``pattern`` of at most :data:`DIGITS` digits."""
    word = text.strip(" \t")  # str.strip would also take \x1c, which int() refuses
    if pattern.fullmatch(word) is None:
        raise argparse.ArgumentTypeError(f"not {what}: {_quoted(text)}")
    if sum(char.isdigit() for char in word) > DIGITS:
        raise argparse.ArgumentTypeError(f"{_quoted(word)} has more than {DIGITS} digits")
    return word


@dataclass(frozen=True, slots=True)
class WholeNumber:
    """An option's type: a whole number from ``low`` to ``high``, in ASCII digits."""

    low: int
    high: int
    what: str = ""
    """Said after the range when a number is out of it (why the bound is where it is)."""

    def __call__(self, text: str) -> int:
        """The number ``text`` names, or ``ArgumentTypeError`` saying what is wrong."""
        value = int(_read(text, _WHOLE, "a whole number"))
        if not self.low <= value <= self.high:
            raise argparse.ArgumentTypeError(
                f"{value} is out of range: from {self.low:,} to {self.high:,}{self.what}"
            )
        return value


@dataclass(frozen=True, slots=True)
class Seconds:
    """An option's type: a time limit, more than 0 and at most ``high`` seconds."""

    high: float = MAX_TIMEOUT

    def __call__(self, text: str) -> float:
        """The seconds ``text`` names, or ``ArgumentTypeError`` saying what is wrong."""
        word = _read(text, _DECIMAL, "a number of seconds")
        try:  # past the largest float the text reads as inf, so the message quotes the text
            return check_seconds(float(word), most=self.high)
        except UsageError:
            raise argparse.ArgumentTypeError(
                f"{word} is out of range: {seconds_range(self.high)}"
            ) from None


def count(high: int, low: int = 0) -> WholeNumber:
    """A count of things to do, from ``low`` (default 0) to ``high``."""
    return WholeNumber(low, high)


PLAYERS: Final = WholeNumber(MIN_PLAYERS, MAX_PLAYERS)
"""The type of every ``--players``."""
any_number: Final = WholeNumber(1 - 10**DIGITS, 10**DIGITS - 1)
"""Any whole number of at most :data:`DIGITS` digits: for a value whose command checks the range
itself, in words of its own (a rule it names)."""
seed: Final = WholeNumber(-MAX_SEED, MAX_SEED - 1)
"""The type of every ``--seed``."""
seconds: Final = Seconds()
"""The type of every ``--timeout``."""
mebibytes: Final = WholeNumber(MIN_MEMORY >> 20, MAX_MEMORY >> 20, " MiB")
"""The type of every ``--engine-memory``: an engine process's data memory, in MiB."""
