"""The notation (fiveup.contract.notation): text forms round-trip, notation errors, slot order."""

from __future__ import annotations

import copy
import dataclasses
import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fiveup.contract.notation import (
    ALL_TILES,
    DOUBLE_SLOTS,
    DRAW_CODE,
    END_SLOTS,
    KEY_STRIDE,
    N_TILE_CODES,
    PASS_CODE,
    SLOT_COUNT,
    Action,
    Placement,
    Point,
    Slot,
    Tile,
    Verb,
)
from fiveup.errors import FiveUpError, NotationError

tiles = st.sampled_from(ALL_TILES)


@st.composite
def points(draw: st.DrawFn) -> Point:
    tile = draw(tiles)
    return Point(tile, draw(st.sampled_from(tile.slots())))


placements = st.builds(Placement, tiles, st.none() | points())


@st.composite
def actions(draw: st.DrawFn) -> Action:
    seat = draw(st.integers(min_value=0, max_value=3))
    verb = draw(st.sampled_from(Verb))
    return Action(seat, verb, draw(placements) if verb is Verb.PLAY else None)


def test_the_set_has_28_distinct_tiles_in_canonical_order() -> None:
    assert len(ALL_TILES) == 28
    assert len(set(ALL_TILES)) == 28
    assert list(ALL_TILES) == sorted(ALL_TILES)
    assert ALL_TILES[0].text == "[0|0]"
    assert ALL_TILES[-1].text == "[6|6]"
    assert sum(t.is_double for t in ALL_TILES) == 7


def test_a_tile_is_written_lower_half_first_and_read_either_way() -> None:
    assert Tile.parse("[4|1]") == Tile.parse("[1|4]") == Tile.of(4, 1)
    assert Tile.of(4, 1).text == "[1|4]"
    with pytest.raises(NotationError):
        Tile.parse(" [1|4] ")  # the grammar has no padding


@pytest.mark.parametrize("text", ["[1|7]", "[1,4]", "1|4", "[|4]", "[-1|4]", "[1|4]x", ""])
def test_malformed_tiles_are_notation_errors(text: str) -> None:
    with pytest.raises(NotationError):
        Tile.parse(text)


def test_tile_helpers() -> None:
    tile = Tile.of(2, 5)
    assert tile.pips == 7
    assert tile.has(5)
    assert not tile.has(3)
    assert tile.other(2) == 5
    assert tile.other(5) == 2
    assert tile.slots() == END_SLOTS
    assert Tile.of(3, 3).slots() == DOUBLE_SLOTS
    assert repr(tile) == "Tile.parse('[2|5]')"
    with pytest.raises(NotationError):
        Tile(5, 2)


def test_errors_derive_from_the_root_and_value_error() -> None:
    with pytest.raises(FiveUpError):
        Tile.parse("[9|9]")
    with pytest.raises(ValueError, match="not a tile"):
        Tile.parse("nine")


def test_point_values_follow_the_slot() -> None:
    assert Point.parse("[1|4]:low").value == 1
    assert Point.parse("[1|4]:high").value == 4
    for slot in DOUBLE_SLOTS:
        assert Point(Tile.of(5, 5), slot).value == 5


@pytest.mark.parametrize(
    "text", ["[1|4]:line-a", "[1|1]:low", "[1|1]:top", "[1|1]", "[1|1]:", "[1|8]:low"]
)
def test_points_a_tile_does_not_have_are_notation_errors(text: str) -> None:
    with pytest.raises(NotationError):
        Point.parse(text)


def test_slots_sort_in_declaration_order_so_points_sort() -> None:
    assert sorted(Slot) == list(Slot)
    assert Slot.LINE_A < Slot.LINE_B < Slot.BRANCH_A
    assert Slot.BRANCH_B >= Slot.BRANCH_B > Slot.LOW
    assert Slot.LOW <= Slot.HIGH
    mixed = [Point.parse(t) for t in ["[1|1]:branch-b", "[0|5]:low", "[1|1]:line-b"]]
    assert [p.text for p in sorted(mixed)] == ["[0|5]:low", "[1|1]:line-b", "[1|1]:branch-b"]
    assert Slot.LOW.__lt__(3) is NotImplemented


def test_slot_kinds() -> None:
    assert [s for s in Slot if s.is_end] == list(END_SLOTS)
    assert [s for s in Slot if s.is_line] == [Slot.LINE_A, Slot.LINE_B]
    assert [s for s in Slot if s.is_branch] == [Slot.BRANCH_A, Slot.BRANCH_B]


def test_the_joining_slot_is_the_matching_half_or_line_side_a() -> None:
    assert Placement.parse("[1|4]").joining_slot is None
    assert Placement.parse("[1|2]@[1|1]:line-b").joining_slot is Slot.LOW
    assert Placement.parse("[3|4]@[4|4]:line-b").joining_slot is Slot.HIGH
    assert Placement.parse("[5|5]@[1|5]:high").joining_slot is Slot.LINE_A


@pytest.mark.parametrize(
    ("text", "seat", "verb"),
    [
        ("0 play [1|2]@[1|1]:line-b", 0, Verb.PLAY),
        ("1 draw", 1, Verb.DRAW),
        ("2 pass", 2, Verb.PASS),
    ],
)
def test_actions_read_and_write(text: str, seat: int, verb: Verb) -> None:
    action = Action.parse(text)
    assert (action.seat, action.verb) == (seat, verb)
    assert action.text == text


@pytest.mark.parametrize(
    "text",
    ["play [1|4]", "0 jump", "0 play", "0 draw [1|4]", "0 play [1|4] [1|5]", "x draw", "-1 draw"],
)
def test_malformed_actions_are_notation_errors(text: str) -> None:
    with pytest.raises(NotationError):
        Action.parse(text)


def test_an_action_carries_a_placement_exactly_when_it_is_a_play() -> None:
    with pytest.raises(NotationError):
        Action(0, Verb.PLAY)
    with pytest.raises(NotationError):
        Action(0, Verb.DRAW, Placement.parse("[1|4]"))
    with pytest.raises(NotationError):
        Action(-1, Verb.PASS)


@given(tiles)
def test_tiles_round_trip(tile: Tile) -> None:
    assert Tile.parse(tile.text) == tile
    assert Tile.parse(f"[{tile.high}|{tile.low}]") == tile
    assert str(tile) == tile.text


@given(points())
def test_points_round_trip(point: Point) -> None:
    assert Point.parse(point.text) == point
    assert eval(repr(point), {"Point": Point}) == point


@given(placements)
def test_placements_round_trip(placement: Placement) -> None:
    assert Placement.parse(placement.text) == placement
    assert str(placement) == placement.text


@given(actions())
def test_actions_round_trip(action: Action) -> None:
    assert Action.parse(action.text) == action
    assert Action.parse(str(action)).text == action.text
    assert eval(repr(action), {"Action": Action}) == action


# --- the integer forms ------------------------------------------------------------------------

_ALL_POINTS = [Point(tile, slot) for tile in ALL_TILES for slot in tile.slots()]


def test_integer_forms_follow_their_formulas_and_name_each_value_once() -> None:
    assert [t.code for t in ALL_TILES] == [7 * t.low + t.high for t in ALL_TILES]
    assert all(0 <= t.code < N_TILE_CODES for t in ALL_TILES)
    order = list(Slot)
    assert len(order) == SLOT_COUNT
    assert [p.code for p in _ALL_POINTS] == [
        SLOT_COUNT * p.tile.code + order.index(p.slot) for p in _ALL_POINTS
    ]
    assert len({p.code for p in _ALL_POINTS}) == len(_ALL_POINTS)
    assert max(p.code for p in _ALL_POINTS) < KEY_STRIDE - 1
    placements = [Placement(t) for t in ALL_TILES]
    placements += [Placement(t, p) for t in ALL_TILES for p in _ALL_POINTS]
    keys = [pl.key for pl in placements]
    assert len(set(keys)) == len(placements)
    assert Placement.parse("[1|2]@[1|1]:line-b").key == 9 * KEY_STRIDE + 8 * SLOT_COUNT + 3 + 1
    assert Placement.parse("[1|2]").key == 9 * KEY_STRIDE
    play = Action.parse("3 play [1|2]@[1|1]:line-b")
    assert play.placement is not None
    assert play.code == play.placement.key
    assert (Action(0, Verb.DRAW).code, Action(2, Verb.PASS).code) == (DRAW_CODE, PASS_CODE)
    assert len({DRAW_CODE, PASS_CODE} | set(keys)) == len(keys) + 2


@given(actions())
def test_integer_forms_are_kept_by_copies_and_left_out_of_equality_and_text(
    action: Action,
) -> None:
    for other in (pickle.loads(pickle.dumps(action)), copy.deepcopy(action)):
        assert other == action
        assert other.code == action.code
    moved = dataclasses.replace(action, seat=action.seat + 1)
    assert moved.code == action.code
    assert moved != action
    assert "code" not in repr(action)
    assert "key" not in repr(action.placement)
    assert hash(Action.parse(action.text)) == hash(action)
    assert Action.__match_args__ == ("seat", "verb", "placement")


@pytest.mark.parametrize(
    "text",
    [
        "9" * 4301 + " draw",  # past int()'s 4,300 digits: a ValueError, not a NotationError
        "0" * 5000 + "1 pass",
        "1 play [" + "1" * 100_000 + "|2]",
        "x" * 100_000,
        "1 " + "p" * 100_000,
    ],
)
def test_a_text_too_long_to_be_an_action_is_a_notation_error_quoting_a_short_part(
    text: str,
) -> None:
    with pytest.raises(NotationError) as refused:
        Action.parse(text)
    assert len(str(refused.value)) < 300, len(str(refused.value))


def test_a_seat_of_up_to_eighteen_digits_is_read() -> None:
    assert Action.parse("9" * 18 + " draw").seat == int("9" * 18)
