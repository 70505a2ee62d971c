"""Random play: seeded rounds per player count (2,000 in the everyday run, 10,000 with the long
profile of ``fiveup.strategies``), and Hypothesis-driven play sequences."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fiveup import strategies as fs
from fiveup.contract.notation import ALL_TILES
from fiveup.reference.round import Drew, Passed, Played, Round, RoundEnd, RoundEnded
from fiveup.reference.scoring import placement_credit, rounded_penalty

ROUNDS = 10_000 if fs.long_profile_selected() else 2_000


def tiles_accounted(round_: Round) -> bool:
    """The 28 tiles, each exactly once, on the table, in a hand or in the boneyard (SET-1)."""
    seen = [*round_.layout.tiles(), *(t for hand in round_.hands for t in hand), *round_.boneyard]
    return len(seen) == 28 and set(seen) == set(ALL_TILES)


def can_place(round_: Round, seat: int) -> bool:
    return any(round_.layout.can_place(t) for t in round_.hand(seat))


def check_finished(round_: Round, start: tuple[int, ...]) -> None:
    """Everything a finished round must satisfy, read from its event log and state."""
    result = round_.result
    assert result is not None
    events = round_.events
    assert isinstance(events[-1], RoundEnded)
    assert events[-1].result == result
    assert tiles_accounted(round_)

    credits = Counter[int]()
    seat = round_.opener
    previous: Played | Drew | Passed | None = None
    played = 0
    for event in events[:-1]:
        assert not isinstance(event, RoundEnded)
        assert event.seat == seat  # TRN-1: clockwise from the opener
        if isinstance(event, Played):
            assert event.credit == placement_credit(event.sum)  # SCR-2
            assert event.credit == 0 or (event.credit > 0 and event.credit % 5 == 0)
            if isinstance(previous, Drew):  # DRW-1, DRW-3, DRW-4: only the drawn tile plays
                assert event.placement.tile == previous.tile
            credits[round_.side_of(seat)] += event.credit
            played += 1
            seat = (seat + 1) % round_.players  # TRN-2: a placement ends the turn
        elif isinstance(event, Passed):
            seat = (seat + 1) % round_.players
        previous = event  # a draw keeps the turn
    assert played == len(round_.layout)

    pips = tuple(sum(t.pips for t in hand) for hand in round_.hands)
    assert result.pips == pips  # PEN-1
    assert result.penalties == tuple(rounded_penalty(p) for p in pips)  # PEN-2
    penalties = Counter[int]()
    for s, penalty in enumerate(result.penalties):
        penalties[round_.side_of(s)] += penalty  # PEN-4: partners rounded separately
    assert round_.scores == tuple(
        start[side] + credits[side] - penalties[side] for side in range(round_.sides)
    )  # SCR-3, PEN-3: every change of score explained by the log

    if result.end is RoundEnd.OUT:
        assert result.winner is not None
        assert round_.hand(result.winner) == ()
        assert result.next_opener == result.winner  # OPN-3
        assert isinstance(events[-2], Played) and events[-2].seat == result.winner
    else:
        assert (result.winner, result.next_opener) == (None, None)  # END-3, OPN-4
        assert round_.boneyard_size == 0  # END-2
        assert not any(can_place(round_, s) for s in range(round_.players))
        assert not isinstance(events[-2], Passed)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_seeded_random_rounds_keep_every_invariant(players: int) -> None:
    rng = random.Random(players)
    draw = rng.random
    deck = list(ALL_TILES)
    sides = 2 if players == 4 else players
    ends = Counter[RoundEnd]()
    out_and_stuck = 0
    for number in range(ROUNDS):
        rng.shuffle(deck)
        start = tuple(5 * rng.randrange(-20, 70) for _ in range(sides))
        round_ = Round(players, deck, number % players, start)
        moves = round_.legal_moves
        deep = number < 200
        while not round_.over:
            assert moves
            round_.apply(moves[int(draw() * len(moves))])
            if deep:
                assert tiles_accounted(round_)
                assert round_.pending is None or round_.layout.can_place(round_.pending)
        check_finished(round_, start)
        result = round_.result
        assert result is not None
        ends[result.end] += 1
        if (
            result.end is RoundEnd.OUT
            and round_.boneyard_size == 0
            and not any(can_place(round_, s) for s in range(players))
        ):
            out_and_stuck += 1  # OQ-20: going out wins over a block
    assert ends[RoundEnd.OUT] > 0
    assert ends[RoundEnd.BLOCKED] > 0
    assert out_and_stuck > 0


@settings(max_examples=200, deadline=None)
@given(
    st.integers(min_value=2, max_value=4),
    st.integers(min_value=0, max_value=2**32),
    st.lists(st.integers(min_value=0, max_value=1000), min_size=1, max_size=120),
)
def test_random_legal_sequences_keep_the_invariants(
    players: int, seed: int, choices: list[int]
) -> None:
    round_ = Round.from_seed(players, seed)
    start = round_.scores
    for choice in choices:
        if round_.over:
            break
        moves = list(round_.legal_moves)
        assert len(moves) == len(round_.legal_moves) > 0
        twin = round_.copy()
        action = moves[choice % len(moves)]
        assert round_.is_legal(action)
        round_.apply(action)
        twin.apply(action)
        assert twin.events == round_.events
        assert twin.scores == round_.scores
        assert tiles_accounted(round_)
        if not round_.over:
            credits = Counter[int]()
            for event in round_.events:
                if isinstance(event, Played):
                    credits[round_.side_of(event.seat)] += event.credit
            assert round_.scores == tuple(start[s] + credits[s] for s in range(round_.sides))
            assert round_.turn is not None
            if round_.pending is not None:
                assert round_.pending in round_.hand(round_.turn)
                assert round_.layout.can_place(round_.pending)
    view = round_.legal_moves
    while not round_.over:
        round_.apply(view[choices[0] % len(view)])
    check_finished(round_, start)
