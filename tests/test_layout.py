"""The layout: the documents' worked positions, the spinner and counting rules, refusals."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fiveup.contract.notation import ALL_TILES, Placement, Point, Slot, Tile
from fiveup.errors import FiveUpError, IllegalMoveError
from fiveup.reference.layout import (
    Layout,
    contributions,
    interned_placements,
    open_slots,
    placement_key,
    placement_of,
)

SEEDS = Path(__file__).resolve().parents[1].parent / "shared" / "seeds"


def T(text: str) -> Tile:
    return Tile.parse(text)


def P(text: str) -> Point:
    return Point.parse(text)


# --- the documents' worked positions, transcribed by hand -----------------------------------


@dataclass(frozen=True)
class Position:
    """One worked position: how it is reached and everything the documents say about it."""

    label: str  # the tile in the heading: "Posata: [4|4]" / "Asetettu [4|4]" / "Angelegt: [4|4]"
    placements: tuple[str, ...]
    sum: int
    credit: int
    displayed: int
    tiles: tuple[str, ...]
    spinners: tuple[str, ...]
    connections: tuple[tuple[str, str], ...]
    points: dict[str, int] = field(hash=False)
    contributions: tuple[tuple[str, int], ...]


CHAIN = ("[1|4]", "[1|1]@[1|4]:low", "[4|4]@[1|4]:high")
CHAIN_TILES = ("[1|4]", "[1|1]", "[4|4]")
CHAIN_JOINTS = (("[1|4]:low", "[1|1]:line-a"), ("[1|4]:high", "[4|4]:line-a"))
WITH_34 = (*CHAIN, "[3|4]@[4|4]:line-b")
WITH_12 = (*WITH_34, "[1|2]@[1|1]:line-b")
WITH_15 = (*WITH_12, "[1|5]@[1|1]:branch-a")
WITH_05 = (*WITH_15, "[5|5]@[1|5]:high", "[0|5]@[5|5]:line-b")
JOINTS_34 = (*CHAIN_JOINTS, ("[4|4]:line-b", "[3|4]:high"))
JOINTS_12 = (*JOINTS_34, ("[1|1]:line-b", "[1|2]:low"))
JOINTS_15 = (*JOINTS_12, ("[1|1]:branch-a", "[1|5]:low"))
JOINTS_05 = (*JOINTS_15, ("[1|5]:high", "[5|5]:line-a"), ("[5|5]:line-b", "[0|5]:high"))

DOCUMENT_POSITIONS = [
    # "Doppie terminali e interne allo schema" / "Tupla päässä ja sisäisenä laattana" /
    # "Doppelsteine am Ende und im Inneren der Auslage"
    Position(
        "[4|4]", CHAIN, 10, 10, 2, CHAIN_TILES, ("[1|1]", "[4|4]"), CHAIN_JOINTS,
        {"[1|1]:line-b": 1, "[4|4]:line-b": 4},
        (("[1|1]", 2), ("[4|4]", 8)),
    ),
    Position(
        "[3|4]", WITH_34, 5, 5, 1, (*CHAIN_TILES, "[3|4]"), ("[1|1]", "[4|4]"), JOINTS_34,
        {"[1|1]:line-b": 1, "[3|4]:low": 3, "[4|4]:branch-a": 4, "[4|4]:branch-b": 4},
        (("[1|1]", 2), ("[3|4]", 3)),
    ),
    Position(
        "[2|2]", ("[2|2]",), 4, 0, 0, ("[2|2]",), ("[2|2]",), (),
        {"[2|2]:line-a": 2, "[2|2]:line-b": 2},
        (("[2|2]", 4),),
    ),
    # "Aprire i rami dello spinner" / "Spinnerin haarojen avaaminen" /
    # "Seitenarme des Spinners öffnen"
    Position(
        "[1|2]", WITH_12, 5, 5, 1, (*CHAIN_TILES, "[3|4]", "[1|2]"), ("[1|1]", "[4|4]"),
        JOINTS_12,
        {
            "[1|1]:branch-a": 1, "[1|1]:branch-b": 1, "[1|2]:high": 2, "[3|4]:low": 3,
            "[4|4]:branch-a": 4, "[4|4]:branch-b": 4,
        },
        (("[1|2]", 2), ("[3|4]", 3)),
    ),
    Position(
        "[1|5]", WITH_15, 10, 10, 2, (*CHAIN_TILES, "[3|4]", "[1|2]", "[1|5]"),
        ("[1|1]", "[4|4]"), JOINTS_15,
        {
            "[1|1]:branch-b": 1, "[1|2]:high": 2, "[1|5]:high": 5, "[3|4]:low": 3,
            "[4|4]:branch-a": 4, "[4|4]:branch-b": 4,
        },
        (("[1|2]", 2), ("[1|5]", 5), ("[3|4]", 3)),
    ),
    Position(
        "[0|5]", WITH_05, 5, 5, 1,
        (*CHAIN_TILES, "[3|4]", "[1|2]", "[1|5]", "[5|5]", "[0|5]"),
        ("[1|1]", "[4|4]", "[5|5]"), JOINTS_05,
        {
            "[0|5]:low": 0, "[1|1]:branch-b": 1, "[1|2]:high": 2, "[3|4]:low": 3,
            "[4|4]:branch-a": 4, "[4|4]:branch-b": 4, "[5|5]:branch-a": 5, "[5|5]:branch-b": 5,
        },
        (("[0|5]", 0), ("[1|2]", 2), ("[3|4]", 3)),
    ),
    Position(
        "[1|3]", (*WITH_05, "[1|3]@[1|1]:branch-b"), 8, 0, 0,
        (*CHAIN_TILES, "[3|4]", "[1|2]", "[1|5]", "[5|5]", "[0|5]", "[1|3]"),
        ("[1|1]", "[4|4]", "[5|5]"), (*JOINTS_05, ("[1|1]:branch-b", "[1|3]:low")),
        {
            "[0|5]:low": 0, "[1|2]:high": 2, "[1|3]:high": 3, "[3|4]:low": 3,
            "[4|4]:branch-a": 4, "[4|4]:branch-b": 4, "[5|5]:branch-a": 5, "[5|5]:branch-b": 5,
        },
        (("[0|5]", 0), ("[1|2]", 2), ("[1|3]", 3), ("[3|4]", 3)),
    ),
    # "Dalla somma delle estremità ai punti" / "Päiden summasta pisteiksi" /
    # "Von der Endsumme zu Punkten"
    Position(
        "[1|4]", ("[1|4]",), 5, 5, 1, ("[1|4]",), (), (),
        {"[1|4]:high": 4, "[1|4]:low": 1},
        (("[1|4]", 4), ("[1|4]", 1)),
    ),
    Position(
        "[1|1]", CHAIN[:2], 6, 0, 0, ("[1|4]", "[1|1]"), ("[1|1]",), CHAIN_JOINTS[:1],
        {"[1|1]:line-b": 1, "[1|4]:high": 4},
        (("[1|1]", 2), ("[1|4]", 4)),
    ),
    Position(
        "[6|6]", ("[3|6]", "[6|6]@[3|6]:high"), 15, 15, 3, ("[3|6]", "[6|6]"), ("[6|6]",),
        (("[3|6]:high", "[6|6]:line-a"),),
        {"[3|6]:low": 3, "[6|6]:line-b": 6},
        (("[3|6]", 3), ("[6|6]", 12)),
    ),
    Position(
        "[0|0]", ("[0|0]",), 0, 0, 0, ("[0|0]",), ("[0|0]",), (),
        {"[0|0]:line-a": 0, "[0|0]:line-b": 0},
        (("[0|0]", 0),),
    ),
]  # fmt: skip

# Positions between the documents' ones, worked out by hand from CNT-2 to CNT-5.
INTERMEDIATE_POSITIONS = [
    Position(
        "[5|5]", WITH_05[:-1], 15, 15, 3,
        (*CHAIN_TILES, "[3|4]", "[1|2]", "[1|5]", "[5|5]"), ("[1|1]", "[4|4]", "[5|5]"),
        (*JOINTS_15, ("[1|5]:high", "[5|5]:line-a")),
        {
            "[1|1]:branch-b": 1, "[1|2]:high": 2, "[3|4]:low": 3, "[4|4]:branch-a": 4,
            "[4|4]:branch-b": 4, "[5|5]:line-b": 5,
        },
        (("[1|2]", 2), ("[3|4]", 3), ("[5|5]", 10)),
    ),
    Position(
        "[3|6]", ("[3|6]",), 9, 0, 0, ("[3|6]",), (), (),
        {"[3|6]:low": 3, "[3|6]:high": 6},
        (("[3|6]", 3), ("[3|6]", 6)),
    ),
]  # fmt: skip


def observe(layout: Layout) -> dict[str, Any]:
    """What the documents show of a layout, in their comparison terms (OQ-12)."""
    return {
        "tiles": tuple(t.text for t in layout.tiles()),
        "spinners": frozenset(t.text for t in layout.spinners()),
        "connections": tuple((a.text, b.text) for a, b in layout.connections()),
        "points": {p.text: v for p, v in layout.points().items()},
        "contributions": Counter((t.text, v) for t, v in layout.counted()),
        "sum": layout.sum,
    }


def expected(position: Position) -> dict[str, Any]:
    return {
        "tiles": position.tiles,
        "spinners": frozenset(position.spinners),
        "connections": position.connections,
        "points": position.points,
        "contributions": Counter(position.contributions),
        "sum": position.sum,
    }


@pytest.mark.parametrize(
    "position",
    DOCUMENT_POSITIONS + INTERMEDIATE_POSITIONS,
    ids=lambda p: f"{p.label}-after-{len(p.placements)}",
)
def test_worked_positions(position: Position) -> None:
    layout = Layout()
    result = None
    for text in position.placements:
        result = layout.place(Placement.parse(text))
    assert result is not None
    assert (result.sum, result.credit, result.displayed) == (
        position.sum,
        position.credit,
        position.displayed,
    )
    assert result.placement.tile.text == position.label
    assert observe(layout) == expected(position)


def test_every_step_of_the_long_chain_scores_as_the_documents_say() -> None:
    # Each prefix of the chain of "Aprire i rami dello spinner" is itself a worked position.
    by_length = {len(p.placements): p for p in DOCUMENT_POSITIONS + INTERMEDIATE_POSITIONS}
    layout = Layout()
    credits = []
    for count, text in enumerate((*WITH_05, "[1|3]@[1|1]:branch-b"), start=1):
        step = layout.place(Placement.parse(text))
        credits.append(step.credit)
        if count in by_length and by_length[count].placements[-1] == text:
            assert observe(layout) == expected(by_length[count])
    assert credits == [5, 0, 10, 5, 5, 10, 15, 5, 0]
    assert layout.sum == 8


# --- the transcription checked against the three documents ----------------------------------


@dataclass(frozen=True)
class Language:
    file: str
    heading: str
    labels: tuple[str, str, str, str, str]  # tiles, spinners, connections, points, contributions
    credit: str
    displayed: str
    slots: dict[str, str]


LANGUAGES = [
    Language(
        "000_96af858cdc3e1333.txt",
        r"Posata: (\[\d\|\d\])",
        (
            "Tessere:",
            "Spinner:",
            "Collegamenti:",
            "Punti di collegamento disponibili:",
            "Contributi conteggiati:",
        ),
        r"(\d+) punti grezzi",
        r"\((\d+) punt[oi] visualizzat[oi]\)",
        {
            "estremità di valore minore": "low",
            "estremità di valore maggiore": "high",
            "lato lineare A": "line-a",
            "lato lineare B": "line-b",
            "ramo A": "branch-a",
            "ramo B": "branch-b",
        },
    ),
    Language(
        "001_b3d5bbf0db206018.txt",
        r"Asetettu (\[\d\|\d\])",
        (
            "Laatat:",
            "Spinnerit:",
            "Liitokset:",
            "Lailliset jatkokohdat:",
            "Pisteytykseen lasketut arvot:",
        ),
        r"(\d+) raakapistettä",
        r"\((\d+) näyttöpiste(?:ttä)?\)",
        {
            "pienempi pää": "low",
            "suurempi pää": "high",
            "linja A": "line-a",
            "linja B": "line-b",
            "haara A": "branch-a",
            "haara B": "branch-b",
        },
    ),
    Language(
        "003_f4c4ac2d6b649ddc.txt",
        r"Angelegt: (\[\d\|\d\])",
        ("Steine:", "Spinner:", "Verbindungen:", "Freie Anlegestellen:", "Gewertete Beiträge:"),
        r"(\d+) Rohpunkte",
        r"\((\d+) Anzeigepunkte?\)",
        {
            "Ende mit kleinerer Augenzahl": "low",
            "Ende mit größerer Augenzahl": "high",
            "Linienseite A": "line-a",
            "Linienseite B": "line-b",
            "Seitenarm A": "branch-a",
            "Seitenarm B": "branch-b",
        },
    ),
]

_TILE = r"\[\d\|\d\]"


def read_positions(language: Language) -> list[tuple[str, dict[str, Any]]]:
    """Every worked position of one document: its heading tile and what it shows."""
    lines = (SEEDS / language.file).read_text(encoding="utf-8").splitlines()
    found = []
    for i, line in enumerate(lines):
        heading = re.fullmatch(language.heading, line.strip())
        if heading is None:
            continue
        full = lines[i + 2]
        tiles_at = full.index(language.labels[0])
        starts = [tiles_at] + [full.index(label, tiles_at) for label in language.labels[1:]]
        starts[4] = full.rindex(language.labels[4])
        cuts = [*starts[1:], len(full)]
        parts = [
            full[s + len(label) : e]
            for s, e, label in zip(starts, cuts, language.labels, strict=True)
        ]
        summary = full[:tiles_at]
        sum_match = re.search(r"= (\d+)\.", summary)
        credit = re.search(language.credit, summary)
        shown = re.search(language.displayed, summary)
        assert sum_match and credit and shown, summary

        def point(tile: str, words: str) -> str:
            return f"{tile}:{language.slots[words.strip()]}"

        pattern = rf"({_TILE}) \(([^)]*)\) \u2013 ({_TILE}) \(([^)]*)\)"  # an en dash
        found.append(
            (
                heading[1],
                {
                    "tiles": tuple(re.findall(_TILE, parts[0])),
                    "spinners": frozenset(re.findall(_TILE, parts[1])),
                    "connections": tuple(
                        (point(a, sa), point(b, sb))
                        for a, sa, b, sb in re.findall(pattern, parts[2])
                    ),
                    "points": {
                        point(t, words): int(value)
                        for t, words, value in re.findall(
                            rf"({_TILE}) \(([^,()]*), (\d+)\)", parts[3]
                        )
                    },
                    "contributions": Counter(
                        (t, int(v)) for t, v in re.findall(rf"({_TILE}): (\d+)", parts[4])
                    ),
                    "sum": int(sum_match[1]),
                    "credit": (int(credit[1]), int(shown[1])),
                },
            )
        )
    return found


@pytest.mark.skipif(not SEEDS.is_dir(), reason="the rule documents are not beside the project")
@pytest.mark.parametrize("language", LANGUAGES, ids=lambda lang: lang.file)
def test_the_transcription_is_what_each_document_says(language: Language) -> None:
    read = read_positions(language)
    assert len(read) == 11
    mine = {(p.label, p.tiles): p for p in DOCUMENT_POSITIONS}
    assert len(mine) == 11
    for label, shown in read:
        position = mine.pop((label, shown["tiles"]))
        assert shown == {**expected(position), "credit": (position.credit, position.displayed)}
    assert not mine


# --- the rule functions ---------------------------------------------------------------------

LINES = {Slot.LINE_A, Slot.LINE_B}


@pytest.mark.parametrize(
    ("tile", "occupied", "open_"),
    [
        ("[1|4]", set(), {Slot.LOW, Slot.HIGH}),  # the opening non-double
        ("[1|4]", {Slot.LOW}, {Slot.HIGH}),  # LAY-2
        ("[1|4]", {Slot.LOW, Slot.HIGH}, set()),
        ("[2|2]", set(), LINES),  # an opening double: both line sides (OQ-3)
        ("[4|4]", {Slot.LINE_A}, {Slot.LINE_B}),  # SPN-2: no branch yet
        ("[4|4]", {Slot.LINE_B}, {Slot.LINE_A}),
        ("[4|4]", LINES, {Slot.BRANCH_A, Slot.BRANCH_B}),  # SPN-3
        ("[1|1]", LINES | {Slot.BRANCH_A}, {Slot.BRANCH_B}),
        ("[1|1]", LINES | {Slot.BRANCH_B}, {Slot.BRANCH_A}),  # either branch first
        ("[1|1]", set(Slot) - {Slot.LOW, Slot.HIGH}, set()),
    ],
)
def test_open_slots(tile: str, occupied: set[Slot], open_: set[Slot]) -> None:
    assert set(open_slots(T(tile), frozenset(occupied))) == open_


@pytest.mark.parametrize(
    ("tile", "occupied", "counted"),
    [
        ("[1|4]", set(), [1, 4]),  # CNT-2: both free ends of the opening
        ("[0|5]", {Slot.HIGH}, [0]),  # CNT-2: zero counts
        ("[3|4]", {Slot.HIGH}, [3]),
        ("[3|4]", {Slot.LOW, Slot.HIGH}, []),
        ("[6|6]", set(), [12]),  # CNT-3: both halves, once
        ("[6|6]", {Slot.LINE_A}, [12]),
        ("[0|0]", set(), [0]),
        ("[4|4]", LINES, []),  # CNT-4
        ("[4|4]", LINES | {Slot.BRANCH_A}, []),  # CNT-5: the branch counts through its tile
        ("[4|4]", set(Slot) - {Slot.LOW, Slot.HIGH}, []),
    ],
)
def test_contributions(tile: str, occupied: set[Slot], counted: list[int]) -> None:
    assert sorted(contributions(T(tile), frozenset(occupied))) == counted


# --- refusals -------------------------------------------------------------------------------


def snapshot(layout: Layout) -> tuple[object, ...]:
    return (
        layout.placements(),
        observe(layout),
        len(layout),
        layout.is_empty,
        [layout.occupied_slots(t) for t in ALL_TILES],
        [layout.legal_placements(t) for t in ALL_TILES],
        [layout.points_of_value(v) for v in range(7)],
    )


@pytest.mark.parametrize(
    ("placements", "rule"),
    [
        (["[1|4]", "[1|1]@[1|4]:low", "[1|4]@[1|1]:line-b"], "LAY-3"),
        (["[1|4]", "[1|1]@[1|4]:low", "[1|1]@[1|4]:low"], "LAY-3"),  # before LAY-4
        (["[1|4]", "[1|4]"], "LAY-3"),  # before LAY-1
        (["[1|2]@[1|1]:line-a"], "LAY-4"),  # a point on an empty table
        (["[1|4]", "[4|5]@[5|5]:line-a"], "LAY-4"),  # [5|5] is not on the table
        (["[1|4]", "[1|1]@[1|4]:low", "[1|2]@[1|4]:low"], "LAY-4"),  # occupied
        (["[1|4]", "[1|1]@[1|4]:low", "[1|2]@[1|1]:line-a"], "LAY-4"),  # the double's joint
        (["[1|4]", "[4|5]@[1|4]:high", "[4|6]@[4|5]:low"], "LAY-4"),  # the joined end
        (["[1|4]", "[1|1]@[1|4]:low", "[5|6]@[1|4]:low"], "LAY-4"),  # before LAY-1
        (["[1|4]", "[1|1]@[1|4]:low", "[1|2]@[1|1]:branch-a"], "SPN-2"),
        (["[1|4]", "[1|1]@[1|4]:low", "[4|5]@[1|1]:branch-b"], "SPN-2"),  # before LAY-1
        (["[2|2]", "[2|3]@[2|2]:line-a", "[2|4]@[2|2]:branch-b"], "SPN-2"),
        (["[1|4]", "[2|3]@[1|4]:low"], "LAY-1"),  # no half matches
        (["[1|4]", "[4|4]@[1|4]:low"], "LAY-1"),
        (["[1|4]", "[2|3]"], "LAY-1"),  # a second opening
    ],
)
def test_refused_placements_leave_the_table_unchanged(placements: list[str], rule: str) -> None:
    layout = Layout.from_placements(placements[:-1])
    before = snapshot(layout)
    refused = Placement.parse(placements[-1])
    with pytest.raises(IllegalMoveError) as info:
        layout.check(refused)
    assert info.value.rule == rule
    with pytest.raises(IllegalMoveError) as info:
        layout.place(refused)
    assert info.value.rule == rule
    assert isinstance(info.value, FiveUpError)
    assert isinstance(info.value, ValueError)
    assert info.value.message in str(info.value)
    assert snapshot(layout) == before


def test_a_branch_takes_one_tile_and_either_branch_may_start_first() -> None:
    layout = Layout.from_placements(["[2|2]", "[2|3]@[2|2]:line-b", "[2|4]@[2|2]:line-a"])
    assert {p.text for p in layout.points_of_value(2)} == {"[2|2]:branch-a", "[2|2]:branch-b"}
    layout.place(Placement.parse("[2|5]@[2|2]:branch-b"))
    assert [p.text for p in layout.points_of_value(2)] == ["[2|2]:branch-a"]
    with pytest.raises(IllegalMoveError, match="occupied") as info:
        layout.place(Placement.parse("[2|6]@[2|2]:branch-b"))
    assert info.value.rule == "LAY-4"
    layout.place(Placement.parse("[2|6]@[2|2]:branch-a"))
    assert layout.points_of_value(2) == []
    # the internal double counts nothing; the four outer ends do
    assert layout.sum == 3 + 4 + 5 + 6
    assert Counter(v for _, v in layout.counted()) == Counter([3, 4, 5, 6])


def test_an_opening_double_with_one_line_side_taken_still_counts_both_halves() -> None:
    layout = Layout.from_placements(["[6|6]", "[3|6]@[6|6]:line-b"])
    assert layout.sum == 12 + 3
    assert layout.points() == {P("[6|6]:line-a"): 6, P("[3|6]:low"): 3}
    step = layout.place(Placement.parse("[1|6]@[6|6]:line-a"))
    assert (step.sum, step.credit, step.displayed) == (4, 0, 0)


def test_legal_placements_match_either_half_of_the_tile() -> None:
    assert [p.text for p in Layout().legal_placements(T("[3|5]"))] == ["[3|5]"]
    layout = Layout.from_placements(["[3|5]"])
    assert [p.text for p in layout.legal_placements(T("[3|3]"))] == ["[3|3]@[3|5]:low"]
    assert [p.text for p in layout.legal_placements(T("[3|5]"))] == []  # on the table
    assert {p.text for p in layout.legal_placements(T("[3|5]"))} == set()
    assert {p.text for p in layout.legal_placements(T("[3|4]"))} == {"[3|4]@[3|5]:low"}
    assert {p.text for p in layout.legal_placements(T("[5|3]"))} == set()
    layout.place(Placement.parse("[3|4]@[3|5]:low"))
    assert {p.text for p in layout.legal_placements(T("[4|5]"))} == {
        "[4|5]@[3|4]:high",
        "[4|5]@[3|5]:high",
    }
    assert layout.can_place(T("[4|6]"))
    assert not layout.can_place(T("[0|1]"))
    assert not layout.can_place(T("[3|4]"))


def test_queries() -> None:
    layout = Layout.from_placements(WITH_15)
    assert T("[1|5]") in layout
    assert T("[0|0]") not in layout
    assert "[1|5]" not in layout
    assert len(layout) == 6
    assert not layout.is_empty
    assert Layout().is_empty
    assert layout.occupied_slots(T("[1|1]")) == {Slot.LINE_A, Slot.LINE_B, Slot.BRANCH_A}
    assert layout.occupied_slots(T("[0|0]")) == frozenset()
    assert [p.text for p in layout.points_of_value(4)] == ["[4|4]:branch-a", "[4|4]:branch-b"]
    rebuilt = eval(repr(layout), {"Layout": Layout})
    assert rebuilt.placements() == layout.placements()
    result = Layout().place(Placement.parse("[1|4]"))
    assert str(result) == "[1|4] sum 5 credit 5"


def test_a_copy_is_independent() -> None:
    layout = Layout.from_placements(WITH_12)
    before = snapshot(layout)
    twin = layout.copy()
    twin.place(Placement.parse("[1|5]@[1|1]:branch-a"))
    assert snapshot(layout) == before
    assert snapshot(twin) == snapshot(Layout.from_placements(WITH_15))


def test_interned_placements_are_recognised_by_value_too() -> None:
    table = interned_placements()
    # 70 points; each joins the 6 other tiles showing its value; plus 28 openings
    assert len(table) == 70 * 6 + 28
    for key, placement in table.items():
        assert placement_key(placement) == key
        assert placement_key(Placement.parse(placement.text)) == key
        assert placement_of(key) is placement
    odd = Placement.parse("[2|3]@[1|4]:low")  # never legal: not interned, still keyed
    assert placement_of(placement_key(odd)) == odd


# --- random legal layouts against a recomputation from the rule functions --------------------


def grow(choices: list[int]) -> Layout:
    """A layout built by legal placements, each picked by the next choice."""
    layout = Layout()
    for choice in choices:
        options = [p for t in ALL_TILES for p in layout.legal_placements(t)]
        if not options:
            break
        layout.place(options[choice % len(options)])
    return layout


def recomputed(layout: Layout) -> tuple[dict[Point, int], Counter[tuple[Tile, int]]]:
    """Points and counted ends derived from the placements alone, with the rule functions."""
    occupied: dict[Tile, set[Slot]] = {t: set() for t in layout.tiles()}
    for placement in layout.placements():
        if placement.target is not None and placement.joining_slot is not None:
            occupied[placement.target.tile].add(placement.target.slot)
            occupied[placement.tile].add(placement.joining_slot)
    points = {
        Point(tile, slot): Point(tile, slot).value
        for tile, slots in occupied.items()
        for slot in open_slots(tile, frozenset(slots))
    }
    counted = Counter(
        (tile, value)
        for tile, slots in occupied.items()
        for value in contributions(tile, frozenset(slots))
    )
    return points, counted


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=10_000), max_size=28))
def test_the_incremental_indexes_equal_a_recomputation(choices: list[int]) -> None:
    layout = grow(choices)
    points, counted = recomputed(layout)
    assert layout.points() == points
    assert Counter(layout.counted()) == counted
    assert layout.sum == sum(v for _, v in counted.elements())
    assert len(layout.spinners()) == sum(t.is_double for t in layout.tiles())
    for value in range(7):
        assert set(layout.points_of_value(value)) == {p for p in points if p.value == value}
    for tile in ALL_TILES:
        legal = layout.legal_placements(tile)
        assert layout.can_place(tile) == bool(legal)
        for placement in legal:
            layout.copy().place(placement)  # accepted
        if tile not in layout and not layout.is_empty:
            for point in points:
                candidate = Placement(tile, point)
                if candidate not in legal:
                    with pytest.raises(IllegalMoveError):
                        layout.copy().place(candidate)


def test_occupied_key_is_the_table_whatever_the_order_it_was_built_in() -> None:
    one = Layout.from_placements(["[1|4]", "[1|1]@[1|4]:low", "[4|4]@[1|4]:high"])
    other = Layout.from_placements(["[1|4]", "[4|4]@[1|4]:high", "[1|1]@[1|4]:low"])
    assert one.occupied_key() == other.occupied_key() == one.copy().occupied_key()
    other.place(Placement.parse("[3|4]@[4|4]:line-b"))
    assert other.occupied_key() != one.occupied_key()
    assert Layout().occupied_key() == (-1,) * len(Layout().occupied_key())
