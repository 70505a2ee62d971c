"""Attribution: a failed case counts under the rule its first difference falls under."""

from __future__ import annotations

from collections import Counter

import pytest

from fiveup.harness.attribution import case_rule, rule_of
from fiveup.harness.certify import certify
from fiveup.harness.compare import Difference
from fiveup.harness.corpus import load_corpus
from fiveup.mutants import mutant_named

# The rules lists of the worked examples name LAY-1 first; the difference must decide.
WORKED = load_corpus().by_id()


def test_fiveup_harness_attribution_a_worked_examples_spinner_connection_counts_under_spn() -> None:
    case = WORKED["doc.layout.branches-1-5"]
    assert "LAY-1" in case.rules and "SPN-3" in case.rules
    expected = case.expect["layout"]["connections"]
    wrong = [*expected[:4], ["[1|1]:branch-b", "[1|5]:low"]]  # the other branch of [1|1]
    diff = Difference("/layout/connections", expected, wrong)
    assert rule_of(case, diff) == "SPN-3"
    assert case_rule(case, [Difference(diff.path, expected, wrong, rule=rule_of(case, diff))]) == (
        "SPN-3"
    )


def test_fiveup_harness_attribution_a_connection_off_the_spinner_stays_under_lay() -> None:
    case = WORKED["doc.layout.branches-1-5"]
    expected = [["[1|4]:low", "[2|4]:high"], ["[1|2]:low", "[2|5]:low"]]
    wrong = [["[1|4]:low", "[2|4]:high"], ["[1|2]:high", "[2|5]:low"]]  # [2|5] at a plain end
    assert rule_of(case, Difference("/layout/connections", expected, wrong)) == "LAY-1"


def test_fiveup_harness_attribution_a_spinner_side_is_spns_even_if_the_case_lists_none() -> None:
    case = WORKED["doc.layout.sum-to-points-1-4"]
    assert not any(rule.startswith("SPN") for rule in case.rules)
    diff = Difference(
        "/layout/connections", [["[1|4]:low", "[1|1]:line-a"]], [["[1|4]:low", "[1|1]:branch-a"]]
    )
    assert rule_of(case, diff) == "SPN-2"


def test_fiveup_harness_attribution_a_play_at_a_spinners_branch_counts_under_spn() -> None:
    case = WORKED["doc.layout.branches-1-5"]
    at_branch = Difference("/events/5/play", "[1|5]@[1|1]:branch-a", "[1|5]@[1|1]:branch-b")
    assert rule_of(case, at_branch).startswith("SPN-")
    other_tile = Difference("/events/5/play", "[1|5]@[1|1]:branch-a", "[2|3]@[1|2]:high")
    assert rule_of(case, other_tile) == "LAY-1"


_COUNTED = [["[1|2]", 2], ["[1|5]", 5], ["[3|4]", 3]]
"""The contributions of doc.layout.branches-1-5: [1|1] (one branch open) and [4|4] (both
branches open) internal, [1|2], [1|5] and [3|4] free ends."""


def _counted_under(extra: list[list[object]], missing: int | None = None) -> str:
    case = WORKED["doc.layout.branches-1-5"]
    got = [e for i, e in enumerate(_COUNTED) if i != missing] + extra
    return rule_of(case, Difference("/layout/contributions", _COUNTED, got))


def test_fiveup_harness_attribution_a_contribution_counts_under_the_rule_of_its_tile() -> None:
    assert _counted_under([["[4|4]", 8]]) == "CNT-4"  # an internal double counted whole
    assert _counted_under([["[1|1]", 1]]) == "CNT-5"  # its one unstarted branch counted
    assert _counted_under([["[4|4]", 4]]) == "CNT-4"  # two branches open: no branch's value
    assert _counted_under([], missing=1) == "CNT-2"  # a free end left out
    assert _counted_under([["[1|5]", 1]], missing=1) == "CNT-2"  # the wrong half of a tile


def test_fiveup_harness_attribution_a_terminal_double_counted_wrong_is_cnt_3() -> None:
    case = WORKED["doc.layout.sum-to-points-6-6"]
    expected = case.expect["layout"]["contributions"]
    (double,) = [e for e in expected if e[0] == "[6|6]"]
    wrong = [e if e[0] != "[6|6]" else ["[6|6]", 6] for e in expected]
    assert double == ["[6|6]", 12]
    assert rule_of(case, Difference("/layout/contributions", expected, wrong)) == "CNT-3"


def test_fiveup_harness_attribution_nothing_counted_is_no_tiles_rule() -> None:
    case = WORKED["doc.layout.branches-1-5"]
    nothing = Difference("/layout/contributions", _COUNTED, [])
    assert rule_of(case, nothing) == "CNT-1"  # the case's counting rule, not a tile's guess


def test_fiveup_harness_attribution_a_case_whose_sums_differ_counts_under_the_counted_tile() -> (
    None
):
    case = WORKED["doc.layout.branches-1-5"]
    sums = Difference("/steps/5/sum", 10, 18)
    counted = Difference("/layout/contributions", _COUNTED, [*_COUNTED, ["[4|4]", 8]])
    ruled = [
        Difference(d.path, d.expected, d.actual, rule=rule_of(case, d)) for d in (sums, counted)
    ]
    assert ruled[0].rule != "CNT-4" and case_rule(case, ruled) == "CNT-4"


def test_fiveup_harness_attribution_a_refused_legal_action_counts_under_the_rule_allowing_it() -> (
    None
):
    case = WORKED["doc.layout.branches-1-5"]
    refused = {"at": 5, "rule": "LAY-4", "message": "no such point"}
    steps = Difference("/steps", "6 entries", "5 entries")
    error = Difference("/error", None, refused, "the engine refused an action the rules allow")
    ruled = [
        Difference(d.path, d.expected, d.actual, d.note, rule_of(case, d)) for d in (steps, error)
    ]
    assert ruled[1].rule == "SPN-3"  # [1|5] at the branch A of [1|1], not the LAY-4 it cited
    assert case_rule(case, ruled) == "SPN-3"
    line_side = {**refused, "at": 4}  # [1|2]@[1|1]:line-b
    assert rule_of(case, Difference("/error", None, line_side, error.note)) == "SPN-2"
    plain = {**refused, "at": 1}  # [1|1]@[1|4]:low
    assert rule_of(case, Difference("/error", None, plain, error.note)) == "LAY-1"


@pytest.mark.parametrize(
    ("mutant", "floor"),
    [
        ("cnt2_zero_end_not_counted", 9),
        ("cnt3_terminal_double_once", 29),
        ("cnt4_internal_double_counts", 21),
        ("cnt5_unstarted_branch_counts", 11),
        ("spn2_double_joins_by_line_b", 14),
    ],
)
def test_fiveup_harness_attribution_a_counting_mutants_failures_name_its_rule(
    mutant: str, floor: int
) -> None:
    # the floor is what the rules above reach (a case whose symptom is another rule's, a score
    # that cascades, counts elsewhere); before them, 5, 14, 4, 1 and 0
    wrong = mutant_named(mutant)
    corpus = load_corpus()
    run = certify(wrong.engine(), corpus, corpus.cases)
    under = Counter(o.result.rule for o in run.outcomes if o.verdict.bad)
    assert under[wrong.rule] >= floor, under.most_common(4)


def test_fiveup_harness_attribution_a_side_penalty_is_merging_only_when_it_is_the_merged_one() -> (
    None
):
    case = WORKED["doc.scoring.side-penalty-3-3"]  # 3 and 3 pips: 5 + 5 = 10, merged 6 -> 5
    merged = Difference("/value", 10, 5, rule=rule_of(case, Difference("/value", 10, 5)))
    rounded_down = Difference("/value", 10, 0, rule=rule_of(case, Difference("/value", 10, 0)))
    assert case_rule(case, [merged]) == "PEN-4"
    assert case_rule(case, [rounded_down]) == "PEN-2"  # 3 -> 0 each: no merging in it


def test_fiveup_harness_attribution_a_value_written_with_a_point_is_not_a_differing_tile() -> None:
    case = WORKED["doc.layout.sum-to-points-6-6"]
    expected = case.expect["layout"]["contributions"]
    # the terminal [6|6] written 12.0 (the same number), another tile's end counted wrong
    wrong = [["[6|6]", 12.0] if e[0] == "[6|6]" else [e[0], e[1] + 1] for e in expected]
    assert rule_of(case, Difference("/layout/contributions", expected, wrong)) == "CNT-2"
