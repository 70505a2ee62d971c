"""The types that read a number an option is given: ASCII digits within stated bounds.

A count, a seed or a time limit is read as ASCII digits (``int`` would also take ``5_000``,
``٣`` or 4,300 digits) within stated bounds, and a time limit as a finite number of seconds
(``float`` would take ``nan`` and ``inf``, which an engine would then be blamed for). Each type
is a :class:`WholeNumber` or :class:`Seconds` whose bounds a test can read. They live in the
harness, not the command line, so that the pytest plugin's ``--fiveup-timeout`` and
``--fiveup-engine-memory`` read their numbers as ``fiveup certify`` does
(``fiveup.cli.options`` names every option's type from these).
"""

from __future__ import annotations

import argparse
import re
from dataclasses import dataclass
from typing import Final

from fiveup.contract.schemas import clip
from fiveup.errors import UsageError

from .process import MAX_MEMORY, MAX_TIMEOUT, MIN_MEMORY, check_seconds, seconds_range
from .text import printable

__all__ = ["DIGITS", "Seconds", "WholeNumber", "mebibytes", "seconds"]

DIGITS: Final = 30
"""The most digits a number is written with: more would name a count nobody can act on."""
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
    """An option's type: a time limit, 0.05 s (MIN_TIMEOUT) to ``high`` seconds."""

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


seconds: Final = Seconds()
"""The type of every time limit an engine is given (``--timeout``, ``--fiveup-timeout``)."""
mebibytes: Final = WholeNumber(MIN_MEMORY >> 20, MAX_MEMORY >> 20, " MiB")
"""The type of every engine's memory bound (``--engine-memory``, ``--fiveup-engine-memory``):
an engine process's data memory, in MiB."""
