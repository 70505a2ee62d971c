"""Hypothesis strategies for Five Up: tiles, deals, layouts, rounds, matches and refused actions.

A public API, for the suite's own property tests and for anyone who wants to point the same
strategies at an engine of their own. It needs `Hypothesis <https://hypothesis.works>`_
(``pip install hypothesis``); nothing else in ``fiveup`` imports this module.

Every round is built from a deal, a permutation of the 28 tiles that Hypothesis shrinks toward
the canonical order, and one drawn choice per step among the legal moves sorted by their text
(a forced move draws nothing). A failing example therefore shrinks to a short round of early
choices from an almost sorted deck. Only a kind of refusal that random play rarely reaches (a
draw from an empty boneyard) may fall back on a seeded search, which shrinks by its seed.

To compare another engine with the reference, turn a round into the ``given`` of a ``round``
request (:func:`round_given`) and compare the engine's observation with the reference's::

    from hypothesis import given
    from fiveup import strategies as fs

    @given(fs.rounds_in_progress())
    def test_my_engine_plays_like_the_reference(round_):
        request = fs.round_given(round_)
        assert my_engine.run("round", request) == fs.reference_observation("round", request)

    @given(fs.illegal_actions())
    def test_my_engine_refuses_what_the_rules_refuse(illegal):
        request = fs.round_given(illegal.round, illegal.action)
        assert my_engine.run("round", request)["error"]["rule"] == illegal.rule

Importing the module registers the settings profiles :data:`LONG_PROFILE` (``fiveup-long``) and
:data:`EVERYDAY_PROFILE` (``fiveup-everyday``, derandomized); :func:`suite_settings` gives the
bounded, derandomized settings of the everyday suite unless the long profile is selected
(``pytest -p fiveup.strategies --hypothesis-profile=fiveup-long``, or the environment variable
``FIVEUP_HYPOTHESIS_PROFILE=fiveup-long``).
"""

from __future__ import annotations

import enum
import os
import random
from collections.abc import Callable, Iterable
from typing import Any, Final, NamedTuple

from hypothesis import HealthCheck, reject, settings
from hypothesis import strategies as st

from fiveup.contract.engine import JSON
from fiveup.contract.notation import ALL_TILES, Action, Placement, Point, Slot, Tile, Verb
from fiveup.contract.players import PLAYER_COUNTS, side_count
from fiveup.reference.engine import ReferenceEngine
from fiveup.reference.layout import Layout
from fiveup.reference.match import Match
from fiveup.reference.round import Round, RoundEnd, RoundEnded, neutral_draw, shuffled_deck
from fiveup.reference.rules import (
    ACTION_REFUSALS,
    PLACEMENT_REFUSALS,
    LayoutView,
    Refusal,
    RefusalKind,
    RoundView,
)
from fiveup.reference.scoring import TARGET_RAW

__all__ = [
    "EVERYDAY_PROFILE",
    "LONG_PROFILE",
    "PROFILE_ENV",
    "Deal",
    "Illegal",
    "IllegalAction",
    "ReachedLayout",
    "deals",
    "decks",
    "finished_rounds",
    "illegal_actions",
    "long_profile_selected",
    "match_given",
    "matches",
    "reachable_layouts",
    "reference_observation",
    "refused_actions",
    "round_given",
    "round_snapshot",
    "rounds_in_progress",
    "scores",
    "suite_settings",
    "tiles",
]

LONG_PROFILE: Final = "fiveup-long"
"""The name of the long settings profile: many more examples and steps, no deadline."""
PROFILE_ENV: Final = "FIVEUP_HYPOTHESIS_PROFILE"
"""The environment variable that selects a settings profile for :func:`suite_settings`."""

EVERYDAY_PROFILE: Final = "fiveup-everyday"
"""The name of the everyday settings profile: derandomized (every run tries the same examples,
and no example database changes which) and without a deadline (a loaded machine is slow, not
wrong). The project's own suite loads it unless another profile is asked for."""

settings.register_profile(
    EVERYDAY_PROFILE, derandomize=True, database=None, deadline=None, print_blob=True
)
settings.register_profile(  # random on CI too, where Hypothesis's own defaults derandomize
    LONG_PROFILE,
    derandomize=False,
    max_examples=2000,
    stateful_step_count=120,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)

MAX_ROUND_ACTIONS: Final = 120
"""More actions than any round can take (28 placements, the draws and the passes between)."""
_SCORE_STEP = 5
_HUNT_ATTEMPTS = 5000


def long_profile_selected() -> bool:
    """Whether the long profile is selected (see :func:`suite_settings`)."""
    name = os.environ.get(PROFILE_ENV) or settings.get_current_profile_name()
    return name == LONG_PROFILE


def suite_settings(**bounded: Any) -> settings:
    """The ``bounded`` settings of the everyday suite, or the long profile when it is selected.

    The everyday settings are derandomized unless ``bounded`` says otherwise: every run tries the
    same examples (and no example database changes which), so a run that passed passes again; the
    long profile stays random. It is selected by ``--hypothesis-profile=fiveup-long`` (with ``-p
    fiveup.strategies``, so that it is registered in time) or by ``FIVEUP_HYPOTHESIS_PROFILE``.
    """
    if long_profile_selected():
        return settings.get_profile(LONG_PROFILE)
    return settings(**{"derandomize": True, **bounded})


# --- tiles, decks and deals -------------------------------------------------------------------


class Deal(NamedTuple):
    """The start of a round: the number of players, the deck in seat order and the opener.

    Seat *i* holds ``deck[5i:5i+5]``; the rest is the boneyard, drawn from the front.
    """

    players: int
    deck: tuple[Tile, ...]
    opener: int

    def __repr__(self) -> str:
        tiles = " ".join(tile.text for tile in self.deck)
        return f"Deal(players={self.players}, deck=<{tiles}>, opener={self.opener})"


def tiles() -> st.SearchStrategy[Tile]:
    """One of the 28 tiles (shrinks toward ``[0|0]``)."""
    return st.sampled_from(ALL_TILES)


def decks() -> st.SearchStrategy[tuple[Tile, ...]]:
    """A permutation of the 28 tiles (shrinks toward the canonical order)."""
    return st.permutations(ALL_TILES).map(tuple)


def _checked(players: int | None) -> int | None:
    """``players``, refused at once (not when drawing) unless it is None, 2, 3 or 4."""
    if players is not None and players not in PLAYER_COUNTS:
        raise ValueError(f"a game has 2, 3 or 4 players, not {players}")
    return players


def _player_counts(players: int | None) -> st.SearchStrategy[int]:
    return st.sampled_from(PLAYER_COUNTS) if players is None else st.just(players)


@st.composite
def _deals(draw: st.DrawFn, players: int | None) -> Deal:
    count = draw(_player_counts(players))
    return Deal(count, draw(decks()), draw(st.integers(0, count - 1)))


def deals(players: int | None = None) -> st.SearchStrategy[Deal]:
    """A :class:`Deal` for ``players`` seats (any of 2, 3 and 4 when None)."""
    return _deals(_checked(players))


def scores(
    players: int, low: int = -100, high: int = TARGET_RAW + 50
) -> st.SearchStrategy[tuple[int, ...]]:
    """Raw scores of the sides of ``players`` seats: multiples of 5 from ``low`` to ``high``."""
    step = st.integers(-(-low // _SCORE_STEP), high // _SCORE_STEP).map(lambda n: n * _SCORE_STEP)
    sides = side_count(players)
    return st.tuples(*[step] * sides)


# --- layouts ----------------------------------------------------------------------------------


class ReachedLayout(NamedTuple):
    """A layout and the legal placements, in order, that built it from an empty table."""

    layout: Layout
    placements: tuple[Placement, ...]


@st.composite
def _reachable_layouts(draw: st.DrawFn, max_tiles: int) -> ReachedLayout:
    layout = Layout()
    placements: list[Placement] = []
    wanted = draw(st.integers(0, max_tiles))
    while len(placements) < wanted:
        options = [p for tile in ALL_TILES for p in layout.legal_placements(tile)]
        if not options:
            break
        placement = draw(st.sampled_from(options))
        layout.place(placement)
        placements.append(placement)
    return ReachedLayout(layout, tuple(placements))


def reachable_layouts(max_tiles: int = len(ALL_TILES)) -> st.SearchStrategy[ReachedLayout]:
    """A layout of up to ``max_tiles`` tiles reached by legal placements, with the placements.

    No hands limit the placements: any tile off the table may join any point it matches.
    """
    return _reachable_layouts(max_tiles)


# --- rounds -----------------------------------------------------------------------------------


def _choose(draw: st.DrawFn, round_: Round) -> Action:
    """One of the legal moves, in the order of their texts (a forced move draws nothing)."""
    moves = round_.legal_action_list()
    if len(moves) == 1:
        return moves[0]
    ordered = sorted(moves, key=lambda action: action.text)
    return ordered[draw(st.integers(0, len(ordered) - 1))]


def _start(draw: st.DrawFn, players: int | None) -> Round:
    deal = draw(deals(players))
    return Round(deal.players, deal.deck, deal.opener, draw(scores(deal.players)))


def _replay(round_: Round, actions: Iterable[Action]) -> Round:
    """A new round from ``round_``'s deal, opener and scores, with ``actions`` applied."""
    again = Round(round_.players, round_.deck, round_.opener, round_.starting_scores)
    for action in actions:
        again.apply(action)
    return again


@st.composite
def _rounds_in_progress(draw: st.DrawFn, players: int | None, max_actions: int) -> Round:
    round_ = _start(draw, players)
    for _ in range(draw(st.integers(0, max_actions))):
        round_.apply(_choose(draw, round_))
        if round_.over:  # one action too many: the round before it is still going on
            return _replay(round_, _actions(round_)[:-1])
    return round_


def rounds_in_progress(
    players: int | None = None, max_actions: int = MAX_ROUND_ACTIONS
) -> st.SearchStrategy[Round]:
    """A round still going on after up to ``max_actions`` legal actions from a drawn deal.

    The sides start from drawn raw scores (:func:`scores`). A round that would end on its next
    chosen action stops just before it.
    """
    return _rounds_in_progress(_checked(players), max_actions)


@st.composite
def _finished_rounds(draw: st.DrawFn, players: int | None) -> Round:
    round_ = _start(draw, players)
    while not round_.over:
        round_.apply(_choose(draw, round_))
    return round_


def finished_rounds(players: int | None = None) -> st.SearchStrategy[Round]:
    """A round played by legal actions from a drawn deal until a player goes out or it blocks."""
    return _finished_rounds(_checked(players))


# --- matches ----------------------------------------------------------------------------------


@st.composite
def _matches(
    draw: st.DrawFn,
    players: int | None,
    start: st.SearchStrategy[tuple[int, ...]] | None,
    max_rounds: int,
) -> Match:
    count = draw(_player_counts(players))
    near_target = scores(count, TARGET_RAW - 60, TARGET_RAW - _SCORE_STEP)
    match = Match(count, draw(near_target if start is None else start))
    while not match.over:
        if len(match.rounds) == max_rounds:
            reject()
        last = match.rounds[-1].result if match.rounds else None
        opener = None
        if last is None or last.end is RoundEnd.BLOCKED:  # a neutral draw: OPN-1, OPN-4
            opener = draw(st.integers(0, count - 1))
        round_ = match.start_round(draw(decks()), opener)
        while not round_.over:
            round_.apply(_choose(draw, round_))
    return match


def matches(
    players: int | None = None,
    start: st.SearchStrategy[tuple[int, ...]] | None = None,
    max_rounds: int = 10,
) -> st.SearchStrategy[Match]:
    """A match played by legal actions until a side wins, from drawn decks and openers.

    ``start`` draws the sides' raw scores before the first round; by default they lie within
    60 raw points below the target, so that most matches take a round or two. A match still
    undecided after ``max_rounds`` rounds is rejected.
    """
    return _matches(_checked(players), start, max_rounds)


# --- refused actions --------------------------------------------------------------------------


_SPEC_REFUSALS: Final[tuple[Refusal[RoundView, Action] | Refusal[LayoutView, Placement], ...]] = (
    *ACTION_REFUSALS,
    *PLACEMENT_REFUSALS,
)
"""The spec's refusal order: a round's actions, then a play's placement."""


def _spec_refusal(kind: RefusalKind, nth: int) -> Refusal[Any, Any]:
    """The ``nth`` entry of ``kind`` in the spec's refusal order."""
    entries = [refusal for refusal in _SPEC_REFUSALS if refusal.kind is kind]
    if nth >= len(entries):
        raise LookupError(f"the spec's refusal order has no entry {nth} of {kind}")
    return entries[nth]


class Illegal(enum.Enum):
    """A kind of action the rules refuse: one entry of the reference's refusal order.

    Each names its entry by the :class:`~fiveup.reference.rules.RefusalKind` it guards (and,
    where a kind has two entries, which one, in the order); its :attr:`rule` is the entry's,
    so that a change of the order's rule IDs follows here.
    """

    WRONG_SEAT = (RefusalKind.TURN, 0, "any action by a seat whose turn it is not")
    AFTER_END = (RefusalKind.END, 0, "any action once the round is over")
    DRAW_WHILE_ABLE = (RefusalKind.DRAW, 0, "a draw by a seat that can place a tile")
    DRAW_FROM_EMPTY = (RefusalKind.DRAW, 1, "a draw when the boneyard is empty")
    DRAW_OR_PASS_PENDING = (
        RefusalKind.PENDING, 1, "a draw or a pass while the drawn tile must be placed"
    )  # fmt: skip
    PLAY_OTHER_THAN_DRAWN = (
        RefusalKind.PENDING, 0, "a play of another tile while the drawn one must be placed"
    )  # fmt: skip
    PASS_WHILE_ABLE = (RefusalKind.PASS, 0, "a pass by a seat that can place a tile")
    PASS_WITH_TILES_LEFT = (RefusalKind.PASS, 1, "a pass while tiles are left to draw")
    NOT_IN_HAND = (
        RefusalKind.HAND, 0, "a play of a tile another seat holds or the boneyard hides"
    )  # fmt: skip
    ON_TABLE = (RefusalKind.TABLE, 0, "a play of a tile already on the table")
    OPENING_ON_TILES = (
        RefusalKind.OPENING, 0, "a tile played without a target once the table has tiles"
    )  # fmt: skip
    TARGET_ON_EMPTY = (RefusalKind.OPENING, 1, "a target named on an empty table")
    TARGET_ABSENT = (RefusalKind.TARGET, 0, "a target on a tile that is not on the table")
    TARGET_OCCUPIED = (RefusalKind.TARGET, 1, "a target where a tile is already joined")
    BRANCH_CLOSED = (
        RefusalKind.SPINNER, 0, "a branch of a spinner whose line sides are not both occupied"
    )  # fmt: skip
    MISMATCH = (RefusalKind.MATCH, 0, "a tile that does not show the value of an open point")

    def __init__(self, kind: RefusalKind, nth: int, description: str) -> None:
        """The ``nth`` entry of ``kind`` in the refusal order, described by ``description``."""
        self.refusal: Refusal[Any, Any] = _spec_refusal(kind, nth)
        """The reference's entry (:data:`~fiveup.reference.rules.ACTION_REFUSALS` or
        :data:`~fiveup.reference.rules.PLACEMENT_REFUSALS`)."""
        self.rule: str = self.refusal.rule
        """The rule ID the action must be refused with: the entry's."""
        self.description = description

    def __repr__(self) -> str:
        return f"Illegal.{self.name}"


class IllegalAction(NamedTuple):
    """A round, an action the rules refuse in it now, and the kind of refusal."""

    round: Round
    action: Action
    kind: Illegal

    @property
    def rule(self) -> str:
        """The rule ID the action must be refused with."""
        return self.kind.rule


def _seat_to_act(round_: Round) -> int | None:
    """The seat to act while the round goes on and no drawn tile is pending, else None."""
    if round_.over or round_.pending is not None:
        return None
    return round_.turn


def _actions_of_other_seats(round_: Round) -> list[Action]:
    turn = round_.turn
    if turn is None:
        return []
    actions = []
    legal = [a.placement for a in round_.legal_action_list() if a.placement is not None]
    for seat in range(round_.players):
        if seat != turn:
            actions += [Action(seat, Verb.DRAW), Action(seat, Verb.PASS)]
            actions += [Action(seat, Verb.PLAY, placement) for placement in legal]
    return actions


def _actions_after_the_end(round_: Round) -> list[Action]:
    if not round_.over:
        return []
    actions = []
    for seat, hand in enumerate(round_.hands):
        actions += [Action(seat, Verb.DRAW), Action(seat, Verb.PASS)]
        for tile in hand:
            opening = [Placement(tile)] if round_.layout.is_empty else []
            for placement in [*opening, *round_.layout.legal_placements(tile)]:
                actions.append(Action(seat, Verb.PLAY, placement))
    return actions


def _draw_or_pass(
    verb: Verb, able: bool, drawable: bool | None = None
) -> Callable[[Round], list[Action]]:
    """A draw or a pass by the seat to act, by whether it can place and can draw.

    ``able``: the seat can place a tile (or not); ``drawable``: tiles are left to draw (or
    not; None: either).
    """

    def candidates(round_: Round) -> list[Action]:
        seat = _seat_to_act(round_)
        if seat is None or round_.can_place(seat) != able:
            return []
        if drawable is not None and bool(round_.drawable) != drawable:
            return []
        return [Action(seat, verb)]

    return candidates


def _draws_and_passes_while_pending(round_: Round) -> list[Action]:
    seat, pending = round_.turn, round_.pending
    if seat is None or pending is None:
        return []
    return [Action(seat, Verb.DRAW), Action(seat, Verb.PASS)]


def _plays_of_other_than_drawn(round_: Round) -> list[Action]:
    seat, pending = round_.turn, round_.pending
    if seat is None or pending is None:
        return []
    layout = round_.layout
    return [
        Action(seat, Verb.PLAY, placement)
        for tile in round_.hand(seat)
        if tile != pending
        for placement in [Placement(tile), *layout.legal_placements(tile)]
    ]


def _plays(seat: int, placements: Iterable[Placement]) -> list[Action]:
    return [Action(seat, Verb.PLAY, placement) for placement in placements]


def _joins(tile: Tile, points: Iterable[Point]) -> list[Placement]:
    """``tile`` joined to each of ``points`` whose value it shows (and that is not its own)."""
    return [Placement(tile, p) for p in points if p.tile != tile and tile.has(p.value)]


_ALL_POINTS: Final = tuple(Point(tile, slot) for tile in ALL_TILES for slot in tile.slots())


def _plays_of_tiles_not_held(round_: Round) -> list[Action]:
    seat = _seat_to_act(round_)
    if seat is None:
        return []
    layout = round_.layout
    held = set(round_.hand(seat))
    elsewhere = [t for t in ALL_TILES if t not in held and t not in layout]
    # placements that would be legal if the seat held the tile; else the bare tile
    placements = [p for t in elsewhere for p in layout.legal_placements(t)]
    return _plays(seat, placements or [Placement(t) for t in elsewhere])


def _plays_of_tiles_on_the_table(round_: Round) -> list[Action]:
    seat = _seat_to_act(round_)
    if seat is None:
        return []
    points = list(round_.layout.points())
    tiles_on_table = round_.layout.tiles()
    placements = [Placement(t) for t in tiles_on_table]
    return _plays(seat, placements + [p for t in tiles_on_table for p in _joins(t, points)])


def _openings_on_a_table_with_tiles(round_: Round) -> list[Action]:
    seat = _seat_to_act(round_)
    if seat is None or round_.layout.is_empty:
        return []
    return _plays(seat, [Placement(tile) for tile in round_.hand(seat)])


def _targets(
    points: Callable[[Layout], Iterable[Point]], empty: bool
) -> Callable[[Round], list[Action]]:
    """Plays of the seat's own tiles joined to ``points(layout)`` (on an empty table or not)."""

    def candidates(round_: Round) -> list[Action]:
        seat = _seat_to_act(round_)
        if seat is None or round_.layout.is_empty != empty:
            return []
        targets = list(points(round_.layout))
        return _plays(seat, [p for tile in round_.hand(seat) for p in _joins(tile, targets)])

    return candidates


def _absent_points(layout: Layout) -> list[Point]:
    return [point for point in _ALL_POINTS if point.tile not in layout]


def _occupied_points(layout: Layout) -> list[Point]:
    return [Point(t, slot) for t in layout.tiles() for slot in sorted(layout.occupied_slots(t))]


def _closed_branches(layout: Layout) -> list[Point]:
    return [
        Point(double, slot)
        for double in layout.spinners()
        for slot in (Slot.BRANCH_A, Slot.BRANCH_B)
        if slot not in layout.occupied_slots(double) and slot not in layout.open_slots_of(double)
    ]


def _joins_to_a_point_of_another_value(round_: Round) -> list[Action]:
    seat = _seat_to_act(round_)
    if seat is None:
        return []
    points = round_.layout.points()
    return _plays(
        seat,
        [
            Placement(tile, point)
            for tile in round_.hand(seat)
            for point, value in points.items()
            if not tile.has(value)
        ],
    )


_CANDIDATES: Final[dict[Illegal, Callable[[Round], list[Action]]]] = {
    Illegal.WRONG_SEAT: _actions_of_other_seats,
    Illegal.AFTER_END: _actions_after_the_end,
    Illegal.DRAW_WHILE_ABLE: _draw_or_pass(Verb.DRAW, able=True),
    Illegal.DRAW_FROM_EMPTY: _draw_or_pass(Verb.DRAW, able=False, drawable=False),
    Illegal.DRAW_OR_PASS_PENDING: _draws_and_passes_while_pending,
    Illegal.PLAY_OTHER_THAN_DRAWN: _plays_of_other_than_drawn,
    Illegal.PASS_WHILE_ABLE: _draw_or_pass(Verb.PASS, able=True),
    Illegal.PASS_WITH_TILES_LEFT: _draw_or_pass(Verb.PASS, able=False, drawable=True),
    Illegal.NOT_IN_HAND: _plays_of_tiles_not_held,
    Illegal.ON_TABLE: _plays_of_tiles_on_the_table,
    Illegal.OPENING_ON_TILES: _openings_on_a_table_with_tiles,
    Illegal.TARGET_ON_EMPTY: _targets(lambda layout: _ALL_POINTS, empty=True),
    Illegal.TARGET_ABSENT: _targets(_absent_points, empty=False),
    Illegal.TARGET_OCCUPIED: _targets(_occupied_points, empty=False),
    Illegal.BRANCH_CLOSED: _targets(_closed_branches, empty=False),
    Illegal.MISMATCH: _joins_to_a_point_of_another_value,
}


def _kinds(kinds: Iterable[Illegal] | None) -> list[Illegal]:
    chosen = list(Illegal) if kinds is None else list(kinds)
    if not chosen:
        raise ValueError("name at least one kind of illegal action")
    return chosen


def refused_actions(
    round_: Round, kinds: Iterable[Illegal] | None = None
) -> st.SearchStrategy[IllegalAction]:
    """An action the rules refuse in ``round_`` as it stands now, of one of ``kinds``.

    A kind is drawn among those the round admits, then an action of that kind; the round is
    held, not copied. Every round admits some kind (a play of a tile the seat does not hold,
    a draw while a drawn tile is pending, any action after the end); with ``kinds`` given, a
    round that admits none of them raises ValueError.
    """
    chosen = _kinds(kinds)
    found = {
        kind: [IllegalAction(round_, action, kind) for action in _CANDIDATES[kind](round_)]
        for kind in chosen
    }
    admitted = [kind for kind in chosen if found[kind]]
    if not admitted:
        names = ", ".join(kind.name for kind in chosen)
        raise ValueError(f"{round_!r} admits no illegal action of {names}")
    return st.sampled_from(admitted).flatmap(lambda kind: st.sampled_from(found[kind]))


def _walk_to(draw: st.DrawFn, kind: Illegal, players: int | None) -> Round | None:
    """A round of drawn legal actions that admits ``kind``, or None.

    The first admitting state after a drawn number of actions, else the last one of the round.
    """
    admits = _CANDIDATES[kind]
    round_ = _start(draw, players)
    wanted = draw(st.integers(0, MAX_ROUND_ACTIONS))
    actions: list[Action] = []
    last: int | None = None
    while True:
        if admits(round_):
            if len(actions) >= wanted:
                return round_
            last = len(actions)
        if round_.over:
            break
        action = _choose(draw, round_)
        round_.apply(action)
        actions.append(action)
    return None if last is None else _replay(round_, actions[:last])


def _hunt(kind: Illegal, seed: int, players: int | None) -> Round | None:
    """The first state admitting ``kind`` in seeded random rounds, or None.

    For the states that play rarely reaches, such as an empty boneyard facing a seat that
    cannot place.
    """
    admits = _CANDIDATES[kind]
    rng = random.Random(seed)
    for _ in range(_HUNT_ATTEMPTS):
        count = rng.choice(PLAYER_COUNTS) if players is None else players
        round_ = Round(count, shuffled_deck(rng), neutral_draw(range(count), rng))
        while not admits(round_) and not round_.over:
            moves = round_.legal_action_list()
            round_.apply(moves[rng.randrange(len(moves))])
        if admits(round_):
            return round_
    return None


@st.composite
def _illegal_actions(draw: st.DrawFn, kinds: list[Illegal], players: int | None) -> IllegalAction:
    kind = draw(st.sampled_from(kinds))
    round_ = _walk_to(draw, kind, players)
    if round_ is None:
        round_ = _hunt(kind, draw(st.integers(0, 2**32 - 1)), players)
    if round_ is None:
        reject()
    action = draw(st.sampled_from(_CANDIDATES[kind](round_)))
    return IllegalAction(round_, action, kind)


def illegal_actions(
    kinds: Iterable[Illegal] | None = None, players: int | None = None
) -> st.SearchStrategy[IllegalAction]:
    """A round reached by legal actions and an action the rules refuse in it, of one of ``kinds``.

    Every kind of :class:`Illegal` by default: TRN-3, END-1, DRW-1 to DRW-5, LAY-1, LAY-3,
    LAY-4 and SPN-2. The placements refused under LAY-1, LAY-4 and SPN-2 break that rule only
    (the tile is the seat's own and shows the value of the point it names), so that the rule
    itself is tested rather than the refusal order.
    """
    return _illegal_actions(_kinds(kinds), _checked(players))


# --- requests and observations ----------------------------------------------------------------


def _texts(items: Iterable[Tile | Action]) -> list[str]:
    return [item.text for item in items]


def _actions(round_: Round) -> list[Action]:
    """Every action accepted in ``round_`` so far, in order."""
    return [event.action for event in round_.events if not isinstance(event, RoundEnded)]


def round_given(round_: Round, *then: Action) -> dict[str, JSON]:
    """The ``given`` of a ``round`` request that replays ``round_``, then the actions ``then``.

    Players, the deck in seat order, the opener, the sides' raw scores before the round and
    every action taken so far as text (``spec/protocol.md``).
    """
    actions = _actions(round_)
    return {
        "players": round_.players,
        "deck": _texts(round_.deck),
        "opener": round_.opener,
        "scores": list(round_.starting_scores),
        "actions": _texts([*actions, *then]),
    }


def match_given(match: Match) -> dict[str, JSON]:
    """The ``given`` of a ``match`` request that replays ``match``.

    The sides' raw scores before the first round, and per round its deck, its actions and,
    where a neutral draw fixed it (the first round, a round after a block), its opener.
    """
    rounds: list[JSON] = []
    previous: Round | None = None
    for round_ in match.rounds:
        item = round_given(round_)
        entry: dict[str, JSON] = {"deck": item["deck"], "actions": item["actions"]}
        if previous is None or (
            previous.result is not None and previous.result.end is RoundEnd.BLOCKED
        ):
            entry["opener"] = round_.opener
        rounds.append(entry)
        previous = round_
    start = match.rounds[0].starting_scores if match.rounds else match.scores
    return {"players": match.players, "scores": list(start), "rounds": rounds}


def reference_observation(level: str, given: dict[str, JSON]) -> dict[str, JSON]:
    """What the reference engine observes for a request of ``level`` with ``given``."""
    return ReferenceEngine().run(level, given)


def round_snapshot(round_: Round) -> tuple[object, ...]:
    """Everything a round shows, as one comparable value: equal before and after a refusal.

    The seat to act, the pending tile, the hands, the boneyard in draw order, the scores, the
    table (placements, sum, points, counted ends, spinners), the events, the result, the legal
    moves and the score history.
    """
    layout = round_.layout
    return (
        round_.players,
        round_.opener,
        round_.turn,
        round_.pending,
        round_.hands,
        round_.boneyard,
        round_.boneyard_size,
        round_.scores,
        round_.starting_scores,
        tuple(layout.placements()),
        layout.sum,
        tuple(layout.points().items()),
        tuple(layout.counted()),
        tuple(layout.spinners()),
        round_.events,
        round_.result,
        tuple(action.text for action in round_.legal_action_list()),
        tuple(round_.score_history()),
    )
