"""Choosing cases (fiveup.harness.selection): -k expressions and --case IDs."""

from __future__ import annotations

import pytest
from fakes import CORPUS

from fiveup.errors import UsageError
from fiveup.harness.selection import keyword_matcher, select


@pytest.mark.parametrize(
    ("expr", "ids"),
    [
        ("credit", ["doc.scoring.credit-15"]),
        ("SPN-2", ["rule.layout.spinner-branch"]),
        ("layout and not SPN-3", ["rule.layout.spinner-branch"]),
        ("(credit or spn-3)", ["doc.scoring.credit-15", "rule.layout.spinner-branch-2"]),
        ("not layout", ["doc.scoring.credit-15"]),
        (
            "scoring.yaml",
            ["doc.scoring.credit-15", "rule.layout.spinner-branch", "rule.layout.spinner-branch-2"],
        ),
    ],
)
def test_keyword_expressions_select_like_pytest(expr: str, ids: list[str]) -> None:
    assert [c.id for c in select(CORPUS, expr)] == ids


@pytest.mark.parametrize("expr", ["", "and", "(credit", "credit or", "credit )"])
def test_a_bad_keyword_expression_is_a_usage_error(expr: str) -> None:
    with pytest.raises(UsageError, match="-k"):
        keyword_matcher(expr)


def test_case_ids_select_exactly() -> None:
    assert [c.id for c in select(CORPUS, ids=["rule.layout.spinner-branch"])] == [
        "rule.layout.spinner-branch"
    ]
    with pytest.raises(UsageError, match="no case nope"):
        select(CORPUS, ids=["nope"])
