"""One round: deal, turns, drawing, passing, going out, blocks, penalties and refusals."""

from __future__ import annotations

import copy
import dataclasses
import random
from collections import Counter
from collections.abc import Callable, Sequence

import pytest
from deals import CHAIN, CHAIN_ACTIONS, SIXES, stacked, texts

from fiveup.contract.notation import ALL_TILES, Action, Placement, Tile, Verb
from fiveup.errors import IllegalMoveError, NotationError, UsageError
from fiveup.reference.layout import Layout, interned_placements
from fiveup.reference.round import (
    Drew,
    Passed,
    Played,
    Round,
    RoundEnd,
    RoundEnded,
    RoundResult,
    neutral_draw,
    parse_event,
    shuffled_deck,
    side_of,
)
from fiveup.reference.rules import STANDARD, Rules


def snapshot(round_: Round) -> tuple[object, ...]:
    """Everything a round shows, including its layout's indexes."""
    layout = round_.layout
    return (
        round_.turn,
        round_.pending,
        round_.hands,
        round_.boneyard,
        round_.boneyard_size,
        round_.scores,
        round_.result,
        round_.events,
        round_.over,
        list(round_.legal_moves),
        layout.placements(),
        layout.points(),
        Counter(layout.counted()),
        layout.sum,
        [layout.occupied_slots(t) for t in ALL_TILES],
    )


def act(round_: Round, *actions: str) -> None:
    for text in actions:
        round_.apply(Action.parse(text))


def refuse(round_: Round, text: str, rule: str) -> IllegalMoveError:
    before = snapshot(round_)
    action = Action.parse(text)
    assert action not in round_.legal_moves
    with pytest.raises(IllegalMoveError) as info:
        round_.apply(action)
    assert info.value.rule == rule, info.value
    assert snapshot(round_) == before
    return info.value


# --- the deal -------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_deal_gives_five_tiles_each_and_the_rest_is_the_boneyard(players: int) -> None:
    deck = shuffled_deck(random.Random(players))
    round_ = Round(players, deck, opener=players - 1)
    for seat in range(players):
        assert round_.hand(seat) == tuple(deck[5 * seat : 5 * seat + 5])
        assert round_.hands[seat] == round_.hand(seat)
    assert round_.boneyard == tuple(deck[5 * players :])
    assert round_.boneyard_size == 28 - 5 * players
    assert round_.turn == round_.opener == players - 1
    assert round_.deck == tuple(deck)
    assert round_.players == players
    assert round_.sides == (2 if players == 4 else players)
    assert round_.scores == (0,) * round_.sides
    assert round_.pending is None
    assert round_.result is None
    assert round_.events == ()
    assert round_.layout.is_empty


def test_sides() -> None:
    assert [side_of(s, 2) for s in range(2)] == [0, 1]
    assert [side_of(s, 3) for s in range(3)] == [0, 1, 2]
    assert [side_of(s, 4) for s in range(4)] == [0, 1, 0, 1]
    round_ = Round(4, list(ALL_TILES), 0, scores=[10, 20])
    assert [round_.side_of(s) for s in range(4)] == [0, 1, 0, 1]
    assert round_.scores == (10, 20)


@pytest.mark.parametrize(
    ("players", "deck", "opener", "scores", "rule"),
    [
        (1, list(ALL_TILES), 0, None, "PLY-1"),
        (5, list(ALL_TILES), 0, None, "PLY-1"),
        (2, list(ALL_TILES)[:27], 0, None, "SET-1"),
        (2, [*list(ALL_TILES)[:27], ALL_TILES[0]], 0, None, "SET-1"),
        (3, list(ALL_TILES), 3, None, "TRN-1"),
        (2, list(ALL_TILES), -1, None, "TRN-1"),
        (4, list(ALL_TILES), 0, [0, 0, 0, 0], "PLY-3"),
    ],
)
def test_a_bad_start_is_a_usage_error(
    players: int, deck: list[Tile], opener: int, scores: list[int] | None, rule: str
) -> None:
    with pytest.raises(UsageError) as info:
        Round(players, deck, opener, scores)
    assert info.value.rule == rule


def test_from_seed_is_reproducible() -> None:
    one, two = Round.from_seed(3, 42), Round.from_seed(3, 42)
    assert one.deck == two.deck
    assert one.opener == two.opener
    assert Round.from_seed(3, 43).deck != one.deck
    assert Round.from_seed(2, 42, opener=1, scores=[5, 10]).opener == 1
    assert sorted(one.deck) == list(ALL_TILES)


# --- the neutral draw -----------------------------------------------------------------------


class Loaded(random.Random):
    """A die that shows the given throws in order."""

    def __init__(self, throws: Sequence[int]) -> None:
        super().__init__(0)
        self.throws = list(throws)

    def randint(self, a: int, b: int) -> int:
        assert (a, b) == (1, 6)
        return self.throws.pop(0)


def test_the_neutral_draw_redraws_among_the_tied_only() -> None:
    rng = Loaded([6, 2, 6, 5, 1, 4])  # seats 0 and 2 tie at 6; then 0 throws 5, 2 throws 1
    assert neutral_draw([0, 1, 2], rng) == 0
    assert rng.throws == [4]
    assert neutral_draw([0, 1, 2], Loaded([3, 3, 3, 1, 2, 2, 4, 6])) == 2
    assert neutral_draw([3], Loaded([])) == 3
    with pytest.raises(UsageError):
        neutral_draw([], random.Random(0))


def test_the_neutral_draw_is_fair() -> None:
    rng = random.Random(7)
    wins = Counter(neutral_draw(range(3), rng) for _ in range(3000))
    assert set(wins) == {0, 1, 2}
    assert all(900 <= count <= 1100 for count in wins.values())


# --- the opening and turns ------------------------------------------------------------------


def test_the_opener_may_open_with_any_tile_and_must_play() -> None:
    round_ = Round(2, SIXES, 0)
    moves = round_.legal_moves
    assert [a.text for a in moves] == [f"0 play {t}" for t in texts(round_.hand(0))]
    assert len(moves) == 5
    assert moves
    refuse(round_, "0 draw", "DRW-1")
    refuse(round_, "0 pass", "DRW-5")
    refuse(round_, "1 play [0|0]", "TRN-3")
    refuse(round_, "0 play [0|0]", "LAY-3")  # in the other hand
    refuse(round_, "0 play [1|6]", "LAY-3")  # in the boneyard
    refuse(round_, "0 play [6|6]@[1|1]:line-a", "LAY-4")  # a point on an empty table


def test_turns_pass_clockwise_and_a_draw_keeps_the_turn() -> None:
    round_ = Round(2, SIXES, 1)
    act(round_, "1 play [0|0]")
    assert round_.turn == 0
    act(round_, "0 draw")  # no zero in seat 0's hand: [0|3] plays
    assert round_.turn == 0
    assert round_.pending == Tile.parse("[0|3]")
    act(round_, "0 play [0|3]@[0|0]:line-b")
    assert round_.turn == 1
    deck = stacked(
        ["[0|0]", "[0|1]", "[0|2]", "[1|1]", "[1|2]"],
        ["[0|3]", "[1|3]", "[2|3]", "[3|3]", "[0|4]"],
        ["[5|6]", "[1|4]", "[2|4]", "[3|4]", "[4|4]"],
        boneyard=["[2|2]", "[4|6]"],
    )
    three = Round(3, deck, 2)
    act(three, "2 play [5|6]")
    assert three.turn == 0  # clockwise from the last seat to seat 0
    act(three, "0 draw")
    assert (three.turn, three.pending) == (0, None)
    act(three, "0 draw")
    assert (three.turn, three.pending) == (0, Tile.parse("[4|6]"))
    act(three, "0 play [4|6]@[5|6]:high")
    assert three.turn == 1


def test_seats_the_game_does_not_have_are_not_actions() -> None:
    round_ = Round(2, SIXES, 0)
    with pytest.raises(NotationError):
        round_.apply(Action.parse("2 draw"))
    assert not round_.is_legal(Action.parse("2 draw"))


# --- drawing --------------------------------------------------------------------------------


def test_drawing_until_a_tile_plays_then_that_tile_at_once() -> None:
    round_ = Round(2, SIXES, 0)
    act(round_, "0 play [6|6]")
    assert [a.text for a in round_.legal_moves] == ["1 draw"]
    refuse(round_, "1 pass", "DRW-5")  # the boneyard still has tiles
    refuse(round_, "1 play [0|0]@[6|6]:line-a", "LAY-1")
    act(round_, "1 draw")
    assert round_.pending is None  # [0|3] does not play
    assert round_.events[-1:] == (Drew(1, Tile.parse("[0|3]")),)
    act(round_, "1 draw")
    assert round_.pending == Tile.parse("[1|6]")
    assert {a.text for a in round_.legal_moves} == {
        "1 play [1|6]@[6|6]:line-a",
        "1 play [1|6]@[6|6]:line-b",
    }
    refuse(round_, "1 draw", "DRW-3")
    refuse(round_, "1 pass", "DRW-3")
    refuse(round_, "1 play [0|0]@[6|6]:line-a", "DRW-4")  # before LAY-1
    refuse(round_, "1 play [2|6]@[6|6]:line-a", "DRW-4")  # before LAY-3
    refuse(round_, "1 play [1|6]@[6|6]:branch-a", "SPN-2")  # the pending tile goes on
    refuse(round_, "0 play [5|6]@[6|6]:line-a", "TRN-3")  # before everything
    act(round_, "1 play [1|6]@[6|6]:line-a")
    assert round_.pending is None
    assert round_.events[-1] == Played(1, Placement.parse("[1|6]@[6|6]:line-a"), 13, 0)
    assert round_.hand(1) == tuple(
        Tile.parse(t) for t in ["[0|0]", "[0|1]", "[1|1]", "[0|2]", "[1|2]", "[0|3]"]
    )
    assert round_.boneyard_size == 16
    assert round_.turn == 0


def test_a_player_who_can_play_may_not_draw() -> None:
    round_ = Round(2, SIXES, 0)
    act(round_, "0 play [6|6]", "1 draw", "1 draw", "1 play [1|6]@[6|6]:line-a")
    refuse(round_, "0 draw", "DRW-1")
    refuse(round_, "0 pass", "DRW-5")


# --- going out ------------------------------------------------------------------------------


def test_going_out_ends_the_round_and_penalties_come_off_each_side() -> None:
    round_ = Round(2, CHAIN, 0, scores=[100, 3])
    act(round_, *CHAIN_ACTIONS)
    sums = [e.sum for e in round_.events if isinstance(e, Played)]
    assert sums == [1, 2, 3, 4, 5, 6, 0, 0, 2]
    assert round_.over
    assert round_.turn is None
    assert round_.result == RoundResult(RoundEnd.OUT, 0, (0, 12), (0, 10), 0)
    assert round_.scores == (105, 3 - 10)  # MAT-5: below zero
    assert round_.events[-1] == RoundEnded(round_.result)
    assert not round_.legal_moves
    assert len(round_.legal_moves) == 0
    assert list(round_.legal_moves) == []
    for seat in (0, 1):  # once over, no seat has the turn: END-1 for every seat
        refuse(round_, f"{seat} draw", "END-1")
        refuse(round_, f"{seat} pass", "END-1")
        refuse(round_, f"{seat} play [6|6]@[0|2]:high", "END-1")
    with pytest.raises(NotationError):
        round_.apply(Action.parse("7 pass"))


def test_play_draw_and_pass_act_for_the_seat_to_act() -> None:
    round_ = Round(2, CHAIN, 0)
    round_.play(Placement.parse("[0|1]"))
    round_.play(Action.parse("1 play [1|2]@[0|1]:high"))
    with pytest.raises(IllegalMoveError) as info:
        round_.play(Action.parse("1 play [3|4]@[1|2]:high"))
    assert info.value.rule == "TRN-3"
    with pytest.raises(IllegalMoveError) as info:
        round_.draw()
    assert info.value.rule == "DRW-1"
    with pytest.raises(IllegalMoveError) as info:
        round_.pass_()
    assert info.value.rule == "DRW-5"
    assert len(round_.events) == 2


def test_four_players_round_partners_pips_separately() -> None:
    deck = stacked(
        ["[0|1]", "[1|1]", "[0|0]", "[0|2]", "[0|3]"],
        ["[1|2]", "[0|4]", "[1|3]", "[1|4]", "[1|5]"],
        ["[2|2]", "[2|3]", "[2|4]", "[2|5]", "[2|6]"],
        ["[3|3]", "[3|4]", "[3|5]", "[3|6]", "[4|4]"],
    )
    round_ = Round(4, deck, 0)
    act(round_, "0 play [0|1]", "1 play [1|2]@[0|1]:high", "2 play [2|2]@[1|2]:high")
    act(round_, "3 draw")
    assert round_.turn == 3
    # play on at random to the end and check the penalties and scores against the pips
    rng = random.Random(1)
    while not round_.over:
        moves = list(round_.legal_moves)
        round_.apply(moves[rng.randrange(len(moves))])
    result = round_.result
    assert result is not None
    for seat, hand in enumerate(round_.hands):
        assert result.pips[seat] == sum(t.pips for t in hand)
        remainder = result.pips[seat] % 5
        assert result.penalties[seat] == result.pips[seat] + (
            -remainder if remainder <= 2 else 5 - remainder
        )
    credits = [0, 0]
    for event in round_.events:
        if isinstance(event, Played):
            credits[event.seat % 2] += event.credit
    assert round_.scores == tuple(
        credits[side] - result.penalties[side] - result.penalties[side + 2] for side in (0, 1)
    )


# --- blocks and the empty boneyard ----------------------------------------------------------


def play_out(round_: Round, rng: random.Random) -> list[Round]:
    """Play to the end at random; return the state before every action."""
    states = []
    while not round_.over:
        states.append(round_.copy())
        moves = round_.legal_moves
        round_.apply(moves[rng.randrange(len(moves))])
    return states


def find_rounds(
    players: int, wanted: int, keep: Callable[[Round, list[Round]], bool]
) -> list[tuple[Round, list[Round]]]:
    found = []
    for seed in range(5000):
        round_ = Round.from_seed(players, seed)
        states = play_out(round_, random.Random(seed))
        if keep(round_, states):
            found.append((round_, states))
            if len(found) == wanted:
                break
    assert len(found) == wanted
    return found


def can_place(round_: Round, seat: int) -> bool:
    return any(round_.layout.can_place(t) for t in round_.hand(seat))


def blocked(round_: Round, states: list[Round]) -> bool:
    return round_.result is not None and round_.result.end is RoundEnd.BLOCKED


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_block_is_detected_at_once_and_has_no_winner(players: int) -> None:
    for round_, states in find_rounds(players, 3, blocked):
        result = round_.result
        assert result is not None
        assert (result.winner, result.next_opener) == (None, None)
        assert round_.boneyard_size == 0
        assert not any(can_place(round_, seat) for seat in range(players))
        assert all(round_.hand(seat) for seat in range(players))
        assert not isinstance(round_.events[-2], Passed)  # a pass never blocks
        for state in states:  # never blocked earlier
            assert state.boneyard_size > 0 or any(can_place(state, s) for s in range(players))
            if state.pending is not None:
                assert state.layout.can_place(state.pending)


def test_a_draw_from_an_empty_boneyard_is_refused_and_the_player_passes() -> None:
    def must_pass(round_: Round, states: list[Round]) -> bool:
        return any([a.verb for a in s.legal_moves] == [Verb.PASS] for s in states)

    _, states = find_rounds(3, 1, must_pass)[0]
    state = next(s for s in states if [a.verb for a in s.legal_moves] == [Verb.PASS])
    seat = state.turn
    assert seat is not None
    refuse(state, f"{seat} draw", "DRW-2")
    act(state, f"{seat} pass")
    assert state.events[-1] == Passed(seat)
    assert state.turn == (seat + 1) % 3


# --- refusals leave everything as it was ----------------------------------------------------


def candidate_actions(players: int) -> list[Action]:
    plays = [
        Action(seat, Verb.PLAY, p)
        for seat in range(players)
        for p in interned_placements().values()
    ]
    odd = [
        Action(0, Verb.PLAY, Placement.parse(t)) for t in ["[2|3]@[1|4]:low", "[0|0]@[5|5]:line-a"]
    ]
    rest = [Action(seat, verb) for seat in range(players) for verb in (Verb.DRAW, Verb.PASS)]
    return plays + odd + rest


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_action_is_accepted_exactly_when_legal_and_a_refusal_changes_nothing(
    players: int,
) -> None:
    candidates = candidate_actions(players)
    round_ = Round.from_seed(players, 2024 + players)
    states = play_out(round_, random.Random(players))
    picked = [*states[:: max(1, len(states) // 6)], round_]
    rules = Counter[str]()
    for state in picked:
        before = snapshot(state)
        legal = list(state.legal_moves)
        for action in candidates:
            if action in legal:
                assert action in state.legal_moves
                state.copy().apply(action)
                continue
            assert action not in state.legal_moves
            with pytest.raises(IllegalMoveError) as info:
                state.apply(action)
            rules[str(info.value.rule)] += 1
        assert snapshot(state) == before
    assert {"TRN-3", "END-1", "LAY-3", "LAY-1", "LAY-4"} <= set(rules)


# --- the log, views and copies --------------------------------------------------------------


def test_events_have_text_forms_that_round_trip() -> None:
    round_ = Round(2, SIXES, 0)
    act(round_, "0 play [6|6]", "1 draw", "1 draw", "1 play [1|6]@[6|6]:line-a")
    assert [e.text for e in round_.events] == [
        "0 play [6|6] sum 12 credit 0",
        "1 draw [0|3]",
        "1 draw [1|6]",
        "1 play [1|6]@[6|6]:line-a sum 13 credit 0",
    ]
    assert [e.action.text for e in round_.events if not isinstance(e, RoundEnded)] == [
        "0 play [6|6]",
        "1 draw",
        "1 draw",
        "1 play [1|6]@[6|6]:line-a",
    ]
    finished = Round(2, CHAIN, 0)
    act(finished, *CHAIN_ACTIONS)
    for event in (*round_.events, *finished.events, Passed(2)):
        assert parse_event(event.text) == event
        assert str(event) == event.text
    assert finished.events[-1].text == "end out winner=0 pips=0,12 penalties=0,10 next=0"
    blocked_result = RoundResult(RoundEnd.BLOCKED, None, (3, 4), (5, 5), None)
    assert blocked_result.text == "blocked winner=- pips=3,4 penalties=5,5 next=-"
    assert RoundResult.parse(blocked_result.text) == blocked_result
    assert str(blocked_result) == blocked_result.text


@pytest.mark.parametrize(
    "text",
    [
        "",
        "0 jump",
        "0 play [1|4] sum x credit 5",
        "end over",
        "end out winner=1",
        "0 draw",
        "x pass",
    ],
)
def test_malformed_events_are_notation_errors(text: str) -> None:
    with pytest.raises(NotationError):
        parse_event(text)


def test_legal_moves_is_a_live_view() -> None:
    round_ = Round(2, SIXES, 0)
    moves = round_.legal_moves
    assert moves.count() == 5
    assert Action.parse("0 play [6|6]") in moves
    assert "0 play [6|6]" not in moves
    assert moves[0] == Action.parse("0 play [6|6]")
    assert repr(moves).startswith("<LegalMoves [0 play [6|6], ")
    act(round_, "0 play [6|6]")
    assert [a.text for a in moves] == ["1 draw"]
    assert Action.parse("1 draw") in moves
    assert Action.parse("0 play [5|6]@[6|6]:line-a") not in moves


def test_a_copy_is_independent() -> None:
    round_ = Round(2, CHAIN, 0)
    act(round_, *CHAIN_ACTIONS[:4])
    _ = round_.events
    before = snapshot(round_)
    twin = round_.copy()
    act(twin, *CHAIN_ACTIONS[4:])
    assert twin.over
    assert snapshot(round_) == before
    act(round_, *CHAIN_ACTIONS[4:])
    assert snapshot(round_) == snapshot(twin)
    assert "turn 0" in repr(Round(2, CHAIN, 0))
    assert "over" in repr(round_)


def test_a_copy_holds_every_slot_and_shares_only_what_never_changes() -> None:
    round_ = Round(2, CHAIN, 0)
    act(round_, *CHAIN_ACTIONS[:4])
    _ = round_.events
    twin = round_.copy()
    changing = {"_bone", "_events", "_hands", "_layout", "_log", "_scores"}
    for name in Round.__slots__:
        mine, its = getattr(round_, name), getattr(twin, name)
        assert (its is not mine) if name in changing else (its is mine), name
    assert twin.hands == round_.hands and twin.events == round_.events
    assert all(a is not b for a, b in zip(twin.hand_codes, round_.hand_codes, strict=True))
    assert twin.layout.points_by_value == round_.layout.points_by_value
    assert not any(
        a is b
        for a, b in zip(twin.layout.points_by_value, round_.layout.points_by_value, strict=True)
    )


NO_SPINNER = dataclasses.replace(STANDARD, spins=lambda layout, placement: False)


def _moves_by_the_points(round_: Round) -> list[Action]:
    """The legal actions by their definition, read off the table's public points."""
    seat = round_.turn
    assert seat is not None
    layout = round_.layout
    tiles = round_.hand(seat) if round_.pending is None else (round_.pending,)
    if layout.is_empty:
        return [Action(seat, Verb.PLAY, Placement(tile)) for tile in tiles]
    plays = [
        Action(seat, Verb.PLAY, Placement(tile, point))
        for tile in tiles
        for value in dict.fromkeys((tile.low, tile.high))
        for point in layout.points_of_value(value)
    ]
    return plays or [Action(seat, Verb.DRAW if round_.drawable else Verb.PASS)]


@pytest.mark.parametrize("rules", [STANDARD, NO_SPINNER], ids=["standard", "no-spinner"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_legal_moves_and_can_place_agree_with_the_points_on_the_table(
    rules: Rules, players: int
) -> None:
    rng = random.Random(players)
    for _ in range(40):
        round_ = Round(players, shuffled_deck(rng), rng.randrange(players), rules=rules)
        while not round_.over:
            layout = round_.layout
            for seat in range(players):
                shown = {v for tile in round_.hand(seat) for v in (tile.low, tile.high)}
                expected = layout.is_empty or any(layout.points_of_value(v) for v in shown)
                assert round_.can_place(seat) is bool(round_.hand(seat) and expected)
            moves = round_.legal_action_list()
            assert moves == _moves_by_the_points(round_)
            round_.apply(moves[rng.randrange(len(moves))])
        assert round_.legal_action_list() == []


def _table_state(layout: Layout) -> tuple[object, ...]:
    return (
        layout.occupied_key(),
        [points.copy() for points in layout.points_by_value],
        layout.open_values,
        layout.sum,
        layout.placed.copy(),
    )


_PLACEMENTS = sorted(interned_placements().values(), key=lambda p: p.key)


@pytest.mark.parametrize("rules", [STANDARD, NO_SPINNER], ids=["standard", "no-spinner"])
@pytest.mark.parametrize("players", [2, 4])
def test_a_round_keeps_its_table_as_layout_place_does(rules: Rules, players: int) -> None:
    """The round places the spec's plays inline, not through Layout.place: the two agree.

    Every play of random rounds leaves the round's table as ``Layout.place`` of the same
    placement leaves a table of its own, with the same sum logged; a play of a tile in hand
    that the round refuses, the table refuses with the same rule and words, and neither
    changes.
    """
    rng = random.Random(7 + players)
    refused = Counter[str]()
    for _ in range(15):
        round_ = Round(players, shuffled_deck(rng), rng.randrange(players), rules=rules)
        table = Layout(rules)
        while not round_.over:
            seat = round_.turn
            assert seat is not None
            moves = round_.legal_action_list()
            in_hand = set(round_.hand(seat)) if round_.pending is None else set()
            tried = [p for p in rng.sample(_PLACEMENTS, 60) if p.tile in in_hand]
            for placement in tried:
                action = Action(seat, Verb.PLAY, placement)
                if action in moves:
                    continue
                before = _table_state(round_.layout)
                with pytest.raises(IllegalMoveError) as by_round:
                    round_.apply(action)
                with pytest.raises(IllegalMoveError) as by_table:
                    table.check(placement)
                assert (by_round.value.rule, by_round.value.message) == (
                    by_table.value.rule,
                    by_table.value.message,
                )
                refused[str(by_round.value.rule)] += 1
                assert _table_state(round_.layout) == before == _table_state(table)
            action = moves[rng.randrange(len(moves))]
            round_.apply(action)
            if action.placement is not None:
                assert round_.action_log[-1][3] == table.place(action.placement).sum
                assert _table_state(round_.layout) == _table_state(table)
    assert {"LAY-1", "LAY-4"} <= set(refused)


def test_an_action_is_read_by_its_fields_whatever_object_carries_them() -> None:
    class Subclassed(Action):
        __slots__ = ()

    round_ = Round(2, SIXES, 0)
    first = round_.legal_action_list()[0]
    assert first.placement is not None
    round_.apply(Subclassed(0, Verb.PLAY, first.placement))
    assert round_.events[0].text.startswith(f"0 play {first.placement.text}")
    changed = Action.parse(round_.legal_action_list()[0].text)
    object.__setattr__(changed, "code", 10**6)  # a frozen value altered by hand
    before = snapshot(round_)
    with pytest.raises(NotationError, match="was changed after it was made"):
        round_.apply(changed)
    assert snapshot(round_) == before


class _Duck:
    def __init__(self, tile: Tile) -> None:
        self.low, self.high = tile.low, tile.high


def test_a_deck_is_read_by_its_tiles_halves_and_anything_else_is_set_1() -> None:
    ducks = Round(2, [_Duck(t) for t in SIXES], 0)  # type: ignore[misc]
    assert ducks.hands == Round(2, SIXES, 0).hands
    for deck in ([object()] * 28, [*SIXES[:-1], SIXES[0]], SIXES[:-1], [*SIXES, SIXES[0]]):
        with pytest.raises(UsageError, match="each of the 28 tiles") as info:
            Round(2, deck, 0)  # type: ignore[arg-type]
        assert info.value.rule == "SET-1"


def _random_actions(round_: Round, rng: random.Random, limit: int | None) -> int:
    """The loop ``play_randomly`` is held to: list, choose with one draw, apply, again."""
    applied = 0
    moves = round_.legal_action_list()
    while moves and (limit is None or applied < limit):
        round_.apply(moves[int(rng.random() * len(moves))])
        applied += 1
        moves = round_.legal_action_list()
    return applied


def _mutant_rules() -> list[Rules]:
    from fiveup.mutants import CATALOGUE

    return [mutant.rules for mutant in CATALOGUE]


_LIMITS = (None, 0, 1, 2, 5, 9, 17, 400)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_play_randomly_is_the_random_loop_of_apply_action_for_action(players: int) -> None:
    """From the deal or from anywhere in a round, with or without a listing cached, any limit.

    Both rounds, both generators and the counts end alike, under the spec's rules (the fast
    path), on a variant's table (NO_SPINNER) and under every mutant's rules.
    """
    every_rules = [STANDARD, NO_SPINNER, *_mutant_rules()]
    rng = random.Random(players)
    plan = [STANDARD] * 100 + every_rules * 3  # every variant from three deals
    for number, rules in enumerate(plan):
        deck, opener = shuffled_deck(rng), rng.randrange(players)
        mine, theirs = (Round(players, deck, opener, rules=rules) for _ in range(2))
        start = rng.randrange(25)
        _random_actions(mine, random.Random(number), start)
        _random_actions(theirs, random.Random(number), start)
        if number % 2:
            mine.legal_action_list()
        limit = _LIMITS[number % len(_LIMITS)]
        seed = rng.getrandbits(32)
        by_playout, by_loop = random.Random(seed), random.Random(seed)
        assert mine.play_randomly(by_playout, limit) == _random_actions(theirs, by_loop, limit)
        assert by_playout.getstate() == by_loop.getstate()
        assert snapshot(mine) == snapshot(theirs)
        assert mine.action_log == theirs.action_log
        assert mine.position_key() == theirs.position_key()
        assert mine.copy().legal_action_list() == theirs.legal_action_list()


def test_play_randomly_plays_a_round_to_its_end_and_then_nothing() -> None:
    round_ = Round.from_seed(2, 11)
    applied = round_.play_randomly(random.Random(3))
    assert round_.over and applied == len(round_.action_log) > 0
    rng = random.Random(3)
    state = rng.getstate()
    assert round_.play_randomly(rng) == 0 and rng.getstate() == state


def test_play_randomly_plays_a_deep_copy_on_its_table_s_own_path() -> None:
    """A deep copy (or an unpickled round) holds its own copy of the round's join list.

    The table's class, not that list's identity, says whether the inline path may place: on a
    table without spinners a double placed inline would open its branches.
    """
    for seed in range(6):
        dealt = Round(2, shuffled_deck(random.Random(seed)), 0, rules=NO_SPINNER)
        mine, theirs = copy.deepcopy(dealt), copy.deepcopy(dealt)
        by_playout, by_loop = random.Random(seed), random.Random(seed)
        assert mine.play_randomly(by_playout) == _random_actions(theirs, by_loop, None)
        assert by_playout.getstate() == by_loop.getstate()
        assert snapshot(mine) == snapshot(theirs)
        assert mine.layout.spinners() == theirs.layout.spinners() == []


def test_play_randomly_on_a_subclass_goes_through_its_apply() -> None:
    seen: list[Action] = []

    class Watched(Round):
        __slots__ = ()

        def apply(self, action: Action) -> None:
            seen.append(action)
            super().apply(action)

    round_ = Watched(3, CHAIN, 0)
    assert round_.play_randomly(random.Random(5), 6) == 6
    assert [e.action for e in round_.events if not isinstance(e, RoundEnded)] == seen


@pytest.mark.parametrize(
    ("limit", "error"), [(-1, UsageError), (2.0, TypeError), ("3", TypeError), (True, None)]
)
def test_play_randomly_takes_a_count(limit: object, error: type[Exception] | None) -> None:
    round_ = Round(2, CHAIN, 0)
    before = snapshot(round_)
    if error is None:
        assert round_.play_randomly(random.Random(1), limit) == 1  # type: ignore[arg-type]
        return
    with pytest.raises(error):
        round_.play_randomly(random.Random(1), limit)  # type: ignore[arg-type]
    assert snapshot(round_) == before


class _Faulty(random.Random):
    """A generator that gives ``bad`` as its ``after``-th draw, or raises when ``bad`` is None."""

    def __init__(self, seed: int, after: int, bad: float | None) -> None:
        super().__init__(seed)
        self.left, self.bad = after, bad

    def random(self) -> float:
        self.left -= 1
        if self.left:
            return super().random()
        if self.bad is None:
            raise RuntimeError("the generator broke")
        return self.bad


@pytest.mark.parametrize("bad", [None, 1.0, 7.5, -0.6, -3.0, float("nan"), float("inf")])
def test_play_randomly_fails_as_the_loop_fails_and_leaves_the_round_as_the_last_action_did(
    bad: float | None,
) -> None:
    """A generator of one's own may break or draw outside [0, 1): the round stays whole."""
    for number in range(12):
        after = 1 + number * 3
        mine, theirs = (
            Round.from_seed(2 + number % 3, number),
            Round.from_seed(2 + number % 3, number),
        )
        outcomes: list[tuple[type[Exception] | None, int]] = []
        for round_, play in ((mine, mine.play_randomly), (theirs, None)):
            rng = _Faulty(number, after, bad)
            try:
                done = play(rng) if play else _random_actions(round_, rng, None)
            except Exception as exc:  # the same failure, whatever it is
                outcomes.append((type(exc), len(round_.action_log)))
            else:
                outcomes.append((None, done))
        assert outcomes[0] == outcomes[1]
        assert snapshot(mine) == snapshot(theirs)
        assert mine.position_key() == theirs.position_key()
