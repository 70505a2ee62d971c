"""An independent move counter, written from spec/rules.md alone, to derive the moves fixtures.

Deliberately simple, slow and obvious: its own data structures (tiles as ``(low, high)``
pairs, points as ``(tile, slot)`` pairs, the table as a set of available points), no import
of ``fiveup`` at all, so it shares no code, and no mistake, with the reference's move generator.
Only what decides which actions are legal is modelled: which connection points are available
and their values (LAY-1, LAY-2, LAY-4, SPN-1 to SPN-4), the hands, the boneyard, the pending tile
and the turn (TRN-1, TRN-2, DRW-1 to DRW-5, END-1, END-2). Scores never change what is legal.

Run as a script it prints the legal list, the count and the divide of a position given as JSON:
the ``given`` of a moves fixture (``hands`` and ``boneyard``) or of a request (``deck``, as
``fiveup show CASE --request`` prints it, dealt five to a seat, SET-3, OQ-13; the whole
``run`` line is read too):
``python tests/perft_counter.py '<json>'``.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

Tile = tuple[int, int]
"""``(low, high)`` with low <= high."""
Point = tuple[Tile, str]
"""A connection point: a tile on the table and a slot of it."""

SLOTS = ("low", "high", "line-a", "line-b", "branch-a", "branch-b")
"""The slots, in the order of the notation (terms.md)."""


def tile_of(text: str) -> Tile:
    """``"[1|4]"`` as ``(1, 4)``."""
    a, b = text.strip("[]").split("|")
    return (min(int(a), int(b)), max(int(a), int(b)))


def tile_text(tile: Tile) -> str:
    """``(1, 4)`` as ``"[1|4]"``."""
    return f"[{tile[0]}|{tile[1]}]"


def value_of(point: Point) -> int:
    """The value a tile must show to join ``point`` (terms.md, "Connection points")."""
    (low, high), slot = point
    return high if slot == "high" else low


@dataclass
class Position:
    """Everything that decides what is legal next."""

    players: int
    hands: list[list[Tile]]
    boneyard: list[Tile]
    """Drawn from the front."""
    turn: int
    table: set[Point] = field(default_factory=set)
    """The available connection points."""
    occupied: dict[Tile, set[str]] = field(default_factory=dict)
    """For each double on the table, its occupied line sides."""
    placed: int = 0
    pending: Tile | None = None
    over: bool = False

    def copy(self) -> Position:
        return Position(
            self.players,
            [list(hand) for hand in self.hands],
            list(self.boneyard),
            self.turn,
            set(self.table),
            {tile: set(sides) for tile, sides in self.occupied.items()},
            self.placed,
            self.pending,
            self.over,
        )


def deal(
    players: int, hands: Sequence[Sequence[str]], boneyard: Sequence[str], opener: int
) -> Position:
    """The position before the first action."""
    return Position(
        players,
        [[tile_of(t) for t in hand] for hand in hands],
        [tile_of(t) for t in boneyard],
        opener,
    )


def placements(position: Position, tile: Tile) -> list[str]:
    """Every legal placement of ``tile`` now, as text (LAY-1, LAY-4, SPN-2)."""
    if position.placed == 0:
        return [tile_text(tile)]  # OPN-5: any tile opens the empty table
    found = []
    for point in position.table:
        if value_of(point) in tile:
            found.append(f"{tile_text(tile)}@{tile_text(point[0])}:{point[1]}")
    return found


def can_place(position: Position, hand: Sequence[Tile]) -> bool:
    """True when some tile of ``hand`` has a legal placement."""
    return any(placements(position, tile) for tile in hand)


def legal(position: Position) -> list[str]:
    """The legal actions of the seat to act, as text, in no particular order."""
    if position.over:
        return []
    seat = position.turn
    # DRW-3, DRW-4: with a drawn tile pending, only that tile may be placed
    tiles = [position.pending] if position.pending is not None else position.hands[seat]
    plays = [f"{seat} play {p}" for tile in tiles for p in placements(position, tile)]
    if plays:
        return plays  # DRW-1, DRW-5: who can place must place
    if position.boneyard:
        return [f"{seat} draw"]  # DRW-2
    return [f"{seat} pass"]  # DRW-5


def _occupy(position: Position, point: Point) -> None:
    position.table.discard(point)
    tile, slot = point
    if slot in ("line-a", "line-b"):
        sides = position.occupied.setdefault(tile, set())
        sides.add(slot)
        if sides == {"line-a", "line-b"}:  # SPN-2, SPN-3: both branches open now
            position.table.add((tile, "branch-a"))
            position.table.add((tile, "branch-b"))


def _blocked(position: Position) -> bool:
    """END-2: nothing to draw and nobody can place."""
    return not position.boneyard and not any(can_place(position, h) for h in position.hands)


def play(position: Position, action: str) -> None:
    """Carry out a legal action (as text) in place."""
    seat_text, verb, *rest = action.split(" ")
    seat = int(seat_text)
    if verb == "draw":
        tile = position.boneyard.pop(0)
        position.hands[seat].append(tile)
        if placements(position, tile):
            position.pending = tile  # DRW-3
        elif _blocked(position):
            position.over = True
        return  # TRN-2: a draw keeps the turn
    if verb == "pass":
        position.turn = (seat + 1) % position.players
        return
    text = rest[0]
    tile_part, _, point_part = text.partition("@")
    tile = tile_of(tile_part)
    position.hands[seat].remove(tile)
    position.pending = None
    double = tile[0] == tile[1]
    if not point_part:  # the opening
        if double:
            position.table |= {(tile, "line-a"), (tile, "line-b")}
            position.occupied[tile] = set()
        else:
            position.table |= {(tile, "low"), (tile, "high")}
    else:
        point_tile_text, slot = point_part.split(":")
        point = (tile_of(point_tile_text), slot)
        _occupy(position, point)
        value = value_of(point)
        if double:  # SPN-2: a joined double joins by line side A; line side B is open
            position.occupied[tile] = {"line-a"}
            position.table.add((tile, "line-b"))
        else:  # LAY-2: the unmatched half is a new end
            position.table.add((tile, "high" if value == tile[0] else "low"))
    position.placed += 1
    if not position.hands[seat]:
        position.over = True  # END-1: going out ends the round, also if nobody could play
        return
    position.turn = (seat + 1) % position.players  # TRN-1
    if _blocked(position):
        position.over = True


def count(position: Position, depth: int) -> int:
    """The sequences of exactly ``depth`` legal actions; one at depth 0, none past the end."""
    if depth == 0:
        return 1
    total = 0
    for action in legal(position):
        child = position.copy()
        play(child, action)
        total += count(child, depth - 1)
    return total


def divide(position: Position, depth: int) -> dict[str, int]:
    """The count under each legal first action (nothing at depth 0)."""
    if depth == 0:
        return {}
    out = {}
    for action in legal(position):
        child = position.copy()
        play(child, action)
        out[action] = count(child, depth - 1)
    return out


def _sort_key(action: str) -> tuple[object, ...]:
    """Plays by tile, the opening first, then by the point's tile and slot; then draw, pass."""
    _, verb, *rest = action.split(" ")
    if verb != "play":
        return (1 if verb == "draw" else 2,)
    tile_part, _, point_part = rest[0].partition("@")
    if not point_part:
        return (0, tile_of(tile_part), 0)
    point_tile, slot = point_part.split(":")
    return (0, tile_of(tile_part), 1, tile_of(point_tile), SLOTS.index(slot))


def canonical(actions: Sequence[str]) -> list[str]:
    """``actions`` in the canonical order of spec/protocol.md."""
    return sorted(actions, key=_sort_key)


class IllegalAction(Exception):
    """An action of the prefix is not among the legal ones."""

    def __init__(self, at: int, action: str) -> None:
        super().__init__(f"action {at} ({action}) is not legal")
        self.at = at


HAND_SIZE = 5
"""Tiles dealt to each seat, whatever the number of players (SET-3)."""


def hands_and_boneyard(given: Mapping[str, Any]) -> tuple[list[list[str]], list[str]]:
    """A fixture's ``hands`` and ``boneyard``, or a request's ``deck`` dealt (OQ-13)."""
    if "deck" not in given:
        return [list(hand) for hand in given["hands"]], list(given["boneyard"])
    deck, players = list(given["deck"]), given["players"]
    hands = [deck[HAND_SIZE * seat : HAND_SIZE * (seat + 1)] for seat in range(players)]
    return hands, deck[HAND_SIZE * players :]


def position_of(given: Mapping[str, Any]) -> Position:
    """The position after the ``actions`` of a moves ``given``; IllegalAction else."""
    hands, boneyard = hands_and_boneyard(given)
    position = deal(given["players"], hands, boneyard, given["opener"])
    for at, action in enumerate(given["actions"]):
        if action not in legal(position):
            raise IllegalAction(at, action)
        play(position, action)
    return position


def prefix_position(given: Mapping[str, Any]) -> tuple[Position, int | None]:
    """The position after the accepted prefix, and the index of the refused action (or None)."""
    actions = list(given["actions"])
    try:
        return position_of(given), None
    except IllegalAction as exc:
        return position_of({**given, "actions": actions[: exc.at]}), exc.at


def walk(position: Position, depth: int) -> Iterator[list[str]]:
    """Every sequence counted, for inspection by hand (slow)."""
    if depth == 0:
        yield []
        return
    for action in legal(position):
        child = position.copy()
        play(child, action)
        for rest in walk(child, depth - 1):
            yield [action, *rest]


USAGE = (
    "usage: python tests/perft_counter.py GIVEN_JSON\n"
    "GIVEN_JSON: a moves given, with players, hands and boneyard (or deck), opener, actions "
    "and depth\n"
)


def main(argv: Sequence[str]) -> int:
    """Print the counts of the position in ``argv[0]``; 2 with a usage line on bad input."""
    if len(argv) != 1:
        sys.stderr.write(USAGE)
        return 2
    try:
        given = json.loads(argv[0])
        if isinstance(given, dict) and given.get("cmd") == "run":
            given = given["given"]  # the whole line fiveup show --request prints
        found, refused = prefix_position(given)
        depth = int(given["depth"])
        result = {
            "legal": canonical(legal(found)),
            "count": count(found, depth),
            "divide": divide(found, depth),
            "refused_at": refused,
        }
    except (ValueError, KeyError, TypeError, IndexError, AttributeError) as exc:
        what = f"missing key {exc}" if isinstance(exc, KeyError) else str(exc)
        sys.stderr.write(f"perft_counter: not a moves given: {what}\n{USAGE}")
        return 2
    print(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
