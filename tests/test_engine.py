"""The reference engine behind the protocol: shapes, refusals reported, bad requests raised."""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from collections.abc import Sequence
from typing import Any

import deals
import pytest
from deals import CHAIN_ACTIONS, texts

from fiveup import PROTOCOL_VERSION, __version__
from fiveup.contract.engine import Engine
from fiveup.contract.notation import ALL_TILES
from fiveup.contract.players import side_count
from fiveup.errors import UsageError
from fiveup.reference.engine import ReferenceEngine
from fiveup.reference.match import random_policy
from fiveup.reference.round import Passed, Round, RoundEnd, RoundEnded

ENGINE = ReferenceEngine()


def deck(*hands: Sequence[str], boneyard: Sequence[str] = ()) -> list[str]:
    named = [t for hand in hands for t in hand] + list(boneyard)
    return named + [t.text for t in ALL_TILES if t.text not in named]


SIXES = texts(deals.SIXES)
SCORES = {2: [0, 0], 3: [0, 0, 0], 4: [0, 0]}
CHAIN = texts(deals.CHAIN)


def run(level: str, given: dict[str, Any]) -> dict[str, Any]:
    observation = ENGINE.run(level, given)
    assert json.loads(json.dumps(observation)) == observation  # plain JSON values only
    return observation


def round_given(actions: list[str], **changes: Any) -> dict[str, Any]:
    return {
        "players": 2,
        "deck": SIXES,
        "opener": 0,
        "scores": [0, 0],
        "actions": actions,
    } | changes


def test_info_and_the_protocol() -> None:
    assert ENGINE.info() == {
        "name": "fiveup-reference",
        "version": __version__,
        "protocol": PROTOCOL_VERSION,
        "levels": ["scoring", "layout", "round", "match", "moves"],
    }
    assert isinstance(ENGINE, Engine)


@pytest.mark.parametrize(
    ("function", "value", "answer"),
    [
        ("credit", 15, 15),
        ("credit", 12, 0),
        ("credit", 0, 0),
        ("displayed", 305, 61),
        ("displayed", -10, -2),
        ("penalty", 3, 5),
        ("penalty", 2, 0),
        ("side_penalty", [3, 3], 10),
        ("tally", 135, {"fifties": 2, "strokes": 7}),
    ],
)
def test_scoring(function: str, value: Any, answer: Any) -> None:
    assert run("scoring", {"function": function, "input": value}) == {"value": answer}


@pytest.mark.parametrize(
    ("level", "given"),
    [
        ("scoring", {"function": "bonus", "input": 5}),
        ("scoring", {"function": "credit"}),
        ("scoring", {"input": 5}),
        ("scoring", {"function": "credit", "input": True}),
        ("scoring", {"function": "credit", "input": "5"}),
        ("scoring", {"function": "side_penalty", "input": 3}),
        ("scoring", {"function": "displayed", "input": 7}),
        ("scoring", {"function": "tally", "input": -5}),
        ("layout", {}),
        ("layout", {"placements": "[1|4]"}),
        ("layout", {"placements": [14]}),
        ("layout", {"placements": ["[1|4]", "[1|7]@[1|4]:high"]}),
        ("layout", {"placements": ["[1|4]", "[1|2]@[1|4]:line-a"]}),  # no such point: notation
        ("round", round_given([], players=5)),
        ("round", round_given([], deck=SIXES[:27])),
        ("round", round_given([], deck=[*SIXES[:27], SIXES[0]])),
        ("round", round_given([], opener=2)),
        ("round", round_given([], scores=[0, 0, 0])),
        ("round", round_given(["0 fly"])),
        ("round", round_given(["2 draw"])),  # no seat 2
        ("round", {"players": 2, "deck": SIXES, "actions": []}),
        ("match", {"players": 2, "rounds": {}}),
        ("match", {"players": 2, "rounds": [[]]}),
        ("match", {"players": 2, "rounds": [{"deck": SIXES, "actions": [], "opener": 9}]}),
        ("match", {"players": 2, "rounds": [{"deck": SIXES}]}),
        ("tournament", {}),
    ],
)
def test_a_malformed_request_raises_a_usage_error(level: str, given: dict[str, Any]) -> None:
    with pytest.raises(UsageError):
        ENGINE.run(level, given)


def test_a_deck_is_read_alike_whatever_the_spelling_of_its_tiles() -> None:
    # A reversed text names the same tile; a text of another class is not a JSON string
    at = next(i for i, text in enumerate(SIXES) if text[1] != text[3])
    low, high = SIXES[at][1], SIXES[at][3]
    reversed_deck = [*SIXES[:at], f"[{high}|{low}]", *SIXES[at + 1 :]]
    assert run("round", round_given([], deck=reversed_deck)) == run("round", round_given([]))

    class Text(str):
        pass

    with pytest.raises(UsageError, match="cannot be played"):
        ENGINE.run("round", round_given([], deck=[Text(SIXES[0]), *SIXES[1:]]))
    with pytest.raises(UsageError, match=r"deck must list each of the 28 tiles once \(SET-1\)"):
        ENGINE.run("round", round_given([], deck=[*SIXES[:27], f"[{high}|{low}]"]))


@pytest.mark.parametrize("players", [2, 3])
def test_an_action_of_a_seat_that_does_not_play_is_named_with_its_place(players: int) -> None:
    given = round_given(["0 draw", f"{players} draw"], players=players)
    given["scores"] = SCORES[players]
    with pytest.raises(UsageError, match=rf"^actions\[1\]: no seat {players} among {players} "):
        ENGINE.run("round", given)


def test_given_must_be_an_object() -> None:
    with pytest.raises(UsageError):
        ENGINE.run("layout", ["[1|4]"])  # type: ignore[arg-type]


# --- layout ---------------------------------------------------------------------------------


def test_layout_observation_as_in_the_protocol() -> None:
    observation = run("layout", {"placements": ["[1|4]", "[1|1]@[1|4]:low"]})
    assert observation["steps"] == [
        {"sum": 5, "credit": 5, "displayed": 1},
        {"sum": 6, "credit": 0, "displayed": 0},
    ]
    layout = observation["layout"]
    assert layout["tiles"] == ["[1|4]", "[1|1]"]
    assert layout["spinners"] == ["[1|1]"]
    assert layout["connections"] == [["[1|4]:low", "[1|1]:line-a"]]
    assert layout["points"] == {"[1|1]:line-b": 1, "[1|4]:high": 4}
    assert Counter(map(tuple, layout["contributions"])) == Counter(
        {("[1|1]", 2): 1, ("[1|4]", 4): 1}
    )
    assert layout["sum"] == 6
    assert observation["error"] is None


@pytest.mark.parametrize(
    ("placements", "at", "rule"),
    [
        (["[1|4]", "[1|1]@[1|4]:low", "[1|2]@[1|1]:branch-a", "[2|2]"], 2, "SPN-2"),
        (["[1|4]", "[1|4]@[1|4]:low"], 1, "LAY-3"),
        (["[1|4]", "[5|6]@[1|4]:low"], 1, "LAY-1"),
        (["[1|2]@[1|1]:line-a"], 0, "LAY-4"),
    ],
)
def test_a_refused_placement_is_reported_and_changes_nothing(
    placements: list[str], at: int, rule: str
) -> None:
    observation = run("layout", {"placements": placements})
    error = observation["error"]
    assert (error["at"], error["rule"]) == (at, rule)
    assert isinstance(error["message"], str) and error["message"]
    before = run("layout", {"placements": placements[:at]})
    assert observation["steps"] == before["steps"]
    assert observation["layout"] == before["layout"]


# --- round ----------------------------------------------------------------------------------


def test_round_observation_shapes() -> None:
    actions = ["0 play [6|6]", "1 draw", "1 draw"]
    observation = run("round", round_given(actions))
    assert set(observation) == {"events", "state", "error"}
    assert observation["events"] == [
        {"seat": 0, "play": "[6|6]", "sum": 12, "credit": 0},
        {"seat": 1, "draw": "[0|3]"},
        {"seat": 1, "draw": "[1|6]"},
    ]
    state = observation["state"]
    assert set(state) == {"turn", "pending", "hands", "boneyard", "scores", "layout", "result"}
    assert state["turn"] == 1
    assert state["pending"] == "[1|6]"
    assert state["hands"][1] == ["[0|0]", "[0|1]", "[1|1]", "[0|2]", "[1|2]", "[0|3]", "[1|6]"]
    assert state["boneyard"] == 16
    assert state["scores"] == [0, 0]
    assert state["layout"]["tiles"] == ["[6|6]"]
    assert state["result"] is None
    assert observation["error"] is None


def test_a_finished_round_has_a_result_and_no_turn() -> None:
    given = {"players": 2, "deck": CHAIN, "opener": 0, "scores": [0, 0], "actions": CHAIN_ACTIONS}
    state = run("round", given)["state"]
    assert state["turn"] is None
    assert state["pending"] is None
    assert state["scores"] == [5, -10]
    assert state["result"] == {
        "end": "out",
        "winner": 0,
        "pips": [0, 12],
        "penalties": [0, 10],
        "next_opener": 0,
    }
    given.pop("scores")  # run.json requires it: the request is not well formed
    with pytest.raises(UsageError, match='"scores" is a required property'):
        run("round", given)


@pytest.mark.parametrize(
    ("actions", "rule"),
    [
        (["0 play [6|6]", "1 draw", "1 draw", "1 draw"], "DRW-3"),
        (["0 play [6|6]", "1 draw", "1 draw", "1 play [0|0]@[6|6]:line-a"], "DRW-4"),
        (["0 play [6|6]", "0 play [5|6]@[6|6]:line-a"], "TRN-3"),
        (["0 draw"], "DRW-1"),
        (["0 play [6|6]", "1 pass"], "DRW-5"),
        (["0 play [0|0]"], "LAY-3"),
    ],
)
def test_a_refused_action_is_reported_and_changes_nothing(actions: list[str], rule: str) -> None:
    observation = run("round", round_given([*actions, "0 play [5|6]@[6|6]:line-b"]))
    at = len(actions) - 1
    assert observation["error"]["at"] == at
    assert observation["error"]["rule"] == rule
    before = run("round", round_given(actions[:at]))
    assert observation["events"] == before["events"]
    assert observation["state"] == before["state"]


def test_pass_events_and_blocks() -> None:
    for seed in range(3000):
        round_ = Round.from_seed(3, seed)
        policy = random_policy(random.Random(seed))
        while not round_.over:
            round_.apply(policy(round_))
        result = round_.result
        passes = [e for e in round_.events if isinstance(e, Passed)]
        if result and result.end is RoundEnd.BLOCKED and passes:
            break
    else:
        raise AssertionError("no blocked round with a pass")
    actions = [e.action.text for e in round_.events if not isinstance(e, RoundEnded)]
    given = {
        "players": 3,
        "deck": [t.text for t in round_.deck],
        "opener": round_.opener,
        "scores": [0, 0, 0],
        "actions": actions,
    }
    observation = run("round", given)
    assert {"seat": passes[0].seat, "pass": True} in observation["events"]
    assert observation["state"]["result"]["end"] == "blocked"
    assert observation["state"]["result"]["winner"] is None
    assert observation["state"]["result"]["next_opener"] is None
    assert observation["state"]["boneyard"] == 0
    assert observation["error"] is None
    refused = run("round", given | {"actions": [*actions, actions[-1]]})
    assert refused["error"]["rule"] == "END-1"


# --- match ----------------------------------------------------------------------------------


def chain_round(opener: int | None = None) -> dict[str, Any]:
    item: dict[str, Any] = {"deck": CHAIN, "actions": CHAIN_ACTIONS}
    if opener is not None:
        item["opener"] = opener
    return item


def test_match_observation() -> None:
    given = {"players": 2, "scores": [290, 0], "rounds": [chain_round(0), chain_round()]}
    observation = run("match", given)
    assert set(observation) == {"rounds", "over", "winner", "scores", "error"}
    assert len(observation["rounds"]) == 2
    assert observation["rounds"][0]["state"]["scores"] == [295, -10]
    assert observation["rounds"][1]["events"][0] == {
        "seat": 0,
        "play": "[0|1]",
        "sum": 1,
        "credit": 0,
    }
    assert observation["scores"] == [300, -20]
    assert (observation["over"], observation["winner"], observation["error"]) == (False, None, None)


@pytest.mark.parametrize(
    ("scores", "rounds", "error"),
    [
        ([300, 0], [chain_round(0), chain_round()], {"round": 1, "at": None, "rule": "MAT-2"}),
        ([0, 0], [chain_round(0), chain_round(0)], {"round": 1, "at": None, "rule": "OPN-3"}),
        ([0, 0], [chain_round()], {"round": 0, "at": None, "rule": "OPN-1"}),
        (
            [0, 0],
            [{"deck": CHAIN, "opener": 0, "actions": ["0 play [0|1]", "0 draw"]}],
            {"round": 0, "at": 1, "rule": "TRN-3"},
        ),
        (
            [0, 0],
            [{"deck": CHAIN, "opener": 0, "actions": CHAIN_ACTIONS[:2]}, chain_round()],
            {"round": 1, "at": None, "rule": "MAT-1"},
        ),
    ],
)
def test_refused_rounds_and_actions_in_a_match(
    scores: list[int], rounds: list[dict[str, Any]], error: dict[str, Any]
) -> None:
    observation = run("match", {"players": 2, "scores": scores, "rounds": rounds})
    got = observation["error"]
    assert {key: got[key] for key in ("round", "at", "rule")} == error
    assert got["message"]
    played = error["round"] + (0 if error["at"] is None else 1)
    assert len(observation["rounds"]) == played


def test_a_blocked_round_needs_a_new_opener() -> None:
    for seed in range(3000):
        round_ = Round.from_seed(2, seed)
        policy = random_policy(random.Random(seed))
        while not round_.over:
            round_.apply(policy(round_))
        if round_.result is not None and round_.result.end is RoundEnd.BLOCKED:
            break
    blocked = {
        "deck": [t.text for t in round_.deck],
        "opener": round_.opener,
        "actions": [e.action.text for e in round_.events if not isinstance(e, RoundEnded)],
    }
    missing = run("match", {"players": 2, "scores": SCORES[2], "rounds": [blocked, chain_round()]})
    assert missing["error"]["rule"] == "OPN-4"
    assert missing["error"]["at"] is None
    given = run("match", {"players": 2, "scores": SCORES[2], "rounds": [blocked, chain_round(0)]})
    assert given["error"] is None
    assert len(given["rounds"]) == 2


@pytest.mark.parametrize(
    ("function", "value", "words"),
    [
        ("credit", -5, "$.input: -5 is less than the minimum of 0"),
        ("penalty", -1, "$.input: -1 is less than the minimum of 0"),
        ("displayed", 7, "$.input: 7 is not a multiple of 5"),
        ("tally", -5, "$.input: -5 is less than the minimum of 0"),
        ("side_penalty", [], "$.input: [] should be non-empty"),
        ("side_penalty", [1, 2, 3], "is too long"),
        ("credit", [5], '$.input: [5] is not of type "integer"'),
        ("side_penalty", 5, '$.input: 5 is not of type "array"'),
    ],
)
def test_every_scoring_function_refuses_inputs_outside_its_domain(
    function: str, value: Any, words: str
) -> None:
    with pytest.raises(UsageError, match=re.escape(words)):
        ENGINE.run("scoring", {"function": function, "input": value})


def test_the_layout_observation_read_from_codes_equals_the_one_read_through_the_methods() -> None:
    from fiveup.reference import engine as module

    rng = random.Random(12)
    policy = random_policy(rng)
    for number in range(60):
        deck = list(ALL_TILES)
        rng.shuffle(deck)
        round_ = Round(2 + number % 3, deck, 0)
        while not round_.over:
            quick = module.layout_observation(round_.layout)
            assert quick == module._any_layout_observation(round_.layout)
            round_.apply(policy(round_))


def test_the_round_observation_read_from_the_log_equals_the_one_read_through_events() -> None:
    from fiveup.reference import engine as module

    rng = random.Random(13)
    policy = random_policy(rng)
    for number in range(60):
        deck = list(ALL_TILES)
        rng.shuffle(deck)
        players = 2 + number % 3
        round_ = Round(players, deck, number % 2, [5 * number] * side_count(players))
        while True:
            pending = round_.pending
            through_events = {
                "events": [
                    module.event_observation(e)
                    for e in round_.events
                    if not isinstance(e, RoundEnded)
                ],
                "state": {
                    "turn": round_.turn,
                    "pending": None if pending is None else pending.text,
                    "hands": [[tile.text for tile in hand] for hand in round_.hands],
                    "boneyard": round_.boneyard_size,
                    "scores": list(round_.scores),
                    "layout": module.layout_observation(round_.layout),
                    "result": module.result_observation(round_.result),
                },
            }
            observed = module.round_observation(round_)
            assert json.dumps(observed) == json.dumps(through_events)
            if round_.over:
                break
            round_.apply(policy(round_))


def test_action_texts_are_read_into_the_rounds_own_action_objects() -> None:
    from fiveup.reference import engine as module

    round_ = Round(2, list(ALL_TILES), 0)
    legal = round_.legal_action_list()
    read = module._actions([action.text for action in legal], "actions", 2)
    assert all(mine is theirs for mine, theirs in zip(read, legal, strict=True))
    with pytest.raises(UsageError, match=r"actions\[1\]: "):
        module._actions([legal[0].text, "0 fly"], "actions", 2)


def test_the_remembered_scoring_check_is_the_schemas_own() -> None:
    from fiveup.contract.engine import Level
    from fiveup.contract.schemas import given_problem
    from fiveup.reference import engine as module

    functions = ["credit", "displayed", "penalty", "side_penalty", "tally", "other"]
    inputs: list[Any] = [
        -5,
        0,
        5,
        7,
        168,
        169,
        336,
        337,
        400,
        True,
        5.0,
        [],
        [3],
        [3, 4],
        [1, 2, 3],
    ]
    inputs += [[True], ["x"], None, "5"]
    for _ in range(2):  # the second time from memory
        for function in functions:
            for value in inputs:
                given = {"function": function, "input": value}
                assert module._scoring_problem(given) == given_problem(Level.SCORING, given)
    extra = {"function": "credit", "input": 5, "note": 1}
    assert module._scoring_problem(extra) == given_problem(Level.SCORING, extra)


@pytest.mark.parametrize(
    ("level", "given", "words"),
    [
        ("moves", {**round_given([]), "depth": 10.0}, "10.0 where an integer belongs"),
        ("round", round_given([], players=2.0), "2.0 where an integer belongs"),
        ("scoring", {"function": "credit", "input": 15.0}, "the input 15.0 of 'credit'"),
    ],
)
def test_a_float_the_schema_takes_for_an_integer_is_refused_saying_where(
    level: str, given: dict[str, Any], words: str
) -> None:
    with pytest.raises(UsageError, match=re.escape(f"cannot be played: {words}")):
        ENGINE.run(level, given)
