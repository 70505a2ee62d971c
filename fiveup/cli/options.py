"""The types of every numeric option of ``fiveup``: one home, so every command bounds alike.

A count, a seed or a time limit is read as ASCII digits (``int`` would also take ``5_000``,
``٣`` or 4,300 digits) within stated bounds, and a time limit as a finite number of seconds
(``float`` would take ``nan`` and ``inf``, which an engine would then be blamed for). Each type
is a :class:`WholeNumber` or :class:`Seconds` whose bounds a test can read, so that a new option
that does not use one is found. The two classes, and the time limit's and the memory bound's
types, are the harness's (``fiveup.harness.numbers``): the pytest plugin reads its options with
them too.
"""

from __future__ import annotations

from typing import Final

from fiveup.contract.players import MAX_PLAYERS, MIN_PLAYERS
from fiveup.harness.numbers import DIGITS, Seconds, WholeNumber, mebibytes, seconds
from fiveup.harness.process import MAX_TIMEOUT

from .common import a_file, file_or_folder

__all__ = [
    "DIGITS",
    "MAX_BENCH_COUNT",
    "MAX_SEED",
    "MAX_TIMEOUT",
    "PLAYERS",
    "Seconds",
    "WholeNumber",
    "a_file",
    "any_number",
    "count",
    "file_or_folder",
    "mebibytes",
    "seconds",
    "seed",
]

MAX_SEED: Final = 2**63
"""Seeds lie in -2**63 <= S < 2**63."""
MAX_BENCH_COUNT: Final = 1_000_000
"""The most rounds, matches, requests or cases one benchmark plays: a benchmark is a short run."""


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
