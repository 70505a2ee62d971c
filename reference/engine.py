"""The reference engine behind the engine protocol (``spec/protocol.md``).

:class:`ReferenceEngine` answers every level with the observation shapes of the protocol.
A refused placement or action is reported in ``error`` with its rule ID, never raised; a request
that is not well formed (a missing key, a wrong type, a text that does not parse, a deck that is
not the 28 tiles) raises :class:`~fiveup.errors.UsageError`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from itertools import chain
from typing import TypeVar

from fiveup import PROTOCOL_VERSION, __version__
from fiveup.contract.engine import JSON, Engine, EngineInfo, Level
from fiveup.contract.notation import ALL_TILES, Action, Placement, Point, Tile
from fiveup.contract.players import PLAYER_COUNTS, side_count
from fiveup.contract.schemas import given_problem
from fiveup.errors import IllegalMoveError, NotationError, UsageError

from .layout import (
    KEY_STRIDE,
    POINT_OF,
    POINT_VALUE,
    TILE_OF,
    Layout,
    interned_placements,
    placement_of,
)
from .match import Match
from .perft import count as perft_count
from .perft import divide as perft_divide
from .perft import legal_actions
from .round import (
    LOGGED_DRAW,
    LOGGED_PLAY,
    NO_TILE,
    Drew,
    Event,
    Passed,
    Played,
    Round,
    RoundEnded,
    RoundResult,
    shared_actions,
)
from .rules import STANDARD, Rules

__all__ = [
    "ENGINE_NAME",
    "ReferenceEngine",
    "error_observation",
    "event_observation",
    "layout_observation",
    "result_observation",
    "round_observation",
]

ENGINE_NAME = "fiveup-reference"
"""The name the reference engine gives in its handshake."""

_T = TypeVar("_T")


# --- observations ---------------------------------------------------------------------------


# Observations are built for every request: the texts of the notation are looked up, never
# formatted again. Tiles and interned placements live as long as the module, so their ids
# name them; anything else (a tile made by hand) falls back to its ``text``.
_TEXT_BY_ID: dict[int, str] = {id(tile): tile.text for tile in ALL_TILES}
_TEXT_BY_ID.update((id(p), p.text) for p in interned_placements().values())
_KEEP_ALIVE = (ALL_TILES, interned_placements())
_TILE_TEXT: list[str] = [tile.text if tile is not None else "" for tile in TILE_OF]
_POINT_TEXT: list[str] = [point.text if point is not None else "" for point in POINT_OF]
_POINT_ITEM: list[tuple[str, int]] = list(zip(_POINT_TEXT, POINT_VALUE, strict=True))
"""Each point's entry in an observation's ``points``, by point code."""
_JOINTS: dict[int, tuple[str, str]] = {}


_PLAY_TEXT: dict[int, str] = {key: p.text for key, p in interned_placements().items()}
"""The text of the placement with each key, as a round's log records plays."""


def _play_text(key: int) -> str:
    found = _PLAY_TEXT.get(key)
    if found is None:
        found = _PLAY_TEXT[key] = placement_of(key).text
    return found


def _text(item: Tile | Placement) -> str:
    return _TEXT_BY_ID.get(id(item)) or item.text


def _joint(key: int) -> tuple[str, str]:
    """The texts of the joint a placement makes: the table's point, then the new tile's half."""
    found = _JOINTS.get(key)
    if found is None:
        placement = placement_of(key)
        slot = placement.joining_slot
        assert placement.target is not None and slot is not None
        found = _JOINTS[key] = (placement.target.text, Point(placement.tile, slot).text)
    return found


_KEY_TILE: dict[int, str] = {}
"""The text of the tile each placement key places (every interned key, then those met)."""
_KEY_JOINT: dict[int, tuple[str, str] | None] = {}
"""The joint each placement key makes (None for the opening), keyed as :data:`_KEY_TILE`."""
_DOUBLE_TEXTS: frozenset[str] = frozenset(t.text for t in ALL_TILES if t.is_double)


def _learn_keys(keys: Iterable[int]) -> None:
    """Fill :data:`_KEY_TILE` and :data:`_KEY_JOINT` for placement keys not met before."""
    for key in keys:
        if key not in _KEY_TILE:
            _KEY_JOINT[key] = _joint(key) if key % KEY_STRIDE else None
            _KEY_TILE[key] = _TILE_TEXT[key // KEY_STRIDE]


_learn_keys(interned_placements())


def layout_observation(layout: Layout) -> dict[str, JSON]:
    """The ``layout`` object of an observation: tiles, spinners, connections, points, sum."""
    if type(layout) is not Layout:
        return _any_layout_observation(layout)
    placed = layout.placed
    try:
        tiles: list[JSON] = list(map(_KEY_TILE.__getitem__, placed))
    except KeyError:
        _learn_keys(placed)
        tiles = list(map(_KEY_TILE.__getitem__, placed))
    # Every lookup is a built-in's (map, filter, zip): no Python frame per tile.
    codes = sorted(chain.from_iterable(layout.points_by_value))
    return {
        "tiles": tiles,
        "spinners": list(filter(_DOUBLE_TEXTS.__contains__, tiles)),
        "connections": list(map(list, filter(None, map(_KEY_JOINT.__getitem__, placed)))),
        "points": dict(map(_POINT_ITEM.__getitem__, codes)),
        "contributions": [
            [text, value]
            for text, counted in zip(tiles, layout.counted_values(), strict=True)
            if counted
            for value in counted
        ],
        "sum": layout.sum,
    }


def _any_layout_observation(layout: Layout) -> dict[str, JSON]:
    """:func:`layout_observation` of a layout of another class, through its methods alone."""
    return {
        "tiles": [tile.text for tile in layout.tiles()],
        "spinners": [tile.text for tile in layout.spinners()],
        "connections": [[table.text, joined.text] for table, joined in layout.connections()],
        "points": {point.text: value for point, value in layout.points().items()},
        "contributions": [[tile.text, value] for tile, value in layout.counted()],
        "sum": layout.sum,
    }


def event_observation(event: Event) -> dict[str, JSON]:
    """One entry of ``events``: a play with its sum and credit, a draw, or a pass."""
    if isinstance(event, Played):
        return {
            "seat": event.seat,
            "play": _text(event.placement),
            "sum": event.sum,
            "credit": event.credit,
        }
    if isinstance(event, Drew):
        return {"seat": event.seat, "draw": _text(event.tile)}
    if isinstance(event, Passed):
        return {"seat": event.seat, "pass": True}
    raise ValueError(f"{event.text} records no action")


def result_observation(result: RoundResult | None) -> dict[str, JSON] | None:
    """The ``result`` object of a round's state (None while the round goes on)."""
    if result is None:
        return None
    return {
        "end": result.end.value,
        "winner": result.winner,
        "pips": list(result.pips),
        "penalties": list(result.penalties),
        "next_opener": result.next_opener,
    }


_ROUND_EVENTS = Round.events
_ROUND_HANDS = Round.hands
_ROUND_PENDING = Round.pending


def _logged_events(round_: Round) -> list[JSON]:
    """The ``events`` of a round read from its log: the texts looked up, no Event made."""
    tile_text, play_text = _TILE_TEXT, _PLAY_TEXT
    log = round_.action_log
    try:
        return [
            {"seat": entry[1], "play": play_text[entry[2]], "sum": entry[3], "credit": entry[4]}
            if entry[0] == LOGGED_PLAY
            else {"seat": entry[1], "draw": tile_text[entry[2]]}
            if entry[0] == LOGGED_DRAW
            else {"seat": entry[1], "pass": True}
            for entry in log
        ]
    except KeyError:  # a placement first met here (a variant's): learn its text, then read
        for entry in log:
            if entry[0] == LOGGED_PLAY:
                _play_text(entry[2])
        return _logged_events(round_)


def round_observation(round_: Round) -> dict[str, JSON]:
    """``{"events": [...], "state": {...}}`` for a round as it stands."""
    cls = type(round_)
    if cls.events is _ROUND_EVENTS and cls.hands is _ROUND_HANDS and cls.pending is _ROUND_PENDING:
        tile_text = _TILE_TEXT
        code = round_.pending_code
        return {
            "events": _logged_events(round_),
            "state": {
                "turn": round_.turn,
                "pending": None if code == NO_TILE else tile_text[code],
                "hands": [list(map(tile_text.__getitem__, hand)) for hand in round_.hand_codes],
                "boneyard": round_.boneyard_size,
                "scores": list(round_.scores),
                "layout": layout_observation(round_.layout),
                "result": result_observation(round_.result),
            },
        }
    pending = round_.pending
    return {
        "events": [event_observation(e) for e in round_.events if not isinstance(e, RoundEnded)],
        "state": {
            "turn": round_.turn,
            "pending": None if pending is None else _text(pending),
            "hands": [[_text(tile) for tile in hand] for hand in round_.hands],
            "boneyard": round_.boneyard_size,
            "scores": list(round_.scores),
            "layout": layout_observation(round_.layout),
            "result": result_observation(round_.result),
        },
    }


def error_observation(error: IllegalMoveError, **where: int | None) -> dict[str, JSON]:
    """The ``error`` of an observation: where the refused action stands, its rule and message."""
    return {**where, "rule": error.rule, "message": error.message}


# --- reading requests -----------------------------------------------------------------------


class _Malformed(Exception):
    """The request does not have the shape of run.json; the schema says what is wrong."""


def _int(value: JSON) -> int:
    if type(value) is not int:
        # The schemas take 12.0 for an integer (JSON has one kind of number); the rules do not.
        raise _Malformed(f"{str(value)[:40]} where an integer belongs")
    return value


def _ints(value: JSON) -> list[int]:
    if type(value) is not list:
        raise _Malformed
    return [_int(item) for item in value]


def _all_known(value: list[JSON], known: dict[str, _T]) -> list[_T] | None:
    """The items of ``value`` when ``known`` has each of them (the usual request), else None.

    Looked up by ``map``, then every item checked to be a ``str`` itself (a subclass equal to
    a text is not one): no Python frame per item.
    """
    try:
        items = list(map(known.__getitem__, value))
    except (KeyError, TypeError):
        return None
    return items if not items or set(map(type, value)) == _STR_ONLY else None


_STR_ONLY: frozenset[type] = frozenset((str,))


def _texts(
    value: JSON, where: str, parse: Callable[[str], _T], known: dict[str, _T] | None = None
) -> list[_T]:
    """The items of a list of texts, each one read by ``parse`` unless ``known`` has it."""
    if type(value) is not list:
        raise _Malformed
    if known is not None:
        found_all = _all_known(value, known)
        if found_all is not None:
            return found_all
    items = []
    lookup = {} if known is None else known
    for i, item in enumerate(value):
        if type(item) is not str:
            raise _Malformed
        found = lookup.get(item)
        if found is None:
            try:
                found = parse(item)
            except NotationError as exc:
                raise UsageError(f"{where}[{i}]: {exc}") from None
        items.append(found)
    return items


def _object(value: JSON) -> dict[str, JSON]:
    if type(value) is not dict:
        raise _Malformed
    return value


# A request's action texts are looked up among the round's shared action objects (a round
# takes the draw or pass it lists at once, by identity); any other text is parsed, and the
# round reads the action that makes by its seat and code.
_SHARED_TEXTS: dict[str, Action] = {action.text: action for action in shared_actions()}


_SEATED_TEXTS: dict[int, dict[str, Action]] = {
    players: {text: a for text, a in _SHARED_TEXTS.items() if a.seat < players}
    for players in PLAYER_COUNTS
}
"""The shared actions of the seats of each player count, by text."""


def _actions(value: JSON, where: str, players: int) -> list[Action]:
    seated = _SEATED_TEXTS.get(players)
    if seated is not None and type(value) is list:  # each a shared action of a seat that plays
        usual = _all_known(value, seated)
        if usual is not None:
            return usual
    actions = _texts(value, where, Action.parse, _SHARED_TEXTS)
    for i, action in enumerate(actions):
        if action.seat >= players:
            raise UsageError(f"{where}[{i}]: no seat {action.seat} among {players} players")
    return actions


_DECK_TEXTS: dict[str, Tile] = {tile.text: tile for tile in ALL_TILES}


def _deck(value: JSON, where: str) -> list[Tile]:
    if type(value) is list and len(value) == len(ALL_TILES) and set(map(type, value)) == {str}:
        try:  # the usual deck: each tile once, by its text (one text per tile)
            deck = list(map(_DECK_TEXTS.__getitem__, value))
        except KeyError:
            pass
        else:
            if len(set(value)) == len(ALL_TILES):
                return deck
    deck = _texts(value, where, Tile.parse, _DECK_TEXTS)
    if len(deck) != len(ALL_TILES) or len({(t.low, t.high) for t in deck}) != len(ALL_TILES):
        raise UsageError(f"{where} must list each of the 28 tiles once (SET-1)")
    return deck


def _opener(value: JSON, where: str, players: int) -> int:
    opener = _int(value)
    if not 0 <= opener < players:
        raise UsageError(f"{where} must be a seat from 0 to {players - 1}, not {opener}")
    return opener


# --- the engine -----------------------------------------------------------------------------


class ReferenceEngine:
    """The reference engine, called in-process by the harness (entry point ``reference``).

    ``rules`` (default: the spec's) is the set of rules it plays; a variant engine is a
    ``ReferenceEngine`` with other rules and, to tell it apart in reports, another ``name``.
    """

    validates_requests = True
    """Every request that does not follow run.json raises UsageError (the server may rely on
    it and skip its own check)."""

    def __init__(self, rules: Rules = STANDARD, *, name: str = ENGINE_NAME) -> None:
        """An engine playing ``rules``, announcing itself as ``name``."""
        self.rules = rules
        self.name = name

    def info(self) -> EngineInfo:
        """Name, version, protocol version and every level."""
        return {
            "name": self.name,
            "version": __version__,
            "protocol": PROTOCOL_VERSION,
            "levels": [level.value for level in Level],
        }

    def run(self, level: str, given: dict[str, JSON]) -> dict[str, JSON]:
        """Play one request of ``level`` and return the observation of spec/protocol.md.

        A request that does not follow ``run.json`` raises UsageError with what the schema
        finds wrong; one that does but lies outside a domain (a deck that is not the 28 tiles,
        a seat that does not play) raises UsageError naming the domain.
        """
        handler = _HANDLERS_BY_NAME.get(level) if type(level) is str else None
        if handler is None:
            try:
                handler = _HANDLERS[Level(level)]
            except ValueError:
                names = ", ".join(lv.value for lv in Level)
                raise UsageError(f"unknown level {level!r} (one of {names})") from None
        try:
            return handler(self.rules, _object(given))
        except (_Malformed, KeyError, TypeError) as exc:
            problem = given_problem(level, given)
            if problem is None:
                why = exc if isinstance(exc, _Malformed) and exc.args else repr(exc)
                raise UsageError(f"the request's given cannot be played: {why}") from None
            raise UsageError(f"the request's given {problem}") from None


_SCORING_INPUTS = {
    "credit": int,
    "displayed": int,
    "penalty": int,
    "tally": int,
    "side_penalty": list,
}


_SCORING_PROBLEMS: dict[tuple[object, ...], str | None] = {}
"""What run.json finds wrong with each scoring request seen (few: a function and a number)."""


def _scoring_problem(given: dict[str, JSON]) -> str | None:
    """``given_problem`` of a scoring request, remembered for the plain ones (exact types)."""
    function, value = given.get("function"), given.get("input")
    key: tuple[object, ...] | None = None
    if len(given) == 2 and type(function) is str:
        if type(value) is int:
            key = (function, value)
        elif type(value) is list and all(type(item) is int for item in value):
            key = (function, "list", *value)
    if key is None:
        return given_problem(Level.SCORING, given)
    try:
        return _SCORING_PROBLEMS[key]
    except KeyError:
        problem = _SCORING_PROBLEMS[key] = given_problem(Level.SCORING, given)
        if len(_SCORING_PROBLEMS) > 1 << 12:
            _SCORING_PROBLEMS.clear()
        return problem


def _run_scoring(rules: Rules, given: dict[str, JSON]) -> dict[str, JSON]:
    # Each function's domain is in run.json; a scoring request is small enough to check whole.
    problem = _scoring_problem(given)
    if problem is not None:
        raise UsageError(f"the request's given {problem}")
    function, value = given["function"], given["input"]
    if type(function) is not str or type(value) is not _SCORING_INPUTS.get(function):
        raise _Malformed(f"the input {str(value)[:40]} of {str(function)[:40]!r}")
    if function == "side_penalty":
        return {"value": rules.side_penalty(_ints(value), rules.rounded_penalty)}
    number = _int(value)
    if function == "tally":
        marks = rules.tally(number)
        return {"value": {"fifties": marks.fifties, "strokes": marks.strokes}}
    single: dict[str, Callable[[int], int]] = {
        "credit": rules.credit,
        "displayed": rules.displayed,
        "penalty": rules.rounded_penalty,
    }
    return {"value": single[function](number)}


def _run_layout(rules: Rules, given: dict[str, JSON]) -> dict[str, JSON]:
    placements = _texts(given["placements"], "placements", Placement.parse)
    layout = Layout(rules)
    steps: list[JSON] = []
    error: dict[str, JSON] | None = None
    for at, placement in enumerate(placements):
        try:
            step = layout.place(placement)
        except IllegalMoveError as exc:
            error = error_observation(exc, at=at)
            break
        steps.append({"sum": step.sum, "credit": step.credit, "displayed": step.displayed})
    return {"steps": steps, "layout": layout_observation(layout), "error": error}


def _play_actions(
    round_: Round, actions: Sequence[Action], **where: int | None
) -> dict[str, JSON] | None:
    """Apply ``actions`` in turn; the observation's ``error`` for the first one refused, or None.

    The refusal is read inside its ``except`` block: an exception kept past it holds its
    traceback's frames, whose round it was raised from holds it back, a cycle that only the
    cyclic collector frees.
    """
    apply = round_.apply
    for at, action in enumerate(actions):
        try:
            apply(action)
        except IllegalMoveError as exc:
            return error_observation(exc, **where, at=at)
    return None


def _players(given: dict[str, JSON]) -> int:
    players = _int(given["players"])
    if players not in PLAYER_COUNTS:
        raise _Malformed(f"{players} players")
    return players


def _scores(given: dict[str, JSON], players: int) -> list[int]:
    scores = _ints(given["scores"])
    if len(scores) != side_count(players):
        sides = side_count(players)
        raise UsageError(f"scores must give {sides} raw scores (one per side), not {len(scores)}")
    return scores


def _played(rules: Rules, given: dict[str, JSON]) -> tuple[Round, JSON]:
    """The round a ``round`` or ``moves`` request deals and plays, and its observation's error."""
    players = _players(given)
    deck = _deck(given["deck"], "deck")
    opener = _opener(given["opener"], "opener", players)
    scores = _scores(given, players)
    actions = _actions(given["actions"], "actions", players)
    round_ = Round(players, deck, opener, scores, rules=rules)
    return round_, _play_actions(round_, actions)


def _run_round(rules: Rules, given: dict[str, JSON]) -> dict[str, JSON]:
    round_, error = _played(rules, given)
    observation = round_observation(round_)
    observation["error"] = error
    return observation


def _run_match(rules: Rules, given: dict[str, JSON]) -> dict[str, JSON]:
    players = _players(given)
    scores = _scores(given, players)
    rounds_given = given["rounds"]
    if type(rounds_given) is not list:
        raise _Malformed
    plans: list[tuple[list[Tile], int | None, list[Action]]] = []
    for r, item in enumerate(rounds_given):
        where = f"rounds[{r}]"
        item = _object(item)
        deck = _deck(item["deck"], f"{where}.deck")
        opener_given = item.get("opener")
        opener = None if opener_given is None else _opener(opener_given, f"{where}.opener", players)
        plans.append((deck, opener, _actions(item["actions"], f"{where}.actions", players)))
    match = Match(players, scores, rules=rules)
    error: dict[str, JSON] | None = None
    for r, (deck, opener, actions) in enumerate(plans):
        try:
            round_ = match.start_round(deck, opener)
        except IllegalMoveError as exc:
            error = error_observation(exc, round=r, at=None)
            break
        error = _play_actions(round_, actions, round=r)
        if error is not None:
            break
    return {
        "rounds": [round_observation(round_) for round_ in match.rounds],
        "over": match.over,
        "winner": match.winner,
        "scores": list(match.scores),
        "error": error,
    }


MAX_DEPTH = 10
"""The deepest count a ``moves`` request may ask for (run.json)."""


def _run_moves(rules: Rules, given: dict[str, JSON]) -> dict[str, JSON]:
    round_, error = _played(rules, given)
    depth = _int(given["depth"])
    if not 0 <= depth <= MAX_DEPTH:
        raise UsageError(f"depth must be 0 to {MAX_DEPTH}, not {depth}")
    wants_divide = given.get("divide", False)
    if type(wants_divide) is not bool:
        raise _Malformed
    observation: dict[str, JSON] = {"legal": [action.text for action in legal_actions(round_)]}
    if wants_divide:
        counts = perft_divide(round_, depth)
        observation["count"] = sum(counts.values()) if depth else 1
        observation["divide"] = {action.text: n for action, n in counts.items()}
    else:
        observation["count"] = perft_count(round_, depth)
    observation["error"] = error
    return observation


_HANDLERS: dict[Level, Callable[[Rules, dict[str, JSON]], dict[str, JSON]]] = {
    Level.SCORING: _run_scoring,
    Level.LAYOUT: _run_layout,
    Level.ROUND: _run_round,
    Level.MATCH: _run_match,
    Level.MOVES: _run_moves,
}

_HANDLERS_BY_NAME = {level.value: handler for level, handler in _HANDLERS.items()}
"""The handlers by the level's name, as requests give it (``Level(name)`` costs more)."""

_: type[Engine] = ReferenceEngine
