"""Speed of the reference engine: random rounds for 2, 3 and 4 players, and whole matches.

Every move is chosen uniformly among the legal moves with a seeded ``random.Random``, so a run
is reproducible (its timings are not). The timed loops run with the cyclic garbage collector
paused, as ``timeit`` does: the engine builds no reference cycles.
"""

from __future__ import annotations

import gc
import json
import platform
import random
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass

from fiveup.contract.engine import JSON
from fiveup.contract.notation import ALL_TILES
from fiveup.contract.players import MAX_PLAYERS, MIN_PLAYERS, side_count
from fiveup.errors import UsageError

from .match import play_match, random_policy
from .round import Round, RoundEnded, neutral_draw, shuffled_deck

__all__ = [
    "YARDSTICK_TARGET",
    "BenchReport",
    "MatchFigures",
    "RoundFigures",
    "YardstickFigures",
    "action_loop_rounds",
    "bare_rounds",
    "format_text",
    "format_yardstick",
    "random_round_requests",
    "reference_rounds",
    "run_bench",
    "time_against_bare",
    "time_rounds",
    "to_json",
]

DEFAULT_ROUNDS = 20_000
"""Random rounds per player count in a default run."""
DEFAULT_MATCHES = 20
"""Random matches per player count in a default run."""


@dataclass(frozen=True, slots=True)
class RoundFigures:
    """Random rounds of one player count: how many, their placements and the time taken."""

    players: int
    rounds: int
    placements: int
    seconds: float

    @property
    def rounds_per_second(self) -> float:
        """Rounds dealt and played to their end per second."""
        return self.rounds / self.seconds if self.seconds else 0.0

    @property
    def placements_per_second(self) -> float:
        """Tiles placed per second."""
        return self.placements / self.seconds if self.seconds else 0.0


@dataclass(frozen=True, slots=True)
class MatchFigures:
    """Random matches of one player count: how many, their rounds and the time taken."""

    players: int
    matches: int
    rounds: int
    seconds: float

    @property
    def matches_per_second(self) -> float:
        """Whole matches played to a winner (or the round cap) per second."""
        return self.matches / self.seconds if self.seconds else 0.0

    @property
    def rounds_per_match(self) -> float:
        """The mean number of rounds in a match."""
        return self.rounds / self.matches if self.matches else 0.0


@dataclass(frozen=True, slots=True)
class BenchReport:
    """The figures of one bench run."""

    seed: int
    python: str
    rounds: tuple[RoundFigures, ...]
    matches: tuple[MatchFigures, ...]


@contextmanager
def _collector_paused() -> Iterator[None]:
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _time_rounds(players: int, rounds: int, rng: random.Random) -> RoundFigures:
    with _collector_paused():
        start = time.perf_counter()
        placements, _ = reference_rounds(players, rounds, rng)
        seconds = time.perf_counter() - start
    return RoundFigures(players, rounds, placements, seconds)


def time_rounds(players: int, rounds: int, seed: int = 0) -> RoundFigures:
    """``rounds`` random rounds of ``players`` timed as ``run_bench`` times them."""
    if rounds < 0:
        raise UsageError("the number of rounds cannot be negative")
    return _time_rounds(players, rounds, random.Random(seed))


def _time_matches(players: int, matches: int, rng: random.Random) -> MatchFigures:
    rounds = 0
    with _collector_paused():
        start = time.perf_counter()
        for _ in range(matches):
            seed = rng.getrandbits(64)
            rounds += len(play_match(players, random_policy(random.Random(seed)), seed).rounds)
        seconds = time.perf_counter() - start
    return MatchFigures(players, matches, rounds, seconds)


def run_bench(
    rounds: int = DEFAULT_ROUNDS, matches: int = DEFAULT_MATCHES, seed: int = 0
) -> BenchReport:
    """Play ``rounds`` random rounds and ``matches`` random matches for 2, 3 and 4 players."""
    if rounds < 0 or matches < 0:
        raise UsageError("the numbers of rounds and matches cannot be negative")
    rng = random.Random(seed)
    counts = range(MIN_PLAYERS, MAX_PLAYERS + 1)
    round_figures = tuple(_time_rounds(players, rounds, rng) for players in counts)
    match_figures = tuple(_time_matches(players, matches, rng) for players in counts)
    python = f"{platform.python_implementation()} {platform.python_version()}"
    return BenchReport(seed, python, round_figures, match_figures)


def format_text(report: BenchReport) -> str:
    """The report as a small plain-text table."""
    lines = [
        f"Five Up reference engine bench (seed {report.seed}, {report.python}, one core)",
        "",
        f"{'players':>7}  {'rounds':>8}  {'placements':>10}  {'seconds':>7}  "
        f"{'rounds/s':>9}  {'placements/s':>12}",
    ]
    for r in report.rounds:
        lines.append(
            f"{r.players:>7}  {r.rounds:>8}  {r.placements:>10}  {r.seconds:>7.2f}  "
            f"{r.rounds_per_second:>9,.0f}  {r.placements_per_second:>12,.0f}"
        )
    lines += [
        "",
        f"{'players':>7}  {'matches':>8}  {'rounds':>10}  {'seconds':>7}  "
        f"{'matches/s':>9}  {'rounds/match':>12}",
    ]
    for m in report.matches:
        lines.append(
            f"{m.players:>7}  {m.matches:>8}  {m.rounds:>10}  {m.seconds:>7.2f}  "
            f"{m.matches_per_second:>9,.1f}  {m.rounds_per_match:>12.1f}"
        )
    return "\n".join(lines) + "\n"


def to_json(report: BenchReport) -> str:
    """The report as JSON text, with the rates next to the raw counts."""
    data = {
        "seed": report.seed,
        "python": report.python,
        "rounds": [
            {
                **asdict(r),
                "rounds_per_second": r.rounds_per_second,
                "placements_per_second": r.placements_per_second,
            }
            for r in report.rounds
        ],
        "matches": [
            {
                **asdict(m),
                "matches_per_second": m.matches_per_second,
                "rounds_per_match": m.rounds_per_match,
            }
            for m in report.matches
        ],
    }
    return json.dumps(data, indent=2) + "\n"


def random_round_requests(players: int, count: int, seed: int) -> list[dict[str, JSON]]:
    """``count`` round requests of the protocol (``given`` of level ``round``), played at random.

    Each deals a seeded deck, plays it to its end with uniformly random legal moves and gives
    the deck, the opener and every action, so an engine replays a complete round.
    """
    rng = random.Random(seed)
    policy = random_policy(rng)
    requests: list[dict[str, JSON]] = []
    for _ in range(count):
        deck = shuffled_deck(rng)
        opener = neutral_draw(range(players), rng)
        round_ = Round(players, deck, opener)
        while not round_.over:
            round_.apply(policy(round_))
        actions = [e.action.text for e in round_.events if not isinstance(e, RoundEnded)]
        requests.append(
            {
                "players": players,
                "deck": [tile.text for tile in deck],
                "opener": opener,
                "scores": [0] * side_count(players),
                "actions": actions,
            }
        )
    return requests


# --- the bare loop: the yardstick the reference is measured against --------------------------


def bare_rounds(players: int, rounds: int, rng: random.Random) -> tuple[int, int]:  # noqa: C901 - one straight loop, as a bare loop is written
    """Play ``rounds`` random rounds as bench does, on nothing but a few lists; time nothing.

    The yardstick of :func:`time_against_bare`: the same deal (``rng.shuffle`` of the canonical
    order, five tiles a seat, the rest drawn in order), the same choice of move (the legal
    actions listed in the reference's order, one ``rng.random()`` each), the same block test
    and the same end-of-round count (PEN-1 to PEN-4), and nothing else: no checks, no events,
    no credits. Tiles are ``7 * low + high``; a point is ``4 * tile + slot`` (0 and 1 the ends
    of a non-double or a double's line sides, 2 and 3 its branches), listed by value in
    ``avail`` in the order it opened. Returns the tiles placed and the penalties counted, which
    equal the reference's for the same ``rng``.
    """
    draw = rng.random
    shuffle = rng.shuffle
    deck = [7 * tile.low + tile.high for tile in ALL_TILES]
    low_of = [code // 7 for code in range(49)]
    high_of = [code % 7 for code in range(49)]
    pips_of = [low_of[c] + high_of[c] for c in range(49)]
    sides = [seat % 2 if players == 4 else seat for seat in range(players)]
    placed = penalties = 0
    for number in range(rounds):
        shuffle(deck)
        hands = [deck[5 * s : 5 * s + 5] for s in range(players)]
        bone = deck[: 5 * players - 1 : -1]
        scores = [0] * (2 if players == 4 else players)
        avail: list[list[int]] = [[], [], [], [], [], [], []]
        lines = [0] * 49  # per double on the table: its line sides taken
        seat = number % players
        pending = -1
        opened = False
        while True:
            hand = hands[seat]
            if not opened:
                moves = [(t, -1) for t in hand]
            else:
                moves = []
                for t in [pending] if pending >= 0 else hand:
                    a, b = low_of[t], high_of[t]
                    for p in avail[a]:
                        moves.append((t, p))
                    if a != b:
                        for p in avail[b]:
                            moves.append((t, p))
            if not moves:
                draw()
                if bone:  # a draw: the drawer acts again, placing the tile if it can
                    t = bone.pop()
                    hand.append(t)
                    if avail[low_of[t]] or avail[high_of[t]]:
                        pending = t
                        continue
                    if bone:
                        continue
                else:  # a pass
                    seat = (seat + 1) % players
                    continue
            else:
                t, p = moves[int(draw() * len(moves))]
                hand.remove(t)
                pending = -1
                a, b = low_of[t], high_of[t]
                placed += 1
                if p < 0:
                    opened = True
                    avail[a].append(4 * t)
                    avail[b].append(4 * t + 1)
                else:
                    pt = p >> 2
                    v = low_of[pt] if low_of[pt] == high_of[pt] or p & 3 == 0 else high_of[pt]
                    avail[v].remove(p)
                    if low_of[pt] == high_of[pt] and p & 3 < 2:
                        lines[pt] += 1
                        if lines[pt] == 2:  # both line sides taken: the branches open
                            avail[v].append(4 * pt + 2)
                            avail[v].append(4 * pt + 3)
                    if a == b:
                        lines[t] = 1
                        avail[a].append(4 * t + 1)
                    else:
                        avail[b if v == a else a].append(4 * t + (v == a))
                if not hand:
                    break
                seat = (seat + 1) % players
                if bone:
                    continue
            blocked = True  # END-2: nothing left to draw; can any seat place?
            for h in hands:
                for t in h:
                    if avail[low_of[t]] or avail[high_of[t]]:
                        blocked = False
                        break
                if not blocked:
                    break
            if blocked:
                break
        for s in range(players):
            pips = sum([pips_of[t] for t in hands[s]])
            rounded = pips - pips % 5 if pips % 5 <= 2 else pips + 5 - pips % 5
            scores[sides[s]] -= rounded
            penalties += rounded
    return placed, penalties


def reference_rounds(players: int, rounds: int, rng: random.Random) -> tuple[int, int]:
    """Bench's random rounds by ``Round``: what :func:`run_bench` times, and the yardstick's.

    The reference's side of :func:`time_against_bare`. Each round shuffles the canonical order
    with ``rng``, is opened by seat ``number % players`` and is played to its end by
    :meth:`Round.play_randomly`, which chooses among the legal actions with one
    ``rng.random()`` each. Returns the tiles placed and the penalties counted, as
    :func:`bare_rounds` does.
    """
    return _rounds(players, rounds, rng, per_action=False)


def action_loop_rounds(players: int, rounds: int, rng: random.Random) -> tuple[int, int]:
    """:func:`reference_rounds` through the per-action API: a legal list and an apply each.

    What an engine author's own driver of :class:`Round` pays: a call to
    :meth:`Round.legal_action_list` and one to :meth:`Round.apply` (which checks the action)
    per action. The same rounds, the same counts.
    """
    return _rounds(players, rounds, rng, per_action=True)


def _rounds(players: int, rounds: int, rng: random.Random, per_action: bool) -> tuple[int, int]:
    draw = rng.random
    shuffle = rng.shuffle
    deck = list(ALL_TILES)
    placements = penalties = 0
    for number in range(rounds):
        shuffle(deck)
        round_ = Round(players, deck, number % players)
        if per_action:
            legal, apply = round_.legal_action_list, round_.apply
            moves = legal()
            while moves:  # none once the round is over
                apply(moves[int(draw() * len(moves))])
                moves = legal()
        else:
            round_.play_randomly(rng)
        placements += len(round_.layout.placed)
        result = round_.result
        assert result is not None
        penalties += sum(result.penalties)
    return placements, penalties


@dataclass(frozen=True, slots=True)
class YardstickFigures:
    """The same random rounds played by the reference and by the bare loop, in CPU seconds.

    ``loop_seconds`` is the same rounds through the per-action API
    (:func:`action_loop_rounds`), shown beside the verdict and not part of it.
    """

    players: int
    rounds: int
    reference_seconds: float
    bare_seconds: float
    loop_seconds: float = 0.0

    @property
    def ratio(self) -> float:
        """The reference's rate over the bare loop's (1.0: as fast as the bare loop)."""
        return self.bare_seconds / self.reference_seconds if self.reference_seconds else 0.0

    @property
    def loop_ratio(self) -> float:
        """The per-action API's rate over the bare loop's (0.0 when it was not timed)."""
        return self.bare_seconds / self.loop_seconds if self.loop_seconds else 0.0

    @property
    def target(self) -> float:
        """The least ratio the reference is held to (:data:`YARDSTICK_TARGET`)."""
        return YARDSTICK_TARGET

    @property
    def met(self) -> bool:
        """True when the ratio reaches the target."""
        return self.ratio >= self.target


YARDSTICK_TARGET = 0.75
"""The least ratio to the bare loop the reference is held to, for 2, 3 and 4 players."""


YARDSTICK_CHUNK = 500
"""Rounds per turn of the interleaved run: the bare loop before each of the reference's two."""

_Loop = Callable[[int, int, random.Random], tuple[int, int]]
# Each of the reference's loops takes its turn right after the bare loop, never after the other:
# they share the reference's tables, and the one run second would find them in the cache.
_TURNS: tuple[tuple[str, _Loop], ...] = (
    ("bare", bare_rounds),
    ("reference", reference_rounds),
    ("bare", bare_rounds),
    ("loop", action_loop_rounds),
)


def time_against_bare(players: int, rounds: int, seed: int = 0) -> YardstickFigures:
    """The reference and the bare loop each play the same ``rounds``, interleaved, on CPU time.

    Each loop draws from its own ``random.Random(seed)``, so they deal and choose alike; they
    take turns of :data:`YARDSTICK_CHUNK` rounds, so a busy machine slows them alike. The bare
    loop plays every round twice, once before :func:`reference_rounds` and once before the
    per-action API (:func:`action_loop_rounds`); its time is the mean of the two.
    """
    if rounds < 0:
        raise UsageError("the number of rounds cannot be negative")
    rngs = [random.Random(seed) for _ in _TURNS]
    seconds = {name: 0.0 for name, _ in _TURNS}
    done = [(0, 0)] * len(_TURNS)
    clock = time.process_time
    with _collector_paused():
        left = rounds
        while left > 0:
            chunk = min(YARDSTICK_CHUNK, left)
            for i, (name, loop) in enumerate(_TURNS):
                start = clock()
                got = loop(players, chunk, rngs[i])
                seconds[name] += clock() - start
                done[i] = (done[i][0] + got[0], done[i][1] + got[1])
            left -= chunk
    if len(set(done)) != 1:
        raise AssertionError(f"the loops played other rounds: {done}")
    bare = seconds["bare"] / 2
    return YardstickFigures(players, rounds, seconds["reference"], bare, seconds["loop"])


def format_yardstick(figures: Sequence[YardstickFigures]) -> str:
    """The yardstick figures as a small plain-text table."""
    lines = [
        "",
        "reference against the bare loop (the same rounds, interleaved, CPU time)",
        "",
        f"{'players':>7}  {'rounds':>8}  {'reference s':>11}  {'bare s':>7}  {'ratio':>5}  "
        f"{'target':>6}  {'verdict':<7}  {'apply loop s':>12}  {'ratio':>5}",
    ]
    for f in figures:
        lines.append(
            f"{f.players:>7}  {f.rounds:>8}  {f.reference_seconds:>11.2f}  "
            f"{f.bare_seconds:>7.2f}  {f.ratio:>5.2f}  {f.target:>6.2f}  "
            f"{'met' if f.met else 'below':<7}  {f.loop_seconds:>12.2f}  {f.loop_ratio:>5.2f}"
        )
    lines += [
        "",
        "reference: Round.play_randomly (one frame per round); apply loop: a legal_action_list",
        "and an apply per action, as a driver of its own pays (no target)",
    ]
    return "\n".join(lines) + "\n"
