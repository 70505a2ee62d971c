"""A match: rounds in sequence until one side alone is highest at or above the target.

:class:`Match` keeps the sides' scores across rounds, fixes the opener of each round (OPN-1,
OPN-3, OPN-4) and checks the target only once a round is over, penalties included (MAT-1 to
MAT-5). :func:`play_match` plays a whole match with a policy, for example :func:`random_policy`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from fiveup.contract.notation import Action, Tile
from fiveup.errors import IllegalMoveError

from .round import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    Round,
    RoundEnd,
    RoundResult,
    _usage,
    neutral_draw,
    shuffled_deck,
)
from .scoring import TARGET_RAW, displayed

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
    """The side that wins with these scores after a round, or None to play on.

    MAT-2: the side with the uniquely highest score wins once that score reaches the target.
    MAT-3: a highest score shared at or above the target plays on. MAT-4: no score above the
    target is rejected. MAT-5: scores may be negative.
    """
    top = max(scores)
    if top >= TARGET_RAW and list(scores).count(top) == 1:
        return list(scores).index(top)
    return None


class Match:
    """Rounds in sequence with the sides' scores carried from one to the next.

    Start each round with :meth:`start_round`, play it through :meth:`apply` (or on the
    returned :class:`Round`); once it is over the target is checked (MAT-1). Without ``rng`` the
    opener must be given wherever the rules call for a neutral draw (the first round and every
    round after a block); with ``rng`` a missing opener is drawn (:func:`neutral_draw`).
    """

    __slots__ = ("_players", "_rng", "_rounds", "_scores", "_settled", "_winner")

    def __init__(
        self,
        players: int,
        scores: Sequence[int] | None = None,
        *,
        rng: random.Random | None = None,
    ) -> None:
        """A match of ``players`` with raw ``scores`` per side before the first round."""
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise _usage("PLY-1", f"a game has 2, 3 or 4 players, not {players}")
        sides = 2 if players == MAX_PLAYERS else players
        if scores is None:
            scores = [0] * sides
        if len(scores) != sides:
            raise _usage("PLY-3", f"{players} players form {sides} sides, not {len(scores)}")
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
        round_ = Round(self._players, deck, opener, self.scores)
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
        while self._settled < len(rounds) and rounds[self._settled].over:
            if self._winner is None:
                self._winner = match_winner(rounds[self._settled].scores)
            self._settled += 1

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
        moves = round_.legal_moves
        return moves[int(draw() * len(moves))]

    return choose


def play_match(
    players: int,
    policy: Policy,
    seed: int,
    *,
    scores: Sequence[int] | None = None,
    max_rounds: int = DEFAULT_MAX_ROUNDS,
) -> Match:
    """Play a whole match with ``policy``; decks and neutral draws from ``random.Random(seed)``.

    Stops when a side wins or after ``max_rounds`` rounds (then ``over`` is False).
    """
    rng = random.Random(seed)
    match = Match(players, scores, rng=rng)
    while not match.over and len(match.rounds) < max_rounds:
        round_ = match.start_round(shuffled_deck(rng))
        while not round_.over:
            round_.apply(policy(round_))
    return match
