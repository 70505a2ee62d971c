"""The pure scoring functions, each against its rule and the documents' own numbers."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fiveup.errors import FiveUpError, UsageError
from fiveup.reference.scoring import (
    HAND_SIZE,
    RAW_PER_DISPLAYED,
    TARGET_RAW,
    Tally,
    displayed,
    placement_credit,
    rounded_penalty,
    side_penalty,
    tally,
)


def test_constants_match_the_rules() -> None:
    assert TARGET_RAW == 305  # PTS-2: 61 displayed points
    assert RAW_PER_DISPLAYED == 5  # PTS-1
    assert HAND_SIZE == 5  # SET-3
    assert TARGET_RAW // RAW_PER_DISPLAYED == 61


@pytest.mark.parametrize(
    ("total", "credit"),
    [
        (5, 5),  # "2 + 3 = 5 ... 5 punti grezzi"
        (10, 10),
        (15, 15),  # "una somma di 15 dà 3 punti visualizzati"
        (8, 0),  # "0 + 2 + 3 + 3 = 8 ... 0 punti grezzi"
        (6, 0),
        (4, 0),
        (12, 0),  # "Una somma di 12 o 17 non dà punti"
        (17, 0),
        (14, 0),  # Finnish: "14 ei tuota pisteitä"
        (0, 0),  # SCR-2: a sum of 0 earns nothing
        (305, 305),
    ],
)
def test_placement_credit_is_the_sum_only_for_positive_multiples_of_five(
    total: int, credit: int
) -> None:
    assert placement_credit(total) == credit


@pytest.mark.parametrize("total", [-1, -5, -305])
def test_a_negative_sum_is_outside_the_credits_domain(total: int) -> None:
    with pytest.raises(UsageError, match="cannot be negative"):
        placement_credit(total)


@given(st.integers(min_value=0, max_value=1000))
def test_placement_credit_is_zero_or_the_whole_sum(total: int) -> None:
    credit = placement_credit(total)
    assert credit in (0, total)
    assert (credit > 0) == (total > 0 and total % 5 == 0)


@pytest.mark.parametrize(
    ("raw", "shown"), [(0, 0), (5, 1), (10, 2), (15, 3), (20, 4), (305, 61), (-10, -2)]
)
def test_displayed_divides_raw_points_by_five(raw: int, shown: int) -> None:
    assert displayed(raw) == shown


@pytest.mark.parametrize("raw", [1, 7, -3, 304])
def test_displayed_refuses_raw_points_that_are_not_multiples_of_five(raw: int) -> None:
    with pytest.raises(UsageError, match="multiple of 5"):
        displayed(raw)


@pytest.mark.parametrize(
    ("pips", "penalty"),
    [
        (0, 0),
        (1, 0),
        (2, 0),  # "Una somma rimasta di 2 non causa quindi una sottrazione"
        (3, 5),  # "una somma di 3 sottrae 1 punto visualizzato"
        (4, 5),
        (5, 5),  # exact multiples stay
        (6, 5),
        (7, 5),
        (8, 10),
        (9, 10),
        (10, 10),
        (22, 20),
        (23, 25),
        (84, 85),
    ],
)
def test_rounded_penalty_rounds_to_the_nearest_multiple_of_five(pips: int, penalty: int) -> None:
    assert rounded_penalty(pips) == penalty


def test_rounded_penalty_refuses_negative_pips() -> None:
    with pytest.raises(UsageError):
        rounded_penalty(-1)


@given(st.integers(min_value=0, max_value=500))
def test_rounded_penalty_is_a_multiple_of_five_within_two_pips(pips: int) -> None:
    penalty = rounded_penalty(pips)
    assert penalty % 5 == 0
    assert abs(penalty - pips) <= 2


@pytest.mark.parametrize(
    ("pips", "penalty"),
    [
        ([3, 3], 10),  # Fi: "vähentää yhteensä 10 raakapistettä, ei 5"
        ([2, 2], 0),  # merged, 4 would round to 5
        ([7], 5),
        ([12, 13], 25),
    ],
)
def test_side_penalty_rounds_each_partner_separately(pips: list[int], penalty: int) -> None:
    assert side_penalty(pips) == penalty


@pytest.mark.parametrize("pips", [[], [1, 2, 3]])
def test_a_side_has_one_or_two_players(pips: list[int]) -> None:
    with pytest.raises(UsageError, match="one or two players"):
        side_penalty(pips)


@pytest.mark.parametrize(
    ("raw", "fifties", "strokes"),
    [(0, 0, 0), (5, 0, 1), (45, 0, 9), (50, 1, 0), (115, 2, 3), (135, 2, 7), (305, 6, 1)],
)
def test_tally_uses_fifties_first_then_strokes(raw: int, fifties: int, strokes: int) -> None:
    marks = tally(raw)
    assert marks == Tally(fifties, strokes)
    assert marks.raw == raw
    assert str(marks) == f"{fifties}x50 + {strokes}x5"


@pytest.mark.parametrize("raw", [-5, 3, 51])
def test_tally_refuses_negative_or_fractional_scores(raw: int) -> None:
    with pytest.raises(UsageError) as info:
        tally(raw)
    assert isinstance(info.value, FiveUpError)
    assert isinstance(info.value, ValueError)


@given(st.integers(min_value=0, max_value=2000).map(lambda n: 5 * n))
def test_tally_round_trips_and_never_needs_ten_strokes(raw: int) -> None:
    marks = tally(raw)
    assert marks.raw == raw
    assert 0 <= marks.strokes <= 9
