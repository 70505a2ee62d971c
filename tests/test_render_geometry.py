"""``fiveup.render.geometry``: where a layout's tiles lie, without overlaps, joints touching."""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fiveup import strategies as fs
from fiveup.contract.engine import JSON
from fiveup.contract.notation import Placement, Slot
from fiveup.harness.corpus import load_corpus
from fiveup.reference.engine import layout_observation
from fiveup.reference.layout import Layout
from fiveup.render.geometry import Arrangement, Rect, arrange

SETTINGS = fs.suite_settings(max_examples=60, deadline=None, database=None)


def observed(placements: list[str]) -> dict[str, JSON]:
    """The reference's layout object after ``placements`` (a fixture's layout is the same)."""
    layout = Layout()
    for text in placements:
        layout.place(Placement.parse(text))
    return layout_observation(layout)


def assert_well_drawn(arrangement: Arrangement) -> None:
    """No two tiles overlap, and the halves of every connection touch."""
    rects = [placed.rect for placed in arrangement.tiles]
    for (i, a), (j, b) in itertools.combinations(enumerate(rects), 2):
        assert not a.overlaps(b), (arrangement.tiles[i].tile, arrangement.tiles[j].tile)
    for joint in arrangement.joints:
        assert joint.attached, joint
        assert joint.table_half.touches(joint.joined_half), joint


def corpus_layouts() -> Iterator[tuple[str, Mapping[str, JSON]]]:
    """Every layout a case of the corpus expects, with where it is."""
    for case in load_corpus().cases:
        expect = case.expect
        if isinstance(expect.get("layout"), Mapping):
            yield case.id, expect["layout"]
        state = expect.get("state")
        if isinstance(state, Mapping) and isinstance(state.get("layout"), Mapping):
            yield f"{case.id} state", state["layout"]
        for n, entry in enumerate(expect.get("rounds") or []):
            inner = entry.get("state") if isinstance(entry, Mapping) else None
            if isinstance(inner, Mapping) and isinstance(inner.get("layout"), Mapping):
                yield f"{case.id} round {n}", inner["layout"]


CORPUS = list(corpus_layouts())


def test_render_geometry_rect_overlap_and_touch() -> None:
    a = Rect(0, 0, 2, 2)
    assert a.overlaps(Rect(1, 1, 3, 3))
    assert not a.overlaps(Rect(2, 0, 4, 2))
    assert a.touches(Rect(2, 0, 4, 2))
    assert a.touches(Rect(-1, 2, 1, 4))
    assert not a.touches(Rect(2, 2, 4, 4))  # corners only
    assert not a.touches(Rect(3, 0, 5, 2))  # a gap


def test_render_geometry_the_corpus_has_layouts_to_draw() -> None:
    drawn = [arrange(layout) for _, layout in CORPUS]
    assert len(drawn) >= 60
    assert sum(len(a.joints) for a in drawn) >= 100


@pytest.mark.parametrize(("where", "layout"), CORPUS, ids=[where for where, _ in CORPUS])
def test_render_geometry_every_corpus_layout_draws_without_overlaps(
    where: str, layout: Mapping[str, JSON]
) -> None:
    arrangement = arrange(layout)
    assert_well_drawn(arrangement)
    tiles = layout.get("tiles")
    if isinstance(tiles, list):
        assert sorted(p.tile.text for p in arrangement.tiles) == sorted(tiles)
    assert len(arrangement.joints) == len(layout.get("connections", []))
    loose = {p.tile.text for p in arrangement.tiles if p.loose}
    assert loose == {note.split()[0] for note in arrangement.notes if "joined to nothing" in note}


@SETTINGS
@given(fs.reachable_layouts())
def test_render_geometry_every_reachable_layout_draws_without_overlaps(
    reached: fs.ReachedLayout,
) -> None:
    observation = layout_observation(reached.layout)
    arrangement = arrange(observation)
    assert_well_drawn(arrangement)
    assert arrangement.notes == ()
    assert len(arrangement.tiles) == len(observation["tiles"])
    assert len(arrangement.joints) == len(observation["connections"])
    counted = sorted(m.counted for m in arrangement.markers if m.counted is not None)
    assert counted == sorted(value for _, value in observation["contributions"])
    assert all(m.exit is not None and m.slot is not None for m in arrangement.markers)
    marked = {f"{m.tile.text}:{m.slot.value}" for m in arrangement.markers if m.slot}
    assert marked == set(observation["points"])  # every counted end is an available point


def test_render_geometry_doubles_lie_crosswise_and_branches_leave_at_right_angles() -> None:
    arrangement = arrange(
        observed(
            [
                *("[1|4]", "[1|1]@[1|4]:low", "[1|2]@[1|1]:line-b"),
                *("[1|5]@[1|1]:branch-a", "[1|3]@[1|1]:branch-b"),
            ]
        )
    )
    assert_well_drawn(arrangement)
    by_tile = {p.tile.text: p for p in arrangement.tiles}
    opening, spinner = by_tile["[1|4]"], by_tile["[1|1]"]
    assert opening.axis == (1, 0)
    assert spinner.axis == (0, 1)  # crosswise to the horizontal line it is on
    line = spinner.exit(Slot.LINE_B)
    branches = [spinner.exit(Slot.BRANCH_A), spinner.exit(Slot.BRANCH_B)]
    assert line is not None and None not in branches
    for branch in branches:
        assert branch is not None
        dot = branch.direction[0] * line.direction[0] + branch.direction[1] * line.direction[1]
        assert dot == 0
    assert branches[0] is not None and branches[1] is not None
    assert branches[0].direction == (-branches[1].direction[0], -branches[1].direction[1])
    assert by_tile["[1|2]"].axis == (1, 0)  # the line goes on straight through the spinner
    assert by_tile["[1|5]"].axis == by_tile["[1|3]"].axis == (0, 1)


def test_render_geometry_a_long_line_snakes_instead_of_running_off() -> None:
    chain = ["[0|1]", "[1|2]@[0|1]:high", "[2|3]@[1|2]:high", "[3|4]@[2|3]:high"]
    chain += ["[4|5]@[3|4]:high", "[5|6]@[4|5]:high", "[0|6]@[5|6]:high", "[0|2]@[0|6]:low"]
    chain += ["[2|4]@[0|2]:high", "[4|6]@[2|4]:high", "[1|6]@[4|6]:high", "[1|3]@[1|6]:low"]
    chain += ["[3|5]@[1|3]:high", "[0|5]@[3|5]:high", "[0|3]@[0|5]:low", "[3|6]@[0|3]:high"]
    arrangement = arrange(observed(chain))
    assert_well_drawn(arrangement)
    axes = {p.axis for p in arrangement.tiles}
    assert axes == {(1, 0), (0, 1)}
    bounds = arrangement.bounds
    assert bounds is not None
    assert bounds.x1 - bounds.x0 < 4 * len(chain)  # a straight line would be 4 units a tile


def test_render_geometry_is_deterministic() -> None:
    layout = observed(["[1|4]", "[1|1]@[1|4]:low", "[4|4]@[1|4]:high", "[3|4]@[4|4]:line-b"])
    shuffled = dict(layout)
    shuffled["points"] = dict(reversed(list(layout["points"].items())))
    shuffled["contributions"] = list(reversed(layout["contributions"]))
    assert arrange(layout) == arrange(layout) == arrange(shuffled)


def test_render_geometry_a_layout_without_tiles_is_drawn_from_its_connections() -> None:
    layout = observed(["[1|4]", "[1|1]@[1|4]:low"])
    del layout["tiles"]
    arrangement = arrange(layout)
    assert [p.tile.text for p in arrangement.tiles] == ["[1|4]", "[1|1]"]
    assert_well_drawn(arrangement)


@pytest.mark.parametrize(
    ("layout", "words"),
    [
        ("[1|4]", "not an object"),
        ({"tiles": "[1|4]"}, "tiles: expected a list"),
        ({"tiles": ["[1|4]", "[1|4]"]}, "[1|4] is listed twice"),
        ({"tiles": ["[1|7]"]}, "'[1|7]' is not a tile"),
        ({"tiles": ["[1|4]"], "colour": "red"}, "unknown key 'colour'"),
        (
            {"tiles": ["[1|4]"], "connections": [["[1|4]:low", "[1|1]:line-a"]]},
            "[1|1] is not among the tiles",
        ),
        (
            {"tiles": ["[1|4]", "[1|1]"], "connections": [["[1|1]:line-a", "[1|1]:line-b"]]},
            "a tile joined to itself",
        ),
        (
            {"tiles": ["[1|4]", "[1|1]"], "connections": [["[1|1]:line-a", "[1|4]:low"]]},
            "[1|4] is the opening tile",
        ),
        (
            {
                "tiles": ["[1|4]", "[1|1]", "[4|4]"],
                "connections": [["[1|4]:low", "[1|1]:line-a"], ["[1|4]:low", "[4|4]:line-a"]],
            },
            "[1|4]:low is joined twice",
        ),
        (
            {
                "tiles": ["[1|4]", "[1|1]", "[4|4]"],
                "connections": [["[1|4]:low", "[1|1]:line-a"], ["[1|4]:high", "[1|1]:line-a"]],
            },
            "[1|1] is joined twice",
        ),
        (
            {"tiles": ["[1|4]", "[2|2]"], "connections": [["[1|4]:low", "[2|2]:line-a"]]},
            "the values 1 and 2 do not match",
        ),
        ({"tiles": ["[1|4]", "[1|1]"]}, "[1|1] is on the table but joined to nothing; drawn"),
        ({"tiles": ["[1|4]"], "points": {"[5|6]:low": 5}}, "[5|6]:low is on no tile drawn"),
        ({"tiles": ["[1|4]"], "points": {"[1|4]:high": 3}}, "given the value 3, not 4"),
        ({"tiles": ["[1|4]"], "points": {"[1|4]:side": 3}}, "is not a connection point"),
        ({"tiles": ["[1|4]"], "contributions": [["[1|4]"]]}, "not a [tile, value] pair"),
        ({"tiles": ["[1|4]"], "contributions": [["[0|0]", 0]]}, "[0|0] is not drawn"),
        ({"tiles": ["[1|4]"], "spinners": ["[1|4]"]}, "[1|4] is not a double"),
        ({"tiles": ["[1|4]"], "sum": "five"}, "sum: 'five' is not a whole number"),
        ({"tiles": list(range(2000))}, "only the first 1000 of 2000"),
    ],
)
def test_render_geometry_what_cannot_be_drawn_is_noted(layout: Any, words: str) -> None:
    arrangement = arrange(layout)
    assert any(words in note for note in arrangement.notes), arrangement.notes
    assert_well_drawn(arrangement)


def test_render_geometry_tiles_joined_to_nothing_lie_in_a_row_below() -> None:
    arrangement = arrange(
        {"tiles": ["[3|3]", "[3|4]", "[1|3]", "[4|4]"], "points": {"[1|3]:low": 1}}
    )
    assert_well_drawn(arrangement)
    opening, *row = arrangement.tiles
    assert not opening.loose and all(p.loose for p in row)
    assert [p.tile.text for p in row] == ["[3|4]", "[1|3]", "[4|4]"]
    assert all(p.rect.y0 > opening.rect.y1 for p in row)
    assert [(m.tile.text, m.slot) for m in arrangement.markers] == [("[1|3]", Slot.LOW)]


CROWDED = [
    *("[0|5]", "[1|5]@[0|5]:high", "[1|4]@[1|5]:low", "[0|4]@[1|4]:high", "[0|3]@[0|5]:low"),
    *("[0|0]@[0|4]:low", "[1|3]@[0|3]:high", "[1|2]@[1|3]:low", "[2|3]@[1|2]:high"),
    *("[3|4]@[2|3]:high", "[0|2]@[0|0]:line-b", "[4|6]@[3|4]:high", "[6|6]@[4|6]:high"),
    *("[2|2]@[0|2]:high", "[1|6]@[6|6]:line-b", "[2|6]@[6|6]:branch-a", "[0|6]@[0|0]:branch-b"),
    *("[5|6]@[6|6]:branch-b", "[1|1]@[1|6]:low", "[2|4]@[2|6]:low", "[3|6]@[0|6]:high"),
    *("[0|1]@[0|0]:branch-a", "[3|5]@[3|6]:low", "[2|5]@[3|5]:high", "[5|5]@[5|6]:low"),
    "[4|5]@[2|4]:high",
]
"""A table on which placing each tile at its first free option leaves one without room."""


def test_render_geometry_the_search_finds_room_where_the_first_choices_do_not() -> None:
    arrangement = arrange(observed(CROWDED))
    assert_well_drawn(arrangement)
    assert arrangement.notes == ()


def test_render_geometry_a_tile_without_room_is_drawn_apart_and_noted() -> None:
    arrangement = arrange(observed(CROWDED), budget=0)  # only the last, greedy pass
    rects = [p.rect for p in arrangement.tiles]
    assert not any(a.overlaps(b) for a, b in itertools.combinations(rects, 2))
    apart = [j for j in arrangement.joints if not j.attached]
    assert apart
    for joint in arrangement.joints:
        assert joint.attached == joint.table_half.touches(joint.joined_half)
    for joint in apart:
        note = f"{joint.joined.tile.text} is drawn apart from {joint.table.text}: no room"
        assert any(n.startswith(note) for n in arrangement.notes)


def test_render_geometry_notes_are_bounded() -> None:
    arrangement = arrange({"tiles": [f"junk {n}" for n in range(500)]})
    assert len(arrangement.notes) == 25
    assert arrangement.notes[-1] == "... and 476 more notes"


def test_render_geometry_a_connection_listed_before_its_table_tile_is_drawn() -> None:
    layout = observed(["[1|4]", "[1|1]@[1|4]:low", "[1|2]@[1|1]:line-b"])
    layout["connections"] = list(reversed(layout["connections"]))
    arrangement = arrange(layout)
    assert arrangement.notes == ()
    assert len(arrangement.joints) == 2
    assert_well_drawn(arrangement)


JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=20,
)
TILE_TEXT = st.sampled_from(["[0|0]", "[1|4]", "[1|1]", "[4|1]"])
POINT_TEXT = st.builds(
    lambda tile, slot: f"{tile}:{slot}",
    st.sampled_from(["[0|0]", "[1|4]", "[1|1]", "[4|4]", "[1|2]"]),
    st.sampled_from([s.value for s in Slot]),
)
LAYOUTISH = st.fixed_dictionaries(
    {},
    optional={
        "tiles": st.lists(TILE_TEXT | st.sampled_from(["[4|4]", "[1|2]"]) | JSONISH, max_size=8),
        "spinners": st.lists(TILE_TEXT | JSONISH, max_size=4) | JSONISH,
        "connections": st.lists(st.lists(POINT_TEXT | JSONISH, max_size=3), max_size=8),
        "points": st.dictionaries(POINT_TEXT | st.text(max_size=6), st.integers() | JSONISH),
        "contributions": st.lists(st.lists(TILE_TEXT | st.integers() | JSONISH, max_size=3)),
        "sum": st.integers() | JSONISH,
        "extra": JSONISH,
    },
)


@SETTINGS
@given(LAYOUTISH | JSONISH)
def test_render_geometry_never_raises_on_any_json(layout: Any) -> None:
    arrangement = arrange(layout)
    assert_well_drawn(arrangement)
    assert len(arrangement.notes) <= 25
