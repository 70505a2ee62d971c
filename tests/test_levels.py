"""The registry of levels: one record per level, and the harness's old branches as oracles.

Before :mod:`fiveup.harness.levels` the runner, the corpus and the report each branched on the
level. Those branches (at commit dcce518) are copied below, verbatim but for their names, and
the records must answer as they did for every bundled case.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from fiveup.contract.engine import JSON, Level
from fiveup.contract.players import side_count
from fiveup.contract.schemas import SCHEMA_NAMES, observation_problem, protocol_schema
from fiveup.harness.corpus import Case, engine_given, load_corpus
from fiveup.harness.levels import LEVELS, LevelSpec
from fiveup.harness.runner import compare, schema_problem
from fiveup.reference.engine import ReferenceEngine

ROOT = Path(__file__).resolve().parent.parent
CASES = load_corpus().cases
OLD_CASES = [case for case in CASES if case.level is not Level.MOVES]
"""The cases of the levels the old branches knew (``moves`` came after them)."""
ENGINE = ReferenceEngine()


def _observation(case: Case) -> JSON:
    return ENGINE.run(case.level.value, case.request())


# --------------------------------------------------------------------------- oracles


def _deck(start: Mapping[str, JSON]) -> list[JSON]:
    deck: list[JSON] = [tile for hand in start["hands"] for tile in hand]
    deck.extend(start["boneyard"])
    return deck


def old_engine_given(level: Level, given: Mapping[str, JSON]) -> dict[str, JSON]:
    """Turn a case's ``given`` into the request ``given`` of spec/protocol.md."""
    if level is Level.ROUND:
        players = given["players"]
        return {
            "players": players,
            "deck": _deck(given),
            "opener": given["opener"],
            "scores": list(given.get("scores", [0] * side_count(players))),
            "actions": list(given["actions"]),
        }
    if level is Level.MATCH:
        players = given["players"]
        rounds: list[JSON] = []
        for r in given["rounds"]:
            item: dict[str, JSON] = {"deck": _deck(r), "actions": list(r["actions"])}
            if "opener" in r:
                item["opener"] = r["opener"]
            rounds.append(item)
        return {
            "players": players,
            "scores": list(given.get("scores", [0] * side_count(players))),
            "rounds": rounds,
        }
    return dict(given)


def old_prefix_request(level: Level, given: dict[str, JSON], at: int) -> dict[str, JSON]:
    prefix = dict(given)
    key = "placements" if level is Level.LAYOUT else "actions"
    prefix[key] = list(given[key])[:at]
    return prefix


def old_observed_layout(obs: JSON) -> JSON:
    """report._observed_layout, up to the layout it handed to layout_text."""
    if not isinstance(obs, dict):
        return ""
    if "layout" in obs:
        return obs["layout"]
    state = obs.get("state")
    if isinstance(state, dict):
        return state.get("layout")
    return ""


# --------------------------------------------------------------------------- the records


def test_there_is_one_record_for_every_level() -> None:
    assert list(LEVELS) == list(Level)
    for level, spec in LEVELS.items():
        assert isinstance(spec, LevelSpec)
        assert spec.level is level
    with pytest.raises(TypeError):
        LEVELS[Level.SCORING] = LEVELS[Level.LAYOUT]  # type: ignore[index]


def test_each_level_names_its_observation_schema() -> None:
    for level, spec in LEVELS.items():
        assert spec.schema == f"observation-{level.value}"
        assert spec.schema in SCHEMA_NAMES


def test_the_shape_check_by_the_record_is_the_protocol_check() -> None:
    for case in CASES:
        observation = _observation(case)
        assert schema_problem(case.level, observation) is None
        for bad in ({}, None, {**observation, "extra": 1}):
            assert schema_problem(case.level, bad) == observation_problem(case.level, bad)


def test_requests_are_built_as_before_for_every_case() -> None:
    for case in OLD_CASES:
        new, old = engine_given(case.level, case.given), old_engine_given(case.level, case.given)
        assert repr(new) == repr(old), case.id
        assert repr(case.request()) == repr(old)


def test_the_refusal_replay_cuts_the_same_script() -> None:
    replayed = 0
    for case in CASES:
        spec = LEVELS[case.level]
        error = case.expect.get("error")
        if not isinstance(error, dict):
            continue
        if case.level in (Level.LAYOUT, Level.ROUND, Level.MOVES):
            assert spec.script is not None
            given = case.request()
            old = old_prefix_request(case.level, given, error["at"])
            assert repr(spec.prefix(given, error["at"])) == repr(old)
            replayed += 1
        else:
            assert spec.script is None
            with pytest.raises(ValueError, match="not replayed"):
                spec.prefix(case.request(), 0)
    assert replayed > 20


def test_the_replayed_keys_and_the_error_keys_are_those_of_the_document() -> None:
    text = " ".join((ROOT / "spec" / "fixtures.md").read_text(encoding="utf-8").split())
    for level in (Level.LAYOUT, Level.ROUND):
        keys = " and ".join(f"`{key}`" for key in LEVELS[level].replayed)
        assert f"{keys} ({level.value} level)" in text
    assert LEVELS[Level.SCORING].replayed == LEVELS[Level.MATCH].replayed == ()
    assert LEVELS[Level.LAYOUT].error_keys == LEVELS[Level.ROUND].error_keys == ("at", "rule")
    assert LEVELS[Level.MATCH].error_keys == ("round", "at", "rule")
    assert "(and `round`, in a match)" in text


def test_the_replayed_keys_are_keys_of_the_observation() -> None:
    for case in CASES:
        observation = _observation(case)
        spec = LEVELS[case.level]
        schema = protocol_schema(spec.schema)
        assert set(spec.replayed) | set(spec.expects) <= set(schema["properties"])
        required = set(schema["required"])  # a moves divide only when asked
        assert all(key in observation for key in spec.replayed if key in required)
        assert all(key in observation for key in spec.expects if key in required)


def test_the_layout_is_found_where_the_report_found_it() -> None:
    shown = 0
    for case in CASES:
        observation = _observation(case)
        new = LEVELS[case.level].layout_of(observation)
        old = old_observed_layout(observation)
        assert (new or "") == (old or ""), case.id
        shown += new is not None
    assert shown == sum(c.level in (Level.LAYOUT, Level.ROUND) for c in CASES)


@pytest.mark.parametrize("level", list(Level), ids=lambda level: level.value)
@pytest.mark.parametrize("garbage", [None, [], "x", {}, {"state": 3}, {"state": {}}, {"layout": 1}])
def test_a_layout_is_looked_up_without_crashing(level: Level, garbage: Any) -> None:
    found = LEVELS[level].layout_of(garbage)
    assert found is None or found == 1 or found == {}


def test_the_record_compares_as_the_runner_does() -> None:
    for case in CASES:
        observation: Mapping[str, JSON] = {}
        assert LEVELS[case.level].compare(case.expect, observation) == compare(
            case.level, case.expect, observation
        )


def test_a_moves_request_is_a_round_request_with_its_depth_and_divide() -> None:
    given = {
        "players": 2,
        "hands": [
            ["[0|0]", "[0|1]", "[0|2]", "[0|3]", "[0|4]"],
            ["[0|5]", "[0|6]", "[1|1]", "[1|2]", "[1|3]"],
        ],
        "boneyard": ["[6|6]"],
        "opener": 1,
        "actions": [],
        "depth": 3,
    }
    request = engine_given(Level.MOVES, given)
    assert request == {
        **old_engine_given(Level.ROUND, given),
        "depth": 3,
        "divide": False,
    }
    assert engine_given(Level.MOVES, {**given, "divide": True})["divide"] is True


@pytest.mark.parametrize(
    ("level", "observation", "credit"),
    [
        (Level.LAYOUT, {"steps": [{"credit": 0}, {"credit": 15}]}, 15),
        (Level.LAYOUT, {"steps": []}, None),
        (Level.LAYOUT, {"steps": [{"credit": True}]}, None),
        (Level.LAYOUT, {"steps": "nothing"}, None),
        (Level.ROUND, {"events": [{"play": "0 play [1|4]", "credit": 5}]}, 5),
        (
            Level.ROUND,
            {"events": [{"play": "0 play [1|4]", "credit": 5}, {"draw": "1 draw"}]},
            None,
        ),
        (Level.ROUND, {"events": ["1 draw"]}, None),
        (Level.SCORING, {"value": 5}, None),
        (Level.MATCH, {"rounds": []}, None),
        (Level.LAYOUT, [], None),
    ],
)
def test_credit_of_is_the_credit_of_the_placement_that_led_to_the_layout(
    level: Level, observation: JSON, credit: int | None
) -> None:
    assert LEVELS[level].credit_of(observation) == credit


def test_every_case_belongs_to_one_feature_of_its_level() -> None:
    from fiveup.harness.levels import feature_of

    seen = {(case.level, feature_of(case.level, case.given)) for case in CASES}
    assert seen == {(level, f) for level, spec in LEVELS.items() for f in spec.features}
    assert LEVELS[Level.SCORING].features == (
        "credit", "displayed", "penalty", "side_penalty", "tally",
    )  # fmt: skip
    for case in CASES:  # the corpus tags the cases of the optional feature
        assert case.optional == (feature_of(case.level, case.given) in LEVELS[case.level].optional)


def test_claims_are_the_union_of_levels_and_features() -> None:
    from fiveup.harness.levels import Claims

    info: Any = {"name": "a", "version": "1", "protocol": 1, "levels": ["layout"]}
    whole = Claims.of(info)
    assert whole.claimed == ["layout"] and not whole.partial
    assert whole.unclaimed == ["scoring", "round", "match", "moves"]
    info["features"] = ["scoring.credit", "layout.layout"]
    claims = Claims.of(info)
    assert claims.partial and claims.touched_levels == ["scoring", "layout"]
    assert claims.claimed == ["scoring (credit)", "layout"]
    assert claims.unclaimed == [
        "scoring (displayed, penalty, side_penalty, tally)", "round", "match", "moves",
    ]  # fmt: skip
    assert claims.claims(Level.SCORING, {"function": "credit", "input": 5})
    assert not claims.claims(Level.SCORING, {"function": "displayed", "input": 5})
    assert claims.feature_names() == ["scoring.credit", "layout.layout"]
    assert Claims.of(None).claimed == [] and not Claims.of(None).touches(Level.SCORING)
