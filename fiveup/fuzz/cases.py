"""Random cases for fuzzing: starts and scripts played with the reference's legal moves.

Every case is made from one ``random.Random``, so a seed and an index give the same case on any
machine. A case is a level and a ``given`` in the fixture format (``spec/fixtures.md``): hands
and a boneyard rather than a deck, so that a divergence can be written out as a fixture as it
is. About a third of the layout and round cases end with an action the rules refuse, of a kind
drawn at random (a wrong seat, a draw while able to place, a closed branch, ...), and some round
and match cases run past the end of the round or of the match. A moves case is a round position
reached by legal actions (now and then followed by a refused one) and a small depth.
"""

from __future__ import annotations

import random
from bisect import bisect
from collections.abc import Callable, Sequence
from itertools import accumulate
from typing import Final, TypeVar

from fiveup.contract.engine import JSON, Level
from fiveup.contract.notation import (
    ALL_TILES,
    KEY_STRIDE,
    N_TILE_CODES,
    Action,
    Placement,
    Point,
    Tile,
    Verb,
)
from fiveup.contract.players import MAX_PLAYERS, PLAYER_COUNTS, deal, side_count
from fiveup.errors import IllegalMoveError
from fiveup.harness.levels import LEVELS
from fiveup.reference.engine import error_observation, layout_observation, round_observation
from fiveup.reference.layout import Layout, placement_of
from fiveup.reference.match import Match
from fiveup.reference.round import LOGGED_DRAW, LOGGED_PLAY, Round

__all__ = ["LEVEL_WEIGHTS", "observed_case", "random_case"]

LEVEL_WEIGHTS: Final = {
    Level.SCORING: 1,
    Level.LAYOUT: 3,
    Level.ROUND: 5,
    Level.MATCH: 1,
    Level.MOVES: 1,
}
"""How often each level is drawn."""
_ILLEGAL = 0.3
_WHOLE: Final = 1 << 30
"""More actions than any round takes: play it to its end."""
_X = TypeVar("_X", Placement, Action)
_POINTS: Final = [Point(tile, slot) for tile in ALL_TILES for slot in tile.slots()]
_SWAPS: Final = tuple((i, (i + 1).bit_length()) for i in range(len(ALL_TILES) - 1, 0, -1))
"""For each place of a shuffle, from the last: the place and the bits of a draw below it + 1."""


def _shuffled_deck(rng: random.Random) -> list[Tile]:
    """:func:`~fiveup.reference.round.shuffled_deck`: ``rng.shuffle`` of the canonical order.

    Drawn as ``random.Random.shuffle`` draws, without a call per place (each swap partner is
    ``getrandbits`` of the bits of its bound, drawn again while above it); a test holds the two
    equal.
    """
    deck = list(ALL_TILES)
    bits = rng.getrandbits
    for i, k in _SWAPS:
        j = bits(k)
        while j > i:
            j = bits(k)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


_CUMULATIVE: dict[tuple[Level, ...], tuple[list[int], float]] = {}
"""The cumulative weights of each choice of levels, and their total, as ``rng.choices`` sums."""


def _level(rng: random.Random, choices: tuple[Level, ...]) -> Level:
    """``rng.choices(choices, weights)[0]`` for the levels' weights, drawn as it draws."""
    if len(choices) == 1:  # the one level, after the same draw
        rng.random()
        return choices[0]
    found = _CUMULATIVE.get(choices)
    if found is None:
        cumulative = list(accumulate(LEVEL_WEIGHTS[level] for level in choices))
        found = _CUMULATIVE[choices] = (cumulative, cumulative[-1] + 0.0)
    cumulative, total = found
    return choices[bisect(cumulative, rng.random() * total, 0, len(choices) - 1)]


def _refusal(play: Callable[[_X], object], wrong: _X, at: int) -> JSON:
    """The observation's ``error`` once ``wrong`` is played at index ``at``: None if accepted."""
    try:
        play(wrong)
    except IllegalMoveError as exc:
        return error_observation(exc, at=at)
    return None


def _illegal_placement(layout: Layout, rng: random.Random) -> Placement | None:
    """A placement the rules refuse on ``layout``, or None after a few tries."""
    for _ in range(50):
        tile = rng.choice(ALL_TILES)
        target = None if rng.random() < 0.1 else rng.choice(_POINTS)
        placement = Placement(tile, target)
        try:
            layout.check(placement)
        except ValueError:
            return placement
    return None


def _legal_placements(layout: Layout) -> list[Placement]:
    """Every legal placement, tile by tile in the set's order.

    A tile joins only a point that shows one of its halves, so the others are not asked.
    """
    if not layout:
        return [p for tile in ALL_TILES for p in layout.legal_placements(tile)]
    return [
        p
        for tile in ALL_TILES
        if tile not in layout and layout.has_point_for(tile)
        for p in layout.legal_placements(tile)
    ]


def _layout_case(rng: random.Random, players: int) -> tuple[Level, dict[str, JSON]]:
    level, given, _ = _observed_layout_case(rng, players)
    return level, given


def _observed_layout_case(
    rng: random.Random, players: int
) -> tuple[Level, dict[str, JSON], dict[str, JSON]]:
    """A layout case and the standard reference's observation of it (it was just laid)."""
    layout = Layout()
    placements: list[str] = []
    steps: list[JSON] = []
    for _ in range(1 + _below(rng, 28)):  # rng.randrange(1, 29)
        options = _legal_placements(layout)
        if not options:
            break
        placement = options[_below(rng, len(options))]  # rng.choice(options)
        step = layout.place(placement)
        steps.append({"sum": step.sum, "credit": step.credit, "displayed": step.displayed})
        placements.append(placement.text)
    error: JSON = None
    if rng.random() < _ILLEGAL:
        wrong = _illegal_placement(layout, rng)
        if wrong is not None:
            error = _refusal(layout.place, wrong, len(placements))
            placements.append(wrong.text)
    observation = {"steps": steps, "layout": layout_observation(layout), "error": error}
    return Level.LAYOUT, {"placements": placements}, observation


def _below(rng: random.Random, n: int) -> int:
    """``rng.randrange(n)``, drawn as it draws (``getrandbits`` of n's bits until below n)."""
    bits, k = rng.getrandbits, n.bit_length()
    drawn = bits(k)
    while drawn >= n:
        drawn = bits(k)
    return drawn


_NEAR: Final = (0, 0, 100, 250, 290, 300, 305)


def _scores(rng: random.Random, players: int) -> list[int]:
    """``rng.choice(_NEAR)``, then ``near + 5 * rng.randrange(-4, 5)`` a side (none at 0)."""
    near = _NEAR[_below(rng, 7)]
    sides = side_count(players)
    if not near:
        return [0] * sides
    return [near + 5 * (_below(rng, 9) - 4) for _ in range(sides)]


_VERBS: Final = (Verb.PLAY, Verb.PLAY, Verb.DRAW, Verb.PASS)


def _illegal_action(round_: Round, rng: random.Random) -> tuple[Action, tuple[str, str]] | None:
    """An action the rules refuse now and its refusal (rule, message), or None after a few tries.

    Each ``rng.choice`` and ``rng.randrange`` is drawn by :func:`_below`, as they draw. The
    seat drawn plays, so the action is refused exactly when ``round_.refusal`` names a rule,
    the refusal ``apply`` raises: the round need not be asked twice, nor an exception raised.
    """
    players = round_.players
    for _ in range(50):
        seat = _below(rng, players)
        verb = _VERBS[_below(rng, 4)]
        placement = None
        if verb is Verb.PLAY:
            target = None if rng.random() < 0.1 else _POINTS[_below(rng, len(_POINTS))]
            placement = Placement(ALL_TILES[_below(rng, len(ALL_TILES))], target)
        action = Action(seat, verb, placement)
        found = round_.refusal(action)
        if found is not None:
            return action, found
    return None


_PLAY_TEXTS: dict[int, str] = {}
"""The text of each play logged so far, by ``seat * KEY_SPACE + placement key``."""
_KEY_SPACE: Final = N_TILE_CODES * KEY_STRIDE
_DRAW_TEXTS: Final = tuple(f"{seat} draw" for seat in range(MAX_PLAYERS))
_PASS_TEXTS: Final = tuple(f"{seat} pass" for seat in range(MAX_PLAYERS))


def _play_text(code: int) -> str:
    seat, key = divmod(code, _KEY_SPACE)
    text = _PLAY_TEXTS[code] = f"{seat} play {placement_of(key).text}"
    return text


def _logged_texts(entries: Sequence[tuple[int, ...]]) -> list[str]:
    """The texts of the actions of these entries of a round's ``action_log``, in order."""
    plays = _PLAY_TEXTS
    try:
        return [
            plays[entry[1] * _KEY_SPACE + entry[2]]
            if entry[0] == LOGGED_PLAY
            else _DRAW_TEXTS[entry[1]]
            if entry[0] == LOGGED_DRAW
            else _PASS_TEXTS[entry[1]]
            for entry in entries
        ]
    except KeyError:  # a play first met: its text made once
        for entry in entries:
            if entry[0] == LOGGED_PLAY and entry[1] * _KEY_SPACE + entry[2] not in plays:
                _play_text(entry[1] * _KEY_SPACE + entry[2])
        return _logged_texts(entries)


def _played(round_: Round, rng: random.Random, length: int) -> list[str]:
    """The texts of up to ``length`` random actions, applied in turn by ``play_randomly``.

    The choice is :func:`~fiveup.reference.match.random_policy`'s, ``moves[int(rng.random() *
    len(moves))]``; the round plays them in one frame and the texts are read off its log.
    """
    log = round_.action_log
    start = len(log)
    round_.play_randomly(rng, None if length >= _WHOLE else length)
    return _logged_texts(log[start:])


_TILE_TEXTS: Final = {id(tile): tile.text for tile in ALL_TILES}
"""The texts of the set's tiles, by identity (a shuffled deck holds the shared instances)."""


def _dealt(deck: list[Tile], players: int) -> tuple[list[list[str]], list[str]]:
    """The texts of the hands and of the boneyard that ``deck`` deals."""
    try:
        texts = list(map(_TILE_TEXTS.__getitem__, map(id, deck)))
    except KeyError:
        texts = [tile.text for tile in deck]
    return deal(texts, players)


def _start(deck: list[Tile], players: int) -> dict[str, JSON]:
    hands, boneyard = _dealt(deck, players)
    return {"hands": hands, "boneyard": boneyard}


def _round_case(rng: random.Random, players: int) -> tuple[Level, dict[str, JSON]]:
    level, given, _ = _observed_round_case(rng, players)
    return level, given


def _observed_round_case(
    rng: random.Random, players: int
) -> tuple[Level, dict[str, JSON], dict[str, JSON]]:
    """A round case and the standard reference's observation of it (it was just played)."""
    deck = _shuffled_deck(rng)
    opener = _below(rng, players)
    scores = _scores(rng, players)
    round_ = Round(players, deck, opener, scores)
    length = _WHOLE if rng.random() < 0.6 else _below(rng, 40)
    actions = _played(round_, rng, length)
    error: JSON = None
    if rng.random() < _ILLEGAL:
        refused = _illegal_action(round_, rng)
        if refused is not None:
            wrong, (rule, message) = refused
            error = {"at": len(actions), "rule": rule, "message": message}
            actions.append(wrong.text)
    hands, boneyard = _dealt(deck, players)
    given = {"players": players, "hands": hands, "boneyard": boneyard, "opener": opener}
    given["scores"], given["actions"] = scores, actions
    observation = round_observation(round_)
    observation["error"] = error
    return Level.ROUND, given, observation


_MOVES_DEPTH = 3
"""The deepest random move count: a few thousand sequences at most, played in milliseconds."""


def _moves_case(rng: random.Random, players: int) -> tuple[Level, dict[str, JSON]]:
    deck = _shuffled_deck(rng)
    opener = rng.randrange(players)
    scores = _scores(rng, players)
    round_ = Round(players, deck, opener, scores)
    actions = _played(round_, rng, rng.randrange(0, 40))
    if rng.random() < _ILLEGAL / 3:
        refused = _illegal_action(round_, rng)
        if refused is not None:
            actions.append(refused[0].text)
    given = {"players": players, **_start(deck, players), "opener": opener, "scores": scores}
    depth = rng.randrange(0, _MOVES_DEPTH + 1)
    return Level.MOVES, {**given, "actions": actions, "depth": depth, "divide": rng.random() < 0.5}


def _match_round(
    match: Match, rng: random.Random, players: int
) -> tuple[dict[str, JSON], Round | tuple[str | None, str]]:
    """The next round of a match, played to its end; or why it cannot start (rule, message).

    The refusal is read inside its ``except`` block: an exception kept past it holds the frames
    of its traceback, and through them itself, a cycle only the cyclic collector frees.
    """
    deck = _shuffled_deck(rng)
    needs_opener = match.next_opener is None
    opener = rng.randrange(players) if needs_opener or rng.random() < 0.05 else None
    item: dict[str, JSON] = _start(deck, players)
    if opener is not None:
        item["opener"] = opener
    try:
        round_ = match.start_round(deck, opener)
    except IllegalMoveError as exc:
        item["actions"] = []
        return item, (exc.rule, exc.message)
    item["actions"] = _played(round_, rng, _WHOLE)
    return item, round_


def _match_case(rng: random.Random, players: int) -> tuple[Level, dict[str, JSON]]:
    level, given, _ = _observed_match_case(rng, players)
    return level, given


def _observed_match_case(
    rng: random.Random, players: int
) -> tuple[Level, dict[str, JSON], dict[str, JSON]]:
    """A match case and the standard reference's observation of it (it was just played)."""
    scores = _scores(rng, players)
    match = Match(players, scores, rng=rng)
    rounds: list[JSON] = []
    error: JSON = None
    for _ in range(rng.randrange(1, 5)):
        item, played = _match_round(match, rng, players)
        rounds.append(item)
        if isinstance(played, tuple):
            error = {"round": len(rounds) - 1, "at": None, "rule": played[0]}
            error["message"] = played[1]
            break
        if match.over and rng.random() < 0.7:
            break
    observation: dict[str, JSON] = {
        "rounds": [round_observation(round_) for round_ in match.rounds],
        "over": match.over,
        "winner": match.winner,
        "scores": list(match.scores),
        "error": error,
    }
    return Level.MATCH, {"players": players, "scores": scores, "rounds": rounds}, observation


_FUNCTIONS: Final = LEVELS[Level.SCORING].features
"""The scoring functions, each a feature of the scoring level, in the order the level lists them."""


def _scoring_case(
    rng: random.Random, players: int, functions: Sequence[str] = _FUNCTIONS
) -> tuple[Level, dict[str, JSON]]:
    function = rng.choice(functions)
    value: JSON
    if function == "credit":
        value = rng.randrange(0, 61)
    elif function == "displayed":
        value = 5 * rng.randrange(-20, 80)
    elif function == "penalty":
        value = rng.randrange(0, 60)
    elif function == "side_penalty":
        value = [rng.randrange(0, 40) for _ in range(rng.choice((1, 2)))]
    else:
        value = 5 * rng.randrange(0, 80)
    return Level.SCORING, {"function": function, "input": value}


_MAKERS: Final[dict[Level, Callable[[random.Random, int], tuple[Level, dict[str, JSON]]]]] = {
    Level.SCORING: _scoring_case,
    Level.LAYOUT: _layout_case,
    Level.ROUND: _round_case,
    Level.MATCH: _match_case,
    Level.MOVES: _moves_case,
}


_LAST_CHOICES: list[tuple[tuple[Level, ...] | None, tuple[Level, ...]]] = [
    (None, tuple(LEVEL_WEIGHTS))
]
"""The levels last asked for and the choice made of them: a campaign asks the same each case."""


def _choices(levels: tuple[Level, ...] | None) -> tuple[Level, ...]:
    """The levels a case is drawn among: those asked for that have random cases, else all."""
    asked, chosen = _LAST_CHOICES[0]
    if levels is asked:
        return chosen
    chosen = tuple(level for level in (levels or LEVEL_WEIGHTS) if level in LEVEL_WEIGHTS)
    chosen = chosen or tuple(LEVEL_WEIGHTS)
    if type(levels) is tuple:  # kept alive here: no other tuple can be it
        _LAST_CHOICES[0] = (levels, chosen)
    return chosen


def random_case(
    seed: int, index: int, players: int | None = None, levels: tuple[Level, ...] | None = None,
    *, functions: Sequence[str] | None = None,
) -> tuple[Level, dict[str, JSON]]:  # fmt: skip
    """Case ``index`` of the campaign ``seed``: its level and its ``given`` (fixture form).

    ``functions``: the scoring functions a scoring case is drawn among (default: all five),
    so that an engine claiming some of them gets as many cases of those as one claiming all.
    """
    level, given, _ = observed_case(seed, index, players, levels, functions=functions)
    return level, given


def observed_case(
    seed: int, index: int, players: int | None = None, levels: tuple[Level, ...] | None = None,
    *, functions: Sequence[str] | None = None,
) -> tuple[Level, dict[str, JSON], dict[str, JSON] | None]:  # fmt: skip
    """:func:`random_case`, with the standard reference's observation of a case it played.

    A layout, round or match case is made by playing it with the reference, so its
    observation comes free: exactly what ``ReferenceEngine().run(level, ...)`` answers for it
    (a test holds the two byte for byte equal). Other levels: None.
    """
    rng = random.Random(f"fiveup-fuzz:{seed}:{index}")
    level = _level(rng, _choices(levels))
    count = players if players is not None else PLAYER_COUNTS[_below(rng, len(PLAYER_COUNTS))]
    if level is Level.ROUND:
        return _observed_round_case(rng, count)
    if level is Level.MATCH:
        return _observed_match_case(rng, count)
    if level is Level.LAYOUT:
        return _observed_layout_case(rng, count)
    if level is Level.SCORING and functions:
        level, given = _scoring_case(rng, count, functions)
    else:
        level, given = _MAKERS[level](rng, count)
    return level, given, None
