"""The rules of Five Up as one typed object: the reference engine's public seam for variants.

Every rule the reference plays by is a field of :class:`Rules`: a small pure function, a number
or a flag, named after the spec rule it implements. :data:`STANDARD` holds the rules of the
spec; a variant engine replaces one field and changes nothing else::

    from dataclasses import replace
    from fiveup.reference import STANDARD, ReferenceEngine

    exact_61 = replace(STANDARD, match_winner=lambda scores, target: ...)
    engine = ReferenceEngine(rules=exact_61)

The layout's lookup tables are derived from :attr:`Rules.open_slots` and
:attr:`Rules.contributions`, and the round's from the credit and penalty functions, so the fast
paths of the engine play exactly the rules given. Where the reference has a faster built-in
equivalent of a standard function (the block test, the refusal order), it uses it only while
that field is the standard one.

The refusal order of ``spec/rules.md`` is data: :data:`ACTION_REFUSALS` and
:data:`PLACEMENT_REFUSALS` list each refusal with its rule ID, in the order in which they are
tried; the first that applies is reported. Each entry names its :class:`RefusalKind`. The
round's fast paths check the same things inline while a round's entries are the spec's; a
round by other entries lists as legal exactly the actions its entries let through (what no
round can carry out, such as a join where the table has no such point, is refused still).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence, Set
from dataclasses import dataclass, field
from enum import Enum
from typing import Generic, Protocol, TypeVar

from fiveup.contract.notation import (
    DOUBLE_SLOTS,
    END_SLOTS,
    Action,
    Placement,
    Point,
    Slot,
    Tile,
    Verb,
)
from fiveup.contract.players import HAND_SIZE, side_of

from .scoring import (
    TARGET_RAW,
    Tally,
    displayed,
    placement_credit,
    rounded_penalty,
    tally,
)

__all__ = [
    "ACTION_REFUSALS",
    "PLACEMENT_REFUSALS",
    "STANDARD",
    "LayoutView",
    "Refusal",
    "RefusalKind",
    "RoundView",
    "Rules",
    "add_rounded",
    "anyone_can_place",
    "contributions",
    "every_double_spins",
    "given_opener",
    "in_raw_points",
    "match_winner",
    "next_clockwise",
    "open_slots",
    "placer",
    "refusal_rules",
    "winner_opens",
]


# --- what the refusals and the rules may look at --------------------------------------------


class LayoutView(Protocol):
    """What a rule may read of the table (``fiveup.reference.layout.Layout`` provides it)."""

    @property
    def is_empty(self) -> bool:
        """True before the opening."""
        ...

    def __contains__(self, tile: object) -> bool:
        """True when ``tile`` is on the table."""
        ...

    def occupied_slots(self, tile: Tile) -> frozenset[Slot]:
        """The slots of ``tile`` where a tile is joined (or closed for good)."""
        ...

    def open_slots_of(self, tile: Tile) -> tuple[Slot, ...]:
        """The slots of ``tile`` that are available connection points now."""
        ...

    def placements(self) -> list[Placement]:
        """Every placement on the table, in placement order."""
        ...


class RoundView(Protocol):
    """What a rule may read of a round (``fiveup.reference.round.Round`` provides it)."""

    @property
    def players(self) -> int:
        """The number of players."""
        ...

    @property
    def turn(self) -> int | None:
        """The seat to act; None once the round is over."""
        ...

    @property
    def over(self) -> bool:
        """True once the round has ended."""
        ...

    @property
    def pending(self) -> Tile | None:
        """A just-drawn tile that must be placed now, else None."""
        ...

    @property
    def drawable(self) -> int:
        """How many tiles may still be drawn."""
        ...

    @property
    def layout(self) -> LayoutView:
        """The table."""
        ...

    def hand(self, seat: int) -> tuple[Tile, ...]:
        """The tiles ``seat`` holds."""
        ...

    def can_place(self, seat: int) -> bool:
        """True when ``seat`` holds a tile with a legal placement on the table now."""
        ...


# --- the spinner rule and the counted ends (LAY, SPN, CNT) ----------------------------------


def open_slots(tile: Tile, occupied: Set[Slot]) -> tuple[Slot, ...]:
    """The available connection points of ``tile`` on the table, given its ``occupied`` slots.

    A slot is occupied when a tile is joined there, including the slot by which the tile itself
    joined the layout (a joined double always joins by its line side A).

    * LAY-2: each free end of a non-double is a connection point.
    * SPN-1: every double is a spinner, with two line sides and two branches.
    * SPN-2: a free line side is always open; a branch is closed until both line sides are
      occupied.
    * SPN-3: once both line sides are occupied, each free branch is open.
    """
    if not tile.is_double:
        return tuple(slot for slot in END_SLOTS if slot not in occupied)
    lines_full = Slot.LINE_A in occupied and Slot.LINE_B in occupied
    return tuple(
        slot for slot in DOUBLE_SLOTS if slot not in occupied and (slot.is_line or lines_full)
    )


def contributions(tile: Tile, occupied: Set[Slot]) -> tuple[int, ...]:
    """What ``tile`` on the table adds to the counted ends, given its ``occupied`` slots.

    * CNT-2: each free end of a non-double counts its value, zero included (the opening
      non-double has two free ends and counts both).
    * CNT-3: a double with fewer than two line sides occupied counts both halves, once.
    * CNT-4: a double with both line sides occupied does not count.
    * CNT-5: branches never count as such; a started branch counts through the free end of the
      tile placed on it, an unstarted one counts nothing.
    """
    if not tile.is_double:
        return tuple(Point(tile, slot).value for slot in END_SLOTS if slot not in occupied)
    lines_occupied = (Slot.LINE_A in occupied) + (Slot.LINE_B in occupied)
    if lines_occupied < 2:
        return (2 * tile.low,)
    return ()


def every_double_spins(layout: LayoutView, placement: Placement) -> bool:
    """SPN-1 and SPN-4: every double is a spinner, wherever it is placed.

    Asked once for each double as it is placed (``layout`` already holds it). A double for which
    a variant answers False is an ordinary tile of the line: its branches never open and it is
    not listed among the spinners.
    """
    return True


# --- turns, seats and the end of a round (PLY, TRN, OPN, END) -------------------------------


def next_clockwise(seat: int, players: int) -> int:
    """TRN-1: play passes clockwise, to the next seat number."""
    return (seat + 1) % players


def placer(seat: int, players: int) -> int:
    """SCR-3: the credit of a placement goes to the side of the seat that placed the tile."""
    return seat


def given_opener(opener: int, hands: Sequence[Sequence[Tile]]) -> int:
    """OPN-2: the seat fixed by the neutral draw or by OPN-3 opens, whatever the hands hold."""
    return opener


def winner_opens(winner: int | None, opener: int, players: int) -> int | None:
    """OPN-3 and OPN-4: who went out opens the next round; after a block, a new neutral draw."""
    return winner


def anyone_can_place(round_: RoundView) -> bool:
    """END-2, read as the test of the block: False while any seat can still place a tile.

    A round is blocked when nothing is left to draw and no seat holds a legal placement.
    """
    if round_.drawable:
        return True
    return any(round_.can_place(seat) for seat in range(round_.players))


# --- scoring and the match (SCR, PEN, MAT) --------------------------------------------------


def add_rounded(pips: Sequence[int], rounded: Callable[[int], int]) -> int:
    """PEN-4: a side's penalty is each player's pips rounded separately (PEN-2), then added."""
    return sum(rounded(p) for p in pips)


def in_raw_points(penalty: int) -> int:
    """PEN-3: a side's penalty is taken off its raw score as it is, in raw points."""
    return penalty


def match_winner(scores: Sequence[int], target: int) -> int | None:
    """The side that wins with these scores after a round, or None to play on.

    MAT-2: the side with the uniquely highest score wins once that score reaches the target.
    MAT-3: a highest score shared at or above the target plays on. MAT-4: no score above the
    target is rejected. MAT-5: scores may be negative.
    """
    top = max(scores)
    if top >= target and list(scores).count(top) == 1:
        return list(scores).index(top)
    return None


# --- the refusal order ----------------------------------------------------------------------

_V = TypeVar("_V")
_X = TypeVar("_X")


class RefusalKind(Enum):
    """What a refusal guards: the question of the round or the table that it answers.

    The round's fast paths (``fiveup.reference.round``) answer the same questions inline, for
    the spec's entries only; a round whose rules hold other entries asks the entries.
    """

    TURN = "turn"
    """Whose turn it is (TRN-3)."""
    END = "end"
    """Whether the round is still on (END-1)."""
    PENDING = "pending"
    """A drawn tile that must be placed at once (DRW-3, DRW-4)."""
    DRAW = "draw"
    """When a draw is allowed (DRW-1, DRW-2)."""
    PASS = "pass"
    """When a pass is allowed (DRW-5)."""
    HAND = "hand"
    """Whether the tile played is in the hand (LAY-3)."""
    TABLE = "table"
    """Whether the tile is already on the table (LAY-3)."""
    OPENING = "opening"
    """An opening only on the empty table, a join only on a table with tiles (LAY-1, LAY-4)."""
    TARGET = "target"
    """Whether the point joined exists and is free (LAY-4)."""
    SPINNER = "spinner"
    """Whether the slot joined is open under the spinner rule (SPN-2)."""
    MATCH = "match"
    """Whether the tile shows the point's value (LAY-1)."""
    OTHER = "other"
    """A variant's own refusal that says no kind."""


@dataclass(frozen=True, slots=True)
class Refusal(Generic[_V, _X]):
    """One entry of the refusal order: its rule ID, the test that applies it, and its kind.

    ``test(view, what)`` returns the reason when ``what`` (an action, or a placement) is
    refused under ``rule``, else None. ``verbs`` limits an action refusal to some verbs;
    ``kind`` says what it guards (:class:`RefusalKind`).
    """

    rule: str
    test: Callable[[_V, _X], str | None]
    verbs: frozenset[Verb] = frozenset(Verb)
    kind: RefusalKind = RefusalKind.OTHER


def _not_your_turn(round_: RoundView, action: Action) -> str | None:
    turn = round_.turn
    if turn is not None and action.seat != turn:
        return f"it is seat {turn}'s turn, not seat {action.seat}'s"
    return None


def _round_over(round_: RoundView, action: Action) -> str | None:
    return "the round is over" if round_.over else None


def _other_than_drawn(round_: RoundView, action: Action) -> str | None:
    pending = round_.pending
    if pending is not None and action.placement is not None and action.placement.tile != pending:
        return f"the drawn {pending.text} must be placed, not {action.placement.tile.text}"
    return None


def _drawn_pending(round_: RoundView, action: Action) -> str | None:
    pending = round_.pending
    return None if pending is None else f"the drawn {pending.text} must be placed at once"


def _able_to_place(round_: RoundView, action: Action) -> str | None:
    turn = round_.turn
    if turn is not None and round_.can_place(turn):
        return f"seat {turn} can place a tile and must play"
    return None


def _nothing_to_draw(round_: RoundView, action: Action) -> str | None:
    return None if round_.drawable else "the boneyard is empty: pass instead (DRW-5)"


def _something_to_draw(round_: RoundView, action: Action) -> str | None:
    return "the boneyard is not empty: draw instead (DRW-2)" if round_.drawable else None


def _not_in_hand(round_: RoundView, action: Action) -> str | None:
    turn = round_.turn
    if action.placement is None or turn is None:
        return None
    tile = action.placement.tile
    return None if tile in round_.hand(turn) else f"{tile.text} is not in the hand of seat {turn}"


_PLAY = frozenset({Verb.PLAY})
_DRAW = frozenset({Verb.DRAW})
_PASS = frozenset({Verb.PASS})

ACTION_REFUSALS: tuple[Refusal[RoundView, Action], ...] = (
    Refusal("TRN-3", _not_your_turn, kind=RefusalKind.TURN),
    Refusal("END-1", _round_over, kind=RefusalKind.END),
    Refusal("DRW-4", _other_than_drawn, _PLAY, RefusalKind.PENDING),
    Refusal("DRW-3", _drawn_pending, _DRAW | _PASS, RefusalKind.PENDING),
    Refusal("DRW-1", _able_to_place, _DRAW, RefusalKind.DRAW),
    Refusal("DRW-2", _nothing_to_draw, _DRAW, RefusalKind.DRAW),
    Refusal("DRW-5", _able_to_place, _PASS, RefusalKind.PASS),
    Refusal("DRW-5", _something_to_draw, _PASS, RefusalKind.PASS),
    Refusal("LAY-3", _not_in_hand, _PLAY, RefusalKind.HAND),
)
"""The refusals of a round's actions in the order of ``spec/rules.md``; a play then goes
through :data:`PLACEMENT_REFUSALS`."""


def _on_table(layout: LayoutView, placement: Placement) -> str | None:
    return f"{placement.tile.text} is already on the table" if placement.tile in layout else None


def _opening_on_tiles(layout: LayoutView, placement: Placement) -> str | None:
    if placement.target is None and not layout.is_empty:
        return f"the table has tiles: {placement.tile.text} must be joined to a connection point"
    return None


def _target_on_empty(layout: LayoutView, placement: Placement) -> str | None:
    point = placement.target
    if point is not None and layout.is_empty:
        return f"the table is empty: {point.text} does not exist (open with a tile)"
    return None


def _target_absent(layout: LayoutView, placement: Placement) -> str | None:
    point = placement.target
    if point is not None and point.tile not in layout:
        return f"{point.text} does not exist: no {point.tile.text} on the table"
    return None


def _target_occupied(layout: LayoutView, placement: Placement) -> str | None:
    point = placement.target
    if point is not None and point.slot in layout.occupied_slots(point.tile):
        return f"{point.text} is occupied"
    return None


def _branch_closed(layout: LayoutView, placement: Placement) -> str | None:
    point = placement.target
    if point is not None and point.slot not in layout.open_slots_of(point.tile):
        return (
            f"{point.text} is not open: a branch starts only once both line sides of "
            f"{point.tile.text} are occupied"
        )
    return None


def _mismatch(layout: LayoutView, placement: Placement) -> str | None:
    point = placement.target
    if point is not None and not placement.tile.has(point.value):
        return f"{placement.tile.text} does not match {point.text} (value {point.value})"
    return None


PLACEMENT_REFUSALS: tuple[Refusal[LayoutView, Placement], ...] = (
    Refusal("LAY-3", _on_table, kind=RefusalKind.TABLE),
    Refusal("LAY-1", _opening_on_tiles, kind=RefusalKind.OPENING),
    Refusal("LAY-4", _target_on_empty, kind=RefusalKind.OPENING),
    Refusal("LAY-4", _target_absent, kind=RefusalKind.TARGET),
    Refusal("LAY-4", _target_occupied, kind=RefusalKind.TARGET),
    Refusal("SPN-2", _branch_closed, kind=RefusalKind.SPINNER),
    Refusal("LAY-1", _mismatch, kind=RefusalKind.MATCH),
)
"""The refusals of a placement in the order of ``spec/rules.md``."""


# --- the rules ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Rules:
    """Every rule the reference engine plays by; :data:`STANDARD` is the spec.

    Frozen and hashable: the tables derived from a ``Rules`` are built once and shared.
    """

    # the layout
    open_slots: Callable[[Tile, Set[Slot]], tuple[Slot, ...]] = open_slots
    """Which slots of a tile on the table are open (LAY-2, SPN-2, SPN-3)."""
    contributions: Callable[[Tile, Set[Slot]], tuple[int, ...]] = contributions
    """What a tile on the table adds to the counted ends (CNT-2 to CNT-5)."""
    spins: Callable[[LayoutView, Placement], bool] = every_double_spins
    """Whether a double just placed is a spinner (SPN-1, SPN-4)."""
    placement_refusals: tuple[Refusal[LayoutView, Placement], ...] = PLACEMENT_REFUSALS
    """The refusals of a placement, in order (LAY-1, LAY-3, LAY-4, SPN-2)."""
    # scoring
    credit: Callable[[int], int] = placement_credit
    """The raw credit of a placement's sum (SCR-2)."""
    credited_seat: Callable[[int, int], int] = placer
    """``(seat, players)``: the seat whose side receives a placement's credit (SCR-3)."""
    scores_going_out: bool = True
    """The placement that empties a hand scores like any other (SCR-1)."""
    displayed: Callable[[int], int] = displayed
    """Displayed points of raw points (PTS-1)."""
    tally: Callable[[int], Tally] = tally
    """The paper tally of raw points (TAL-1, TAL-2)."""
    rounded_penalty: Callable[[int], int] = rounded_penalty
    """One player's remaining pips rounded (PEN-2)."""
    side_penalty: Callable[[Sequence[int], Callable[[int], int]], int] = add_rounded
    """``(pips of the side's seats, rounded_penalty)``: the side's raw penalty (PEN-4)."""
    deduction: Callable[[int], int] = in_raw_points
    """What a side's raw penalty takes off its raw score (PEN-3)."""
    blocked_round_penalised: bool = True
    """A blocked round is counted like any other (PEN-1)."""
    out_collects_penalties: bool = False
    """The side that went out is credited with the others' penalties (END-4 says no)."""
    score_floor: int | None = None
    """A score below this is raised to it after the count (MAT-5: scores may be negative)."""
    # the deal and the seats
    hand_size: int = HAND_SIZE
    """Tiles dealt to each seat (SET-3)."""
    reserve: int = 0
    """Boneyard tiles set aside that can never be drawn, still counted in it (SET-4: none)."""
    side_of: Callable[[int, int], int] = side_of
    """``(seat, players)``: the side a seat scores for (PLY-2, PLY-3)."""
    # turns
    next_seat: Callable[[int, int], int] = next_clockwise
    """``(seat, players)``: the seat that acts next (TRN-1)."""
    draw_keeps_turn: bool = True
    """After a draw that cannot be placed the drawer acts again (TRN-2)."""
    drawn_tile_pending: bool = True
    """A drawn tile that can be placed must be placed at once (DRW-3)."""
    action_refusals: tuple[Refusal[RoundView, Action], ...] = ACTION_REFUSALS
    """The refusals of an action, in order (TRN-3, END-1, DRW-1 to DRW-5, LAY-3).

    A variant without the DRW-2 refusal lets a draw from an empty boneyard pass the turn.
    """
    # openers and the end of a round
    opener: Callable[[int, Sequence[Sequence[Tile]]], int] = given_opener
    """``(the opener fixed for the round, the hands)``: the seat that opens (OPN-2)."""
    next_opener: Callable[[int | None, int, int], int | None] = winner_opens
    """``(winner or None after a block, opener, players)``: the next opener (OPN-3, OPN-4)."""
    can_go_on: Callable[[RoundView], bool] = anyone_can_place
    """False when the round is blocked (END-2)."""
    out_before_block: bool = True
    """Going out is tested before the block (END-1)."""
    # the match
    target: int = TARGET_RAW
    """The target in raw points (MAT-2, PTS-2)."""
    match_winner: Callable[[Sequence[int], int], int | None] = match_winner
    """``(scores, target)``: the winning side after a round, or None (MAT-2 to MAT-4)."""
    target_checked_mid_round: bool = False
    """The target is checked after every placement instead of after each round (MAT-1)."""
    notes: tuple[str, ...] = field(default=(), compare=False)
    """Free text about a variant, for people (never read by the engine)."""

    def refusal(self, round_: RoundView, action: Action) -> tuple[str, str] | None:
        """The first ``(rule, reason)`` that refuses ``action`` now, or None if it is allowed."""
        for refusal in self.action_refusals:
            if action.verb in refusal.verbs:
                reason = refusal.test(round_, action)
                if reason is not None:
                    return refusal.rule, reason
        if action.placement is not None:
            return self.placement_refusal(round_.layout, action.placement)
        return None

    def placement_refusal(self, layout: LayoutView, placement: Placement) -> tuple[str, str] | None:
        """The first ``(rule, reason)`` that refuses ``placement`` on ``layout``, or None."""
        for refusal in self.placement_refusals:
            reason = refusal.test(layout, placement)
            if reason is not None:
                return refusal.rule, reason
        return None


STANDARD = Rules()
"""The rules of the spec."""


def refusal_rules(refusals: Iterable[Refusal[_V, _X]]) -> list[str]:
    """The rule IDs of a refusal order, in order (a rule may appear more than once)."""
    return [refusal.rule for refusal in refusals]
