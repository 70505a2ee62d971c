"""The pure scoring functions: credit, displayed points, penalties and the paper tally.

Every function names the spec rule it implements. Inputs outside a function's domain (negative
pips, raw points that are not a multiple of 5) raise :class:`fiveup.errors.UsageError`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from fiveup.errors import UsageError

TARGET_RAW = 305
"""The target of a match in raw points: 61 displayed points (PTS-2)."""

RAW_PER_DISPLAYED = 5
"""Raw points per displayed point (PTS-1)."""

HAND_SIZE = 5
"""Tiles dealt to each player, whatever the number of players (SET-3)."""

TALLY_MARK_RAW = 50
"""Raw points recorded by one big X with four small x around it (TAL-2)."""


def placement_credit(total: int) -> int:
    """The raw credit of a placement whose counted ends sum to ``total`` (SCR-2).

    The sum itself when it is a positive multiple of 5, otherwise 0 (a sum of 0 earns nothing).
    A sum of counted ends is never negative: a negative ``total`` is outside the domain.
    """
    if total < 0:
        raise UsageError(f"a sum of counted ends cannot be negative: {total} (SCR-1)")
    return total if total > 0 and total % RAW_PER_DISPLAYED == 0 else 0


def displayed(raw: int) -> int:
    """Displayed points for ``raw`` points, which must be a multiple of 5 (PTS-1)."""
    if raw % RAW_PER_DISPLAYED:
        raise UsageError(f"{raw} raw points is not a multiple of {RAW_PER_DISPLAYED} (PTS-1)")
    return raw // RAW_PER_DISPLAYED


def rounded_penalty(pips: int) -> int:
    """One player's remaining ``pips`` rounded to the nearest multiple of 5 (PEN-2).

    A remainder of 1 or 2 rounds down, 3 or 4 rounds up; an exact multiple stays.
    """
    if pips < 0:
        raise UsageError(f"remaining pips cannot be negative: {pips} (PEN-2)")
    remainder = pips % RAW_PER_DISPLAYED
    if remainder <= 2:
        return pips - remainder
    return pips + RAW_PER_DISPLAYED - remainder


def side_penalty(pips: Sequence[int]) -> int:
    """The raw penalty of one side: each player's ``pips`` rounded separately, then added (PEN-4).

    The partners' pips are never merged before rounding: ``[3, 3]`` costs 10, not 5. A side has
    one player (two or three players) or two (a partnership): other lengths are outside the
    domain.
    """
    if not 1 <= len(pips) <= 2:
        raise UsageError(f"a side has one or two players, not {len(pips)} (PLY-2, PLY-3)")
    return sum(rounded_penalty(p) for p in pips)


@dataclass(frozen=True, slots=True)
class Tally:
    """A score on the paper tally: ``fifties`` big marks of 50 raw, then ``strokes`` of 5 raw."""

    fifties: int
    strokes: int

    @property
    def raw(self) -> int:
        """The raw points the tally records."""
        return self.fifties * TALLY_MARK_RAW + self.strokes * RAW_PER_DISPLAYED

    @property
    def text(self) -> str:
        """Short text form, for example ``2x50 + 3x5`` for 115 raw points."""
        return f"{self.fifties}x{TALLY_MARK_RAW} + {self.strokes}x{RAW_PER_DISPLAYED}"

    def __str__(self) -> str:
        return self.text


def tally(raw: int) -> Tally:
    """The paper tally of ``raw`` points: as many 50-raw marks as fit, then 5-raw strokes.

    TAL-1 (a stroke is 5 raw) and TAL-2 (a big X with four small x is 50 raw). ``raw`` must be
    a non-negative multiple of 5.
    """
    if raw < 0 or raw % RAW_PER_DISPLAYED:
        raise UsageError(
            f"the tally records a non-negative multiple of {RAW_PER_DISPLAYED} raw points, "
            f"not {raw} (TAL-1)"
        )
    fifties, rest = divmod(raw, TALLY_MARK_RAW)
    return Tally(fifties, rest // RAW_PER_DISPLAYED)
