"""Players, seats, sides and the deal convention: the one place that knows them.

PLY-1 allows 2 to 4 players (the range is read from ``common.json``, which the schemas use);
PLY-2 and PLY-3 number the sides that keep a score; the protocol's deal convention (OQ-13) gives
seat *i* the tiles ``deck[5i:5i+5]`` and leaves the rest, in order, as the boneyard.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from .definitions import definition

__all__ = [
    "HAND_SIZE",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "PARTNERSHIP_PLAYERS",
    "PLAYER_COUNTS",
    "deal",
    "side_count",
    "side_of",
]

MIN_PLAYERS: int = definition("players")["minimum"]
"""Fewest players of a game (PLY-1)."""
MAX_PLAYERS: int = definition("players")["maximum"]
"""Most players of a game (PLY-1)."""
PLAYER_COUNTS: tuple[int, ...] = tuple(range(MIN_PLAYERS, MAX_PLAYERS + 1))
"""Every number of players a game may have: 2, 3 and 4."""
PARTNERSHIP_PLAYERS = 4
"""With this many players the partners sitting opposite form two sides (PLY-3)."""
HAND_SIZE = 5
"""Tiles dealt to each seat whatever the number of players (SET-3, and the deal convention)."""

_T = TypeVar("_T")


def side_count(players: int) -> int:
    """How many sides keep a score: one per player, or two partnerships with four (PLY-2/3)."""
    return 2 if players == PARTNERSHIP_PLAYERS else players


def side_of(seat: int, players: int) -> int:
    """The side a seat scores for: the seat itself with 2 or 3 players, seat mod 2 with 4.

    PLY-2 (two or three players each score alone) and PLY-3 (partners sit opposite).
    """
    return seat % 2 if players == PARTNERSHIP_PLAYERS else seat


def deal(
    deck: Sequence[_T], players: int, hand_size: int = HAND_SIZE
) -> tuple[list[list[_T]], list[_T]]:
    """The hands in seat order and the boneyard in draw order of a stacked ``deck`` (OQ-13)."""
    dealt = hand_size * players
    hands = [list(deck[start : start + hand_size]) for start in range(0, dealt, hand_size)]
    return hands, list(deck[dealt:])
