"""One round of Five Up: the deal, turns, drawing, passing, going out, blocks and penalties.

:class:`Round` is the one mutable state of a round. Every action is checked before anything
changes: a refused action raises :class:`~fiveup.errors.IllegalMoveError` with the rule ID it
breaks and leaves the round exactly as it was. When several rules are broken the first of this
list is reported:

1. TRN-3, the action is not by the seat whose turn it is (only while the round goes on);
2. END-1, the round is over;
3. a drawn tile is pending: DRW-3 for a draw or a pass, DRW-4 for playing another tile;
4. DRW-1, a draw while able to place; DRW-2, a draw from an empty boneyard; DRW-5, a pass while
   able to place or with tiles left in the boneyard;
5. for a play: LAY-3 (the tile is not in the player's hand), then the layout's checks (LAY-4 or
   SPN-2, then LAY-1; see :meth:`Layout.place <fiveup.reference.layout.Layout.place>`).

A round is blocked as soon as an action leaves the boneyard empty while no seat holds a legal
placement (END-2); going out is checked first (END-1). Penalties are subtracted when the round
ends (PEN-1 to PEN-4).

The refusal order and every other rule come from the round's
:class:`~fiveup.reference.rules.Rules` (default: the spec's). With the standard rules the round
takes fast paths that give the same results as asking the rule functions one by one.
"""

from __future__ import annotations

import enum
import operator
import random
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import chain, repeat
from typing import NoReturn, cast

from fiveup.contract.notation import (
    ALL_TILES,
    DRAW_CODE,
    KEY_STRIDE,
    N_TILE_CODES,
    PASS_CODE,
    Action,
    Placement,
    Tile,
    Verb,
)
from fiveup.contract.players import MAX_PLAYERS, MIN_PLAYERS, side_count, side_of
from fiveup.errors import IllegalMoveError, NotationError, UsageError

from .layout import (
    HIGH_OF,
    LOW_OF,
    TILE_OF,
    Join,
    Layout,
    interned_placements,
    new_layout,
    placement_of,
    split_key,
    tile_code,
)
from .rules import (
    ACTION_REFUSALS,
    STANDARD,
    Rules,
    add_rounded,
    anyone_can_place,
    every_double_spins,
    given_opener,
    in_raw_points,
    winner_opens,
)

__all__ = [
    "LOGGED_DRAW",
    "LOGGED_PASS",
    "LOGGED_PLAY",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "NO_TILE",
    "Drew",
    "Event",
    "LegalMoves",
    "Passed",
    "Played",
    "Round",
    "RoundEnd",
    "RoundEnded",
    "RoundResult",
    "neutral_draw",
    "parse_event",
    "shared_actions",
    "shuffled_deck",
    "side_of",
]

DIE_FACES = 6
"""The neutral draw throws one six-sided die per candidate."""


def neutral_draw(candidates: Iterable[int], rng: random.Random) -> int:
    """Pick one of ``candidates`` (seats) by a neutral draw (OPN-1, OPN-4).

    Every candidate throws a die (``rng.randint(1, 6)``, in the order given); the highest throw
    wins; when several share the highest throw, only they throw again, until one remains.
    """
    pool = list(candidates)
    if not pool:
        raise UsageError("a neutral draw needs at least one candidate")
    while len(pool) > 1:
        throws = [rng.randint(1, DIE_FACES) for _ in pool]
        best = max(throws)
        pool = [seat for seat, throw in zip(pool, throws, strict=True) if throw == best]
    return pool[0]


def shuffled_deck(rng: random.Random) -> list[Tile]:
    """The 28 tiles in a random order: ``rng.shuffle`` of the canonical order (SET-1)."""
    deck = list(ALL_TILES)
    rng.shuffle(deck)
    return deck


# --- results and events -------------------------------------------------------------------


class RoundEnd(enum.Enum):
    """How a round ended (END-1)."""

    OUT = "out"
    """A player placed the last tile of their hand."""
    BLOCKED = "blocked"
    """The boneyard is empty and nobody can place a tile (END-2)."""


def _seats_text(values: Sequence[int]) -> str:
    return ",".join(str(v) for v in values)


def _seat_or_dash(seat: int | None) -> str:
    return "-" if seat is None else str(seat)


@dataclass(frozen=True, slots=True)
class RoundResult:
    """The end of a round: how it ended, who went out, the pips left and their penalties."""

    end: RoundEnd
    winner: int | None
    """The seat that went out (END-3); None after a block."""
    pips: tuple[int, ...]
    """Remaining pips per seat (PEN-1)."""
    penalties: tuple[int, ...]
    """Rounded raw penalty per seat (PEN-2), subtracted from the seat's side (PEN-3, PEN-4)."""
    next_opener: int | None
    """The seat that opens the next round (OPN-3); None: a new neutral draw (OPN-4)."""

    @property
    def text(self) -> str:
        """Text form: ``out winner=1 pips=7,0,3 penalties=5,0,5 next=1``."""
        return (
            f"{self.end.value} winner={_seat_or_dash(self.winner)} "
            f"pips={_seats_text(self.pips)} penalties={_seats_text(self.penalties)} "
            f"next={_seat_or_dash(self.next_opener)}"
        )

    @staticmethod
    def parse(text: str) -> RoundResult:
        """Read the text form."""
        parts = text.split()
        try:
            end = RoundEnd(parts[0])
            fields = dict(part.split("=", 1) for part in parts[1:])
            if sorted(fields) != ["next", "penalties", "pips", "winner"]:
                raise ValueError(text)

            def seat(value: str) -> int | None:
                return None if value == "-" else int(value)

            def seats(value: str) -> tuple[int, ...]:
                return tuple(int(v) for v in value.split(",")) if value else ()

            return RoundResult(
                end,
                seat(fields["winner"]),
                seats(fields["pips"]),
                seats(fields["penalties"]),
                seat(fields["next"]),
            )
        except (ValueError, IndexError):
            raise NotationError(
                f"not a round result: {text!r} "
                "(expected a form like 'out winner=1 pips=7,0 penalties=5,0 next=1')"
            ) from None

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True, slots=True)
class Played:
    """A seat placed a tile; ``sum`` of the counted ends after it and the ``credit`` earned."""

    seat: int
    placement: Placement
    sum: int
    credit: int

    @property
    def action(self) -> Action:
        """The action this event records."""
        return Action(self.seat, Verb.PLAY, self.placement)

    @property
    def text(self) -> str:
        """Text form: ``0 play [1|4] sum 5 credit 5``."""
        return f"{self.seat} play {self.placement.text} sum {self.sum} credit {self.credit}"

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True, slots=True)
class Drew:
    """A seat drew ``tile`` from the boneyard."""

    seat: int
    tile: Tile

    @property
    def action(self) -> Action:
        """The action this event records."""
        return Action(self.seat, Verb.DRAW)

    @property
    def text(self) -> str:
        """Text form: ``1 draw [2|5]``."""
        return f"{self.seat} draw {self.tile.text}"

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True, slots=True)
class Passed:
    """A seat passed."""

    seat: int

    @property
    def action(self) -> Action:
        """The action this event records."""
        return Action(self.seat, Verb.PASS)

    @property
    def text(self) -> str:
        """Text form: ``2 pass``."""
        return f"{self.seat} pass"

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True, slots=True)
class RoundEnded:
    """The round ended; always the last event of a finished round."""

    result: RoundResult

    @property
    def text(self) -> str:
        """Text form: ``end out winner=1 pips=7,0,3 penalties=5,0,5 next=1``."""
        return f"end {self.result.text}"

    def __str__(self) -> str:
        return self.text


# A frozen dataclass's __init__ sets each field through object.__setattr__, which cost a random
# round about 1%; the round's end sets the result's fields by the slots' own setters instead.
_Setter = Callable[[RoundResult, object], None]
_SET_END, _SET_WINNER, _SET_PIPS, _SET_PENALTIES, _SET_NEXT = cast(
    "tuple[_Setter, _Setter, _Setter, _Setter, _Setter]",
    tuple(
        vars(RoundResult)[name].__set__
        for name in ("end", "winner", "pips", "penalties", "next_opener")
    ),
)


Event = Played | Drew | Passed | RoundEnded
"""What the event log of a round holds."""


def parse_event(text: str) -> Event:
    """Read the text form of any event."""
    parts = text.split()
    if parts[:1] == ["end"]:
        return RoundEnded(RoundResult.parse(text.strip()[len("end") :].strip()))
    if len(parts) == 7 and parts[1] == "play" and parts[3] == "sum" and parts[5] == "credit":
        action = Action.parse(" ".join(parts[:3]))
        assert action.placement is not None
        try:
            return Played(action.seat, action.placement, int(parts[4]), int(parts[6]))
        except ValueError:
            raise NotationError(f"not an event: {text!r}") from None
    if len(parts) == 3 and parts[1] == "draw" and parts[0].isdigit():
        return Drew(int(parts[0]), Tile.parse(parts[2]))
    if len(parts) == 2 and parts[1] == "pass" and parts[0].isdigit():
        return Passed(int(parts[0]))
    raise NotationError(
        f"not an event: {text!r} (expected '<seat> play <placement> sum <n> credit <n>', "
        "'<seat> draw <tile>', '<seat> pass' or 'end <result>')"
    )


# --- shared action instances ----------------------------------------------------------------

# Every action the engine hands out is one shared instance, recognised by identity in ``apply``.
_PLAY_ACTIONS: list[dict[int, Action]] = [
    {key: Action(seat, Verb.PLAY, placement) for key, placement in interned_placements().items()}
    for seat in range(MAX_PLAYERS)
]
_DRAW_ACTIONS = [Action(seat, Verb.DRAW) for seat in range(MAX_PLAYERS)]
_PASS_ACTIONS = [Action(seat, Verb.PASS) for seat in range(MAX_PLAYERS)]


def _play_rows(plays: dict[int, Action]) -> tuple[tuple[Action | None, ...], ...]:
    """One seat's plays by tile code, then by point code; the opening is the last entry (-1).

    Tuples, which hold their items inline: listing a play fetches one object fewer.
    """
    rows: list[list[Action | None]] = [[None] * KEY_STRIDE for _ in range(N_TILE_CODES)]
    for key, action in plays.items():
        tc, pc = split_key(key)
        rows[tc][pc] = action
    return tuple(tuple(row) for row in rows)


# The plays of a seat as the legal moves list them: ``_PLAY_ROWS[seat][tile code][point code]``,
# the opening at point code -1 (the last entry). Only plays that can ever be legal are there.
_PLAY_ROWS = cast(
    "list[tuple[tuple[Action, ...], ...]]", [_play_rows(plays) for plays in _PLAY_ACTIONS]
)
# The opening play of every tile code, by seat (None for codes that name no tile).
_OPENINGS = [[row[-1] for row in rows] for rows in _PLAY_ROWS]
_SHARED_ACTIONS: tuple[Action, ...] = (
    *(action for plays in _PLAY_ACTIONS for action in plays.values()),
    *_DRAW_ACTIONS,
    *_PASS_ACTIONS,
)


def shared_actions() -> tuple[Action, ...]:
    """Every action a round can ever accept (all seats), as the shared instances it hands out.

    A round reads any action by its seat and :attr:`~fiveup.contract.notation.Action.code`;
    these are the ones it lists, so a caller may compare them by identity. Live as long as the
    module.
    """
    return _SHARED_ACTIONS


_DRAW_JOINS: list[Join] = [(-1, -1, -1, -1, 0, 0, (), DRAW_CODE)]
""":meth:`Round.play_randomly`'s moves when the seat to act must draw (no tile: -1)."""
_PASS_JOINS: list[Join] = [(-2, -1, -1, -1, 0, 0, (), PASS_CODE)]
"""The same when it must pass."""

_NO_LIMIT = (1 << 30) - 1
"""More actions than any round can take, and an int that counts down on the fast path."""

_NOT_A_DECK = "the deck must hold each of the 28 tiles [0|0] to [6|6] once"


def _deck_codes(deck: Sequence[object]) -> list[int]:
    """The codes of a deck of objects that are not Tiles but have ``low`` and ``high``."""
    try:
        return [7 * tile.low + tile.high for tile in deck]  # type: ignore[attr-defined]
    except (AttributeError, TypeError):
        raise UsageError(_NOT_A_DECK, "SET-1") from None


_NO_JOINS: list[Join | None] = [None] * (N_TILE_CODES * KEY_STRIDE)
_SORTED_CODES = sorted(tile_code(tile) for tile in ALL_TILES)
_PIPS_OF = [LOW_OF[code] + HIGH_OF[code] for code in range(len(LOW_OF))]
_PIP_OF = _PIPS_OF.__getitem__
# By the values that have an available point (Layout.open_values, bit v for value v): whether the
# tile with each code shows one of them. A tile is tested in one lookup.
_PLAYABLE = [
    tuple(
        [
            bool(mask >> LOW_OF[code] & 1 or mask >> HIGH_OF[code] & 1)
            for code in range(N_TILE_CODES)
        ]
    )
    for mask in range(1 << 7)
]


def _any_playable(open_values: int, hands: Iterable[list[int]]) -> bool:
    """True when a tile in some hand shows a value open on a table that has tiles."""
    return any(map(_PLAYABLE[open_values].__getitem__, chain.from_iterable(hands)))


LOGGED_PLAY, LOGGED_DRAW, LOGGED_PASS = 0, 1, 2
"""The kinds of the entries of :attr:`Round.action_log`."""
_PLAYED, _DREW, _PASSED = LOGGED_PLAY, LOGGED_DRAW, LOGGED_PASS
# No layout of 28 tiles counts more than this, nor can a hand hold more pips.
_MAX_SUM = 2 * 6 * len(ALL_TILES)
NO_TILE = -1
"""The :attr:`Round.pending_code` of a round with no drawn tile pending."""
_NO_TILE = NO_TILE
_NO_SEAT = -1


def _tile(code: int) -> Tile:
    tile = TILE_OF[code]
    assert tile is not None
    return tile


# Hands, the boneyard and the pending tile hold only codes of tiles, never a None entry of
# TILE_OF; indexing it directly spares the refusal tests a call per tile.
_TILE: list[Tile] = cast("list[Tile]", TILE_OF)


@dataclass(frozen=True, slots=True)
class _Seating:
    """What a set of rules fixes for one number of players, computed once."""

    sides: tuple[int, ...]
    next_seat: tuple[int, ...]
    credit_side: tuple[int, ...]
    zero_scores: tuple[int, ...]
    """The raw scores of a round dealt without scores: 0 for every side."""
    boneyard: slice
    """The rest of the deck, reversed: the next tile to draw is the last."""
    deal: Callable[[list[int]], tuple[list[int], ...]]
    """The deck's codes cut into the seats' hands, in seat order (one ``itemgetter`` of slices:
    one call, where a map of slices costs a call per seat)."""


@dataclass(frozen=True, slots=True, eq=False)
class _Derived:
    """What a set of rules fixes once for every round: tables by player count, and flags.

    Compared and hashed by identity: a variant's position keys start with its ``_Derived``.
    """

    rules: Rules
    seating: dict[int, _Seating]
    credit: list[int]
    """The credit of every sum (SCR-2)."""
    penalty: list[int]
    """The rounded penalty of every pip count (PEN-2)."""
    fast: bool
    """The round's built-in paths give the answers of the rules (no variant)."""
    fast_moves: bool
    """The built-in paths give the rules' refusals and legal moves (the variant, if any, is
    in the count at the end of the round only)."""
    fast_legal: bool
    """The built-in paths give the rules' legal moves: the rules refuse the same actions,
    perhaps naming another rule first (a refusal order reordered)."""
    given_opener: bool
    position_only: bool
    """Whatever the rules read of a round or a table is decided by the table's occupied slots,
    the hands, the boneyard, the turn and the pending tile (no rule of the variant looks at the
    order of play, nor at how the tiles are joined)."""


# By the identity of the rules (hashing a Rules on every deal would cost more than the deal).
_DERIVED: dict[int, _Derived] = {}


def _derive(rules: Rules) -> _Derived:
    found = _DERIVED.get(id(rules))
    if found is not None and found.rules is rules:
        return found
    seating = {}
    size = rules.hand_size
    for players in range(MIN_PLAYERS, MAX_PLAYERS + 1):
        sides = tuple(rules.side_of(seat, players) for seat in range(players))
        dealt = size * players
        hands = tuple(slice(start, start + size) for start in range(0, dealt, size))
        seating[players] = _Seating(
            sides,
            tuple(rules.next_seat(seat, players) for seat in range(players)),
            tuple(sides[rules.credited_seat(seat, players)] for seat in range(players)),
            (0,) * side_count(players),
            slice(None, dealt - 1, -1),
            operator.itemgetter(*hands),  # two or more seats: a tuple of lists
        )
    derived = _Derived(
        rules,
        seating,
        [rules.credit(total) for total in range(_MAX_SUM + 1)],
        [rules.rounded_penalty(pips) for pips in range(_MAX_SUM + 1)],
        _is_fast(rules),
        _moves_are_fast(rules),
        _legal_moves_are_fast(rules),
        rules.opener is given_opener,
        _reads_only_the_position(rules),
    )
    _DERIVED[id(rules)] = derived
    return derived


# --- the round ------------------------------------------------------------------------------


class LegalMoves:
    """The actions the seat to act may take now: plays, or else a draw, or else a pass.

    A live view of its round (like a dict view): it always shows the round's current state,
    read through the round's public methods only.
    Supports ``len``, ``bool``, ``in``, iteration and indexing (``moves[i]``, for choosing one
    uniformly). Empty once the round is over.
    """

    __slots__ = ("_round",)

    def __init__(self, round_: Round) -> None:
        """The view of ``round_``'s legal moves."""
        self._round = round_

    def __len__(self) -> int:
        return len(self._round.legal_action_list())

    def __bool__(self) -> bool:
        return not self._round.over

    def __iter__(self) -> Iterator[Action]:
        return iter(self._round.legal_action_list())

    def __getitem__(self, index: int) -> Action:
        return self._round.legal_action_list()[index]

    def __contains__(self, action: object) -> bool:
        return isinstance(action, Action) and self._round.is_legal(action)

    def count(self) -> int:
        """The number of legal actions."""
        return len(self)

    def __repr__(self) -> str:
        texts = ", ".join(action.text for action in self)
        return f"<LegalMoves [{texts}]>"


class Round:
    """One round, from the deal to going out or a block.

    Built from a deck order (``deck[5i:5i+5]`` is seat *i*'s hand, the rest the boneyard, drawn
    from the front), the number of players, the opener and the sides' raw scores before the
    round. ``hands``, ``boneyard``, ``layout``, ``scores``, ``turn``, ``pending``, ``events``
    and ``result`` show the state; ``apply`` (or ``play``, ``draw``, ``pass_`` for the seat to
    act) changes it. ``rules`` (default: the spec's) is the set of rules played.
    """

    __slots__ = (
        "_bone",
        "_credit",
        "_credit_side",
        "_deck",
        "_derived",
        "_events",
        "_hands",
        "_joins",
        "_layout",
        "_log",
        "_moves",
        "_next_seat",
        "_opener",
        "_pending",
        "_players",
        "_reserve",
        "_result",
        "_rules",
        "_scores",
        "_side_of",
        "_start_scores",
        "_turn",
    )

    def __init__(  # noqa: C901 - one check per argument, inline: a deal is on the hot path
        self,
        players: int,
        deck: Sequence[Tile],
        opener: int,
        scores: Sequence[int] | None = None,
        *,
        rules: Rules = STANDARD,
    ) -> None:
        """Deal ``deck`` to ``players`` seats; ``opener`` acts first; ``scores`` per side.

        By rules other than the spec's, a ``Round`` becomes the subclass that plays them: the
        least a variant needs to change.
        """
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise UsageError(f"a game has 2, 3 or 4 players, not {players}", "PLY-1")
        try:
            codes = [tile.code for tile in deck]
        except AttributeError:  # not Tiles: their halves, if they have them
            codes = _deck_codes(deck)
        if sorted(codes) != _SORTED_CODES:  # sorting 28 small ints is the cheapest check
            raise UsageError(_NOT_A_DECK, "SET-1")
        if not 0 <= opener < players:
            raise UsageError(f"no seat {opener} among {players} players", "TRN-1")
        if rules is STANDARD:
            derived = _STANDARD_DERIVED
        else:
            found = _DERIVED.get(id(rules))
            derived = found if found is not None and found.rules is rules else _derive(rules)
            if not derived.fast and type(self) is Round:  # the subclasses add no slots
                self.__class__ = _variant_of(derived)
        seating = derived.seating[players]
        if scores is None:
            start = seating.zero_scores
        elif len(scores) != len(seating.zero_scores):
            sides = len(seating.zero_scores)
            raise UsageError(f"{players} players form {sides} sides, not {len(scores)}", "PLY-3")
        else:
            start = scores if type(scores) is tuple else tuple(scores)
        self._start_scores = start
        self._scores = list(start)
        self._rules = rules
        self._derived = derived
        self._players = players
        self._deck = codes
        self._hands = list(seating.deal(codes))
        self._bone = codes[seating.boneyard]
        self._reserve = 0
        if rules.reserve:  # a variant's SET-4: the end of the boneyard is counted, never drawn
            self._reserve = min(rules.reserve, len(self._bone))
            del self._bone[: self._reserve]
        self._next_seat = seating.next_seat
        self._side_of = seating.sides
        self._credit_side = seating.credit_side
        self._credit = derived.credit
        self._pending = _NO_TILE
        self._layout = layout = new_layout(rules)
        # Plays on the spec's table are placed inline by their join; no join, no inline path.
        self._joins = layout._joins if type(layout) is Layout else _NO_JOINS
        self._log: list[tuple[int, ...]] = []
        self._events: list[Event] | None = None
        self._result: RoundResult | None = None
        self._moves: list[Action] | None = None
        if not derived.given_opener:
            opener = rules.opener(opener, self.hands)
        self._opener = self._turn = opener

    @classmethod
    def from_seed(
        cls,
        players: int,
        seed: int,
        *,
        opener: int | None = None,
        scores: Sequence[int] | None = None,
        rules: Rules = STANDARD,
    ) -> Round:
        """A round dealt from ``random.Random(seed)``: shuffle, then a neutral draw if needed."""
        rng = random.Random(seed)
        deck = shuffled_deck(rng)
        if opener is None:
            opener = neutral_draw(range(players), rng)
        return cls(players, deck, opener, scores, rules=rules)

    def position_key(self) -> Hashable | None:
        """A key that two positions share when the same action sequences are legal from both.

        The table's occupied slots, each hand as a set, the boneyard in order, the seat to act,
        the pending tile and whether the round is over: under the spec's rules nothing else
        (not the scores, nor the order of play that led here) decides what is legal now or
        later. A round by other rules starts its key with those rules' own token, so it never
        shares a key with a round by the spec's; when a rule of the variant may look at more
        than that (a refusal, block test or SPN-1 of its own, which may read the placements in
        order), the key holds the placements in order and the hands as they are ordered.
        None for a subclass of :class:`Round`, which may look at anything.
        """
        cls = type(self)
        layout = self._layout
        if cls is Round and type(layout) is Layout:
            key = (
                layout.occupied_key(),
                tuple([tuple(sorted(hand)) for hand in self._hands]),
                tuple(self._bone),
                self._turn,
                self._pending,
                self._result is None,
            )
            # A variant of the table alone (its open slots, what counts) plays on this class.
            return key if self._rules is STANDARD else (self._derived, *key)
        if cls not in _VARIANT_CLASSES:
            return None
        derived = self._derived
        if derived.position_only:
            return (
                derived,
                layout.occupied_key(),
                tuple([tuple(sorted(hand)) for hand in self._hands]),
                tuple(self._bone),
                self._turn,
                self._pending,
                self._result is None,
            )
        return (
            derived,
            tuple(layout.placed),
            tuple([tuple(hand) for hand in self._hands]),
            tuple(self._bone),
            self._turn,
            self._pending,
            self._result is None,
        )

    def copy(self) -> Round:
        """An independent copy of the round (a few list copies; the deck is shared)."""
        # Every slot by name (tests/test_round.py holds the list complete): a loop of
        # getattr/setattr cost twice as much, and perft copies a round per node.
        other = object.__new__(type(self))
        other._bone = self._bone.copy()
        other._credit = self._credit
        other._credit_side = self._credit_side
        other._deck = self._deck
        other._derived = self._derived
        other._events = None if self._events is None else self._events.copy()
        other._hands = list(map(list.copy, self._hands))
        other._joins = self._joins
        other._layout = self._layout.copy()
        other._log = self._log.copy()
        other._moves = self._moves
        other._next_seat = self._next_seat
        other._opener = self._opener
        other._pending = self._pending
        other._players = self._players
        other._reserve = self._reserve
        other._result = self._result
        other._rules = self._rules
        other._scores = self._scores.copy()
        other._side_of = self._side_of
        other._start_scores = self._start_scores
        other._turn = self._turn
        return other

    # --- the state --------------------------------------------------------------------------

    @property
    def rules(self) -> Rules:
        """The rules this round is played by."""
        return self._rules

    @property
    def players(self) -> int:
        """The number of players (seats 0 to players - 1, clockwise)."""
        return self._players

    @property
    def sides(self) -> int:
        """The number of sides that keep a score."""
        return len(self._scores)

    def side_of(self, seat: int) -> int:
        """The side ``seat`` scores for (PLY-2, PLY-3)."""
        return self._side_of[seat]

    @property
    def deck(self) -> tuple[Tile, ...]:
        """The deck order the round was dealt from."""
        return tuple([_TILE[code] for code in self._deck])

    @property
    def opener(self) -> int:
        """The seat that opened the round."""
        return self._opener

    @property
    def turn(self) -> int | None:
        """The seat to act; None once the round is over."""
        return None if self._result is not None else self._turn

    @property
    def pending(self) -> Tile | None:
        """A just-drawn tile that must be placed now (DRW-3), else None."""
        return None if self._pending == _NO_TILE else _tile(self._pending)

    @property
    def hands(self) -> tuple[tuple[Tile, ...], ...]:
        """Every seat's tiles: those dealt still held, then those drawn, in order."""
        return tuple([tuple([_TILE[code] for code in hand]) for hand in self._hands])

    def hand(self, seat: int) -> tuple[Tile, ...]:
        """The tiles ``seat`` holds."""
        return tuple([_TILE[code] for code in self._hands[seat]])

    @property
    def boneyard(self) -> tuple[Tile, ...]:
        """The tiles left to draw, in draw order (first is drawn next)."""
        return tuple([_TILE[code] for code in reversed(self._bone)])

    @property
    def boneyard_size(self) -> int:
        """How many tiles are left in the boneyard (with a variant's reserve, SET-4)."""
        return len(self._bone) + self._reserve

    @property
    def drawable(self) -> int:
        """How many tiles may still be drawn."""
        return len(self._bone)

    @property
    def scores(self) -> tuple[int, ...]:
        """Raw score of each side: credits added at once, penalties once the round is over."""
        return tuple(self._scores)

    @property
    def starting_scores(self) -> tuple[int, ...]:
        """Raw score of each side before the round."""
        return self._start_scores

    @property
    def layout(self) -> Layout:
        """The table (the live object: read it, change it only through the round)."""
        return self._layout

    @property
    def legal_moves(self) -> LegalMoves:
        """The actions the seat to act may take now (a live view)."""
        return LegalMoves(self)

    @property
    def events(self) -> tuple[Event, ...]:
        """Every accepted action in order, then :class:`RoundEnded` once the round is over."""
        events = self._events
        if events is None:
            events = self._events = []
        for entry in self._log[len(events) :]:
            kind, seat = entry[0], entry[1]
            if kind == _PLAYED:
                events.append(Played(seat, placement_of(entry[2]), entry[3], entry[4]))
            elif kind == _DREW:
                events.append(Drew(seat, _tile(entry[2])))
            else:
                events.append(Passed(seat))
        if self._result is not None:
            return (*events, RoundEnded(self._result))
        return tuple(events)

    def score_history(self) -> list[tuple[int, ...]]:
        """The sides' raw scores after each accepted action, before the end-of-round count."""
        scores = list(self._start_scores)
        history = []
        for entry in self._log:
            if entry[0] == _PLAYED and entry[4]:
                scores[self._credit_side[entry[1]]] += entry[4]
            history.append(tuple(scores))
        return history

    @property
    def result(self) -> RoundResult | None:
        """How the round ended; None while it goes on."""
        return self._result

    @property
    def over(self) -> bool:
        """True once a player went out or the round is blocked."""
        return self._result is not None

    def can_place(self, seat: int) -> bool:
        """True when ``seat`` holds a tile that has a legal placement now."""
        return self._can_place(self._hands[seat])

    def __repr__(self) -> str:
        state = "over" if self._result is not None else f"turn {self._turn}"
        return (
            f"<Round players={self._players} opener={self._opener} {state} "
            f"placed={len(self._layout)} boneyard={self.boneyard_size} scores={self._scores}>"
        )

    # --- the state as codes, for the protocol front end ---------------------------------------

    @property
    def action_log(self) -> Sequence[tuple[int, ...]]:
        """The accepted actions in order, as codes: what :attr:`events` is built from.

        ``(LOGGED_PLAY, seat, placement key, sum, credit)``, ``(LOGGED_DRAW, seat, tile code)``
        or ``(LOGGED_PASS, seat)`` (keys and codes as in :mod:`fiveup.reference.layout`). The
        live list: read it, never change it.
        """
        return self._log

    @property
    def hand_codes(self) -> Sequence[Sequence[int]]:
        """Every seat's tile codes, in the order of :attr:`hands` (live: read, never change)."""
        return self._hands

    @property
    def pending_code(self) -> int:
        """The tile code of :attr:`pending`, or :data:`NO_TILE`."""
        return self._pending

    # --- acting -----------------------------------------------------------------------------

    def apply(self, action: Action) -> None:  # noqa: C901 - one straight path per verb, inline
        """Carry out ``action`` for its seat, refused by the first rule it breaks (TRN-3, ...)."""
        seat = self._turn
        if action.seat != seat or type(action) is not Action:
            self._apply_other(action)  # another seat's, a round that is over, or a subclass
            return
        code = action.code
        if code >= 0:  # a play: the checks of TRN-3 to LAY-3 inline, then the table's
            try:
                join = self._joins[code]
            except IndexError:  # no placement has this key: a code set by hand
                self._refused(action)
            pending = self._pending
            hand = self._hands[seat]
            if join is None:  # a variant's table, or a join that no table has
                total = self._place_by_layout(action)
                tc = code // KEY_STRIDE
            else:  # Layout.place_key inline (a call per play was 3% of a round; a test holds
                # the two equal): the seat's checks, then the table's, before any change
                tc, pc, target_tc, value, bit, mask, steps, _ = join
                layout = self._layout
                occupied = layout._occupied
                # a tile in hand is not on the table: only the table's points can refuse it
                if (pending != _NO_TILE and tc != pending) or tc not in hand:
                    self._refused(action)
                avail = layout.points_by_value
                if pc < 0:
                    if layout.placed:
                        self._refused(action)
                    total, _, points, bits = steps[0]
                else:
                    joined = avail[value]
                    try:
                        joined.remove(pc)
                    except ValueError:  # not an available point: absent, occupied or closed
                        self._refused(action)
                    change, occupied[target_tc], points, bits = steps[occupied[target_tc]]
                    total = layout._sum + change
                    bits |= layout.open_values if joined else layout.open_values ^ bit
                occupied[tc] = mask
                for point_value, point_code in points:
                    avail[point_value].append(point_code)
                layout.open_values = bits
                layout._sum = total
                layout.placed.append(code)
            hand.remove(tc)
            if pending != _NO_TILE:
                self._pending = _NO_TILE
            credit = self._credit[total]
            if credit and (hand or self._rules.scores_going_out):
                self._scores[self._credit_side[seat]] += credit
            self._log.append((_PLAYED, seat, code, total, credit))
            self._moves = None
            if hand:
                self._turn = self._next_seat[seat]
                if not self._bone and not self._anyone_can_place():
                    self._finish(RoundEnd.BLOCKED, None)
            elif self._rules.out_before_block or self._bone or self._anyone_can_place():
                self._finish(RoundEnd.OUT, seat)
            else:
                self._finish(RoundEnd.BLOCKED, None)
        elif code == DRAW_CODE:
            moves = self._moves
            bone = self._bone
            hand = self._hands[seat]
            if (moves is None or moves[0] is not action) and (
                self._pending != _NO_TILE or not bone or self._can_place(hand)
            ):
                self._refused(action)
            tc = bone.pop()
            hand.append(tc)
            self._log.append((_DREW, seat, tc))
            if _PLAYABLE[self._layout.open_values][tc]:
                self._pending = tc
                self._moves = None
            elif not bone:
                self._moves = None
                if not self._anyone_can_place():
                    self._finish(RoundEnd.BLOCKED, None)
            elif moves is None or moves[0] is not action:
                self._moves = [action]  # still nothing to place: the same single draw
        else:
            moves = self._moves
            if moves is None or moves[0] is not action:
                self._refuse(action)
                if code != PASS_CODE or action.verb is not Verb.PASS:  # a code set by hand
                    self._refused(action)
            self._log.append((_PASSED, seat))
            self._moves = None
            self._turn = self._next_seat[seat]

    def play_randomly(  # noqa: C901 - one frame: the listing and each verb inline
        self, rng: random.Random, limit: int | None = None
    ) -> int:
        """Play on with random legal actions; return how many were applied.

        Each action is ``moves[int(rng.random() * len(moves))]`` of :meth:`legal_action_list`,
        the choice of :func:`~fiveup.reference.match.random_policy`, applied as :meth:`apply`
        applies it, until the round is over or ``limit`` actions (plays, draws and passes) are
        applied. The round, the ``rng`` and the count end as that loop leaves them (a test holds
        the two equal). For playouts (MCTS, ``fiveup bench``, a fuzz case): under rules
        whose built-in paths are the round's own the loop runs in one frame and checks nothing,
        since every action is one the round has just listed; under any other rules, or on a
        subclass, it is that loop. ``rng`` draws the numbers and nothing else: on the fast path
        the round shows its state as of the call until the playout ends.
        """
        if limit is None:
            left = _NO_LIMIT
        else:
            left = operator.index(limit)  # a count: 2.0 or "2" is a TypeError, as for range
            if left < 0:
                raise UsageError(f"a playout's limit is a count of actions, not {left}")
            left = min(left, _NO_LIMIT)
        # the table's class, not the join list's identity: a deep copy holds a copy of that list
        if type(self) is not Round or type(self._layout) is not Layout:
            return self._play_randomly_by_apply(rng, left)
        if self._result is not None or not left:
            return 0
        draw = rng.random
        layout = self._layout
        avail = layout.points_by_value
        occupied = layout._occupied
        placed = layout.placed
        # A tile in hand is listed at the points of its values only: its join is never None.
        tables = layout._tables
        point_joins = cast("list[tuple[Join, ...]]", tables.point_joins)
        openings = cast("list[Join]", tables.openings)
        hands = self._hands
        bone = self._bone
        log = self._log
        add = log.append
        scores = self._scores
        credit_of = self._credit
        credit_side = self._credit_side
        next_seat = self._next_seat
        rules = self._rules
        going_out_scores = rules.scores_going_out
        out_first = rules.out_before_block
        seat = self._turn
        pending = self._pending
        bits = layout.open_values
        total = layout._sum
        moves: list[Join] | None = None  # the joins of the legal plays, or a draw or a pass
        before = len(log)
        end: RoundEnd | None = None
        winner: int | None = None
        # Only rng.random() and the choice can raise (a generator of its own): before the
        # action's first change, so the round is written back as the last action left it.
        try:
            for _ in repeat(None, left):  # counted in C: a round stops at ``limit`` actions
                if moves is None:
                    playable = _PLAYABLE[bits]
                    moves = []
                    for tc in hands[seat] if pending == _NO_TILE else (pending,):
                        if playable[tc]:
                            low, high = LOW_OF[tc], HIGH_OF[tc]
                            for pc in avail[low]:
                                moves.append(point_joins[pc][high])
                            if high != low:
                                for pc in avail[high]:
                                    moves.append(point_joins[pc][low])
                    if not moves:
                        if not placed:
                            moves = list(map(openings.__getitem__, hands[seat]))
                        else:
                            moves = _DRAW_JOINS if bone else _PASS_JOINS
                tc, pc, target_tc, value, bit, mask, steps, code = moves[int(draw() * len(moves))]
                if tc >= 0:
                    if pc < 0:
                        total, _, points, bits = steps[0]
                    else:
                        joined = avail[value]
                        joined.remove(pc)
                        change, occupied[target_tc], points, gained = steps[occupied[target_tc]]
                        total += change
                        bits = gained | (bits if joined else bits ^ bit)
                    occupied[tc] = mask
                    for point_value, point_code in points:
                        avail[point_value].append(point_code)
                    placed.append(code)
                    hand = hands[seat]
                    hand.remove(tc)
                    pending = _NO_TILE
                    credit = credit_of[total]
                    if credit and (hand or going_out_scores):
                        scores[credit_side[seat]] += credit
                    add((_PLAYED, seat, code, total, credit))
                    moves = None
                    if hand:
                        seat = next_seat[seat]
                        if not bone and not _any_playable(bits, hands):
                            end = RoundEnd.BLOCKED
                            break
                    elif out_first or bone or _any_playable(bits, hands):
                        end, winner = RoundEnd.OUT, seat
                        break
                    else:
                        end = RoundEnd.BLOCKED
                        break
                elif moves is _DRAW_JOINS:
                    tc = bone.pop()
                    hands[seat].append(tc)
                    add((_DREW, seat, tc))
                    if _PLAYABLE[bits][tc]:
                        pending = tc
                        moves = None
                    elif not bone:
                        moves = None
                        if not _any_playable(bits, hands):
                            end = RoundEnd.BLOCKED
                            break
                else:
                    add((_PASSED, seat))
                    moves = None
                    seat = next_seat[seat]
        finally:
            layout.open_values = bits
            layout._sum = total
            self._pending = pending
            self._turn = seat
            self._moves = None
        if end is not None:
            self._finish(end, winner)
        return len(log) - before

    def _play_randomly_by_apply(self, rng: random.Random, left: int) -> int:
        """:meth:`play_randomly` through the public loop: a legal list and an apply per action."""
        draw = rng.random
        legal, apply = self.legal_action_list, self.apply
        applied = 0
        moves = legal()
        while moves and applied < left:
            apply(moves[int(draw() * len(moves))])
            applied += 1
            moves = legal()
        return applied

    def _apply_other(self, action: Action) -> None:
        """Refuse an action out of turn (TRN-3) or after the end; read a subclass's as an Action.

        An instance of a subclass of Action is carried out as the Action its fields make.
        """
        self._check_seat(action)
        if action.seat == self._turn:
            self.apply(Action(action.seat, action.verb, action.placement))
            return
        self._refused(action)

    def _place_by_layout(self, action: Action) -> int:
        """Place by :meth:`Layout.place_key` a play the seat may make; return the new sum.

        For a variant's table, and for a join no table has (LAY-4 unless a refusal names it).
        """
        code = action.code
        pending = self._pending
        tc = code // KEY_STRIDE
        if (pending != _NO_TILE and tc != pending) or tc not in self._hands[action.seat]:
            self._refused(action)
        if self._layout._joins[code] is None:
            self._refuse(action)
            assert action.placement is not None
            self._layout.check(action.placement)
        return self._layout.place_key(code)

    def _seat_action(self, verb: Verb, placement: Placement | None = None) -> Action:
        """The shared action of the seat to act (seat 0 once the round is over), else a new one."""
        seat = max(self._turn, 0)
        if placement is None:
            return _DRAW_ACTIONS[seat] if verb is Verb.DRAW else _PASS_ACTIONS[seat]
        return _PLAY_ACTIONS[seat].get(placement.key) or Action(seat, verb, placement)

    def play(self, move: Placement | Action) -> None:
        """Place a tile for the seat to act (an Action is applied with its seat checked)."""
        self.apply(move if isinstance(move, Action) else self._seat_action(Verb.PLAY, move))

    def draw(self) -> None:
        """Draw the next boneyard tile for the seat to act (DRW-2)."""
        self.apply(self._seat_action(Verb.DRAW))

    def pass_(self) -> None:
        """Pass for the seat to act (DRW-5)."""
        self.apply(self._seat_action(Verb.PASS))

    def refusal(self, action: Action) -> tuple[str, str] | None:
        """The ``(rule, reason)`` that refuses ``action`` now, or None when it is allowed."""
        return self._rules.refusal(self, action)

    def is_legal(self, action: Action) -> bool:
        """True when :meth:`apply` would accept ``action`` now."""
        if not 0 <= action.seat < self._players:
            return False
        return self.refusal(action) is None

    def _check_seat(self, action: Action) -> None:
        if not 0 <= action.seat < self._players:
            raise NotationError(f"no seat {action.seat} among {self._players} players")

    def _refuse(self, action: Action) -> None:
        found = self.refusal(action)
        if found is not None:
            raise IllegalMoveError(*found)

    def _refused(self, action: Action) -> NoReturn:
        """Raise the refusal of an action that a fast path found refused."""
        self._refuse(action)
        if action.code != Action(action.seat, action.verb, action.placement).code:
            raise NotationError(
                f"{action.text}: its code {action.code} was changed after it was made"
            )
        raise AssertionError(f"{action.text} passed the checks it failed")

    def _can_place(self, hand: list[int]) -> bool:
        layout = self._layout
        if not layout.placed:
            return bool(hand)
        return any(map(_PLAYABLE[layout.open_values].__getitem__, hand))

    def _anyone_can_place(self) -> bool:
        layout = self._layout
        if not layout.placed:
            return any(self._hands)
        return _any_playable(layout.open_values, self._hands)

    def _pips(self) -> tuple[int, ...]:
        """The pips left in each hand (PEN-1)."""
        pips = _PIP_OF
        return tuple([sum(map(pips, hand)) for hand in self._hands])

    def _finish(self, end: RoundEnd, winner: int | None) -> None:
        # :meth:`_pips` inline, the result set by its slots' setters, and the standard count in
        # one pass over the seats: a plain loop of two to four steps costs less than chained maps
        penalty_of = self._derived.penalty
        scores = self._scores
        pips: list[int] = []
        penalties: list[int] = []
        for hand, side in zip(self._hands, self._side_of):  # noqa: B905 - one side a seat
            left = sum(map(_PIP_OF, hand))
            pips.append(left)
            penalty = penalty_of[left]
            penalties.append(penalty)
            scores[side] -= penalty
        result: RoundResult = object.__new__(RoundResult)
        _SET_END(result, end)
        _SET_WINNER(result, winner)
        _SET_PIPS(result, tuple(pips))
        _SET_PENALTIES(result, tuple(penalties))
        _SET_NEXT(result, winner)
        self._result = result
        self._moves = []
        self._pending = _NO_TILE
        self._turn = _NO_SEAT

    def legal_action_list(self) -> list[Action]:
        """The legal actions of the seat to act, as a list (shared: do not change it)."""
        moves = self._moves
        if moves is not None:  # also once the round is over: the end leaves an empty list
            return moves
        seat = self._turn
        layout = self._layout
        playable = _PLAYABLE[layout.open_values]
        avail = layout.points_by_value
        rows = _PLAY_ROWS[seat]
        moves = []
        pending = self._pending
        for tc in self._hands[seat] if pending == _NO_TILE else (pending,):
            if playable[tc]:
                row = rows[tc]
                low = avail[LOW_OF[tc]]
                for pc in low:
                    moves.append(row[pc])
                high = avail[HIGH_OF[tc]]
                if high is not low:  # a double's halves share one list
                    for pc in high:
                        moves.append(row[pc])
        if not moves:  # the opening (no value is open yet), else a draw or a pass
            if not layout.placed:
                moves = list(map(_OPENINGS[seat].__getitem__, self._hands[seat]))
            else:
                moves = [_DRAW_ACTIONS[seat] if self._bone else _PASS_ACTIONS[seat]]
        self._moves = moves
        return moves


class _ScoringVariantRound(Round):
    """A round whose rules differ from the spec's only in the count at the end of the round.

    Actions and legal moves take the fast paths of :class:`Round`; the end-of-round count
    follows the rules' fields.
    """

    __slots__ = ()

    def _finish(self, end: RoundEnd, winner: int | None) -> None:
        """The end-of-round count by the rules' PEN, END-4, MAT-5 and OPN-3 fields."""
        rules = self._rules
        pips = self._pips()
        if end is RoundEnd.BLOCKED and not rules.blocked_round_penalised:
            penalties = (0,) * len(pips)
        else:
            penalties = tuple(map(self._derived.penalty.__getitem__, pips))
            self._charge(pips, penalties, winner)
        next_opener = rules.next_opener(winner, self._opener, self._players)
        self._result = RoundResult(end, winner, pips, penalties, next_opener)
        self._moves = []
        self._pending = _NO_TILE
        self._turn = _NO_SEAT

    def _charge(
        self, pips: tuple[int, ...], penalties: tuple[int, ...], winner: int | None
    ) -> None:
        """Subtract each side's penalty as the rules count it."""
        rules = self._rules
        scores = self._scores
        side_of = self._side_of
        if rules.side_penalty is add_rounded and rules.deduction is in_raw_points:
            for seat, penalty in enumerate(penalties):
                scores[side_of[seat]] -= penalty
        else:
            for side in range(len(scores)):
                seats = [seat for seat in range(self._players) if side_of[seat] == side]
                lost = rules.side_penalty([pips[s] for s in seats], rules.rounded_penalty)
                scores[side] -= rules.deduction(lost)
        if rules.out_collects_penalties and winner is not None:
            side = side_of[winner]
            scores[side] += sum(p for s, p in enumerate(penalties) if side_of[s] != side)
        if rules.score_floor is not None:
            scores[:] = [max(score, rules.score_floor) for score in scores]


class _VariantRound(_ScoringVariantRound):
    """A round whose rules differ from the spec's where the fast paths of :class:`Round` decide.

    Every action goes through the refusal order of its rules, then is carried out whatever that
    order allowed; the legal moves are the candidates that the order does not refuse.
    """

    __slots__ = ()

    def apply(self, action: Action) -> None:
        """Refuse ``action`` by the rules' refusal order, or carry it out for the seat to act."""
        self._check_seat(action)
        moves = self._moves
        if moves is None or action not in moves:  # a listed move is known to pass the order
            self._refuse(action)
        code = action.code
        if code >= 0:
            self._play_unchecked(code)
        elif code != DRAW_CODE:
            self._pass_unchecked()
        elif self._bone:
            self._draw_unchecked()
        else:  # a variant without DRW-2: nothing to draw, so the turn passes
            self._pass_unchecked()

    def refusal(self, action: Action) -> tuple[str, str] | None:
        """The rules' refusal of ``action``, else what the round cannot carry out.

        A variant may drop a refusal that guards something no round can do: act out of turn
        or after the end, play a tile not in the hand, or join where the table has no such
        connection. Those are refused still (by the rule the spec names for them), so that
        :meth:`is_legal`, :meth:`apply` and :attr:`legal_moves` agree whatever the entries.
        """
        found = self._rules.refusal(self, action)
        if found is not None:
            return found
        if self._result is not None:
            return "END-1", "the round is over"
        if action.seat != self._turn:
            return "TRN-3", f"it is seat {self._turn}'s turn, not seat {action.seat}'s"
        placement = action.placement
        if placement is None:
            return None
        if placement.tile not in self.hand(action.seat):
            return "LAY-3", f"{placement.tile.text} is not in the hand of seat {action.seat}"
        try:
            self._layout.check(placement)
        except IllegalMoveError as error:
            return error.rule or "LAY-4", error.message
        return None

    def _play_unchecked(self, key: int) -> None:
        """Place for the seat to act what the rules' refusal order let through."""
        seat = self._turn
        tc = key // KEY_STRIDE
        hand = self._hands[seat]
        total = self._layout.place_key(key)
        hand.remove(tc)
        self._pending = _NO_TILE
        credit = self._credit[total]
        if credit and (hand or self._rules.scores_going_out):
            self._scores[self._credit_side[seat]] += credit
        self._log.append((_PLAYED, seat, key, total, credit))
        self._moves = None
        if not hand:
            if self._rules.out_before_block or self._bone or self._anyone_can_place():
                self._finish(RoundEnd.OUT, seat)
            else:
                self._finish(RoundEnd.BLOCKED, None)
            return
        self._turn = self._next_seat[seat]
        if not self._bone and not self._anyone_can_place():
            self._finish(RoundEnd.BLOCKED, None)

    def _draw_unchecked(self) -> None:
        rules = self._rules
        seat = self._turn
        tc = self._bone.pop()
        self._hands[seat].append(tc)
        self._log.append((_DREW, seat, tc))
        self._moves = None
        avail = self._layout.points_by_value
        if avail[LOW_OF[tc]] or avail[HIGH_OF[tc]]:
            if rules.drawn_tile_pending:
                self._pending = tc
            return
        if not rules.draw_keeps_turn:
            self._turn = self._next_seat[seat]
        if not self._bone and not self._anyone_can_place():
            self._finish(RoundEnd.BLOCKED, None)

    def _pass_unchecked(self) -> None:
        seat = self._turn
        self._log.append((_PASSED, seat))
        self._moves = None
        self._pending = _NO_TILE
        self._turn = self._next_seat[seat]

    def _anyone_can_place(self) -> bool:
        """Asked once nothing is left to draw: the rules' test of the block (END-2)."""
        return self._rules.can_go_on(self)

    def legal_action_list(self) -> list[Action]:
        """The legal actions of the seat to act: the candidates the rules do not refuse."""
        moves = self._moves
        if moves is None:
            moves = self._moves = self._compute_legal_actions()
        return moves

    def _compute_legal_actions(self) -> list[Action]:
        if self._result is not None:
            return []
        seat = self._turn
        rows = _PLAY_ROWS[seat]
        layout = self._layout
        # every tile in hand (the pending one only by DRW-4, an entry a variant may drop) at
        # every join the table has: any other play is refused by what the round can carry out
        candidates = [
            rows[tc][pc] for tc in self._hands[seat] for pc in layout.legal_point_codes(tc)
        ]
        candidates += [_DRAW_ACTIONS[seat], _PASS_ACTIONS[seat]]
        return [action for action in candidates if self.refusal(action) is None]


def _is_fast(rules: Rules) -> bool:
    """True when the round's built-in paths give the same answers as ``rules`` would."""
    return (
        rules.side_penalty is add_rounded
        and rules.deduction is in_raw_points
        and rules.blocked_round_penalised
        and not rules.out_collects_penalties
        and rules.score_floor is None
        and rules.next_opener is winner_opens
        and _moves_are_fast(rules)
    )


class _ReorderedRound(_VariantRound):
    """A variant round whose rules refuse the same actions as the spec's, in another order.

    Which actions are legal does not depend on the order in which the refusals are tried, so
    the legal moves take the fast path; a refused action still names the rule its order finds
    first.
    """

    __slots__ = ()

    def legal_action_list(self) -> list[Action]:
        """The legal actions of the seat to act, by the fast path of :class:`Round`."""
        return Round.legal_action_list(self)


_VARIANT_CLASSES = (Round, _ScoringVariantRound, _VariantRound, _ReorderedRound)
_POSITION_TESTS = frozenset(
    [id(refusal.test) for refusal in ACTION_REFUSALS]
    + [id(refusal.test) for refusal in STANDARD.placement_refusals]
)


def _reads_only_the_position(rules: Rules) -> bool:
    """True when every rule that reads a round or a table is one of the spec's own functions.

    Those read the seat to act, the pending tile, the hands, what is left to draw and the
    table's occupied slots, never the order of play nor how tiles are joined.
    """
    return (
        all(id(r.test) in _POSITION_TESTS for r in rules.action_refusals)
        and all(id(r.test) in _POSITION_TESTS for r in rules.placement_refusals)
        and rules.can_go_on is anyone_can_place
        and rules.spins is every_double_spins
    )


def _variant_of(derived: _Derived) -> type[Round]:
    """The class of a round by rules that are not the spec's: the least it must change."""
    if derived.fast_moves:
        return _ScoringVariantRound
    return _ReorderedRound if derived.fast_legal else _VariantRound


def _legal_moves_are_fast(rules: Rules) -> bool:
    """True when the built-in paths list the legal actions as ``rules`` would."""
    return (
        sorted(map(id, rules.action_refusals)) == sorted(map(id, ACTION_REFUSALS))
        and sorted(map(id, rules.placement_refusals))
        == sorted(map(id, STANDARD.placement_refusals))
        and rules.can_go_on is anyone_can_place
        and rules.draw_keeps_turn
        and rules.drawn_tile_pending
    )


def _moves_are_fast(rules: Rules) -> bool:
    """True when the built-in paths refuse, carry out and list actions as ``rules`` would."""
    return (
        rules.action_refusals == ACTION_REFUSALS
        and rules.placement_refusals == STANDARD.placement_refusals
        and rules.can_go_on is anyone_can_place
        and rules.draw_keeps_turn
        and rules.drawn_tile_pending
    )


_STANDARD_DERIVED = _derive(STANDARD)
