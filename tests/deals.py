"""Stacked deals shared by the engine's tests (a helper module, not a test file)."""

from __future__ import annotations

from collections.abc import Sequence

from fiveup.contract.notation import ALL_TILES, Tile


def stacked(*hands: Sequence[str], boneyard: Sequence[str] = ()) -> list[Tile]:
    """Hands in seat order, then the boneyard: the tiles named first, the others after."""
    named = [Tile.parse(t) for hand in hands for t in hand] + [Tile.parse(t) for t in boneyard]
    assert len(set(named)) == len(named)
    return named + [t for t in ALL_TILES if t not in named]


def texts(tiles: Sequence[Tile]) -> list[str]:
    """The tiles' text forms."""
    return [t.text for t in tiles]


SIXES = stacked(
    ["[6|6]", "[5|6]", "[4|6]", "[3|6]", "[2|6]"],
    ["[0|0]", "[0|1]", "[1|1]", "[0|2]", "[1|2]"],
    boneyard=["[0|3]", "[1|6]", "[2|2]"],
)
"""A two-player deal in which seat 1 holds no six: after [6|6] it must draw."""

CHAIN = stacked(
    ["[0|1]", "[2|3]", "[4|5]", "[0|6]", "[0|2]"],
    ["[1|2]", "[3|4]", "[5|6]", "[0|0]", "[6|6]"],
)
"""A two-player deal that seat 0 goes out of in nine placements without a draw.

Its only credit is 5 (sum 5 on its third placement); seat 1 keeps [6|6] (a penalty of 10).
"""

CHAIN_ACTIONS = [
    "0 play [0|1]",
    "1 play [1|2]@[0|1]:high",
    "0 play [2|3]@[1|2]:high",
    "1 play [3|4]@[2|3]:high",
    "0 play [4|5]@[3|4]:high",
    "1 play [5|6]@[4|5]:high",
    "0 play [0|6]@[5|6]:high",
    "1 play [0|0]@[0|1]:low",
    "0 play [0|2]@[0|6]:low",
]
"""The actions that play CHAIN out."""
