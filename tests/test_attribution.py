"""Attribution: a failed case counts under the rule its first difference falls under."""

from __future__ import annotations

from fiveup.harness.attribution import case_rule, rule_of
from fiveup.harness.compare import Difference
from fiveup.harness.corpus import load_corpus

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
