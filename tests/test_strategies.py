"""The public Hypothesis strategies of fiveup.strategies: each one's invariants, checked.

Every illegal action drawn is refused by the reference with the rule it is drawn for, leaves the
round exactly as it was, and is refused the same way through the protocol (``round_given``).
"""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, given
from hypothesis import strategies as st

from fiveup import strategies as fs
from fiveup.contract import shapes
from fiveup.contract.engine import JSON
from fiveup.contract.messages import Run
from fiveup.contract.notation import ALL_TILES, Tile
from fiveup.contract.players import PLAYER_COUNTS, side_count
from fiveup.contract.schemas import observation_schema
from fiveup.errors import IllegalMoveError
from fiveup.reference.engine import round_observation
from fiveup.reference.layout import Layout
from fiveup.reference.match import Match
from fiveup.reference.round import Round, RoundEnd
from fiveup.reference.rules import ACTION_REFUSALS, PLACEMENT_REFUSALS, RefusalKind

SETTINGS = fs.suite_settings(max_examples=50, deadline=None, database=None)
FEW = fs.suite_settings(
    max_examples=15, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow]
)


def request_fits(level: str, given: dict[str, JSON]) -> bool:
    """True when ``given`` is a valid run request of ``level`` (the contract's compiled check,
    held equal to jsonschema's by tests/test_shapes.py, and far cheaper per example)."""
    return shapes.problem(Run.schema, Run(1, level, given).to_json()) is None


def observation_fits(level: str, observation: JSON) -> bool:
    """True when ``observation`` follows the level's observation schema (the same check)."""
    return shapes.problem(observation_schema(level), observation) is None


def all_tiles_once(tiles: list[Tile]) -> bool:
    return len(tiles) == len(ALL_TILES) and set(tiles) == set(ALL_TILES)


def on_the_table_in_hand_or_boneyard(round_: Round) -> list[Tile]:
    return [*round_.layout.tiles(), *(t for hand in round_.hands for t in hand), *round_.boneyard]


# --- tiles, decks, deals, scores --------------------------------------------------------------


@SETTINGS
@given(fs.tiles())
def test_tiles_are_tiles_of_the_set(tile: Tile) -> None:
    assert tile in ALL_TILES


@SETTINGS
@given(fs.decks())
def test_decks_are_permutations_of_the_28_tiles(deck: tuple[Tile, ...]) -> None:
    assert all_tiles_once(list(deck))


@SETTINGS
@given(fs.deals())
def test_deals_have_a_player_count_a_deck_and_an_opener_among_the_seats(deal: fs.Deal) -> None:
    assert deal.players in PLAYER_COUNTS
    assert 0 <= deal.opener < deal.players
    assert all_tiles_once(list(deal.deck))
    Round(*deal)  # the reference accepts it


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_deals_for_a_given_number_of_players(players: int) -> None:
    @FEW
    @given(fs.deals(players))
    def check(deal: fs.Deal) -> None:
        assert deal.players == players

    check()


def test_the_strategies_refuse_a_player_count_outside_the_rules_at_once() -> None:
    for strategy in (
        fs.deals,
        fs.rounds_in_progress,
        fs.finished_rounds,
        fs.matches,
        lambda players: fs.illegal_actions(players=players),
    ):
        with pytest.raises(ValueError, match="not 5"):
            strategy(5)


@SETTINGS
@given(st.data())
def test_scores_are_one_multiple_of_5_per_side(data: st.DataObject) -> None:
    players = data.draw(st.sampled_from(PLAYER_COUNTS))
    scores = data.draw(fs.scores(players, -20, 40))
    assert len(scores) == side_count(players)
    assert all(score % 5 == 0 and -20 <= score <= 40 for score in scores)


# --- layouts ---------------------------------------------------------------------------------


@SETTINGS
@given(fs.reachable_layouts())
def test_a_reachable_layout_is_rebuilt_by_its_placements(reached: fs.ReachedLayout) -> None:
    layout, placements = reached
    assert layout.placements() == list(placements)
    again = Layout.from_placements(placements)
    assert again.sum == layout.sum == sum(value for _, value in layout.counted())
    assert again.points() == layout.points()
    tiles = [p.tile for p in placements]
    assert len(set(tiles)) == len(tiles)
    assert all(p.target is None for p in placements[:1])
    assert all(p.target is not None for p in placements[1:])


@FEW
@given(fs.reachable_layouts(max_tiles=3))
def test_a_reachable_layout_holds_at_most_max_tiles(reached: fs.ReachedLayout) -> None:
    assert len(reached.layout) == len(reached.placements) <= 3


# --- rounds ----------------------------------------------------------------------------------


def replays_through_the_protocol(round_: Round) -> None:
    """The request of round_given is valid and the reference plays it back to the same state."""
    request = fs.round_given(round_)
    assert request_fits("round", request)
    observation = fs.reference_observation("round", request)
    assert observation_fits("round", observation)
    assert observation == {**round_observation(round_), "error": None}


@SETTINGS
@given(fs.rounds_in_progress())
def test_a_round_in_progress_is_going_on_and_replays_through_the_protocol(round_: Round) -> None:
    assert not round_.over and round_.turn is not None and round_.legal_moves
    assert all_tiles_once(on_the_table_in_hand_or_boneyard(round_))
    replays_through_the_protocol(round_)


@FEW
@given(fs.rounds_in_progress(players=4, max_actions=3))
def test_a_round_in_progress_takes_at_most_max_actions(round_: Round) -> None:
    assert round_.players == 4 and len(round_.events) <= 3


@SETTINGS
@given(fs.finished_rounds())
def test_a_finished_round_is_over_and_replays_through_the_protocol(round_: Round) -> None:
    result = round_.result
    assert result is not None and round_.over and not round_.legal_moves
    if result.end is RoundEnd.OUT:
        assert result.winner is not None and round_.hand(result.winner) == ()
    else:
        assert round_.boneyard_size == 0
    replays_through_the_protocol(round_)


@fs.suite_settings(max_examples=20, deadline=None, database=None)
@given(fs.matches())
def test_a_match_is_won_and_replays_through_the_protocol(match: Match) -> None:
    assert match.over and match.winner is not None
    assert match.current is None and all(round_.over for round_ in match.rounds)
    request = fs.match_given(match)
    assert request_fits("match", request)
    observation = fs.reference_observation("match", request)
    assert observation_fits("match", observation)
    assert (observation["over"], observation["winner"]) == (True, match.winner)
    assert observation["scores"] == list(match.scores) and observation["error"] is None


@FEW
@given(fs.matches(players=2, start=st.just((0, 300))))
def test_a_match_starts_from_the_scores_drawn(match: Match) -> None:
    assert match.rounds[0].starting_scores == (0, 300)


# --- illegal actions -------------------------------------------------------------------------


def refused_as_drawn(illegal: fs.IllegalAction) -> None:
    """The reference refuses the action with the rule, changes nothing, and so does the protocol."""
    round_ = illegal.round
    before = fs.round_snapshot(round_)
    with pytest.raises(IllegalMoveError) as refused:
        round_.apply(illegal.action)
    assert refused.value.rule == illegal.rule, (illegal.kind, illegal.action.text)
    assert fs.round_snapshot(round_) == before
    request = fs.round_given(round_, illegal.action)
    assert request_fits("round", request)
    error = fs.reference_observation("round", request)["error"]
    assert error is not None
    assert (error["rule"], error["at"]) == (illegal.rule, len(request["actions"]) - 1)


@SETTINGS
@given(fs.illegal_actions())
def test_every_illegal_action_is_refused_with_its_rule_and_changes_nothing(
    illegal: fs.IllegalAction,
) -> None:
    refused_as_drawn(illegal)


@pytest.mark.parametrize("kind", list(fs.Illegal), ids=lambda kind: kind.name)
def test_each_kind_of_illegal_action_is_drawn_and_refused(kind: fs.Illegal) -> None:
    @FEW
    @given(fs.illegal_actions([kind]))
    def check(illegal: fs.IllegalAction) -> None:
        assert illegal.kind is kind
        refused_as_drawn(illegal)

    check()


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_a_draw_from_an_empty_boneyard_is_found_for_every_player_count(players: int) -> None:
    @FEW
    @given(fs.illegal_actions([fs.Illegal.DRAW_FROM_EMPTY], players=players))
    def check(illegal: fs.IllegalAction) -> None:
        assert illegal.round.players == players and illegal.round.drawable == 0
        refused_as_drawn(illegal)

    check()


def test_the_kinds_cover_every_rule_that_refuses_an_action() -> None:
    assert Counter(kind.rule for kind in fs.Illegal) == {
        "TRN-3": 1,
        "END-1": 1,
        "DRW-1": 1,
        "DRW-2": 1,
        "DRW-3": 1,
        "DRW-4": 1,
        "DRW-5": 2,
        "LAY-1": 2,
        "LAY-3": 2,
        "LAY-4": 3,
        "SPN-2": 1,
    }


def test_each_kind_is_one_entry_of_the_references_refusal_order_and_takes_its_rule() -> None:
    entries = [*ACTION_REFUSALS, *PLACEMENT_REFUSALS]
    assert sorted(entries.index(kind.refusal) for kind in fs.Illegal) == list(range(len(entries)))
    assert all(kind.rule == kind.refusal.rule for kind in fs.Illegal)
    assert fs.Illegal.DRAW_FROM_EMPTY.refusal.kind is RefusalKind.DRAW


@SETTINGS
@given(st.one_of(fs.rounds_in_progress(), fs.finished_rounds()), st.data())
def test_refused_actions_of_a_given_round_are_refused_with_their_rule(
    round_: Round, data: st.DataObject
) -> None:
    illegal = data.draw(fs.refused_actions(round_))
    assert illegal.round is round_
    refused_as_drawn(illegal)


def test_refused_actions_names_the_kinds_a_round_does_not_admit() -> None:
    fresh = Round(2, ALL_TILES, 0)
    with pytest.raises(ValueError, match="AFTER_END"):
        fs.refused_actions(fresh, [fs.Illegal.AFTER_END])
    with pytest.raises(ValueError, match="at least one kind"):
        fs.illegal_actions([])


# --- settings --------------------------------------------------------------------------------


def test_the_long_profile_is_registered_and_selected_by_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from hypothesis import settings

    long = settings.get_profile(fs.LONG_PROFILE)
    assert long.max_examples >= 1000 and long.deadline is None
    assert not long.derandomize  # the long run explores: each run tries other examples
    monkeypatch.setenv(fs.PROFILE_ENV, fs.LONG_PROFILE)
    assert fs.long_profile_selected()
    assert fs.suite_settings(max_examples=3).max_examples == long.max_examples
    monkeypatch.delenv(fs.PROFILE_ENV)
    if settings.get_current_profile_name() != fs.LONG_PROFILE:
        assert not fs.long_profile_selected()
        everyday = fs.suite_settings(max_examples=3)
        assert everyday.max_examples == 3
        assert everyday.derandomize and everyday.database is None  # the same examples every run
        assert not fs.suite_settings(max_examples=3, derandomize=False).derandomize


def test_the_everyday_run_is_deterministic_for_every_test_of_hypothesis() -> None:
    from hypothesis import settings

    if settings.get_current_profile_name() != fs.LONG_PROFILE:
        assert settings.get_current_profile_name() == fs.EVERYDAY_PROFILE
        assert settings().derandomize and settings().database is None
        assert settings().deadline is None  # a loaded machine is slow, not wrong
