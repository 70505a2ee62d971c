"""The reference engine behind the engine protocol (``spec/protocol.md``).

:class:`ReferenceEngine` answers the four levels with the observation shapes of the protocol.
A refused placement or action is reported in ``error`` with its rule ID, never raised; a request
that is not well formed (a missing key, a wrong type, a text that does not parse, a deck that is
not the 28 tiles) raises :class:`~fiveup.errors.UsageError`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from fiveup import PROTOCOL_VERSION, __version__
from fiveup.contract.engine import JSON, Engine, EngineInfo, Level
from fiveup.contract.notation import ALL_TILES, Action, Placement, Tile
from fiveup.errors import IllegalMoveError, NotationError, UsageError

from .layout import Layout
from .match import Match
from .round import Drew, Event, Passed, Played, Round, RoundEnded, RoundResult
from .scoring import displayed, placement_credit, rounded_penalty, side_penalty, tally

__all__ = [
    "ENGINE_NAME",
    "ReferenceEngine",
    "event_observation",
    "layout_observation",
    "result_observation",
    "round_observation",
]

ENGINE_NAME = "fiveup-reference"
"""The name the reference engine gives in its handshake."""

_T = TypeVar("_T")


# --- observations ---------------------------------------------------------------------------


def layout_observation(layout: Layout) -> dict[str, JSON]:
    """The ``layout`` object of an observation: tiles, spinners, connections, points, sum."""
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
            "play": event.placement.text,
            "sum": event.sum,
            "credit": event.credit,
        }
    if isinstance(event, Drew):
        return {"seat": event.seat, "draw": event.tile.text}
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


def round_observation(round_: Round) -> dict[str, JSON]:
    """``{"events": [...], "state": {...}}`` for a round as it stands."""
    pending = round_.pending
    return {
        "events": [event_observation(e) for e in round_.events if not isinstance(e, RoundEnded)],
        "state": {
            "turn": round_.turn,
            "pending": None if pending is None else pending.text,
            "hands": [[tile.text for tile in hand] for hand in round_.hands],
            "boneyard": round_.boneyard_size,
            "scores": list(round_.scores),
            "layout": layout_observation(round_.layout),
            "result": result_observation(round_.result),
        },
    }


def _error(error: IllegalMoveError, **where: int | None) -> dict[str, JSON]:
    return {**where, "rule": error.rule, "message": error.message}


# --- reading requests -----------------------------------------------------------------------


def _field(given: dict[str, JSON], key: str, what: str) -> Any:
    if key not in given:
        raise UsageError(f"the request has no {key!r} ({what})")
    return given[key]


def _int(value: JSON, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise UsageError(f"{where} must be an integer, not {value!r}")
    return value


def _ints(value: JSON, where: str) -> list[int]:
    if not isinstance(value, list):
        raise UsageError(f"{where} must be a list of integers, not {value!r}")
    return [_int(item, f"{where}[{i}]") for i, item in enumerate(value)]


def _texts(value: JSON, where: str, parse: Callable[[str], _T]) -> list[_T]:
    if not isinstance(value, list):
        raise UsageError(f"{where} must be a list of strings, not {value!r}")
    items: list[_T] = []
    for i, item in enumerate(value):
        if not isinstance(item, str):
            raise UsageError(f"{where}[{i}] must be a string, not {item!r}")
        try:
            items.append(parse(item))
        except NotationError as exc:
            raise UsageError(f"{where}[{i}]: {exc}") from None
    return items


def _players(given: dict[str, JSON]) -> int:
    players = _int(_field(given, "players", "2, 3 or 4"), "players")
    if not 2 <= players <= 4:
        raise UsageError(f"players must be 2, 3 or 4, not {players} (PLY-1)")
    return players


def _sides_scores(given: dict[str, JSON], players: int) -> list[int]:
    sides = 2 if players == 4 else players
    scores = _ints(given.get("scores", [0] * sides), "scores")
    if len(scores) != sides:
        raise UsageError(f"scores must give {sides} raw scores (one per side), not {len(scores)}")
    return scores


def _actions(value: JSON, where: str, players: int) -> list[Action]:
    actions = _texts(value, where, Action.parse)
    for i, action in enumerate(actions):
        if action.seat >= players:
            raise UsageError(f"{where}[{i}]: no seat {action.seat} among {players} players")
    return actions


def _deck(value: JSON, where: str) -> list[Tile]:
    deck = _texts(value, where, Tile.parse)
    if len(deck) != len(ALL_TILES) or len(set(deck)) != len(ALL_TILES):
        raise UsageError(f"{where} must list each of the 28 tiles once (SET-1)")
    return deck


# --- the engine -----------------------------------------------------------------------------


class ReferenceEngine:
    """The reference engine, called in-process by the harness (entry point ``reference``)."""

    def info(self) -> EngineInfo:
        """Name, version, protocol version and the four levels."""
        return {
            "name": ENGINE_NAME,
            "version": __version__,
            "protocol": PROTOCOL_VERSION,
            "levels": [level.value for level in Level],
        }

    def run(self, level: str, given: dict[str, JSON]) -> dict[str, JSON]:
        """Play one request of ``level`` and return the observation of spec/protocol.md."""
        if not isinstance(given, dict):
            raise UsageError(f"a request's given must be an object, not {given!r}")
        try:
            handler = _HANDLERS[Level(level)]
        except ValueError:
            names = ", ".join(lv.value for lv in Level)
            raise UsageError(f"unknown level {level!r} (one of {names})") from None
        return handler(given)


def _run_scoring(given: dict[str, JSON]) -> dict[str, JSON]:
    function = _field(given, "function", "credit, displayed, penalty, side_penalty or tally")
    value = _field(given, "input", "an integer, or a list of integers for side_penalty")
    if function == "side_penalty":
        return {"value": side_penalty(_ints(value, "input"))}
    single: dict[str, Callable[[int], int]] = {
        "credit": placement_credit,
        "displayed": displayed,
        "penalty": rounded_penalty,
    }
    if function == "tally":
        marks = tally(_int(value, "input"))
        return {"value": {"fifties": marks.fifties, "strokes": marks.strokes}}
    if function not in single:
        raise UsageError(
            f"unknown scoring function {function!r} "
            "(credit, displayed, penalty, side_penalty or tally)"
        )
    return {"value": single[function](_int(value, "input"))}


def _run_layout(given: dict[str, JSON]) -> dict[str, JSON]:
    placements = _texts(
        _field(given, "placements", "a list of placements"), "placements", Placement.parse
    )
    layout = Layout()
    steps: list[JSON] = []
    error: dict[str, JSON] | None = None
    for at, placement in enumerate(placements):
        try:
            step = layout.place(placement)
        except IllegalMoveError as exc:
            error = _error(exc, at=at)
            break
        steps.append({"sum": step.sum, "credit": step.credit, "displayed": step.displayed})
    return {"steps": steps, "layout": layout_observation(layout), "error": error}


def _play_actions(round_: Round, actions: Sequence[Action]) -> tuple[int, IllegalMoveError] | None:
    for at, action in enumerate(actions):
        try:
            round_.apply(action)
        except IllegalMoveError as exc:
            return at, exc
    return None


def _run_round(given: dict[str, JSON]) -> dict[str, JSON]:
    players = _players(given)
    deck = _deck(
        _field(given, "deck", "the 28 tiles: hands in seat order, then the boneyard"), "deck"
    )
    opener = _int(_field(given, "opener", "the seat that opens"), "opener")
    if not 0 <= opener < players:
        raise UsageError(f"opener must be a seat from 0 to {players - 1}, not {opener}")
    scores = _sides_scores(given, players)
    actions = _actions(_field(given, "actions", "a list of actions"), "actions", players)
    round_ = Round(players, deck, opener, scores)
    refused = _play_actions(round_, actions)
    observation = round_observation(round_)
    observation["error"] = None if refused is None else _error(refused[1], at=refused[0])
    return observation


def _run_match(given: dict[str, JSON]) -> dict[str, JSON]:
    players = _players(given)
    scores = _sides_scores(given, players)
    rounds_given = _field(given, "rounds", "a list of rounds")
    if not isinstance(rounds_given, list):
        raise UsageError(f"rounds must be a list, not {rounds_given!r}")
    plans: list[tuple[list[Tile], int | None, list[Action]]] = []
    for r, item in enumerate(rounds_given):
        where = f"rounds[{r}]"
        if not isinstance(item, dict):
            raise UsageError(f"{where} must be an object, not {item!r}")
        deck = _deck(_field(item, "deck", "the 28 tiles"), f"{where}.deck")
        opener_given = item.get("opener")
        opener = None if opener_given is None else _int(opener_given, f"{where}.opener")
        if opener is not None and not 0 <= opener < players:
            raise UsageError(f"{where}.opener must be a seat from 0 to {players - 1}")
        actions = _actions(
            _field(item, "actions", "a list of actions"), f"{where}.actions", players
        )
        plans.append((deck, opener, actions))
    match = Match(players, scores)
    error: dict[str, JSON] | None = None
    for r, (deck, opener, actions) in enumerate(plans):
        try:
            round_ = match.start_round(deck, opener)
        except IllegalMoveError as exc:
            error = _error(exc, round=r, at=None)
            break
        refused = _play_actions(round_, actions)
        if refused is not None:
            error = _error(refused[1], round=r, at=refused[0])
            break
    return {
        "rounds": [round_observation(round_) for round_ in match.rounds],
        "over": match.over,
        "winner": match.winner,
        "scores": list(match.scores),
        "error": error,
    }


_HANDLERS: dict[Level, Callable[[dict[str, JSON]], dict[str, JSON]]] = {
    Level.SCORING: _run_scoring,
    Level.LAYOUT: _run_layout,
    Level.ROUND: _run_round,
    Level.MATCH: _run_match,
}

_: type[Engine] = ReferenceEngine
