"""The case runner: comparisons, refusals, unchanged state, and engines that misbehave."""

from __future__ import annotations

import json
from typing import Any

import pytest

from fiveup.contract.engine import JSON, EngineInfo, Level
from fiveup.errors import EngineError, UnsupportedCase
from fiveup.harness.corpus import Case, load_corpus
from fiveup.harness.runner import Status, compare, run_case
from fiveup.reference import ReferenceEngine

LAYOUT_OBS: dict[str, Any] = {
    "steps": [{"sum": 5, "credit": 5, "displayed": 1}, {"sum": 6, "credit": 0, "displayed": 0}],
    "layout": {
        "tiles": ["[1|4]", "[1|1]"],
        "spinners": ["[1|1]"],
        "connections": [["[1|4]:low", "[1|1]:line-a"]],
        "points": {"[1|1]:line-b": 1, "[1|4]:high": 4},
        "contributions": [["[1|1]", 2], ["[1|4]", 4]],
        "sum": 6,
    },
    "error": None,
}


def case(level: Level, given: dict[str, Any], expect: dict[str, Any]) -> Case:
    return Case(
        id="t.case",
        title="t",
        rules=("SCR-2",),
        level=level,
        given=given,
        expect=expect,
        provenance={"source": "derived", "note": "t"},
        description="",
        file="t.yaml",
        line=1,
    )


def paths(level: Level, expect: dict[str, Any], obs: Any) -> list[str]:
    return [d.path for d in compare(level, expect, obs)]


def test_a_matching_layout_has_no_difference() -> None:
    expect = {
        "steps": [{"credit": 5}, {"sum": 6}],
        "layout": {
            **LAYOUT_OBS["layout"],
            "contributions": [["[1|4]", 4], ["[1|1]", 2]],
            "spinners": ["[1|1]"],
        },
    }
    assert compare(Level.LAYOUT, expect, LAYOUT_OBS) == []


def test_expect_is_partial_but_what_it_names_is_exact() -> None:
    assert paths(Level.LAYOUT, {"layout": {"sum": 7}}, LAYOUT_OBS) == ["/layout/sum"]
    assert paths(Level.LAYOUT, {"steps": [{"credit": 5}]}, LAYOUT_OBS) == ["/steps"]


def test_points_must_match_exactly_both_ways() -> None:
    missing = {"layout": {"points": {"[1|1]:line-b": 1, "[1|4]:high": 4, "[1|1]:branch-a": 1}}}
    diffs = compare(Level.LAYOUT, missing, LAYOUT_OBS)
    assert [d.path for d in diffs] == ["/layout/points/[1|1]:branch-a"]
    assert "does not offer" in diffs[0].note
    extra = {"layout": {"points": {"[1|1]:line-b": 1}}}
    diffs = compare(Level.LAYOUT, extra, LAYOUT_OBS)
    assert [d.path for d in diffs] == ["/layout/points/[1|4]:high"]
    assert "rules do not open" in diffs[0].note


def test_contributions_are_a_multiset_and_tiles_a_list() -> None:
    twice = {"layout": {"contributions": [["[1|1]", 2], ["[1|1]", 2]]}}
    assert paths(Level.LAYOUT, twice, LAYOUT_OBS) == ["/layout/contributions"]
    reordered = {"layout": {"tiles": ["[1|1]", "[1|4]"]}}
    assert paths(Level.LAYOUT, reordered, LAYOUT_OBS) == ["/layout/tiles"]


def test_true_is_not_one() -> None:
    assert paths(Level.MATCH, {"over": True}, {"over": 1, "error": None}) == ["/over"]


def test_refusals_compare_rule_and_index() -> None:
    refused = {**LAYOUT_OBS, "error": {"at": 1, "rule": "SPN-2", "message": "x"}}
    assert paths(Level.LAYOUT, {"error": {"at": 1, "rule": "SPN-2"}}, refused) == []
    assert paths(Level.LAYOUT, {"error": {"at": 1, "rule": "LAY-4"}}, refused) == ["/error/rule"]
    assert paths(Level.LAYOUT, {"error": {"at": 0, "rule": "SPN-2"}}, refused) == ["/error/at"]
    diffs = compare(Level.LAYOUT, {"error": {"at": 1, "rule": "SPN-2"}}, LAYOUT_OBS)
    assert "accepted an action the rules forbid" in diffs[0].note
    diffs = compare(Level.LAYOUT, {"layout": {"sum": 6}}, refused)
    assert "refused an action the rules allow" in diffs[0].note


def test_round_hands_are_sets_and_result_partial() -> None:
    obs = {
        "events": [{"seat": 0, "play": "[1|4]", "sum": 5, "credit": 5}],
        "state": {
            "hands": [["[0|0]", "[0|1]"], []],
            "turn": None,
            "result": {
                "end": "out",
                "winner": 1,
                "pips": [1, 0],
                "penalties": [0, 0],
                "next_opener": 1,
            },
        },
        "error": None,
    }
    good = {
        "events": [{"credit": 5}],
        "state": {"hands": [["[0|1]", "[0|0]"], []], "result": {"winner": 1}},
    }
    assert compare(Level.ROUND, good, obs) == []
    bad = {"state": {"result": {"winner": 0, "end": "blocked"}}}
    assert paths(Level.ROUND, bad, obs) == ["/state/result/winner", "/state/result/end"]


def test_a_missing_or_malformed_observation_is_a_difference_not_a_crash() -> None:
    assert paths(Level.LAYOUT, {"layout": {"points": {"[1|4]:high": 4}}}, {"layout": []}) == [
        "/layout/points"
    ]
    assert paths(Level.ROUND, {"events": [{"credit": 5}]}, {"events": "x"}) == ["/events"]
    assert paths(Level.SCORING, {"value": 5}, {}) == ["/value"]


class Scripted:
    """An in-process engine that answers from a script, or misbehaves on demand."""

    def __init__(self, answers: list[Any], levels: list[str] | None = None) -> None:
        self.answers = answers
        self.levels = levels or ["scoring", "layout", "round", "match"]
        self.requests: list[tuple[str, dict[str, JSON]]] = []

    def info(self) -> EngineInfo:
        return {"name": "scripted", "version": "0", "protocol": 1, "levels": self.levels}

    def run(self, level: str, given: dict[str, JSON]) -> dict[str, JSON]:
        self.requests.append((level, given))
        answer = self.answers.pop(0)
        if isinstance(answer, BaseException):
            raise answer
        return answer  # type: ignore[no-any-return]


def lenient(level: Level, observation: JSON) -> None:
    """Accept partial observations, to test one comparison at a time."""
    return None


SCORING = case(Level.SCORING, {"function": "credit", "input": 15}, {"value": 15})


def test_the_engine_never_sees_the_expectations() -> None:
    engine = Scripted([{"value": 15}])
    assert run_case(engine, SCORING, engine.levels).status is Status.PASS
    assert engine.requests == [("scoring", {"function": "credit", "input": 15})]


def test_statuses() -> None:
    assert run_case(Scripted([{"value": 0}]), SCORING, ["scoring"]).status is Status.FAIL
    assert run_case(Scripted([]), SCORING, ["layout"]).status is Status.UNSUPPORTED
    declined = run_case(Scripted([UnsupportedCase("no tally")]), SCORING, ["scoring"])
    assert (declined.status, declined.message) == (Status.UNSUPPORTED, "no tally")
    crashed = run_case(Scripted([EngineError("it died")]), SCORING, ["scoring"])
    assert (crashed.status, crashed.message) == (Status.ERROR, "it died")
    raised = run_case(Scripted([ZeroDivisionError("oops")]), SCORING, ["scoring"])
    assert raised.status is Status.ERROR and "ZeroDivisionError: oops" in raised.message
    garbage = run_case(Scripted([["not", "an", "object"]]), SCORING, ["scoring"])
    assert garbage.status is Status.ERROR and "does not follow the protocol" in garbage.message
    lying = run_case(Scripted([{"value": "15"}]), SCORING, ["scoring"])
    assert lying.status is Status.ERROR and "does not follow the protocol" in lying.message


def deck_case(expect: dict[str, Any]) -> Case:
    tiles = [f"[{a}|{b}]" for a in range(7) for b in range(a, 7)]
    given = {
        "players": 2,
        "hands": [tiles[:5], tiles[5:10]],
        "boneyard": tiles[10:],
        "opener": 0,
        "actions": ["0 play [0|0]", "1 draw"],
    }
    return case(Level.ROUND, given, expect)


def test_round_requests_carry_one_deck_and_default_scores() -> None:
    engine = Scripted([{"events": [{}, {}], "state": {}, "error": None}])
    run_case(engine, deck_case({"state": {}}), engine.levels)
    level, given = engine.requests[0]
    assert level == "round"
    assert given["deck"][:3] == ["[0|0]", "[0|1]", "[0|2]"] and len(given["deck"]) == 28
    assert given["scores"] == [0, 0] and "hands" not in given and "boneyard" not in given


def test_a_refusal_is_checked_against_a_replay_of_the_accepted_prefix() -> None:
    refused = {
        "events": [{"seat": 0, "play": "[0|0]"}],
        "state": {"turn": 1, "hands": [["[0|1]"]]},
        "error": {"at": 1, "rule": "DRW-1", "message": "can play"},
    }
    before_same = {
        "events": [{"seat": 0, "play": "[0|0]"}],
        "state": {"turn": 1, "hands": [["[0|1]"]]},
        "error": None,
    }
    engine = Scripted([refused, before_same])
    result = run_case(
        engine, deck_case({"error": {"at": 1, "rule": "DRW-1"}}), engine.levels, check_shape=lenient
    )
    assert result.status is Status.PASS
    assert engine.requests[1][1]["actions"] == ["0 play [0|0]"]

    before_other = {**before_same, "state": {"turn": 1, "hands": [["[0|1]", "[5|6]"]]}}
    engine = Scripted([refused, before_other])
    result = run_case(
        engine, deck_case({"error": {"at": 1, "rule": "DRW-1"}}), engine.levels, check_shape=lenient
    )
    assert result.status is Status.FAIL
    assert [d.path for d in result.differences] == ["/state"]
    assert "changed the game" in result.differences[0].note


@pytest.mark.parametrize("level", list(Level))
def test_every_level_compares_without_crashing_on_an_empty_observation(level: Level) -> None:
    expectations: dict[Level, dict[str, Any]] = {
        Level.SCORING: {"value": 1},
        Level.LAYOUT: {"layout": {"sum": 1}},
        Level.ROUND: {"state": {"turn": 1}},
        Level.MATCH: {"over": True},
        Level.MOVES: {"count": 1},
    }
    expect = expectations[level]
    assert compare(level, expect, {})


def test_a_value_the_rules_forbid_is_a_failure_not_a_protocol_error() -> None:
    layout_case = case(
        Level.LAYOUT, {"placements": ["[1|6]"]}, {"steps": [{"sum": 7, "credit": 0}]}
    )
    wrong = {**LAYOUT_OBS, "steps": [{"sum": 7, "credit": 7, "displayed": 1}]}
    result = run_case(Scripted([wrong]), layout_case, ["layout"])
    assert result.status is Status.FAIL, result.message
    assert [d.text for d in result.differences] == ["/steps/0/credit: expected 0, got 7"]


def test_a_layout_refusal_is_replayed_with_the_placements_before_it() -> None:
    refused = {**LAYOUT_OBS, "error": {"at": 2, "rule": "LAY-1", "message": "no fit"}}
    before = {**LAYOUT_OBS, "error": None}
    engine = Scripted([refused, before])
    given = {"placements": ["[1|4]", "[1|1]@[1|4]:low", "[6|6]@[1|1]:line-b"]}
    refusal = case(Level.LAYOUT, given, {"error": {"at": 2, "rule": "LAY-1"}})
    assert run_case(engine, refusal, engine.levels).status is Status.PASS
    assert engine.requests[1] == ("layout", {"placements": given["placements"][:2]})

    moved = {**before, "layout": {**LAYOUT_OBS["layout"], "sum": 12}}
    engine = Scripted([refused, moved])
    result = run_case(engine, refusal, engine.levels)
    assert [d.path for d in result.differences] == ["/layout"]


def test_a_match_refusal_is_not_replayed() -> None:
    observation = {
        "rounds": [],
        "over": False,
        "winner": None,
        "scores": [0, 0],
        "error": {"round": 0, "at": 0, "rule": "OPN-1", "message": "who opens?"},
    }
    engine = Scripted([observation])
    refusal = case(
        Level.MATCH,
        {"players": 2, "rounds": []},
        {"error": {"round": 0, "at": 0, "rule": "OPN-1"}},
    )
    assert run_case(engine, refusal, engine.levels, check_shape=lenient).status is Status.PASS
    assert len(engine.requests) == 1


def test_the_runner_and_the_comparator_share_one_difference() -> None:
    from fiveup.harness import compare as comparator
    from fiveup.harness import runner

    assert runner.Difference is comparator.Difference
    assert compare(Level.SCORING, {"value": True}, {"value": 1}) == [
        comparator.Difference("/value", True, 1)
    ]


def test_an_integer_too_long_to_write_is_an_error_of_the_engine_not_a_crash() -> None:
    huge = run_case(Scripted([{"value": 10**5000}]), SCORING, ["scoring"])
    assert huge.status is Status.ERROR
    assert huge.message.startswith("the observation is not JSON a report can hold: Exceeds")
    assert run_case(Scripted([{"value": 10**4000}]), SCORING, ["scoring"]).status is Status.FAIL


def test_a_message_is_cut_and_printable_line_by_line() -> None:
    poison = "\x1b[31m\ud800<b>\nsecond line" + "x" * 20_000
    crashed = run_case(Scripted([EngineError(poison)]), SCORING, ["scoring"])
    first, second = crashed.message.split("\n")
    assert first == "\\x1b[31m\\ud800<b>"
    assert second.startswith("second line") and second.endswith("more characters not shown)")
    assert len(crashed.message) < 8100


@pytest.mark.parametrize(("cited", "counted"), [("DRW-1", "DRW-1"), ("ZZZ-9", "SCR-2")])
def test_a_wrong_refusal_counts_under_the_cited_rule_only_when_the_spec_has_it(
    cited: str, counted: str
) -> None:
    observation = {"value": 15, "error": {"at": 0, "rule": cited, "message": "no"}}
    refusing = case(Level.LAYOUT, {"placements": []}, {})
    result = run_case(Scripted([observation]), refusing, ["layout"], check_shape=lenient)
    (diff,) = result.differences
    assert (diff.path, diff.rule, result.rule) == ("/error", counted, counted)


def _with_points(value: JSON) -> JSON:
    if isinstance(value, bool) or not isinstance(value, int | list | dict):
        return value
    if isinstance(value, int):
        return float(value)
    if isinstance(value, list):
        return [_with_points(v) for v in value]
    return {k: _with_points(v) for k, v in value.items()}


class _OneNumberType:
    """The reference as a JavaScript engine writes it: every integer with a point (5.0)."""

    def __init__(self) -> None:
        self.inner = ReferenceEngine()

    def info(self) -> EngineInfo:
        return self.inner.info()

    def run(self, level: str, given: dict[str, JSON]) -> JSON:
        return _with_points(self.inner.run(level, given))


def test_an_engine_writing_every_integer_with_a_point_passes_every_bundled_case() -> None:
    engine = _OneNumberType()
    levels = [level.value for level in Level]
    failed = [
        (result.case.id, [d.text for d in result.differences] or result.message)
        for result in (run_case(engine, c, levels) for c in load_corpus().cases)
        if result.status is not Status.PASS
    ]
    assert failed == []
    written = engine.run("scoring", {"function": "credit", "input": 15})
    assert isinstance(written, dict) and type(written["value"]) is float  # it did write 15.0


class _Wide(_OneNumberType):
    """The reference, its layouts' contributions repeated 10,000 times: the right shape, 150 kB."""

    def run(self, level: str, given: dict[str, JSON]) -> JSON:
        observation = self.inner.run(level, given)
        observation["layout"]["contributions"] = [["[6|6]", 12]] * 10_000
        return observation


def test_a_case_keeps_no_observation_past_the_kept_size() -> None:
    (case_,) = [c for c in load_corpus().cases if c.id == "doc.layout.branches-1-5"]
    result = run_case(_Wide(), case_, ["layout"])
    assert result.status is Status.FAIL
    assert isinstance(result.observation, str) and "not kept" in result.observation
    assert all(len(json.dumps(d.to_json())) < 1000 for d in result.differences)
