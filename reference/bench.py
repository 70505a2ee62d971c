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
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass

from fiveup.contract.engine import JSON
from fiveup.contract.notation import ALL_TILES
from fiveup.contract.players import MAX_PLAYERS, MIN_PLAYERS, side_count
from fiveup.errors import UsageError

from .match import play_match, random_policy
from .round import Round, RoundEnded, neutral_draw, shuffled_deck

__all__ = [
    "BenchReport",
    "MatchFigures",
    "RoundFigures",
    "format_text",
    "random_round_requests",
    "run_bench",
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
    draw = rng.random
    shuffle = rng.shuffle
    deck = list(ALL_TILES)
    placements = 0
    with _collector_paused():
        start = time.perf_counter()
        for number in range(rounds):
            shuffle(deck)
            round_ = Round(players, deck, number % players)
            moves = round_.legal_moves
            while not round_.over:
                round_.apply(moves[int(draw() * len(moves))])
            placements += len(round_.layout)
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
