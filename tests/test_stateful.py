"""The reference driven step by step by Hypothesis, legal and illegal actions mixed, across rounds.

A :class:`RuleBasedStateMachine` plays a match from a drawn deal and drawn scores, one step at a
time: a legal move, an action the rules refuse (of any kind of :class:`fiveup.strategies.Illegal`,
including any action after the end), the next round once one is over, or a new match from a new
deal once one is won. The same match is
played at the same time with every seat moved on by ``k`` (seat ``s`` sits at ``s + k``), and
after every step these invariants must hold:

* the 28 tiles are accounted for: in the hands, the boneyard and on the table, each once;
* the layout's sum equals its recomputation from ``layout.counted()``;
* every credit is 0 or a positive multiple of 5 (and is the sum when the sum is one, SCR-2);
* the scores changed only by the logged credits, credited to the placer's side, and at the end
  of a round by the penalties, each the seat's remaining pips rounded to a multiple of 5;
* an illegal action is refused with its rule and changes nothing (a full snapshot of the round
  before and after, in both seatings);
* rotating the seats changes no outcome: the rotated match shows the same events with the seats
  renamed, the same results and scores with the sides renamed, and the same winner.

The everyday run is bounded (60 examples of up to 40 steps, about 2 s). A longer profile,
``fiveup-long`` (2000 examples of up to 120 steps, no deadline; minutes), is registered by
:mod:`fiveup.strategies` and selected either way::

    FIVEUP_HYPOTHESIS_PROFILE=fiveup-long .venv/bin/python -m pytest tests/test_stateful.py
    .venv/bin/python -m pytest -p fiveup.strategies --hypothesis-profile=fiveup-long \\
        tests/test_stateful.py tests/test_strategies.py
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

from fiveup import strategies as fs
from fiveup.contract.notation import ALL_TILES, Action, Tile
from fiveup.contract.players import HAND_SIZE, side_of
from fiveup.errors import IllegalMoveError
from fiveup.reference.match import Match
from fiveup.reference.round import (
    Drew,
    Event,
    Passed,
    Played,
    Round,
    RoundEnd,
    RoundEnded,
    RoundResult,
)


class Seating:
    """Seat ``s`` of a match of ``players`` sits at ``s + k`` in the rotated match."""

    def __init__(self, players: int, k: int) -> None:
        self.players = players
        self.k = k

    def seat(self, seat: int) -> int:
        return (seat + self.k) % self.players

    def opt_seat(self, seat: int | None) -> int | None:
        return None if seat is None else self.seat(seat)

    def side(self, side: int) -> int:
        """The side of the seat that a side's first seat moves to (sides are seats up to 3)."""
        return side_of(self.seat(side), self.players)

    def per_seat(self, values: tuple[int, ...]) -> tuple[int, ...]:
        moved = [0] * len(values)
        for seat, value in enumerate(values):
            moved[self.seat(seat)] = value
        return tuple(moved)

    def per_side(self, values: tuple[int, ...]) -> tuple[int, ...]:
        moved = [0] * len(values)
        for side, value in enumerate(values):
            moved[self.side(side)] = value
        return tuple(moved)

    def deck(self, deck: tuple[Tile, ...]) -> list[Tile]:
        """The deck that deals seat ``s``'s hand to seat ``s + k``; the boneyard as it is."""
        hands = [deck[HAND_SIZE * s : HAND_SIZE * (s + 1)] for s in range(self.players)]
        moved = [hands[(s - self.k) % self.players] for s in range(self.players)]
        return [t for hand in moved for t in hand] + list(deck[HAND_SIZE * self.players :])

    def action(self, action: Action) -> Action:
        return Action(self.seat(action.seat), action.verb, action.placement)

    def result(self, result: RoundResult) -> RoundResult:
        return RoundResult(
            result.end,
            self.opt_seat(result.winner),
            self.per_seat(result.pips),
            self.per_seat(result.penalties),
            self.opt_seat(result.next_opener),
        )

    def event(self, event: Event) -> Event:
        if isinstance(event, Played):
            return Played(self.seat(event.seat), event.placement, event.sum, event.credit)
        if isinstance(event, Drew):
            return Drew(self.seat(event.seat), event.tile)
        if isinstance(event, Passed):
            return Passed(self.seat(event.seat))
        return RoundEnded(self.result(event.result))


def rounded(pips: int) -> int:
    """PEN-2, written again: a remainder of 1 or 2 rounds down, 3 or 4 rounds up."""
    return 5 * ((pips + 2) // 5)


class FiveUpMatch(RuleBasedStateMachine):
    """A match and its rotated twin, driven by legal moves, refused actions and new rounds."""

    def __init__(self) -> None:
        super().__init__()
        self.seating = Seating(2, 1)
        self.match = Match(2)
        self.twin = Match(2)
        self.round = Round(2, ALL_TILES, 0)
        self.twin_round = self.round

    @initialize(deal=fs.deals(), data=st.data())
    def deal(self, deal: fs.Deal, data: st.DataObject) -> None:
        self._new_match(deal, data)

    def _new_match(self, deal: fs.Deal, data: st.DataObject) -> None:
        players = deal.players
        self.seating = Seating(players, data.draw(st.integers(1, players - 1), label="k"))
        scores = data.draw(fs.scores(players), label="scores")
        self.match = Match(players, scores)
        self.twin = Match(players, self.seating.per_side(scores))
        self._start(deal.deck, deal.opener)

    def _start(self, deck: tuple[Tile, ...], opener: int | None) -> None:
        self.round = self.match.start_round(deck, opener)
        self.twin_round = self.twin.start_round(
            self.seating.deck(deck), self.seating.opt_seat(opener)
        )

    # --- steps ----------------------------------------------------------------------------

    @precondition(lambda self: not self.round.over)
    @rule(data=st.data())
    def play_a_legal_move(self, data: st.DataObject) -> None:
        moves = sorted(self.round.legal_moves, key=lambda action: action.text)
        action = data.draw(st.sampled_from(moves), label="legal move")
        before, logged = self.round.scores, len(self.round.events)
        self.round.apply(action)
        self.twin_round.apply(self.seating.action(action))
        new = self.round.events[logged:]
        assert new[0].action == action  # type: ignore[union-attr]
        assert len(new) == (2 if self.round.over else 1)
        changed = list(before)
        if isinstance(new[0], Played):
            changed[self.round.side_of(action.seat)] += new[0].credit
        if self.round.result is not None:
            for seat, penalty in enumerate(self.round.result.penalties):
                changed[self.round.side_of(seat)] -= penalty
        assert self.round.scores == tuple(changed)

    @rule(data=st.data())
    def try_an_illegal_action(self, data: st.DataObject) -> None:
        illegal = data.draw(fs.refused_actions(self.round), label="illegal action")
        twin_action = self.seating.action(illegal.action)
        before = fs.round_snapshot(self.round), fs.round_snapshot(self.twin_round)
        with pytest.raises(IllegalMoveError) as refused:
            self.round.apply(illegal.action)
        assert refused.value.rule == illegal.rule
        with pytest.raises(IllegalMoveError) as refused:
            self.twin_round.apply(twin_action)
        assert refused.value.rule == illegal.rule
        assert (fs.round_snapshot(self.round), fs.round_snapshot(self.twin_round)) == before

    @precondition(lambda self: self.round.over and not self.match.over)
    @rule(deck=fs.decks(), data=st.data())
    def next_round(self, deck: tuple[Tile, ...], data: st.DataObject) -> None:
        result = self.round.result
        assert result is not None
        opener = None
        if result.end is RoundEnd.BLOCKED:  # OPN-4: a new neutral draw
            opener = data.draw(st.integers(0, self.seating.players - 1), label="opener")
        self._start(deck, opener)

    @precondition(lambda self: self.match.over)
    @rule(deal=fs.deals(), data=st.data())
    def new_match(self, deal: fs.Deal, data: st.DataObject) -> None:
        self._new_match(deal, data)

    # --- invariants -----------------------------------------------------------------------

    @invariant()
    def the_28_tiles_are_accounted_for(self) -> None:
        for round_ in (self.round, self.twin_round):
            hands = [t for hand in round_.hands for t in hand]
            seen = [*hands, *round_.boneyard, *round_.layout.tiles()]
            assert sorted(seen) == sorted(ALL_TILES)

    @invariant()
    def the_sum_is_the_sum_of_the_counted_ends(self) -> None:
        layout = self.round.layout
        assert layout.sum == sum(value for _, value in layout.counted())

    @invariant()
    def every_credit_is_0_or_a_positive_multiple_of_5(self) -> None:
        for event in self.round.events:
            if isinstance(event, Played):
                assert event.credit == 0 or (event.credit > 0 and event.credit % 5 == 0)
                assert event.credit == (event.sum if event.sum % 5 == 0 else 0)

    @invariant()
    def the_scores_change_only_by_credits_and_penalties(self) -> None:
        round_ = self.round
        scores = list(round_.starting_scores)
        for event in round_.events:
            if isinstance(event, Played):
                scores[round_.side_of(event.seat)] += event.credit
        assert round_.score_history()[-1:] in ([], [tuple(scores)])
        result = round_.result
        if result is not None:
            pips = tuple(sum(tile.pips for tile in hand) for hand in round_.hands)
            assert result.pips == pips
            assert result.penalties == tuple(rounded(p) for p in pips)
            for seat, penalty in enumerate(result.penalties):
                scores[round_.side_of(seat)] -= penalty
        assert round_.scores == tuple(scores)
        assert self.match.scores == round_.scores

    @invariant()
    def rotating_the_seats_changes_no_outcome(self) -> None:
        seating = self.seating
        assert len(self.twin.rounds) == len(self.match.rounds)
        for round_, twin in zip(self.match.rounds, self.twin.rounds, strict=True):
            assert twin.events == tuple(seating.event(event) for event in round_.events)
            assert twin.scores == seating.per_side(round_.scores)
            assert twin.turn == seating.opt_seat(round_.turn)
        winner = self.match.winner
        assert self.twin.winner == (None if winner is None else seating.side(winner))


FiveUpMatch.TestCase.settings = fs.suite_settings(
    max_examples=40,
    stateful_step_count=40,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
TestFiveUpMatch = FiveUpMatch.TestCase
