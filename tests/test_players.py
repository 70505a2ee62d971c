"""Players, seats, sides and the deal (fiveup.contract.players), one source for all of them."""

from __future__ import annotations

import json
from pathlib import Path

from fiveup.contract.notation import ALL_TILES
from fiveup.contract.players import (
    HAND_SIZE,
    MAX_PLAYERS,
    MIN_PLAYERS,
    PLAYER_COUNTS,
    deal,
    side_count,
    side_of,
)

COMMON = Path(__file__).resolve().parent.parent / "spec" / "schemas" / "protocol" / "common.json"


def test_the_player_range_is_the_one_of_the_schemas() -> None:
    players = json.loads(COMMON.read_text(encoding="utf-8"))["$defs"]["players"]
    assert (MIN_PLAYERS, MAX_PLAYERS) == (players["minimum"], players["maximum"]) == (2, 4)
    assert PLAYER_COUNTS == (2, 3, 4)


def test_sides_alone_or_in_opposite_partnerships() -> None:
    assert [side_count(n) for n in PLAYER_COUNTS] == [2, 3, 2]
    assert [side_of(s, 2) for s in range(2)] == [0, 1]
    assert [side_of(s, 3) for s in range(3)] == [0, 1, 2]
    assert [side_of(s, 4) for s in range(4)] == [0, 1, 0, 1]


def test_the_deal_convention_gives_five_tiles_a_seat_in_order() -> None:
    deck = list(ALL_TILES)
    for players in PLAYER_COUNTS:
        hands, boneyard = deal(deck, players)
        assert [len(hand) for hand in hands] == [HAND_SIZE] * players
        assert hands[1] == deck[HAND_SIZE : 2 * HAND_SIZE]
        assert boneyard == deck[HAND_SIZE * players :]
        assert [t for hand in hands for t in hand] + boneyard == deck
