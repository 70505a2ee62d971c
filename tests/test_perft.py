"""Move counts: the reference's perft, the independent counter, and the moves fixtures.

The counts of ``fixtures/moves/`` come from ``tests/perft_counter.py``, written from
spec/rules.md alone; here that counter reproduces every case, the reference engine reproduces
every case through the case runner, and the two generators agree on random positions.
"""

from __future__ import annotations

import ast
import json
import random
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import perft_counter as pc
import pytest

from fiveup.contract.engine import Level
from fiveup.contract.notation import ALL_TILES, Action, Slot, Tile, Verb
from fiveup.errors import UsageError
from fiveup.harness.corpus import Case, load_corpus
from fiveup.harness.runner import run_case
from fiveup.mutants import mutant_named
from fiveup.reference import STANDARD
from fiveup.reference.engine import MAX_DEPTH, ReferenceEngine
from fiveup.reference.perft import action_order, count, divide, legal_actions
from fiveup.reference.round import Round
from fiveup.reference.rules import ACTION_REFUSALS, Refusal, RoundView, Rules

COUNTER = Path(__file__).with_name("perft_counter.py")
CASES = [case for case in load_corpus().cases if case.level is Level.MOVES]


def _round(players: int, seed: int, actions: int) -> tuple[Round, dict[str, object]]:
    """A round dealt from ``seed`` and played ``actions`` random legal actions far."""
    rng = random.Random(seed)
    deck = list(ALL_TILES)
    rng.shuffle(deck)
    texts = [tile.text for tile in deck]
    round_ = Round(players, deck, seed % players)
    given: dict[str, object] = {
        "players": players,
        "hands": [texts[5 * i : 5 * i + 5] for i in range(players)],
        "boneyard": texts[5 * players :],
        "opener": seed % players,
        "actions": [],
    }
    for _ in range(actions):
        moves = round_.legal_action_list()
        if not moves:
            break
        action = rng.choice(moves)
        round_.apply(action)
        given["actions"].append(action.text)  # type: ignore[attr-defined]
    return round_, given


# --------------------------------------------------------------------------- the fixtures


def test_there_are_moves_cases_for_two_three_and_four_players() -> None:
    assert len(CASES) >= 10
    assert {case.given["players"] for case in CASES} == {2, 3, 4}
    assert any("divide" in case.expect for case in CASES)
    assert any(case.expect.get("count") == 0 and case.expect.get("legal") for case in CASES)
    assert max(case.expect["count"] for case in CASES) <= 300_000


def test_every_case_that_can_branch_asks_for_the_divide_to_bisect_with() -> None:
    for case in CASES:
        if len(case.expect["legal"]) > 1 and case.given["depth"] >= 2:
            assert case.given.get("divide") is True and "divide" in case.expect, case.id


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.id)
def test_the_independent_counter_reproduces_the_case(case: Case) -> None:
    position, refused = pc.prefix_position(case.given)
    depth = int(case.given["depth"])
    assert pc.canonical(pc.legal(position)) == case.expect["legal"]
    if "divide" in case.expect and depth >= 1:
        # count is the divide's sum by its definition (the same loop): one walk of the tree
        divided = pc.divide(position, depth)
        assert divided == case.expect["divide"]
        assert sum(divided.values()) == case.expect["count"]
    else:
        assert pc.count(position, depth) == case.expect["count"]
    error = case.expect.get("error")
    assert refused == (error["at"] if isinstance(error, dict) else None)


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.id)
def test_the_reference_engine_passes_the_case(case: Case) -> None:
    result = run_case(ReferenceEngine(), case, [Level.MOVES.value])
    assert result.ok, [d.text for d in result.differences] or result.message


def test_each_case_says_where_its_counts_come_from() -> None:
    for case in CASES:
        note = str(case.provenance["note"])
        assert case.provenance["source"] == "derived"
        assert "tests/perft_counter.py" in note, case.id
        assert "by hand" in note, case.id


def test_the_counter_imports_nothing_of_the_suite() -> None:
    tree = ast.parse(COUNTER.read_text(encoding="utf-8"))
    imported = {
        alias.name.split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.Import | ast.ImportFrom)
        for alias in (
            node.names if isinstance(node, ast.Import) else [ast.alias(node.module or "")]
        )
    }
    assert imported <= {"__future__", "json", "sys", "collections", "dataclasses", "typing"}


# --------------------------------------------------------------------------- the reference


def test_depth_zero_counts_one_and_divides_into_nothing() -> None:
    round_, _ = _round(3, 1, 0)
    assert count(round_, 0) == 1
    assert divide(round_, 0) == {}


def test_depth_one_counts_the_legal_actions() -> None:
    for seed in range(20):
        round_, _ = _round(2 + seed % 3, seed, seed)
        assert count(round_, 1) == len(legal_actions(round_))
        assert sum(divide(round_, 3).values()) == count(round_, 3)


def test_a_negative_depth_is_refused() -> None:
    round_, _ = _round(2, 1, 0)
    with pytest.raises(ValueError, match="0 or more"):
        count(round_, -1)
    with pytest.raises(ValueError, match="0 or more"):
        divide(round_, -1)


def test_a_round_that_is_over_has_no_action_and_no_sequence() -> None:
    round_, _ = _round(2, 4, 200)
    assert round_.over
    assert legal_actions(round_) == []
    assert count(round_, 0) == 1
    assert count(round_, 3) == 0


def test_counting_leaves_the_round_as_it_was() -> None:
    round_, _ = _round(4, 7, 6)
    before = (round_.hands, round_.boneyard, round_.turn, round_.pending, round_.events)
    count(round_, 4)
    divide(round_, 3)
    assert (round_.hands, round_.boneyard, round_.turn, round_.pending, round_.events) == before


def test_the_canonical_order_is_by_tile_then_point_then_slot() -> None:
    texts = [
        "0 play [0|1]@[1|1]:branch-b",
        "0 play [0|1]@[0|0]:line-b",
        "0 play [0|1]@[1|1]:line-b",
        "0 play [0|0]@[0|1]:low",
        "0 play [0|1]",
        "0 play [0|0]",
    ]
    ordered = sorted((Action.parse(t) for t in texts), key=action_order)
    assert [a.text for a in ordered] == [
        "0 play [0|0]",
        "0 play [0|0]@[0|1]:low",
        "0 play [0|1]",
        "0 play [0|1]@[0|0]:line-b",
        "0 play [0|1]@[1|1]:line-b",
        "0 play [0|1]@[1|1]:branch-b",
    ]
    assert action_order(Action.parse("1 draw")) < action_order(Action.parse("1 pass"))
    assert pc.canonical(texts) == [a.text for a in ordered]


def test_the_reference_and_the_independent_counter_agree_on_random_positions() -> None:
    for seed in range(120):
        players = 2 + seed % 3
        round_, given = _round(players, seed, random.Random(seed).randrange(0, 35))
        position = pc.position_of(given)
        depth = seed % 4
        assert [a.text for a in legal_actions(round_)] == pc.canonical(pc.legal(position))
        assert {a.text: n for a, n in divide(round_, depth).items()} == pc.divide(position, depth)
        assert count(round_, depth) == pc.count(position, depth)


# --------------------------------------------------------------------------- the engine


def _request(**changes: object) -> dict[str, object]:
    deck = [tile.text for tile in ALL_TILES]
    return {
        "players": 2,
        "deck": deck,
        "opener": 0,
        "scores": [0, 0],
        "actions": [],
        "depth": 2,
        **changes,
    }


def test_the_engine_answers_a_moves_request() -> None:
    observation = ReferenceEngine().run("moves", _request(divide=True))
    assert observation["legal"] == [
        f"0 play {t}" for t in ("[0|0]", "[0|1]", "[0|2]", "[0|3]", "[0|4]")
    ]
    assert observation["count"] == sum(observation["divide"].values())
    assert list(observation["divide"]) == observation["legal"]
    assert observation["error"] is None
    assert "divide" not in ReferenceEngine().run("moves", _request())


def test_a_refused_action_of_the_prefix_is_an_observation_with_its_error() -> None:
    refused = ReferenceEngine().run("moves", _request(actions=["0 draw"]))
    before = ReferenceEngine().run("moves", _request())
    assert refused["error"]["at"] == 0 and refused["error"]["rule"] == "DRW-1"
    assert (refused["legal"], refused["count"]) == (before["legal"], before["count"])


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        ({"depth": 11}, "depth must be 0 to 10"),
        ({"depth": -1}, "depth must be 0 to 10"),
        ({"depth": "2"}, "depth"),
        ({"divide": 1}, "divide"),
        ({"actions": ["2 draw"]}, "no seat 2"),
    ],
)
def test_a_request_out_of_its_domain_is_not_well_formed(
    changes: dict[str, object], words: str
) -> None:
    with pytest.raises(UsageError, match=words):
        ReferenceEngine().run("moves", _request(**changes))


def test_the_counter_reads_a_request_as_show_request_prints_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    case = next(c for c in CASES if c.id == "rule.moves.pending-draw-three-players")
    request = case.request()
    assert "deck" in request and "hands" not in request
    assert pc.main([json.dumps(request)]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["count"] == case.expect["count"]
    assert printed["legal"] == case.expect["legal"]
    line = json.dumps({"cmd": "run", "seq": 1, "level": "moves", "given": request})
    assert pc.main([line]) == 0
    assert json.loads(capsys.readouterr().out) == printed


@pytest.mark.parametrize(
    ("argv", "words"),
    [([], "usage:"), (["{"], "not a moves given"), (['{"players": 2}'], "missing key")],
)
def test_the_counter_refuses_bad_input_with_a_usage_line(
    argv: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert pc.main(argv) == 2
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err


def _count_every_sequence(round_: Round, depth: int) -> int:
    """The count by plain recursion, remembering nothing."""
    if depth == 0:
        return 1
    total = 0
    for action in list(round_.legal_action_list()):
        child = round_.copy()
        child.apply(action)
        total += _count_every_sequence(child, depth - 1)
    return total


def test_positions_reached_again_are_counted_as_often_as_they_are_reached() -> None:
    for seed in range(24):
        players = 2 + seed % 3
        round_, _ = _round(players, seed, random.Random(seed).randrange(0, 25))
        depth = 4 + seed % 3
        assert count(round_, depth) == _count_every_sequence(round_, depth), seed
    # A four-player middle game where draws and passes of several seats commute: many positions
    # are reached by more than one order (8,735 sequences of seven, 183 positions met again).
    deck = (
        "[3|6] [1|3] [5|5] [2|3] [1|2] [2|6] [0|3] [3|4] [0|2] [2|4] [0|1] [1|5] [0|0] [0|5] "
        "[5|6] [2|5] [0|4] [4|4] [1|4] [3|3] [1|1] [1|6] [4|5] [6|6] [4|6] [2|2] [3|5] [0|6]"
    )
    middle = Round(4, [Tile.parse(t) for t in deck.split()], 0)
    for text in ("0 play [5|5]", "1 draw", "1 draw", "1 draw", "1 play [4|5]@[5|5]:line-b"):
        middle.apply(Action.parse(text))
    assert count(middle, 7) == _count_every_sequence(middle, 7)


def test_a_position_key_ignores_how_the_position_was_reached() -> None:
    round_, _ = _round(2, 7, 6)
    same = round_.copy()
    assert round_.position_key() == same.position_key() is not None
    same.apply(same.legal_action_list()[0])
    assert same.position_key() != round_.position_key()


def _first_placed_first(round_: RoundView, action: Action) -> str | None:
    """A variant's refusal that reads the order of play: the branch A of the table's first
    tile is never joined (a rule a key of occupied slots alone cannot see)."""
    placement = action.placement
    first = round_.layout.placements()[:1]
    target = None if placement is None else placement.target
    if target is not None and first and target.tile == first[0].tile:
        return "branch A of the first tile is not joined" if target.slot is Slot.BRANCH_A else None
    return None


_DRAW_KEEPS_NOT = replace(STANDARD, draw_keeps_turn=False)
_WITHOUT_DRW1 = replace(
    STANDARD, action_refusals=tuple(r for r in ACTION_REFUSALS if r.rule != "DRW-1")
)
_ORDER_READING = replace(
    STANDARD,
    action_refusals=(
        *ACTION_REFUSALS,
        Refusal("LAY-1", _first_placed_first, frozenset({Verb.PLAY})),
    ),
)


def _middle_game(rules: Rules) -> Round:
    deck = (
        "[3|6] [1|3] [5|5] [2|3] [1|2] [2|6] [0|3] [3|4] [0|2] [2|4] [0|1] [1|5] [0|0] [0|5] "
        "[5|6] [2|5] [0|4] [4|4] [1|4] [3|3] [1|1] [1|6] [4|5] [6|6] [4|6] [2|2] [3|5] [0|6]"
    )
    middle = Round(4, [Tile.parse(t) for t in deck.split()], 0, rules=rules)
    for text in ("0 play [5|5]", "1 draw", "1 draw", "1 draw", "1 play [4|5]@[5|5]:line-b"):
        action = Action.parse(text)
        if not middle.is_legal(action):  # a variant's turns may differ: play on from here
            break
        middle.apply(action)
    return middle


def _positions(round_: Round, depth: int) -> Iterator[Round]:
    yield round_
    if depth:
        for action in round_.legal_action_list():
            child = round_.copy()
            child.apply(action)
            yield from _positions(child, depth - 1)


@pytest.mark.parametrize(
    "rules", [_DRAW_KEEPS_NOT, _WITHOUT_DRW1, _ORDER_READING], ids=["trn2", "no-drw1", "order"]
)
def test_a_variant_has_its_own_position_key_and_its_memo_counts_every_sequence(
    rules: Rules,
) -> None:
    variant, standard = _middle_game(rules), _middle_game(STANDARD)
    key = variant.position_key()
    assert key is not None and key != standard.position_key()
    assert count(variant, 5) == _count_every_sequence(variant, 5)
    for seed in range(6):
        players = 2 + seed % 3
        rng = random.Random(seed)
        round_ = Round.from_seed(players, seed, rules=rules)
        for _ in range(rng.randrange(0, 12)):
            if round_.over:
                break
            round_.apply(rng.choice(round_.legal_action_list()))
        assert count(round_, 4) == _count_every_sequence(round_, 4), seed


def test_a_variant_of_the_table_alone_plays_on_the_spec_classes_with_a_key_of_its_own() -> None:
    rules = mutant_named("spn2_branch_after_one_line_side").rules
    variant, standard = _middle_game(rules), _middle_game(STANDARD)
    assert (
        type(variant) is Round and variant.layout.occupied_key() == standard.layout.occupied_key()
    )
    key = variant.position_key()
    assert key is not None and key != standard.position_key()
    assert key == _middle_game(rules).position_key()  # the same position by the same rules


def test_a_position_asked_about_again_is_remembered_and_never_shared_with_other_rules() -> None:
    standard = _middle_game(STANDARD)
    for rules in (_DRAW_KEEPS_NOT, _WITHOUT_DRW1, _ORDER_READING):
        variant = _middle_game(rules)
        expected = _count_every_sequence(standard, 4), _count_every_sequence(variant, 4)
        assert expected[0] != expected[1]  # the variant changes the count of this position
        for _ in range(2):  # the second time the counts come from the process's memory
            for round_, total in zip((standard, variant), expected, strict=True):
                assert count(round_.copy(), 4) == total
                assert sum(divide(round_.copy(), 4).values()) == total


def test_rules_played_by_the_spec_own_round_and_table_never_share_a_remembered_count() -> None:
    """A variant of the table's slots alone keeps the spec's classes, and their position key."""
    case = next(c for c in CASES if c.id == "rule.moves.near-block-four-players-deep")
    wrong = mutant_named("spn2_branch_after_one_line_side").rules
    right = ReferenceEngine().run("moves", case.request())
    assert type(Round.from_seed(4, 1, rules=wrong)) is Round
    for _ in range(2):  # the second time the counts come from the process's memory
        assert ReferenceEngine().run("moves", case.request()) == right
        assert ReferenceEngine(wrong).run("moves", case.request())["divide"] != right["divide"]


def test_a_variant_reading_only_the_position_meets_positions_again_by_its_key() -> None:
    by_key: dict[object, set[tuple[int, ...]]] = {}
    for position in _positions(_middle_game(_WITHOUT_DRW1), 4):
        by_key.setdefault(position.position_key(), set()).add(tuple(position.layout.placed))
    assert any(len(orders) > 1 for orders in by_key.values())  # met again by another order


def test_a_variant_that_may_read_the_order_of_play_keys_the_order() -> None:
    by_key: dict[object, set[tuple[int, ...]]] = {}
    for position in _positions(_middle_game(_ORDER_READING), 4):
        by_key.setdefault(position.position_key(), set()).add(tuple(position.layout.placed))
    assert len(by_key) > 1
    assert all(len(orders) == 1 for orders in by_key.values())


def test_a_subclass_of_round_has_no_position_key() -> None:
    class Watched(Round):
        __slots__ = ()

    assert Watched.from_seed(2, 1).position_key() is None


def test_the_depth_bound_is_one_number_in_the_schemas_the_reference_and_the_corpus() -> None:
    spec = Path(__file__).resolve().parent.parent / "spec" / "schemas"
    run = json.loads((spec / "protocol" / "run.json").read_text(encoding="utf-8"))
    fixture = json.loads((spec / "fixture.schema.json").read_text(encoding="utf-8"))

    def depth_bounds(node: object) -> list[tuple[int, int]]:
        found = []
        if isinstance(node, dict):
            depth = node.get("properties", {}).get("depth")
            if isinstance(depth, dict) and "maximum" in depth:
                found.append((depth["minimum"], depth["maximum"]))
            for value in node.values():
                found += depth_bounds(value)
        elif isinstance(node, list):
            for value in node:
                found += depth_bounds(value)
        return found

    assert depth_bounds(run) == depth_bounds(fixture) == [(0, MAX_DEPTH)]
    depths = [case.given["depth"] for case in load_corpus().cases if case.level is Level.MOVES]
    assert depths and all(isinstance(d, int) and 0 <= d <= MAX_DEPTH for d in depths)
    assert MAX_DEPTH in depths  # the deepest count a request may ask for is tried
