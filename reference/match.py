"""A match: rounds in sequence until one side alone is highest at or above the target.

:class:`Match` keeps the sides' scores across rounds, fixes the opener of each round (OPN-1,
OPN-3, OPN-4) and checks the target only once a round is over, penalties included (MAT-1 to
MAT-5). :func:`play_match` plays a whole match with a policy, for example :func:`random_policy`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from fiveup.contract.notation import Action, Tile
from fiveup.contract.players import MAX_PLAYERS, MIN_PLAYERS, side_count
from fiveup.errors import IllegalMoveError, UsageError

from .round import Round, RoundEnd, RoundResult, neutral_draw, shuffled_deck
from .rules import STANDARD, Rules
from .rules import match_winner as _standard_winner
from .scoring import displayed

__all__ = [
    "DEFAULT_MAX_ROUNDS",
    "Match",
    "Policy",
    "match_winner",
    "play_match",
    "random_policy",
]

Policy = Callable[[Round], Action]
"""Chooses one of ``round.legal_moves`` for the seat to act."""

DEFAULT_MAX_ROUNDS = 1000
"""Safety cap of :func:`play_match`: a match still undecided after this many rounds stops."""


def match_winner(scores: Sequence[int]) -> int | None:
    """The side that wins with these scores after a round under the spec's target, or None.

    MAT-2 to MAT-5; see :func:`fiveup.reference.rules.match_winner`, which takes the target.
    """
    return _standard_winner(scores, STANDARD.target)


class Match:
    """Rounds in sequence with the sides' scores carried from one to the next.

    Start each round with :meth:`start_round`, play it through :meth:`apply` (or on the
    returned :class:`Round`); once it is over the target is checked (MAT-1). Without ``rng`` the
    opener must be given wherever the rules call for a neutral draw (the first round and every
    round after a block); with ``rng`` a missing opener is drawn (:func:`neutral_draw`).
    """

    __slots__ = ("_players", "_rng", "_rounds", "_rules", "_scores", "_settled", "_winner")

    def __init__(
        self,
        players: int,
        scores: Sequence[int] | None = None,
        *,
        rng: random.Random | None = None,
        rules: Rules = STANDARD,
    ) -> None:
        """A match of ``players`` with raw ``scores`` per side before the first round."""
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise UsageError(f"a game has 2, 3 or 4 players, not {players}", "PLY-1")
        sides = side_count(players)
        if scores is None:
            scores = [0] * sides
        if len(scores) != sides:
            raise UsageError(f"{players} players form {sides} sides, not {len(scores)}", "PLY-3")
        self._rules = rules
        self._players = players
        self._rng = rng
        self._scores = tuple(scores)
        self._rounds: list[Round] = []
        self._settled = 0
        self._winner: int | None = None

    @property
    def players(self) -> int:
        """The number of players."""
        return self._players

    @property
    def rounds(self) -> tuple[Round, ...]:
        """Every round started so far, in order (the last may still be going on)."""
        return tuple(self._rounds)

    @property
    def current(self) -> Round | None:
        """The round going on, or None between rounds."""
        if self._rounds and not self._rounds[-1].over:
            return self._rounds[-1]
        return None

    @property
    def results(self) -> tuple[RoundResult, ...]:
        """The results of the finished rounds, in order."""
        return tuple(r.result for r in self._rounds if r.result is not None)

    @property
    def scores(self) -> tuple[int, ...]:
        """Each side's raw score now, including the credits of a round going on."""
        self._settle()
        return self._rounds[-1].scores if self._rounds else self._scores

    @property
    def displayed_scores(self) -> tuple[int, ...]:
        """Each side's score in displayed points (PTS-1)."""
        return tuple(displayed(score) for score in self.scores)

    @property
    def winner(self) -> int | None:
        """The winning side once the match is over, else None."""
        self._settle()
        return self._winner

    @property
    def over(self) -> bool:
        """True once a side has won (MAT-2)."""
        return self.winner is not None

    @property
    def next_opener(self) -> int | None:
        """The opener the rules fix for the next round (OPN-3), or None: a neutral draw."""
        last = self._rounds[-1].result if self._rounds else None
        return None if last is None else last.next_opener

    def start_round(self, deck: Sequence[Tile], opener: int | None = None) -> Round:
        """Deal the next round from ``deck``; ``opener`` only where a neutral draw decides.

        Refused with IllegalMoveError: MAT-1 while the current round is not over; MAT-2 once the
        match is over; OPN-3 when an opener is given after a round won by going out (its winner
        opens); OPN-1 (first round) or OPN-4 (after a block) when the opener is missing and the
        match has no ``rng`` to draw one.
        """
        self._settle()
        if self.current is not None:
            raise IllegalMoveError(
                "MAT-1", f"round {len(self._rounds) - 1} is not over: finish it first"
            )
        if self._winner is not None:
            raise IllegalMoveError("MAT-2", f"the match is over: side {self._winner} won")
        last = self._rounds[-1].result if self._rounds else None
        if last is not None and last.end is RoundEnd.OUT:
            if opener is not None:
                raise IllegalMoveError(
                    "OPN-3",
                    f"seat {last.winner} went out and opens this round; no opener may be given",
                )
            opener = last.next_opener
        elif opener is None:
            rule = "OPN-1" if last is None else "OPN-4"
            if self._rng is None:
                why = "the first round" if last is None else "a round after a block"
                raise IllegalMoveError(
                    rule, f"{why} is opened after a neutral draw: give the opener"
                )
            opener = neutral_draw(range(self._players), self._rng)
        assert opener is not None
        round_ = Round(self._players, deck, opener, self.scores, rules=self._rules)
        self._rounds.append(round_)
        return round_

    def apply(self, action: Action) -> None:
        """Apply ``action`` to the current round (END-1 if there is none going on)."""
        current = self.current
        if current is None:
            raise IllegalMoveError("END-1", "no round is going on: start one first")
        current.apply(action)

    def _settle(self) -> None:
        """Check the target after every finished round not checked yet (MAT-1)."""
        rounds = self._rounds
        rules = self._rules
        if rules.target_checked_mid_round:
            self._settle_mid_round()
        while self._settled < len(rounds) and rounds[self._settled].over:
            if self._winner is None:
                self._winner = rules.match_winner(rounds[self._settled].scores, rules.target)
            self._settled += 1

    def _settle_mid_round(self) -> None:
        """A variant's MAT-1: the target is checked after every action, before the count."""
        rules = self._rules
        for round_ in self._rounds:
            for scores in round_.score_history():
                if self._winner is None:
                    self._winner = rules.match_winner(scores, rules.target)

    def __repr__(self) -> str:
        state = f"won by side {self._winner}" if self.over else "going on"
        return (
            f"<Match players={self._players} rounds={len(self._rounds)} "
            f"scores={list(self.scores)} {state}>"
        )


def random_policy(rng: random.Random) -> Policy:
    """A policy choosing uniformly among the legal moves with ``rng``.

    The index is ``int(rng.random() * n)``: uniform up to the float's 53-bit resolution.
    """
    draw = rng.random

    def choose(round_: Round) -> Action:
        moves = round_.legal_action_list()
        return moves[int(draw() * len(moves))]

    return choose


def play_match(
    players: int,
    policy: Policy,
    seed: int,
    *,
    scores: Sequence[int] | None = None,
    max_rounds: int = DEFAULT_MAX_ROUNDS,
    rules: Rules = STANDARD,
) -> Match:
    """Play a whole match with ``policy``; decks and neutral draws from ``random.Random(seed)``.

    Stops when a side wins or after ``max_rounds`` rounds (then ``over`` is False).
    """
    rng = random.Random(seed)
    match = Match(players, scores, rng=rng, rules=rules)
    while not match.over and len(match.rounds) < max_rounds:
        round_ = match.start_round(shuffled_deck(rng))
        while not round_.over:
            round_.apply(policy(round_))
    return match
