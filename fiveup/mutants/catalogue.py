"""The mutant catalogue: the reference engine with one rule of the spec replaced.

Every entry is built on the public seam of the reference, ``replace(STANDARD, field=...)``
(:mod:`fiveup.reference.rules`), and names the rule ID it breaks. The catalogue holds:

* the 36 wrong engines (:data:`WRONG_ENGINES`), each breaking one rule the way a real
  third-party engine gets it wrong, with the telling cases that must catch it; the suite's own
  tests certify each of them (``tests/test_wrong_engines.py``), in-process and served over the
  process protocol (``fiveup engine --mutant NAME``);
* every pair of entries of the refusal order swapped, neighbours or not (``ACTION_REFUSALS``
  and ``PLACEMENT_REFUSALS``); a swap that no case can observe is kept, marked ``equivalent``
  with the reason, and is not required to be killed;
* each numeric threshold moved one step (the target, the PEN-2 rounding boundary, the multiple
  of five of SCR-2, the hand size), and more mistakes: the side by which a joined double
  attaches, the next opener after a block, a penalty charged to the wrong side;
* the literal alternative of each open-question decision (``spec/open-questions.md``) that the
  seam can express, with the OQ named in the description.

Where the seam cannot express a mistake exactly, the description says what the entry expresses
instead.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Sequence, Set
from dataclasses import dataclass, fields, replace
from typing import TypeVar

from fiveup.contract.notation import Action, Placement, Point, Slot, Tile, Verb
from fiveup.contract.players import side_of
from fiveup.errors import UsageError
from fiveup.harness.text import quoted
from fiveup.reference import STANDARD, ReferenceEngine, Rules
from fiveup.reference.rules import (
    ACTION_REFUSALS,
    PLACEMENT_REFUSALS,
    LayoutView,
    Refusal,
    RoundView,
    contributions,
    open_slots,
)
from fiveup.reference.scoring import Tally, placement_credit, rounded_penalty, tally

__all__ = [
    "ACTION_ORDER",
    "CATALOGUE",
    "PLACEMENT_ORDER",
    "WRONG_ENGINES",
    "Mutant",
    "mutant_named",
]

_V = TypeVar("_V")
_X = TypeVar("_X")


@dataclass(frozen=True, slots=True)
class Mutant:
    """One mutant: a name, the rule ID it breaks, what it does, and the rules it plays.

    ``equivalent`` is empty for a mutant that a complete corpus must kill; otherwise it says
    why no case can tell the mutant from the reference, and the mutant is not required to die.
    ``telling`` names, for a wrong engine, the most telling cases of the bundled corpus: each
    of them must fail against it (more cases do), and at least one checks :attr:`rule` itself,
    so that the wrong engine is caught by its rule and not by accident.
    """

    name: str
    rule: str
    description: str
    rules: Rules
    equivalent: str = ""
    telling: tuple[str, ...] = ()

    @property
    def required(self) -> bool:
        """True when a complete corpus must kill this mutant (it is not equivalent)."""
        return not self.equivalent

    @property
    def replaced(self) -> tuple[str, ...]:
        """The fields of :class:`~fiveup.reference.Rules` this mutant replaces."""
        return tuple(
            f.name
            for f in fields(Rules)
            if f.compare and getattr(self.rules, f.name) != getattr(STANDARD, f.name)
        )

    def engine(self) -> ReferenceEngine:
        """An in-process reference engine that plays this mutant's rules."""
        return ReferenceEngine(self.rules, name=f"mutant-{self.name}")


# --- helpers ---------------------------------------------------------------------------------

_PLAY = frozenset({Verb.PLAY})
_PASS = frozenset({Verb.PASS})


def _turn_can_place(round_: RoundView) -> bool:
    turn = round_.turn
    return turn is not None and round_.can_place(turn)


def _able_to_place(round_: RoundView, action: Action) -> str | None:
    return f"seat {round_.turn} can place a tile and must play" if _turn_can_place(round_) else None


def _swapped(
    refusals: tuple[Refusal[_V, _X], ...], at: int, other: int
) -> tuple[Refusal[_V, _X], ...]:
    order = list(refusals)
    order[at], order[other] = order[other], order[at]
    return tuple(order)


def _without(refusals: tuple[Refusal[_V, _X], ...], at: int) -> tuple[Refusal[_V, _X], ...]:
    return refusals[:at] + refusals[at + 1 :]


def _inserted(
    refusals: tuple[Refusal[_V, _X], ...], at: int, refusal: Refusal[_V, _X]
) -> tuple[Refusal[_V, _X], ...]:
    return (*refusals[:at], refusal, *refusals[at:])


def _index(refusals: Sequence[Refusal[_V, _X]], rule: str, nth: int = 0) -> int:
    """The index of the ``nth`` entry of ``rule`` in a refusal order."""
    return [i for i, refusal in enumerate(refusals) if refusal.rule == rule][nth]


# --- the wrong engines ------------------------------------------------------------------------


def _cnt1_sums_connection_points(tile: Tile, occupied: Set[Slot]) -> tuple[int, ...]:
    return tuple(Point(tile, slot).value for slot in open_slots(tile, occupied))


def _cnt2_zero_end_not_counted(tile: Tile, occupied: Set[Slot]) -> tuple[int, ...]:
    return tuple(value for value in contributions(tile, occupied) if value)


def _cnt3_terminal_double_once(tile: Tile, occupied: Set[Slot]) -> tuple[int, ...]:
    counted = contributions(tile, occupied)
    return (tile.low,) if tile.is_double and counted else counted


def _cnt4_internal_double_counts(tile: Tile, occupied: Set[Slot]) -> tuple[int, ...]:
    return (2 * tile.low,) if tile.is_double else contributions(tile, occupied)


def _cnt5_unstarted_branch_counts(tile: Tile, occupied: Set[Slot]) -> tuple[int, ...]:
    counted = contributions(tile, occupied)
    if tile.is_double and Slot.LINE_A in occupied and Slot.LINE_B in occupied:
        branches = (Slot.BRANCH_A, Slot.BRANCH_B)
        return counted + tuple(tile.low for slot in branches if slot not in occupied)
    return counted


def _end2_seat_to_act_can_go_on(round_: RoundView) -> bool:
    return bool(round_.drawable) or _turn_can_place(round_)


def _mat3_first_side_wins(scores: Sequence[int], target: int) -> int | None:
    top = max(scores)
    return list(scores).index(top) if top >= target else None


def _mat4_exact_target_only(scores: Sequence[int], target: int) -> int | None:
    winner = STANDARD.match_winner(scores, target)
    return winner if winner is not None and scores[winner] == target else None


def _opn2_highest_double_opens(opener: int, hands: Sequence[Sequence[Tile]]) -> int:
    doubles = [(t.low, seat) for seat, hand in enumerate(hands) for t in hand if t.is_double]
    return max(doubles)[1] if doubles else opener


def _opn3_rotating_opener(winner: int | None, opener: int, players: int) -> int | None:
    return None if winner is None else (opener + 1) % players


def _opn5_double_not_opened(round_: RoundView, action: Action) -> str | None:
    turn, placement = round_.turn, action.placement
    if turn is None or placement is None or not round_.layout.is_empty:
        return None
    if not placement.tile.is_double and any(tile.is_double for tile in round_.hand(turn)):
        return f"seat {turn} holds a double and must open with it"
    return None


def _rounded_with_boundary(pips: int, highest_down: int) -> int:
    """``pips`` rounded to a multiple of 5, remainders up to ``highest_down`` rounding down."""
    rounded_penalty(pips)  # the spec's function checks the domain (no negative pips)
    remainder = pips % 5
    return pips - remainder if remainder <= highest_down else pips + 5 - remainder


def _pen2_three_rounds_down(pips: int) -> int:
    return _rounded_with_boundary(pips, 3)


def _pen3_in_displayed_points(penalty: int) -> int:
    return penalty // 5


def _pen4_merged(pips: Sequence[int], rounded: Callable[[int], int]) -> int:
    return rounded(sum(pips))


def _ply3_side_by_side(seat: int, players: int) -> int:
    return seat // 2 if players == 4 else seat


def _scr2_rounded_sum(total: int) -> int:
    return rounded_penalty(max(total, 0))


def _next_seat_scores(seat: int, players: int) -> int:
    return (seat + 1) % players


def _spn1_only_first_double(layout: LayoutView, placement: Placement) -> bool:
    return not any(p.tile.is_double and p != placement for p in layout.placements())


def _spn2_branch_after_one_line_side(tile: Tile, occupied: Set[Slot]) -> tuple[Slot, ...]:
    if not tile.is_double or not occupied & {Slot.LINE_A, Slot.LINE_B}:
        return open_slots(tile, occupied)
    return tuple(slot for slot in tile.slots() if slot not in occupied)


def _spn3_branch_a_first(tile: Tile, occupied: Set[Slot]) -> tuple[Slot, ...]:
    return tuple(
        slot
        for slot in open_slots(tile, occupied)
        if slot is not Slot.BRANCH_B or Slot.BRANCH_A in occupied
    )


def _spn4_not_in_a_branch(layout: LayoutView, placement: Placement) -> bool:
    joined_at = {p.tile: p.target for p in layout.placements()}
    point: Point | None = placement.target
    while point is not None:
        if point.slot.is_branch:
            return False
        point = joined_at[point.tile]
    return True


def _counterclockwise(seat: int, players: int) -> int:
    return (seat - 1) % players


def _drw5_pass_refusals() -> tuple[Refusal[RoundView, Action], ...]:
    """The pass keeps its first DRW-5 test (able to place) and loses the second (tiles left)."""
    return tuple(
        Refusal("DRW-5", _able_to_place, refusal.verbs) if refusal.rule == "DRW-5" else refusal
        for refusal in ACTION_REFUSALS
    )


def _dropped(rule: str) -> tuple[Refusal[RoundView, Action], ...]:
    return tuple(refusal for refusal in ACTION_REFUSALS if refusal.rule != rule)


def _wrong_engines() -> list[Mutant]:
    """The 36 wrong engines, one rule each, by name; each with its telling cases."""
    s = STANDARD
    return [
        Mutant(
            "cnt1_sums_connection_points",
            "CNT-1",
            "the sum is taken over the available connection points, not the counted ends",
            replace(s, contributions=_cnt1_sums_connection_points),
            telling=(
                "rule.layout.cnt-1.points-are-not-counted-ends",
                "doc.layout.branches-1-2",
                "doc.layout.doubles-4-4",
            ),
        ),
        Mutant(
            "cnt2_zero_end_not_counted",
            "CNT-2",
            "a free end of value zero is not listed among the counted ends (OQ-22)",
            replace(s, contributions=_cnt2_zero_end_not_counted),
            telling=(
                "rule.layout.cnt-2.zero-end-counts-zero",
                "rule.layout.cnt-2.zero-end-beside-five",
                "doc.layout.sum-to-points-0-0",
            ),
        ),
        Mutant(
            "cnt3_terminal_double_once",
            "CNT-3",
            "a terminal double counts one half (d) instead of both (2d)",
            replace(s, contributions=_cnt3_terminal_double_once),
            telling=(
                "rule.layout.cnt-3.terminal-double-no-line-side-sum-12",
                "rule.layout.cnt-3.terminal-double-one-line-side",
                "doc.layout.sum-to-points-6-6",
            ),
        ),
        Mutant(
            "cnt4_internal_double_counts",
            "CNT-4",
            "an internal double still counts both halves",
            replace(s, contributions=_cnt4_internal_double_counts),
            telling=(
                "rule.layout.cnt-4.internal-double-counts-nothing",
                "doc.layout.doubles-3-4",
                "doc.layout.branches-1-2",
            ),
        ),
        Mutant(
            "cnt5_unstarted_branch_counts",
            "CNT-5",
            "branches counted before they start: each unstarted branch of an internal double "
            "counts the double's value",
            replace(s, contributions=_cnt5_unstarted_branch_counts),
            telling=(
                "rule.layout.cnt-5.unstarted-branch-zero-started-branch-outer-end",
                "doc.layout.branches-1-2",
                "doc.layout.branches-1-5",
            ),
        ),
        Mutant(
            "drw1_draw_while_able",
            "DRW-1",
            "a player who can place a tile may draw instead (no DRW-1 refusal)",
            replace(s, action_refusals=_dropped("DRW-1")),
            telling=(
                "rule.round.illegal.draw-while-able-to-play",
                "rule.round.illegal.opener-draws",
                "rule.round.illegal.draw-while-able-boneyard-empty",
            ),
        ),
        Mutant(
            "drw2_empty_boneyard_draw_passes",
            "DRW-2",
            "a draw from the empty boneyard is taken as a pass (no DRW-2 refusal)",
            replace(s, action_refusals=_dropped("DRW-2")),
            telling=("rule.round.illegal.draw-from-empty-boneyard",),
        ),
        Mutant(
            "drw3_drawn_tile_not_pending",
            "DRW-3",
            "a drawn playable tile may wait in the hand (DRW-3 and DRW-4 never apply)",
            replace(s, drawn_tile_pending=False),
            telling=(
                "rule.round.illegal.other-tile-instead-of-drawn",
                "rule.round.illegal.draw-again-after-playable-draw",
                "rule.round.illegal.pass-after-playable-draw",
            ),
        ),
        Mutant(
            "drw5_pass_with_tiles_in_boneyard",
            "DRW-5",
            "a player who cannot play may pass while the boneyard still has tiles",
            replace(s, action_refusals=_drw5_pass_refusals()),
            telling=("rule.round.illegal.pass-with-tiles-in-boneyard",),
        ),
        Mutant(
            "end1_block_beats_going_out",
            "END-1",
            "a last tile that also leaves nobody able to play ends the round blocked (OQ-20)",
            replace(s, out_before_block=False),
            telling=("rule.round.two-players.out-with-the-move-that-would-block",),
        ),
        Mutant(
            "end2_blocked_when_next_seat_stuck",
            "END-2",
            "the round is blocked as soon as the seat to act is stuck, though another can play",
            replace(s, can_go_on=_end2_seat_to_act_can_go_on),
            telling=(
                "rule.round.four-players.empty-boneyard-pass-not-blocked",
                "rule.round.illegal.pass-after-block",
            ),
        ),
        Mutant(
            "end4_out_wins_opponents_pips",
            "END-4",
            "the side that goes out is credited with the others' rounded pips (OQ-10)",
            replace(s, out_collects_penalties=True),
            telling=(
                "doc.round.last-tile-scored-normally",
                "rule.round.two-players.out-after-drawing",
            ),
        ),
        Mutant(
            "mat1_target_checked_mid_round",
            "MAT-1",
            "the target is checked after every placement, before the penalties (OQ-5)",
            replace(s, target_checked_mid_round=True),
            telling=("rule.match.target-passed-mid-round-penalty-takes-it-back",),
        ),
        Mutant(
            "mat3_tie_at_top_first_side_wins",
            "MAT-3",
            "a tie at the top at or above the target is won by the lowest-numbered side",
            replace(s, match_winner=_mat3_first_side_wins),
            telling=(
                "rule.match.tie-at-top-another-round-decides",
                "rule.match.partnerships-tied-then-decided",
            ),
        ),
        Mutant(
            "mat4_exact_target_only",
            "MAT-4",
            "only a score of exactly 305 raw points (61 displayed) wins",
            replace(s, match_winner=_mat4_exact_target_only),
            telling=(
                "rule.match.score-above-target-accepted",
                "rule.match.winner-of-a-round-opens-the-next",
            ),
        ),
        Mutant(
            "mat5_score_floored_at_zero",
            "MAT-5",
            "scores floored at zero: a penalty is cut short to keep a score at 0 (OQ-4)",
            replace(s, score_floor=0),
            telling=("rule.round.three-players.out-with-negative-score",),
        ),
        Mutant(
            "opn2_highest_double_opens",
            "OPN-2",
            "the holder of the highest double opens, not the seat given for the round",
            replace(s, opener=_opn2_highest_double_opens),
            telling=("rule.round.two-players.out-after-drawing",),
        ),
        Mutant(
            "opn3_next_opener_rotates",
            "OPN-3",
            "the next round is opened by the seat after this round's opener",
            replace(s, next_opener=_opn3_rotating_opener),
            telling=(
                "rule.match.winner-of-a-round-opens-the-next",
                "rule.match.next-round-opened-by-who-went-out",
            ),
        ),
        Mutant(
            "opn5_opening_double_forced",
            "OPN-5",
            "an opener who holds a double must open with a double",
            replace(
                s,
                action_refusals=(
                    *ACTION_REFUSALS,
                    Refusal("OPN-5", _opn5_double_not_opened, _PLAY),
                ),
            ),
            telling=("rule.round.three-players.out-with-negative-score",),
        ),
        Mutant(
            "pen1_blocked_round_not_counted",
            "PEN-1",
            "a blocked round charges no penalty",
            replace(s, blocked_round_penalised=False),
            telling=(
                "rule.round.four-players.blocked",
                "rule.round.illegal.pass-after-block",
            ),
        ),
        Mutant(
            "pen2_remainder_three_rounds_down",
            "PEN-2",
            "the rounding boundary moved up: a remainder of 3 pips rounds down",
            replace(s, rounded_penalty=_pen2_three_rounds_down),
            telling=(
                "doc.scoring.penalty-3",
                "doc.scoring.side-penalty-3-3",
                "doc.round.partners-three-pips-each-lose-ten",
            ),
        ),
        Mutant(
            "pen3_penalty_in_displayed_points",
            "PEN-3",
            "the rounded pips are divided by 5 before they are taken off a raw score",
            replace(s, deduction=_pen3_in_displayed_points),
            telling=(
                "doc.round.partners-three-pips-each-lose-ten",
                "rule.round.three-players.out-with-negative-score",
            ),
        ),
        Mutant(
            "pen4_partners_pips_merged",
            "PEN-4",
            "partners' pips are added up before rounding",
            replace(s, side_penalty=_pen4_merged),
            telling=(
                "doc.round.partners-three-pips-each-lose-ten",
                "doc.scoring.side-penalty-3-3",
            ),
        ),
        Mutant(
            "ply3_partners_side_by_side",
            "PLY-3",
            "the four-player partnerships are seats 0-1 and 2-3, not opposite (OQ-21)",
            replace(s, side_of=_ply3_side_by_side),
            telling=(
                "rule.round.four-players.out-partners-share-credit",
                "doc.round.partners-three-pips-each-lose-ten",
            ),
        ),
        Mutant(
            "scr1_last_tile_not_scored",
            "SCR-1",
            "the credit of the tile that empties a hand is never added",
            replace(s, scores_going_out=False),
            telling=(
                "doc.round.last-tile-scored-normally",
                "rule.round.two-players.out-after-drawing",
            ),
        ),
        Mutant(
            "scr2_credit_rounded_sum",
            "SCR-2",
            "a sum that is not a multiple of 5 is credited rounded to the nearest multiple",
            replace(s, credit=_scr2_rounded_sum),
            telling=(
                "doc.scoring.credit-12",
                "doc.scoring.credit-14",
                "doc.scoring.credit-17",
                "rule.layout.scr-2.sum-17-earns-nothing",
            ),
        ),
        Mutant(
            "scr3_credit_to_next_seat",
            "SCR-3",
            "a placement's credit goes to the side of the next seat",
            replace(s, credited_seat=_next_seat_scores),
            telling=(
                "rule.round.four-players.out-partners-share-credit",
                "rule.round.three-players.out-with-negative-score",
            ),
        ),
        Mutant(
            "set3_seven_tiles_dealt",
            "SET-3",
            "7 tiles are dealt to each player instead of 5",
            replace(s, hand_size=7),
            telling=(
                "rule.round.two-players.out-after-drawing",
                "rule.round.four-players.out-partners-share-credit",
            ),
        ),
        Mutant(
            "set4_last_two_tiles_held_back",
            "SET-4",
            "the last two boneyard tiles can never be drawn",
            replace(s, reserve=2),
            telling=(
                "rule.round.four-players.empty-boneyard-pass-not-blocked",
                "rule.round.four-players.blocked",
            ),
        ),
        Mutant(
            "spn1_only_first_double_spins",
            "SPN-1",
            "only the first double of the round is a spinner (OQ-25)",
            replace(s, spins=_spn1_only_first_double),
            telling=(
                "rule.layout.spn-1.double-in-branch",
                "doc.layout.branches-0-5",
                "rule.round.three-players.out-with-negative-score",
            ),
        ),
        Mutant(
            "spn2_branch_after_one_line_side",
            "SPN-2",
            "a spinner's branches open once one line side is occupied",
            replace(s, open_slots=_spn2_branch_after_one_line_side),
            telling=(
                "rule.layout.spn-2.joined-double-branch-before-line-b-refused",
                "rule.layout.spn-2.opening-double-one-line-side-refused",
                "rule.round.illegal.branch-of-joined-double-before-line-b",
            ),
        ),
        Mutant(
            "spn3_branch_a_before_branch_b",
            "SPN-3",
            "the branches of a spinner must be started in order, A then B",
            replace(s, open_slots=_spn3_branch_a_first),
            telling=(
                "rule.layout.spn-3.branch-b-first-leaves-branch-a-open",
                "rule.layout.spn-3.branch-b-first-then-branch-a",
                "doc.layout.branches-1-3",
            ),
        ),
        Mutant(
            "spn4_double_in_branch_not_spinner",
            "SPN-4",
            "a double placed in a branch is not a spinner",
            replace(s, spins=_spn4_not_in_a_branch),
            telling=(
                "rule.layout.spn-4.double-in-branch-line-sides-then-branches",
                "rule.layout.spn-4.double-in-branch-branch-before-line-b-refused",
                "doc.layout.branches-0-5",
            ),
        ),
        Mutant(
            "trn1_counterclockwise",
            "TRN-1",
            "turns pass counter-clockwise, from seat i to seat i - 1",
            replace(s, next_seat=_counterclockwise),
            telling=(
                "rule.round.illegal.out-of-turn-three-players",
                "rule.round.three-players.drawn-tile-at-chosen-point",
            ),
        ),
        Mutant(
            "trn2_draw_ends_turn",
            "TRN-2",
            "a draw that gives no playable tile ends the player's turn",
            replace(s, draw_keeps_turn=False),
            telling=(
                "rule.round.two-players.drawn-playable-tile-pending",
                "rule.round.two-players.out-after-drawing",
            ),
        ),
        Mutant(
            "trn3_acts_for_seat_to_play",
            "TRN-3",
            "an action by another seat is carried out for the seat to act (no TRN-3 refusal)",
            replace(s, action_refusals=_dropped("TRN-3")),
            telling=(
                "rule.round.illegal.out-of-turn",
                "rule.round.illegal.wrong-seat-while-tile-pending",
            ),
        ),
    ]


# --- the refusal order, every pair swapped ---------------------------------------------------

ACTION_ORDER: tuple[tuple[str, str, str], ...] = (
    ("TRN-3", "trn3", "another seat's action"),
    ("END-1", "end1", "an action once the round is over"),
    ("DRW-4", "drw4", "the play of another tile than the pending drawn one"),
    ("DRW-3", "drw3", "a draw or a pass while a drawn tile is pending"),
    ("DRW-1", "drw1", "a draw by a player able to place"),
    ("DRW-2", "drw2", "a draw from the empty boneyard"),
    ("DRW-5", "drw5_able", "a pass by a player able to place"),
    ("DRW-5", "drw5_boneyard", "a pass while the boneyard has tiles"),
    ("LAY-3", "lay3_hand", "the play of a tile not in the hand"),
)
"""``(rule, slug, what it refuses)`` of each entry of ``ACTION_REFUSALS``, in order."""

PLACEMENT_ORDER: tuple[tuple[str, str, str], ...] = (
    ("LAY-3", "lay3_table", "a tile already on the table"),
    ("LAY-1", "lay1_opening", "a second opening on a table with tiles"),
    ("LAY-4", "lay4_empty", "a point named on the empty table"),
    ("LAY-4", "lay4_absent", "a point of a tile not on the table"),
    ("LAY-4", "lay4_occupied", "an occupied point"),
    ("SPN-2", "spn2_closed", "a branch not yet open"),
    ("LAY-1", "lay1_mismatch", "a tile that shows no half of the point's value"),
)
"""``(rule, slug, what it refuses)`` of each entry of ``PLACEMENT_REFUSALS``, in order."""

_SAME_RULE = "both entries report {rule}: only the free-text message differs, never compared"
_NEVER_LIVE = (
    "END-1 applies only once the round is over, when no seat has the turn and no drawn tile is "
    "pending"
)

# What swapping entries i and j (i < j) changes, or why nothing can observe it ("=" first). A
# swap moves j before every entry from i on and i after every entry up to j, so it is
# unobservable only when no two entries whose relative order it changes can both apply to one
# action with different rule IDs.
_ACTION_SWAPS: dict[tuple[int, int], str] = {
    (0, 1): "=TRN-3 applies only while the round goes on (a seat has the turn), END-1 only once it "
    "is over (no seat has the turn): never both",
    (0, 2): "another seat's play while a drawn tile is pending is refused with DRW-4, not TRN-3",
    (0, 3): "another seat's draw while a drawn tile is pending is refused with DRW-3, not TRN-3",
    (0, 4): "another seat's draw while the seat to act can place is refused with DRW-1, not TRN-3",
    (0, 5): "another seat's draw from the empty boneyard is refused with DRW-2, not TRN-3",
    (0, 6): "another seat's pass while the seat to act can place is refused with DRW-5, not TRN-3",
    (0, 7): "another seat's pass while the boneyard has tiles is refused with DRW-5, not TRN-3",
    (0, 8): "another seat's play of a tile the seat to act does not hold is refused with LAY-3, "
    "not TRN-3",
    (1, 2): "=" + _NEVER_LIVE + ", and DRW-4 needs a pending tile: never both",
    (1, 3): "=" + _NEVER_LIVE + "; DRW-4 and DRW-3 need a pending tile and refuse different verbs",
    (1, 4): "a further draw while a drawn tile is pending is refused with DRW-1, not DRW-3 (DRW-1 "
    "moves before DRW-3)",
    (
        1,
        5,
    ): "a draw once the round is over with the boneyard empty is refused with DRW-2, not END-1",
    (1, 6): "a pass while a drawn tile is pending is refused with DRW-5, not DRW-3 (DRW-5 moves "
    "before DRW-3)",
    (1, 7): "a pass once the round is over with tiles in the boneyard is refused with DRW-5, not "
    "END-1",
    (1, 8): "the play of a tile not in the hand while a drawn tile is pending is refused with "
    "LAY-3, not DRW-4, and a draw once the round is over with the boneyard empty with DRW-2, not "
    "END-1 (LAY-3 moves first, END-1 last)",
    (2, 3): "=DRW-4 refuses only plays, DRW-3 only draws and passes: never both",
    (2, 4): "a further draw while a drawn tile is pending is refused with DRW-1, not DRW-3 (DRW-1 "
    "moves before DRW-3)",
    (2, 5): "a draw from the empty boneyard while a drawn tile is pending is refused with DRW-2, "
    "not DRW-3 (DRW-2 moves before DRW-3)",
    (2, 6): "a pass while a drawn tile is pending is refused with DRW-5, not DRW-3",
    (
        2,
        7,
    ): "a pass while a drawn tile is pending and the boneyard has tiles is refused with DRW-5, "
    "not DRW-3",
    (2, 8): "the play of a tile not in the hand while a drawn tile is pending is refused with "
    "LAY-3, not DRW-4",
    (3, 4): "a further draw while a drawn tile is pending is refused with DRW-1, not DRW-3",
    (3, 5): "a draw from the empty boneyard while a drawn tile is pending is refused with DRW-2, "
    "not DRW-3",
    (3, 6): "a pass while a drawn tile is pending is refused with DRW-5, not DRW-3",
    (
        3,
        7,
    ): "a pass while a drawn tile is pending and the boneyard has tiles is refused with DRW-5, "
    "not DRW-3",
    (3, 8): "a further draw while a drawn tile is pending is refused with DRW-1, not DRW-3 (DRW-3 "
    "moves after DRW-1)",
    (4, 5): "a draw from the empty boneyard by a player able to place is refused with DRW-2, not "
    "DRW-1",
    (4, 6): "a draw from the empty boneyard by a player able to place is refused with DRW-2, not "
    "DRW-1 (DRW-1 moves after DRW-2)",
    (4, 7): "a draw from the empty boneyard by a player able to place is refused with DRW-2, not "
    "DRW-1 (DRW-1 moves after DRW-2)",
    (4, 8): "a draw from the empty boneyard by a player able to place is refused with DRW-2, not "
    "DRW-1 (DRW-1 moves after DRW-2)",
    (5, 6): "=DRW-2 refuses only draws, DRW-5 only passes: never both",
    (5, 7): "=DRW-2 refuses only draws, the two DRW-5 entries only passes (and keep their order): "
    "never both",
    (5, 8): "=DRW-2 refuses only draws, LAY-3 only plays, the DRW-5 entries between them only "
    "passes: no two of them ever both apply",
    (6, 7): "=" + _SAME_RULE.format(rule="DRW-5"),
    (6, 8): "=DRW-5 refuses only passes, LAY-3 only plays, and the two DRW-5 entries report one "
    "rule: never both",
    (7, 8): "=DRW-5 refuses only passes, LAY-3 only plays: never both",
}
_PLACEMENT_SWAPS: dict[tuple[int, int], str] = {
    (0, 1): "a second opening with a tile already on the table is refused with LAY-1, not LAY-3",
    (0, 2): "a second opening with a tile already on the table is refused with LAY-1, not LAY-3 "
    "(LAY-3 moves after it)",
    (0, 3): "a tile already on the table joined to a point of a tile not on the table is refused "
    "with LAY-4, not LAY-3",
    (0, 4): "a tile already on the table joined to an occupied point is refused with LAY-4, not "
    "LAY-3",
    (0, 5): "a tile already on the table joined to a branch not yet open is refused with SPN-2, "
    "not LAY-3",
    (0, 6): "a tile already on the table joined to a point it does not match is refused with "
    "LAY-1, not LAY-3",
    (1, 2): "=a second opening names no point, a point on the empty table names one: never both",
    (1, 3): "=a second opening names no point, the LAY-4 entries need one and report one rule: "
    "never both",
    (1, 4): "=a second opening names no point, the LAY-4 entries need one and report one rule: "
    "never both",
    (1, 5): "a point named on the empty table is refused with SPN-2 (not open), not LAY-4 (SPN-2 "
    "moves before LAY-4)",
    (1, 6): "a point named on the empty table by a tile that does not match it is refused with "
    "LAY-1, not LAY-4 (LAY-1 moves before LAY-4)",
    (2, 3): "=" + _SAME_RULE.format(rule="LAY-4"),
    (2, 4): "=" + _SAME_RULE.format(rule="LAY-4"),
    (2, 5): "a point named on the empty table is refused with SPN-2 (not open), not LAY-4",
    (2, 6): "a point named on the empty table by a tile that does not match it is refused with "
    "LAY-1, not LAY-4",
    (3, 4): "=" + _SAME_RULE.format(rule="LAY-4"),
    (3, 5): "a point of a tile not on the table is refused with SPN-2 (not open), not LAY-4",
    (3, 6): "a point of a tile not on the table that the tile does not match is refused with "
    "LAY-1, not LAY-4",
    (4, 5): "an occupied point is refused with SPN-2 (not open), not LAY-4",
    (4, 6): "an occupied point that the tile does not match is refused with LAY-1, not LAY-4",
    (5, 6): "a tile of the wrong value on a branch not yet open is refused with LAY-1, not SPN-2",
}


def _swap(
    order: tuple[tuple[str, str, str], ...],
    effects: dict[tuple[int, int], str],
    pair: tuple[int, int],
    rules: Rules,
) -> Mutant:
    _, first, what_first = order[pair[0]]
    _, second, what_second = order[pair[1]]
    effect = effects[pair]
    equivalent = effect[1:] if effect.startswith("=") else ""
    description = f"refusal order swapped: {what_second} is tried before {what_first}: "
    description += f"unobservable, {equivalent}" if equivalent else effect
    return Mutant(f"order_{second}_before_{first}", "TRN-4", description, rules, equivalent)


def _swaps() -> list[Mutant]:
    """Every pair of entries of both refusal orders swapped, near or far (OQ-16)."""
    swaps = [
        _swap(ACTION_ORDER, _ACTION_SWAPS, pair, replace(STANDARD, action_refusals=order))
        for pair, order in ((pair, _swapped(ACTION_REFUSALS, *pair)) for pair in _ACTION_SWAPS)
    ]
    swaps += [
        _swap(PLACEMENT_ORDER, _PLACEMENT_SWAPS, pair, replace(STANDARD, placement_refusals=order))
        for pair, order in (
            (pair, _swapped(PLACEMENT_REFUSALS, *pair)) for pair in _PLACEMENT_SWAPS
        )
    ]
    return swaps


# --- numeric thresholds moved one step -------------------------------------------------------


def _pen2_two_rounds_up(pips: int) -> int:
    return _rounded_with_boundary(pips, 1)


def _credit_when(test: Callable[[int], bool]) -> Callable[[int], int]:
    def credit(total: int) -> int:
        placement_credit(total)  # the spec's function checks the domain (no negative sum)
        return total if total > 0 and test(total) else 0

    return credit


def _pen2_exact_multiple_rounds_up(pips: int) -> int:
    rounded = rounded_penalty(pips)
    return rounded + 5 if pips and pips % 5 == 0 else rounded


def _mat2_target_exclusive(scores: Sequence[int], target: int) -> int | None:
    return STANDARD.match_winner(scores, target + 1)


def _mat3_tie_passed_to_next(scores: Sequence[int], target: int) -> int | None:
    """A tie at the top is skipped: the uniquely highest of the other sides at the target wins."""
    top = max(scores)
    if top < target or list(scores).count(top) == 1:
        return STANDARD.match_winner(scores, target)
    rest = [score if score != top else min(scores) - 1 for score in scores]
    return STANDARD.match_winner(rest, target) if max(rest) >= target else None


def _four_raw_per_displayed(raw: int) -> int:
    return raw // 4


def _thresholds() -> list[Mutant]:
    """Each threshold and boundary the rules name, one step off.

    The target (one point low or high, exclusive), the tie at the top, the PEN-2 boundaries, the
    multiple and the smallest credited sum of SCR-2, the hand size, the boneyard minimum and the
    displayed unit.
    """
    s = STANDARD
    return [
        Mutant(
            "pts2_target_300",
            "PTS-2",
            "the target moved one step down: 300 raw points (60 displayed) win",
            replace(s, target=300),
        ),
        Mutant(
            "pts2_target_310",
            "PTS-2",
            "the target moved one step up: 310 raw points (62 displayed) are needed",
            replace(s, target=310),
        ),
        Mutant(
            "pen2_remainder_two_rounds_up",
            "PEN-2",
            "the rounding boundary moved down: a remainder of 2 pips rounds up",
            replace(s, rounded_penalty=_pen2_two_rounds_up),
        ),
        Mutant(
            "scr2_multiples_of_ten",
            "SCR-2",
            "only a sum that is a positive multiple of 10 is credited",
            replace(s, credit=_credit_when(lambda total: total % 10 == 0)),
        ),
        Mutant(
            "scr2_five_k_plus_one",
            "SCR-2",
            "the remainder test off by one: a sum of a multiple of 5 plus 1 is credited",
            replace(s, credit=_credit_when(lambda total: total % 5 == 1)),
        ),
        Mutant(
            "scr2_multiples_of_four",
            "SCR-2",
            "the multiple moved one step down: a positive multiple of 4 is credited",
            replace(s, credit=_credit_when(lambda total: total % 4 == 0)),
        ),
        Mutant(
            "scr2_multiples_of_six",
            "SCR-2",
            "the multiple moved one step up: a positive multiple of 6 is credited",
            replace(s, credit=_credit_when(lambda total: total % 6 == 0)),
        ),
        Mutant(
            "set3_four_tiles_dealt",
            "SET-3",
            "the hand size moved one step down: 4 tiles are dealt to each player",
            replace(s, hand_size=4),
        ),
        Mutant(
            "set3_six_tiles_dealt",
            "SET-3",
            "the hand size moved one step up: 6 tiles are dealt to each player",
            replace(s, hand_size=6),
        ),
        Mutant(
            "mat2_target_exclusive",
            "MAT-2",
            "the target read as exclusive: a side must pass 305 raw points, exactly 61 does not "
            "win",
            replace(s, match_winner=_mat2_target_exclusive),
        ),
        Mutant(
            "mat3_tie_at_top_passed_to_next",
            "MAT-3",
            "a tie at the top is skipped: the uniquely highest of the other sides at the target "
            "wins, instead of playing on",
            replace(s, match_winner=_mat3_tie_passed_to_next),
        ),
        Mutant(
            "scr2_five_not_credited",
            "SCR-2",
            "the smallest credited sum moved one step up: a sum of 5 earns nothing, 10 and more "
            "are credited",
            replace(s, credit=_credit_when(lambda total: total % 5 == 0 and total > 5)),
        ),
        Mutant(
            "set4_last_tile_held_back",
            "SET-4",
            "the boneyard minimum moved one step: the last boneyard tile can never be drawn",
            replace(s, reserve=1),
        ),
        Mutant(
            "pen2_exact_multiple_rounds_up",
            "PEN-2",
            "an exact multiple of 5 is not left unchanged: it rounds up to the next multiple",
            replace(s, rounded_penalty=_pen2_exact_multiple_rounds_up),
        ),
        Mutant(
            "pts1_four_raw_per_displayed",
            "PTS-1",
            "the displayed unit moved one step: 4 raw points are 1 displayed point",
            replace(s, displayed=_four_raw_per_displayed),
        ),
    ]


# --- other mistakes --------------------------------------------------------------------------


def _joined_double_line_b_taken(layout: LayoutView, placement: Placement) -> str | None:
    point = placement.target
    if point is None or point.slot is not Slot.LINE_B or point.tile not in layout:
        return None
    if any(p.tile == point.tile and p.target is not None for p in layout.placements()):
        return f"{point.text} is occupied: the double joined the layout by its line side B"
    return None


def _opener_again(winner: int | None, opener: int, players: int) -> int | None:
    return opener if winner is None else winner


def _seat_zero_after_block(winner: int | None, opener: int, players: int) -> int | None:
    return 0 if winner is None else winner


def _side_of_next_seat(seat: int, players: int) -> int:
    return side_of((seat + 1) % players, players)


def _previous_seat(seat: int, players: int) -> int:
    return (seat - 1) % players


def _displayed_as_raw(raw: int) -> int:
    return STANDARD.displayed(raw) * 5


def _others() -> list[Mutant]:
    """The attaching side of a double, the opener after a block, the side a penalty hits."""
    s = STANDARD
    placement_refusals = _inserted(
        PLACEMENT_REFUSALS,
        _index(PLACEMENT_REFUSALS, "SPN-2"),
        Refusal("LAY-4", _joined_double_line_b_taken),
    )
    return [
        Mutant(
            "spn2_double_joins_by_line_b",
            "SPN-2",
            "a joined double joins by its line side B (OQ-2), expressed as far as the seam goes: "
            "a tile on the line side B of a joined double is refused as occupied (LAY-4)",
            replace(s, placement_refusals=placement_refusals),
        ),
        Mutant(
            "opn4_opener_opens_again_after_block",
            "OPN-4",
            "after a block the round's opener opens the next round, no new neutral draw",
            replace(s, next_opener=_opener_again),
        ),
        Mutant(
            "opn4_seat_zero_opens_after_block",
            "OPN-4",
            "after a block seat 0 opens the next round, no new neutral draw",
            replace(s, next_opener=_seat_zero_after_block),
        ),
        Mutant(
            "pen3_penalty_to_next_side",
            "PEN-3",
            "a seat's penalty is taken off the next seat's side (side_of shifted one seat, "
            "credited_seat shifted back so that credits stay right)",
            replace(s, side_of=_side_of_next_seat, credited_seat=_previous_seat),
        ),
        Mutant(
            "pts1_displayed_is_raw",
            "PTS-1",
            "displayed points are the raw points, not raw / 5",
            replace(s, displayed=_displayed_as_raw),
        ),
    ]


# --- the literal alternatives of the open questions ------------------------------------------


def _opening_double_line_a_first(tile: Tile, occupied: Set[Slot]) -> tuple[Slot, ...]:
    slots = open_slots(tile, occupied)
    return tuple(s for s in slots if s is Slot.LINE_A) if tile.is_double and not occupied else slots


def _never_blocked(round_: RoundView) -> bool:
    return True


def _first_point_for(layout: LayoutView, tile: Tile) -> Point | None:
    """The first available point ``tile`` fits: by tile in placement order, then by slot."""
    for placement in layout.placements():
        for slot in layout.open_slots_of(placement.tile):
            point = Point(placement.tile, slot)
            if tile.has(point.value):
                return point
    return None


def _drawn_tile_elsewhere(round_: RoundView, action: Action) -> str | None:
    pending, placement = round_.pending, action.placement
    if pending is None or placement is None or placement.tile != pending:
        return None
    first = _first_point_for(round_.layout, pending)
    if first is None or placement.target == first:
        return None
    return f"the drawn {pending.text} must be placed at the first point it fits, {first.text}"


def _able_to_place_after_opening(round_: RoundView, action: Action) -> str | None:
    return None if round_.layout.is_empty else _able_to_place(round_, action)


def _strokes_only(raw: int) -> Tally:
    return Tally(0, tally(raw).raw // 5)


def _opening_counts_nothing(tile: Tile, occupied: Set[Slot]) -> tuple[int, ...]:
    return contributions(tile, occupied) if occupied else ()


def _only_opening_double_spins(layout: LayoutView, placement: Placement) -> bool:
    return placement.target is None


def _open_questions() -> list[Mutant]:
    """The literal reading of each open question whose alternative the seam can express."""
    s = STANDARD
    drw1 = _index(ACTION_REFUSALS, "DRW-1")
    drw2 = _index(ACTION_REFUSALS, "DRW-2")
    drw4 = _index(ACTION_REFUSALS, "DRW-4")
    return [
        Mutant(
            "spn2_opening_double_line_a_first",
            "SPN-2",
            "OQ-3 alternative: an opening double opens line side A first, B only after it",
            replace(s, open_slots=_opening_double_line_a_first),
        ),
        Mutant(
            "end2_block_not_recognised",
            "END-2",
            "OQ-7 alternative (a block needs a round of passes), as near as the seam goes: no "
            "action brings a block about, the stuck players pass on",
            replace(s, can_go_on=_never_blocked),
        ),
        Mutant(
            "drw3_drawn_tile_at_first_point",
            "DRW-3",
            "OQ-9 alternative: a drawn playable tile must go to the first point it fits, not "
            "anywhere legal",
            replace(
                s,
                action_refusals=_inserted(
                    ACTION_REFUSALS, drw4 + 1, Refusal("DRW-3", _drawn_tile_elsewhere, _PLAY)
                ),
            ),
        ),
        Mutant(
            "drw1_opener_may_draw",
            "DRW-1",
            "OQ-15 alternative: the opener 'may' play, so a draw on the empty table is allowed",
            replace(
                s,
                action_refusals=(
                    *ACTION_REFUSALS[:drw1],
                    replace(ACTION_REFUSALS[drw1], test=_able_to_place_after_opening),
                    *ACTION_REFUSALS[drw1 + 1 :],
                ),
            ),
        ),
        Mutant(
            "drw5_pass_while_able",
            "DRW-5",
            "OQ-17 alternative: a player able to place may pass once the boneyard is empty",
            replace(s, action_refusals=_without(ACTION_REFUSALS, _index(ACTION_REFUSALS, "DRW-5"))),
        ),
        Mutant(
            "drw2_empty_draw_refused_as_drw5",
            "DRW-2",
            "OQ-19 alternative: a draw from the empty boneyard is refused under DRW-5 (pass "
            "instead), not DRW-2",
            replace(
                s,
                action_refusals=(
                    *ACTION_REFUSALS[:drw2],
                    replace(ACTION_REFUSALS[drw2], rule="DRW-5"),
                    *ACTION_REFUSALS[drw2 + 1 :],
                ),
            ),
        ),
        Mutant(
            "tal2_strokes_only",
            "TAL-2",
            "OQ-18 alternative: a score is written in strokes only, the 50-point mark unused",
            replace(s, tally=_strokes_only),
        ),
        Mutant(
            "scr1_opening_not_scored",
            "SCR-1",
            "OQ-23 alternative: the opening placement does not score (the lone opening tile "
            "counts nothing, so its sum is 0 too)",
            replace(s, contributions=_opening_counts_nothing),
        ),
        Mutant(
            "spn1_only_opening_double_spins",
            "SPN-1",
            "OQ-25 alternative ('every eligible double'): only an opening double is a spinner",
            replace(s, spins=_only_opening_double_spins),
        ),
    ]


# --- the catalogue ---------------------------------------------------------------------------

CATALOGUE: tuple[Mutant, ...] = (
    *_wrong_engines(),
    *_swaps(),
    *_thresholds(),
    *_others(),
    *_open_questions(),
)
"""Every mutant shipped with the suite, in a fixed order; names are unique."""

WRONG_ENGINES: tuple[Mutant, ...] = tuple(mutant for mutant in CATALOGUE if mutant.telling)
"""The wrong engines: the mutants that name the telling cases that must catch them."""


_SHOWN_NAME = 80
"""The most characters of an unknown name an error message repeats."""


def mutant_named(name: str, option: str = "--mutant") -> Mutant:
    """The mutant of the catalogue called ``name``; UsageError, with a suggestion, if none is.

    The message names ``option``, the option that gave the name (none: ``""``).
    """
    for mutant in CATALOGUE:
        if mutant.name == name:
            return mutant
    names = [mutant.name for mutant in CATALOGUE]
    close = difflib.get_close_matches(name, names, n=3, cutoff=0.5)
    hint = f"; did you mean {' or '.join(close)}?" if close else " (see fiveup mutants --list)"
    shown = quoted(name) if len(name) <= _SHOWN_NAME else f"{quoted(name[:_SHOWN_NAME])}..."
    said = f"{option} {shown}: no mutant of that name" if option else f"no mutant {shown}"
    raise UsageError(f"{said} in the catalogue{hint}")
