"""A match: openers across rounds, the target checked only after a round, ties and winners."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from deals import CHAIN, CHAIN_ACTIONS, stacked

from fiveup.contract.notation import Action, Tile
from fiveup.errors import IllegalMoveError, UsageError
from fiveup.reference.match import (
    DEFAULT_MAX_ROUNDS,
    Match,
    match_winner,
    play_match,
    random_policy,
)
from fiveup.reference.round import Played, Round, RoundEnd, RoundEnded, RoundResult

# Seat 1 opens and goes out; seat 0 earns 5 on the second placement and keeps [3|6] (9 pips).
DUEL = stacked(
    ["[0|5]", "[6|6]", "[1|2]", "[3|4]", "[3|6]"],
    ["[0|0]", "[5|6]", "[0|1]", "[2|3]", "[4|4]"],
)
DUEL_ACTIONS = [
    "1 play [0|0]",
    "0 play [0|5]@[0|0]:line-a",  # sum 5: credit 5
    "1 play [5|6]@[0|5]:high",
    "0 play [6|6]@[5|6]:high",
    "1 play [0|1]@[0|0]:line-b",
    "0 play [1|2]@[0|1]:high",
    "1 play [2|3]@[1|2]:high",  # sum 15: credit 15
    "0 play [3|4]@[2|3]:high",
    "1 play [4|4]@[3|4]:high",  # sum 20: credit 20, seat 1 goes out
]  # seat 0: +5 - 10; seat 1: +35


def play(match: Match, actions: Sequence[str]) -> None:
    for text in actions:
        match.apply(Action.parse(text))


def refused(rule: str) -> pytest.RaisesExc[IllegalMoveError]:
    return pytest.raises(IllegalMoveError, match=f"^{rule}: ")


def test_the_scripted_rounds_end_as_described() -> None:
    chain = Match(2, [0, 0])
    chain.start_round(CHAIN, 0)
    play(chain, CHAIN_ACTIONS)
    assert chain.results == (RoundResult(RoundEnd.OUT, 0, (0, 12), (0, 10), 0),)
    assert chain.scores == (5, -10)
    duel = Match(2)
    duel.start_round(DUEL, 1)
    play(duel, DUEL_ACTIONS)
    assert duel.results == (RoundResult(RoundEnd.OUT, 1, (9, 0), (10, 0), 1),)
    assert duel.scores == (-5, 35)


def test_the_target_is_checked_only_after_the_round() -> None:
    match = Match(2, [300, 0])
    match.start_round(DUEL, 1)
    play(match, DUEL_ACTIONS[:2])
    assert match.scores == (305, 0)  # at the target in the middle of the round (MAT-1)
    assert not match.over
    assert match.winner is None
    play(match, DUEL_ACTIONS[2:])
    assert match.scores == (295, 35)  # the penalty took it back
    assert not match.over
    assert match.next_opener == 1


def test_a_uniquely_highest_score_at_the_target_wins_and_overshooting_is_fine() -> None:
    match = Match(2, [300, 290])
    match.start_round(CHAIN, 0)
    play(match, CHAIN_ACTIONS)
    assert match.scores == (305, 280)
    assert match.over
    assert match.winner == 0  # MAT-2
    with refused("MAT-2"):
        match.start_round(CHAIN)
    above = Match(2, [350, 0])
    above.start_round(CHAIN, 0)
    play(above, CHAIN_ACTIONS)
    assert above.winner == 0  # MAT-4: 355 is not rejected
    assert above.displayed_scores == (71, -2)


def test_a_tie_at_the_top_plays_further_ordinary_rounds() -> None:
    match = Match(2, [305, 320])
    match.start_round(CHAIN, 0)
    play(match, CHAIN_ACTIONS)
    assert match.scores == (310, 310)  # MAT-3: tied at the top
    assert not match.over
    match.start_round(CHAIN)  # seat 0 went out and opens (OPN-3)
    play(match, CHAIN_ACTIONS)
    assert match.scores == (315, 300)
    assert match.winner == 0
    assert len(match.rounds) == 2


@pytest.mark.parametrize(
    ("scores", "winner"),
    [
        ([305, 200], 0),
        ([310, 320], 1),
        ([310, 310], None),  # MAT-3
        ([304, 0], None),  # PTS-2: not yet
        ([300, 299], None),
        ([-5, 310, 310], None),
        ([320, 310, 5], 0),
        ([0, 0], None),
        ([-20, 306], 1),  # MAT-5
    ],
)
def test_match_winner(scores: list[int], winner: int | None) -> None:
    assert match_winner(scores) == winner


# --- openers --------------------------------------------------------------------------------


def test_the_first_opener_must_be_given_or_drawn() -> None:
    match = Match(2)
    with refused("OPN-1"):
        match.start_round(CHAIN)
    assert match.rounds == ()
    drawn = Match(2, rng=random.Random(3))
    round_ = drawn.start_round(CHAIN)
    assert round_.opener in (0, 1)
    assert drawn.current is round_


def test_the_seat_that_went_out_opens_the_next_round() -> None:
    match = Match(2)
    match.start_round(DUEL, 1)
    play(match, DUEL_ACTIONS)
    assert match.next_opener == 1
    with refused("OPN-3"):
        match.start_round(CHAIN, 1)
    assert match.start_round(DUEL).opener == 1
    drawing = Match(2, rng=random.Random(0))
    drawing.start_round(DUEL, 1)  # a first opener may be given even when it could be drawn
    play(drawing, DUEL_ACTIONS)
    with refused("OPN-3"):
        drawing.start_round(DUEL, 1)


def blocked_round(players: int) -> tuple[list[Tile], int, list[Action]]:
    """A deal, opener and actions (from seeded random play) that end in a block."""
    for seed in range(2000):
        round_ = Round.from_seed(players, seed)
        policy = random_policy(random.Random(seed))
        while not round_.over:
            round_.apply(policy(round_))
        if round_.result is not None and round_.result.end is RoundEnd.BLOCKED:
            actions = [e.action for e in round_.events if not isinstance(e, RoundEnded)]
            return list(round_.deck), round_.opener, actions
    raise AssertionError("no blocked round found")


def test_after_a_block_the_opener_is_drawn_again() -> None:
    deck, opener, actions = blocked_round(2)
    match = Match(2)
    match.start_round(deck, opener)
    for action in actions:
        match.apply(action)
    assert match.results[-1].end is RoundEnd.BLOCKED
    assert match.next_opener is None
    with refused("OPN-4"):
        match.start_round(deck)
    assert match.start_round(deck, 1 - opener).opener == 1 - opener
    drawn = Match(2, rng=random.Random(5))
    drawn.start_round(deck, opener)
    for action in actions:
        drawn.apply(action)
    assert drawn.start_round(CHAIN).opener in (0, 1)


# --- the match as a sequence ----------------------------------------------------------------


def test_a_round_must_be_finished_before_the_next() -> None:
    match = Match(2)
    with refused("END-1"):
        match.apply(Action.parse("0 pass"))
    match.start_round(CHAIN, 0)
    play(match, CHAIN_ACTIONS[:3])
    with refused("MAT-1"):
        match.start_round(CHAIN)
    assert len(match.rounds) == 1
    assert match.current is match.rounds[0]
    assert match.scores == (0, 0)
    assert match.results == ()
    play(match, CHAIN_ACTIONS[3:])
    assert match.current is None
    with refused("END-1"):
        match.apply(Action.parse("1 pass"))


def test_a_bad_start_is_a_usage_error() -> None:
    with pytest.raises(UsageError):
        Match(5)
    with pytest.raises(UsageError):
        Match(4, [0, 0, 0, 0])
    assert Match(4).scores == (0, 0)
    assert Match(3).players == 3


def test_play_match_is_reproducible_and_ends_with_a_winner() -> None:
    one = play_match(3, random_policy(random.Random(11)), 11)
    two = play_match(3, random_policy(random.Random(11)), 11)
    assert one.scores == two.scores
    assert [r.deck for r in one.rounds] == [r.deck for r in two.rounds]
    assert one.over
    winner = one.winner
    assert winner is not None
    assert one.scores[winner] >= 305
    assert sorted(one.scores)[-2] < one.scores[winner]
    assert "won by side" in repr(one)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_scores_and_openers_carry_from_round_to_round(players: int) -> None:
    match = play_match(players, random_policy(random.Random(players)), players, max_rounds=12)
    previous = match.rounds[0]
    for round_ in match.rounds[1:]:
        result = round_.result
        assert result is not None
        credits = [0] * round_.sides
        for event in round_.events:
            if isinstance(event, Played):
                credits[round_.side_of(event.seat)] += event.credit
        penalties = [0] * round_.sides
        for seat, penalty in enumerate(result.penalties):
            penalties[round_.side_of(seat)] += penalty
        start = tuple(s - c + p for s, c, p in zip(round_.scores, credits, penalties, strict=True))
        assert start == previous.scores
        assert previous.result is not None
        if previous.result.next_opener is not None:
            assert round_.opener == previous.result.next_opener
        previous = round_
    for round_ in match.rounds[:-1]:
        assert match_winner(round_.scores) is None


def test_the_round_cap_stops_an_undecided_match() -> None:
    match = play_match(2, random_policy(random.Random(1)), 1, max_rounds=1)
    assert len(match.rounds) == 1
    assert not match.over
    assert DEFAULT_MAX_ROUNDS >= 100
    assert "going on" in repr(match)
