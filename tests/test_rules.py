"""The seam for variants: every rule reachable through Rules, and the slow paths equal the fast.

A ``Rules`` whose every function is a wrapper of the standard one (equal in what it answers,
but not the same object) sends the reference through the paths variants take: the refusal
order asked entry by entry, the block asked through ``can_go_on``, the count done field by
field, the spinner rule asked for every double. Those paths must play exactly as the fast
paths of the spec's rules do.

The seeded rounds are sized for the everyday run; the long profile of ``fiveup.strategies``
(``FIVEUP_HYPOTHESIS_PROFILE=fiveup-long``) plays three times as many, and certifies the corpus's
deepest move counts through the slow paths at their own depth (see ``SHALLOWER``).
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from typing import Any

import pytest

from fiveup import strategies as fs
from fiveup.contract.notation import DOUBLE_SLOTS, END_SLOTS, Action, Placement, Point, Tile, Verb
from fiveup.errors import IllegalMoveError
from fiveup.harness.certify import certify
from fiveup.harness.corpus import load_corpus
from fiveup.reference import STANDARD, ReferenceEngine, Rules
from fiveup.reference.layout import Layout
from fiveup.reference.match import play_match, random_policy
from fiveup.reference.round import Round
from fiveup.reference.rules import (
    ACTION_REFUSALS,
    PLACEMENT_REFUSALS,
    Refusal,
    RefusalKind,
    refusal_rules,
)


def _wrapped(function: Callable[..., Any]) -> Callable[..., Any]:
    def same(*args: Any) -> Any:
        return function(*args)

    return same


def _everything_wrapped() -> Rules:
    changes: dict[str, Any] = {}
    for field in dataclasses.fields(Rules):
        value = getattr(STANDARD, field.name)
        if callable(value):
            changes[field.name] = _wrapped(value)
    changes["action_refusals"] = tuple(
        Refusal(r.rule, _wrapped(r.test), r.verbs, r.kind) for r in ACTION_REFUSALS
    )
    changes["placement_refusals"] = tuple(
        Refusal(r.rule, _wrapped(r.test), r.verbs, r.kind) for r in PLACEMENT_REFUSALS
    )
    return dataclasses.replace(STANDARD, **changes)


SLOW = _everything_wrapped()
LONG = fs.long_profile_selected()
ROUNDS = 150 if LONG else 50
"""Seeded rounds per player count played fast and slow side by side."""
REFUSAL_ROUNDS = 60 if LONG else 20
"""Seeded 3-player rounds whose illegal actions are refused fast and slow."""


def test_every_function_of_the_slow_rules_is_another_object() -> None:
    for field in dataclasses.fields(Rules):
        value = getattr(SLOW, field.name)
        if callable(value):
            assert value is not getattr(STANDARD, field.name), field.name
    assert type(Round.from_seed(2, 1, rules=SLOW)).__name__ == "_VariantRound"
    assert type(Layout(SLOW)).__name__ == "_VariantLayout"
    assert type(Round.from_seed(2, 1)) is Round and type(Layout()) is Layout


def _snapshot(round_: Round) -> tuple[object, ...]:
    """All a round shows, as values: events, moves and tiles are equal when their fields are
    (which their texts are made of), and comparing them is cheaper than writing the texts."""
    return (
        round_.events,
        round_.hands,
        round_.boneyard,
        round_.scores,
        round_.turn,
        round_.pending,
        tuple(round_.legal_moves),
        round_.layout.points(),
        round_.layout.counted(),
        round_.layout.spinners(),
    )


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_rounds_play_the_same_through_the_slow_paths(players: int) -> None:
    for seed in range(ROUNDS):
        fast = Round.from_seed(players, seed)
        slow = Round.from_seed(players, seed, rules=SLOW)
        rng = random.Random(seed)
        while not fast.over:
            assert _snapshot(fast) == _snapshot(slow)
            moves = list(fast.legal_moves)
            assert [m.text for m in moves] == [m.text for m in slow.legal_moves]
            action = moves[rng.randrange(len(moves))]
            fast.apply(action)
            slow.apply(action)
        assert _snapshot(fast) == _snapshot(slow)
        assert fast.result == slow.result


def _illegal_actions(round_: Round, rng: random.Random) -> list[Action]:
    turn = round_.turn if round_.turn is not None else 0
    tiles = rng.sample(sorted(set(round_.deck)), 3)
    others = [
        Action(seat, verb) for seat in range(round_.players) for verb in (Verb.DRAW, Verb.PASS)
    ]
    plays = [Action(turn, Verb.PLAY, Placement(tile)) for tile in tiles]
    points = list(round_.layout.points())
    plays += [Action(turn, Verb.PLAY, Placement(t, p)) for t in tiles for p in points[:2]]
    return others + plays


def test_refusals_through_the_slow_paths_name_the_same_rule_and_change_nothing() -> None:
    checked = 0
    for seed in range(REFUSAL_ROUNDS):
        fast = Round.from_seed(3, seed)
        slow = Round.from_seed(3, seed, rules=SLOW)
        rng = random.Random(seed)
        while not fast.over:
            before = _snapshot(fast)
            assert _snapshot(slow) == before
            for action in _illegal_actions(fast, rng):
                outcomes: list[str | None] = []
                for round_ in (fast, slow):
                    try:
                        round_.copy().apply(action)
                        outcomes.append(None)
                    except IllegalMoveError as exc:
                        outcomes.append(exc.rule)
                        with pytest.raises(IllegalMoveError):
                            round_.apply(action)
                        assert _snapshot(round_) == before
                checked += outcomes[0] is not None
                assert outcomes[0] == outcomes[1], action.text
            action = fast.legal_moves[rng.randrange(len(fast.legal_moves))]
            fast.apply(action)
            slow.apply(action)
    assert checked > 1000


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_matches_play_the_same_through_the_slow_paths(players: int) -> None:
    for seed in range(4):
        fast = play_match(players, random_policy(random.Random(seed)), seed)
        slow = play_match(players, random_policy(random.Random(seed)), seed, rules=SLOW)
        assert fast.scores == slow.scores and fast.winner == slow.winner
        assert [r.result for r in fast.rounds] == [r.result for r in slow.rounds]


SHALLOWER = () if LONG else (
    "rule.moves.near-block-four-players-deep",
    "rule.moves.going-out-two-players-one-action-too-deep",
    "rule.moves.going-out-two-players-boneyard-empty",
    "rule.moves.pending-draw-three-players-deep",
)  # fmt: skip
"""Deep move counts the everyday run asks through the slow paths one action less deep, against
the fast paths at that depth: three quarters of the CPU of the corpus walked slowly was theirs."""


def test_the_corpus_passes_through_the_slow_paths() -> None:
    corpus = load_corpus()
    shallower = [case for case in corpus.cases if case.id in SHALLOWER]
    assert len(shallower) == len(SHALLOWER), "a case of SHALLOWER left the corpus"
    whole = [case for case in corpus.cases if case.id not in SHALLOWER]
    run = certify(ReferenceEngine(SLOW), corpus, whole)
    assert run.ok
    assert len(run.outcomes) == len(whole)
    fast, slow = ReferenceEngine(), ReferenceEngine(SLOW)
    for case in shallower:
        given = {**case.request(), "depth": int(case.given["depth"]) - 1}
        observation = slow.run("moves", given)
        assert observation == fast.run("moves", given), case.id
        assert observation.get("count") or observation.get("divide"), case.id  # a tree was walked


def test_the_refusal_order_is_the_one_of_the_spec() -> None:
    assert refusal_rules(ACTION_REFUSALS) == [
        "TRN-3", "END-1", "DRW-4", "DRW-3", "DRW-1", "DRW-2", "DRW-5", "DRW-5", "LAY-3",
    ]  # fmt: skip
    assert refusal_rules(PLACEMENT_REFUSALS) == [
        "LAY-3", "LAY-1", "LAY-4", "LAY-4", "LAY-4", "SPN-2", "LAY-1",
    ]  # fmt: skip


def test_a_variant_replaces_one_rule_and_keeps_the_others() -> None:
    exact = dataclasses.replace(STANDARD, target=300)
    assert exact.open_slots is STANDARD.open_slots and exact.target == 300
    layout = Layout.from_placements(["[1|4]", "[1|1]@[1|4]:low"], rules=exact)
    assert layout.sum == 6
    engine = ReferenceEngine(exact, name="target-300")
    assert engine.info()["name"] == "target-300"
    given = {"players": 2, "scores": [295, 0], "rounds": []}
    assert engine.run("match", given)["over"] is False


def test_a_double_that_does_not_spin_keeps_its_branches_closed() -> None:
    never = dataclasses.replace(STANDARD, spins=lambda layout, placement: False)
    layout = Layout.from_placements(["[1|1]", "[1|2]@[1|1]:line-a", "[1|3]@[1|1]:line-b"], never)
    assert layout.spinners() == []
    assert not any(point.tile == Tile.of(1, 1) for point in layout.points())
    with pytest.raises(IllegalMoveError) as refused:
        layout.place(Placement.parse("[1|5]@[1|1]:branch-a"))
    assert refused.value.rule == "LAY-4"


def _in_raw_points_wrapped(penalty: int) -> int:
    return STANDARD.deduction(penalty)


def _reordered_refusals() -> tuple[Refusal[Any, Action], ...]:
    order = list(ACTION_REFUSALS)
    order[0], order[1] = order[1], order[0]
    return tuple(order)


@pytest.mark.parametrize(
    ("changes", "kind"),
    [
        ({"deduction": _in_raw_points_wrapped}, "_ScoringVariantRound"),
        ({"action_refusals": _reordered_refusals()}, "_ReorderedRound"),
    ],
    ids=["scoring-only", "refusals-reordered"],
)
def test_a_variant_takes_only_the_slow_paths_it_needs_and_plays_as_the_slowest(
    changes: dict[str, Any], kind: str
) -> None:
    rules = dataclasses.replace(STANDARD, **changes)
    slowest = dataclasses.replace(rules, can_go_on=_wrapped(STANDARD.can_go_on))
    assert type(Round.from_seed(2, 1, rules=rules)).__name__ == kind
    assert type(Round.from_seed(2, 1, rules=slowest)).__name__ == "_VariantRound"
    for seed in range(60):
        players = 2 + seed % 3
        quick = Round.from_seed(players, seed, rules=rules)
        slow = Round.from_seed(players, seed, rules=slowest)
        rng = random.Random(seed)
        while not quick.over:
            assert _snapshot(quick) == _snapshot(slow)
            for action in _illegal_actions(quick, rng)[:4]:
                assert quick.refusal(action) == slow.refusal(action)
            moves = list(quick.legal_moves)
            action = moves[rng.randrange(len(moves))]
            quick.apply(action)
            slow.apply(action)
        assert _snapshot(quick) == _snapshot(slow)
        assert quick.result == slow.result


# --- each refusal deleted in turn: is_legal, apply and legal_moves agree --------------------


def _candidates(round_: Round) -> list[Action]:
    """Every action the seat to act might try: each tile in hand at every point, draw, pass."""
    seat = round_.turn
    if seat is None:
        return []
    points: list[Point | None] = [None]
    for tile in round_.layout.tiles():
        slots = DOUBLE_SLOTS if tile.is_double else END_SLOTS
        points += [Point(tile, slot) for slot in slots]
    plays = [
        Action(seat, Verb.PLAY, Placement(tile, point))
        for tile in round_.hand(seat)
        for point in points
    ]
    return [*plays, Action(seat, Verb.DRAW), Action(seat, Verb.PASS)]


def _strays(round_: Round) -> list[Action]:
    """Actions no round can carry out now: out of turn, and tiles of other hands played."""
    seat = round_.turn
    if seat is None:
        return [Action(0, Verb.DRAW), Action(0, Verb.PASS)]
    other = (seat + 1) % round_.players
    strays = [Action(other, Verb.DRAW), Action(other, Verb.PASS)]
    for tile in round_.hand(other):
        for point in [None, *round_.layout.points()]:
            strays.append(Action(seat, Verb.PLAY, Placement(tile, point)))
    return strays


def _without(index: int, of_actions: bool) -> Rules:
    if of_actions:
        kept = ACTION_REFUSALS[:index] + ACTION_REFUSALS[index + 1 :]
        return dataclasses.replace(STANDARD, action_refusals=kept)
    placement_kept = PLACEMENT_REFUSALS[:index] + PLACEMENT_REFUSALS[index + 1 :]
    return dataclasses.replace(STANDARD, placement_refusals=placement_kept)


DELETION_ROUNDS = [(2, 1), (3, 3), (4, 4)] + ([(2, 2), (3, 5), (4, 6)] if LONG else [])
"""The seeded rounds (players, seed) walked position by position with each refusal deleted."""

_DELETIONS = [(i, True) for i in range(len(ACTION_REFUSALS))] + [
    (i, False) for i in range(len(PLACEMENT_REFUSALS))
]


@pytest.mark.parametrize(
    ("index", "of_actions"),
    _DELETIONS,
    ids=[
        f"action-{i}-{ACTION_REFUSALS[i].rule}"
        if a
        else f"placement-{i}-{PLACEMENT_REFUSALS[i].rule}"
        for i, a in _DELETIONS
    ],
)
def test_without_each_refusal_is_legal_apply_and_legal_moves_agree(
    index: int, of_actions: bool
) -> None:
    rules = _without(index, of_actions)
    positions = 0
    for players, seed in DELETION_ROUNDS:
        round_ = Round.from_seed(players, seed, rules=rules)
        rng = random.Random(seed)
        while True:
            listed = list(round_.legal_moves)
            assert len(listed) == len(set(listed)), round_
            candidates = _candidates(round_)
            asked = set(candidates)
            accepted = {a for a in asked if round_.is_legal(a)}
            assert set(listed) == accepted, (round_, [a.text for a in listed])
            before = _snapshot(round_)
            # Each action is applied to a copy of the position; a refused one leaves it as it was
            # (asserted), so the next action takes the same copy, and only a carried-out one needs
            # a new copy (copies were most of the test's time, and most actions are refused).
            child = round_.copy()
            for action in candidates + _strays(round_):
                # a candidate's is_legal was asked above: its answer is whether it was accepted
                lawful = action in accepted if action in asked else round_.is_legal(action)
                try:
                    child.apply(action)
                except IllegalMoveError:
                    assert not lawful, action.text
                    assert _snapshot(child) == before, action.text
                else:
                    assert lawful, action.text
                    assert action in accepted, action.text
                    child = round_.copy()
            positions += 1
            if round_.over:
                break
            round_.apply(rng.choice(listed))
    assert positions > 20


def test_every_refusal_of_the_spec_names_what_it_guards() -> None:
    kinds = {(r.rule, r.kind) for r in ACTION_REFUSALS} | {
        (r.rule, r.kind) for r in PLACEMENT_REFUSALS
    }
    assert all(kind is not RefusalKind.OTHER for _, kind in kinds)
    assert ("TRN-3", RefusalKind.TURN) in kinds
    assert ("DRW-1", RefusalKind.DRAW) in kinds
    assert {r.kind for r in ACTION_REFUSALS if r.rule == "DRW-5"} == {RefusalKind.PASS}
    assert ("SPN-2", RefusalKind.SPINNER) in kinds
