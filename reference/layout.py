"""The table: tiles placed so far, their connection points and their counted ends.

Two small pure functions of :mod:`fiveup.reference.rules` carry the rules and can be read
against the spec line by line:

* :func:`open_slots` says which slots of a tile on the table are available connection points
  (LAY-2 for a non-double; SPN-1 to SPN-3 for a double, the spinner rule);
* :func:`contributions` says what a tile on the table adds to the sum of the counted ends
  (CNT-2 to CNT-5).

:class:`Layout` keeps the sum of the counted ends and the available points indexed by value up to
date on every placement, so that queries during play cost no recomputation. It works on the
notation's integer codes (``Tile.code``, ``Point.code``, ``Placement.key``) and builds its
tables from the rule functions of its :class:`~fiveup.reference.rules.Rules` (once per set of
rules), so the rules live in one place only.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Set
from dataclasses import dataclass
from functools import cache
from types import MappingProxyType
from typing import NoReturn

from fiveup.contract.notation import (
    ALL_TILES,
    KEY_STRIDE,
    N_TILE_CODES,
    SLOT_COUNT,
    Placement,
    Point,
    Slot,
    Tile,
)
from fiveup.errors import IllegalMoveError

from .rules import STANDARD, Rules, contributions, every_double_spins, open_slots

__all__ = [
    "KEY_STRIDE",
    "Join",
    "Layout",
    "LayoutTables",
    "PlacementResult",
    "contributions",
    "interned_placements",
    "new_layout",
    "open_slots",
    "placement_key",
    "placement_of",
    "point_code",
    "split_key",
    "tables_for",
    "tile_code",
]


@dataclass(frozen=True, slots=True)
class PlacementResult:
    """An accepted placement and what it scored: the sum of the counted ends and the credit."""

    placement: Placement
    sum: int
    """The sum of the counted ends after the placement (SCR-1)."""
    credit: int
    """The raw credit (SCR-2): the sum when it is a positive multiple of 5, else 0."""
    displayed: int
    """The credit in displayed points (PTS-1)."""

    @property
    def text(self) -> str:
        """Text form: ``[1|2]@[1|1]:line-b sum 5 credit 5``."""
        return f"{self.placement.text} sum {self.sum} credit {self.credit}"

    def __str__(self) -> str:
        return self.text


# --- integer codes and the tables built from the rule functions -------------------------------

_SLOTS: tuple[Slot, ...] = tuple(Slot)  # the order of Point.code
_SLOT_INDEX = {slot: index for index, slot in enumerate(_SLOTS)}
_N_SLOTS = SLOT_COUNT
_N_MASKS = 1 << _N_SLOTS
_NO_TARGET = -1


def tile_code(tile: Tile) -> int:
    """The integer code of a tile: ``7 * low + high`` (:attr:`Tile.code`)."""
    return tile.code


def point_code(point: Point) -> int:
    """The integer code of a connection point (:attr:`Point.code`): ``6 * tile code + slot``."""
    return point.code


def _slots_of(mask: int) -> frozenset[Slot]:
    return frozenset(slot for index, slot in enumerate(_SLOTS) if mask >> index & 1)


def _masks_of(tile: Tile) -> list[int]:
    """Every set of the tile's own slots, as a mask."""
    bits = [_SLOT_INDEX[slot] for slot in tile.slots()]
    return [
        sum(1 << bits[i] for i in range(len(bits)) if choice >> i & 1)
        for choice in range(1 << len(bits))
    ]


TILE_OF: list[Tile | None] = [None] * N_TILE_CODES
"""Tile by code (None for codes that name no tile)."""
POINT_OF: list[Point | None] = [None] * (N_TILE_CODES * _N_SLOTS)
"""Connection point by code."""
POINT_VALUE: list[int] = [0] * (N_TILE_CODES * _N_SLOTS)
"""The value a tile must show to join the point with this code."""
LOW_OF: list[int] = [0] * N_TILE_CODES
"""The lower half of the tile with this code."""
HIGH_OF: list[int] = [0] * N_TILE_CODES
"""The higher half of the tile with this code."""
_PLACEMENTS: dict[int, Placement] = {}
# Per key of a placement whose tile shows the point's value: the tile code, the point code, the
# target's tile code and slot index, the value joined, and the new tile's occupied-slot mask.
_JOINS: dict[int, tuple[int, int, int, int, int, int]] = {}
_BRANCH_BITS = (1 << _SLOT_INDEX[Slot.BRANCH_A]) | (1 << _SLOT_INDEX[Slot.BRANCH_B])


def _fill_codes() -> None:
    for tile in ALL_TILES:
        tc = tile_code(tile)
        TILE_OF[tc] = tile
        LOW_OF[tc], HIGH_OF[tc] = tile.low, tile.high
        for slot in tile.slots():
            point = Point(tile, slot)
            POINT_OF[point_code(point)] = point
            POINT_VALUE[point_code(point)] = point.value


_fill_codes()


# One ``(value, code)`` pair per point, shared by every table that lists the point.
_VALUED: list[tuple[int, int]] = [(value, code) for code, value in enumerate(POINT_VALUE)]

_Step = tuple[int, int, tuple[tuple[int, int], ...], int]
"""What a placement does to a target with one occupied mask: the change of the sum, the
target's new mask, the points that open as ``(value, code)`` pairs, and their values' bits."""
Join = tuple[int, int, int, int, int, int, tuple[_Step, ...], int]
"""One placement key's record in :attr:`LayoutTables.joins`."""


@dataclass(frozen=True, slots=True)
class LayoutTables:
    """The lookup tables of one set of layout rules, by row ``tile code * 64 + occupied mask``.

    ``open`` holds the codes of the open points, ``open_valued`` the same with their values,
    ``gained`` (by ``row * 6 + slot``) the points a tile gains when that slot is occupied,
    ``counted`` the counted ends and ``counted_sum`` their sum. ``joins`` holds, by placement
    key, what :meth:`Layout.place_key` needs to place it in one step (None for a key that no
    table can accept): the tile code, the point code (-1 for the opening), the target's tile
    code, the value joined and its bit (``1 << value``), the new tile's occupied mask, and per
    occupied mask of the target (the opening: one entry) the change of the sum, the target's
    new mask, the points that open (those the target gains, then the new tile's) as
    ``(value, code)`` pairs and the bits of their values; last, the key itself (a playout that
    chose a record logs its key without computing it). ``point_joins`` holds the same records
    by point code, then by the other half of the tile that joins the point (its half beside the
    point's value), whoever holds it; ``openings`` the opening's by tile code.
    """

    open: list[tuple[int, ...]]
    open_valued: list[tuple[tuple[int, int], ...]]
    gained: list[tuple[tuple[int, int], ...]]
    counted: list[tuple[int, ...]]
    counted_sum: list[int]
    joins: list[Join | None]
    point_joins: list[tuple[Join | None, ...]]
    openings: list[Join | None]


@cache
def _tables(
    open_slots_rule: Callable[[Tile, Set[Slot]], tuple[Slot, ...]],
    contributions_rule: Callable[[Tile, Set[Slot]], tuple[int, ...]],
) -> LayoutTables:
    rows = N_TILE_CODES * _N_MASKS
    tables = LayoutTables(
        [()] * rows,
        [()] * rows,
        [()] * (rows * _N_SLOTS),
        [()] * rows,
        [0] * rows,
        [None] * (N_TILE_CODES * KEY_STRIDE),
        [],
        [],
    )
    for tile in ALL_TILES:
        tc = tile_code(tile)
        for mask in _masks_of(tile):
            occupied = _slots_of(mask)
            row = tc * _N_MASKS + mask
            opened = tuple(point_code(Point(tile, s)) for s in open_slots_rule(tile, occupied))
            tables.open[row] = opened
            tables.open_valued[row] = tuple(_VALUED[p] for p in opened)
            tables.counted[row] = tuple(contributions_rule(tile, occupied))
            tables.counted_sum[row] = sum(tables.counted[row])
    for tile in ALL_TILES:
        tc = tile_code(tile)
        for mask in _masks_of(tile):
            row = tc * _N_MASKS + mask
            for slot in tile.slots():
                bit = 1 << _SLOT_INDEX[slot]
                if not mask & bit:
                    now_open = tables.open[tc * _N_MASKS + (mask | bit)]
                    tables.gained[row * _N_SLOTS + _SLOT_INDEX[slot]] = tuple(
                        _VALUED[p] for p in now_open if p not in tables.open[row]
                    )
    _fill_joins(tables)
    joins = tables.joins
    for pc, value in enumerate(POINT_VALUE):  # the tile [value|other] by the other half
        by_other = (7 * min(value, other) + max(value, other) for other in range(7))
        tables.point_joins.append(tuple(joins[_key(tc, pc)] for tc in by_other))
    tables.openings.extend(joins[_key(tc, _NO_TARGET)] for tc in range(N_TILE_CODES))
    return tables


def _value_bits(points: tuple[tuple[int, int], ...]) -> int:
    return sum({1 << value for value, _ in points})


def _fill_joins(tables: LayoutTables) -> None:
    """Fill ``tables.joins`` from the other tables (see :class:`LayoutTables`)."""
    points_once: dict[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]] = {}
    unused: _Step = (0, 0, (), 0)  # a mask the target cannot have, or its slot occupied
    masks_of = {tile_code(tile): _masks_of(tile) for tile in ALL_TILES}
    for key, (tc, pc, target_tc, slot, value, mask) in _JOINS.items():
        own = tc * _N_MASKS + mask
        counted, opened = tables.counted_sum[own], tables.open_valued[own]
        if pc == _NO_TARGET:
            first = (counted, 0, opened, _value_bits(opened))
            tables.joins[key] = (tc, pc, -1, -1, 0, mask, (first,), key)
            continue
        masks = masks_of[target_tc]
        by_mask = [unused] * (max(masks) + 1)
        bit = 1 << slot
        for target_mask in masks:
            if target_mask & bit:
                continue
            row = target_tc * _N_MASKS + target_mask
            change = tables.counted_sum[row | bit] - tables.counted_sum[row]
            points = tables.gained[row * _N_SLOTS + slot] + opened
            points = points_once.setdefault(points, points)  # equal tuples kept once
            by_mask[target_mask] = (
                change + counted,
                target_mask | bit,
                points,
                _value_bits(points),
            )
        # a tuple holds its items inline: one object fewer to fetch per play than a list
        tables.joins[key] = (tc, pc, target_tc, value, 1 << value, mask, tuple(by_mask), key)


_TABLES_OF: dict[int, tuple[Rules, LayoutTables]] = {}


def tables_for(rules: Rules) -> LayoutTables:
    """The tables of ``rules``' open slots and counted ends (built once per pair of functions)."""
    found = _TABLES_OF.get(id(rules))  # by identity: a deal must not hash the whole Rules
    if found is not None and found[0] is rules:
        return found[1]
    tables = _tables(rules.open_slots, rules.contributions)
    _TABLES_OF[id(rules)] = (rules, tables)
    if rules is STANDARD:
        _STANDARD_TABLES.append(tables)
    return tables


def _key(tc: int, pc: int) -> int:
    return tc * KEY_STRIDE + pc + 1


def _intern(placement: Placement, tc: int, pc: int) -> None:
    key = _key(tc, pc)
    _PLACEMENTS[key] = placement
    slot = placement.joining_slot
    mask = 0 if slot is None else 1 << _SLOT_INDEX[slot]
    if pc == _NO_TARGET:
        _JOINS[key] = (tc, pc, -1, 0, -1, mask)
    else:
        _JOINS[key] = (tc, pc, pc // _N_SLOTS, pc % _N_SLOTS, POINT_VALUE[pc], mask)


def _intern_placements() -> None:
    """Create the one shared instance of every placement that can ever be legal."""
    for tile in ALL_TILES:
        tc = tile_code(tile)
        _intern(Placement(tile), tc, _NO_TARGET)
        for pc, point in enumerate(POINT_OF):
            if point is not None and point.tile != tile and tile.has(point.value):
                _intern(Placement(tile, point), tc, pc)


_intern_placements()


def interned_placements() -> Mapping[int, Placement]:
    """Every placement that can ever be legal, by key: the shared instances the engine uses."""
    return MappingProxyType(_PLACEMENTS)


def placement_key(placement: Placement) -> int:
    """The integer key of a placement (``tile code * 295 + point code + 1``, 0 for no target).

    :attr:`Placement.key`.
    """
    return placement.key


def placement_of(key: int) -> Placement:
    """The interned placement with this key; keys name only placements that can exist."""
    found = _PLACEMENTS.get(key)
    if found is not None:
        return found
    tc, rest = divmod(key, KEY_STRIDE)
    tile = TILE_OF[tc]
    point = None if rest == 0 else POINT_OF[rest - 1]
    assert tile is not None
    return Placement(tile, point)


def split_key(key: int) -> tuple[int, int]:
    """The tile code and the point code (-1 for the opening) of a placement key."""
    tc, rest = divmod(key, KEY_STRIDE)
    return tc, rest - 1


class Layout:
    """The layout on the table; mutable, changed only by :meth:`place`.

    ``place`` either accepts a placement and updates everything, or raises
    :class:`~fiveup.errors.IllegalMoveError` and changes nothing. ``rules`` (default: the
    spec's) decides which points open, what counts, which doubles spin and the refusal order.

    Three live indexes are public for the round's hot paths, to read and never to change:
    ``points_by_value[v]`` holds the codes of the available points of value ``v`` in the order
    they opened, ``open_values`` has bit ``v`` set while ``points_by_value[v]`` is not empty
    (a tile's halves are tested in one step), and ``placed`` the placement keys in placement
    order.
    """

    __slots__ = (
        "_flat",  # only a _VariantLayout sets it
        "_joins",
        "_occupied",
        "_rules",
        "_sum",
        "_tables",
        "open_values",
        "placed",
        "points_by_value",
    )

    def __new__(cls, rules: Rules = STANDARD) -> Layout:
        """A layout of the class that plays ``rules``: a variant's SPN-1 needs its own."""
        if cls is Layout and rules.spins is not every_double_spins:
            cls = _VariantLayout
        return object.__new__(cls)

    def __init__(self, rules: Rules = STANDARD) -> None:
        """An empty table played by ``rules``."""
        _start(self, rules)

    # Per tile code: -1 while the tile is off the table, else the mask of occupied slots.
    _occupied: list[int]
    open_values: int
    _sum: int
    _rules: Rules
    _tables: LayoutTables
    _joins: list[Join | None]
    _flat: list[int]
    placed: list[int]
    points_by_value: list[list[int]]

    @classmethod
    def from_placements(
        cls, placements: Iterable[Placement | str], rules: Rules = STANDARD
    ) -> Layout:
        """A table built by placing ``placements`` in order (texts are parsed)."""
        layout = cls(rules)
        for placement in placements:
            layout.place(Placement.parse(placement) if isinstance(placement, str) else placement)
        return layout

    def occupied_key(self) -> tuple[int, ...]:
        """Per tile code, -1 off the table, else the mask of its occupied slots.

        Two tables by the same rules with the same key have the same points, now and after the
        same placements.
        """
        return tuple(self._occupied)

    def copy(self) -> Layout:
        """An independent copy (a few list copies; the tables are shared)."""
        other = object.__new__(type(self))
        other._occupied = self._occupied.copy()
        other.points_by_value = list(map(list.copy, self.points_by_value))
        other.placed = self.placed.copy()
        other._sum = self._sum
        other.open_values = self.open_values
        other._rules = self._rules
        other._tables = self._tables
        other._joins = self._joins
        if isinstance(self, _VariantLayout):
            other._flat = self._flat.copy()
        return other

    @property
    def rules(self) -> Rules:
        """The rules this table is played by."""
        return self._rules

    # --- placing --------------------------------------------------------------------------

    def place(self, placement: Placement) -> PlacementResult:
        """Put ``placement`` on the table and score it (SCR-1, SCR-2).

        Raises IllegalMoveError, leaving the table unchanged, with the first rule broken in the
        order of ``rules.placement_refusals``: LAY-3 (the tile is already on the table); LAY-4
        (a target on an empty table, a target tile not on the table, an occupied point) or SPN-2
        (a branch of a spinner whose line sides are not both occupied); LAY-1 (no target once
        the table has tiles, or a tile that does not show the point's value).
        """
        total = self.place_key(placement_key(placement))
        rules = self._rules
        credit = rules.credit(total)
        return PlacementResult(placement, total, credit, rules.displayed(credit))

    def check(self, placement: Placement) -> None:
        """Raise the IllegalMoveError that :meth:`place` would raise, without placing."""
        refused = self._rules.placement_refusal(self, placement)
        if refused is not None:
            raise IllegalMoveError(*refused)
        tc, pc = split_key(placement_key(placement))
        if not self._legal(tc, pc):
            raise IllegalMoveError(
                "LAY-4",
                f"{placement.text} is not a connection the rules open (no refusal names it)",
            )

    def _legal(self, tc: int, pc: int) -> bool:
        occupied = self._occupied
        if occupied[tc] >= 0:
            return False
        if pc == _NO_TARGET:
            return not self.placed
        target_tc = pc // _N_SLOTS
        mask = occupied[target_tc]
        if mask < 0 or pc not in self._tables.open[target_tc * _N_MASKS + mask]:
            return False
        value = POINT_VALUE[pc]
        return LOW_OF[tc] == value or HIGH_OF[tc] == value

    def _refuse(self, key: int) -> NoReturn:
        self.check(placement_of(key))
        raise AssertionError(f"placement {placement_of(key)} passed the checks it failed")

    def place_key(self, key: int) -> int:
        """Place the placement with this key (see :func:`placement_key`); return the new sum.

        The happy path tests legality in a few lookups (the point joined is one of the points
        available, of the value the tile shows); the refusal order finds the rule broken.
        """
        join = self._joins[key]
        if join is None:  # the tile shows no half of the point's value, or is the point's tile
            self._refuse(key)
        tc, pc, target_tc, value, bit, mask, steps, _ = join
        occupied = self._occupied
        if occupied[tc] >= 0:
            self._refuse(key)
        avail = self.points_by_value
        if pc < 0:
            if self.placed:
                self._refuse(key)
            total, _, points, bits = steps[0]
        else:
            joined = avail[value]
            try:
                joined.remove(pc)
            except ValueError:  # not an available point: absent, occupied or closed
                self._refuse(key)
            change, occupied[target_tc], points, bits = steps[occupied[target_tc]]
            total = self._sum + change
            bits |= self.open_values if joined else self.open_values ^ bit
        occupied[tc] = mask
        for point_value, point_code in points:
            avail[point_value].append(point_code)
        self.open_values = bits
        self._sum = total
        self.placed.append(key)
        return total

    def counted_values(self) -> list[tuple[int, ...]]:
        """What each placed tile adds to the counted ends, in placement order (as ``placed``)."""
        counted, occupied = self._tables.counted, self._occupied
        return [
            counted[(key // KEY_STRIDE) * _N_MASKS + occupied[key // KEY_STRIDE]]
            for key in self.placed
        ]

    # --- queries ---------------------------------------------------------------------------

    @property
    def sum(self) -> int:
        """The sum of the counted ends (SCR-1); kept up to date on every placement."""
        return self._sum

    @property
    def is_empty(self) -> bool:
        """True before the opening."""
        return not self.placed

    def __len__(self) -> int:
        return len(self.placed)

    def __contains__(self, tile: object) -> bool:
        return isinstance(tile, Tile) and self._occupied[tile_code(tile)] >= 0

    def placements(self) -> list[Placement]:
        """Every placement on the table, in placement order."""
        return [placement_of(key) for key in self.placed]

    def tiles(self) -> list[Tile]:
        """The tiles on the table, in placement order."""
        return [placement_of(key).tile for key in self.placed]

    def spinners(self) -> list[Tile]:
        """The doubles on the table, in placement order: every double is a spinner (SPN-1)."""
        return [tile for tile in self.tiles() if tile.is_double]

    def connections(self) -> list[tuple[Point, Point]]:
        """Every joint in placement order: the table's point, then the new tile's half."""
        joints: list[tuple[Point, Point]] = []
        for placement in self.placements():
            slot = placement.joining_slot
            if placement.target is not None and slot is not None:
                joints.append((placement.target, Point(placement.tile, slot)))
        return joints

    def occupied_slots(self, tile: Tile) -> frozenset[Slot]:
        """The occupied slots of ``tile`` (including the one it joined by); empty if off table.

        The branches of a double that a variant's SPN-1 does not let spin count as occupied.
        """
        mask = self._occupied[tile_code(tile)]
        return frozenset() if mask < 0 else _slots_of(mask)

    def open_slots_of(self, tile: Tile) -> tuple[Slot, ...]:
        """The slots of ``tile`` that are available connection points now (none if off table)."""
        tc = tile_code(tile)
        mask = self._occupied[tc]
        if mask < 0:
            return ()
        return tuple(_point(code).slot for code in self._tables.open[tc * _N_MASKS + mask])

    def points(self) -> dict[Point, int]:
        """Every available connection point with its value, in tile then slot order."""
        codes = sorted(code for points in self.points_by_value for code in points)
        return {_point(code): POINT_VALUE[code] for code in codes}

    def points_of_value(self, value: int) -> list[Point]:
        """The available connection points of ``value``, in the order they opened."""
        return [_point(code) for code in self.points_by_value[value]]

    def has_point_for(self, tile: Tile) -> bool:
        """True when an available point shows a half of ``tile`` (ignoring where it lies)."""
        avail = self.points_by_value
        return bool(avail[tile.low] or avail[tile.high])

    def counted(self) -> list[tuple[Tile, int]]:
        """The counted ends as (tile, value) pairs, in placement order (CNT-1 to CNT-5).

        The opening non-double gives two pairs, one per free end.
        """
        pairs: list[tuple[Tile, int]] = []
        for key, values in zip(self.placed, self.counted_values(), strict=True):
            tile = TILE_OF[key // KEY_STRIDE]
            assert tile is not None
            pairs.extend((tile, value) for value in values)
        return pairs

    def legal_placements(self, tile: Tile) -> list[Placement]:
        """Every placement of ``tile`` the rules allow now (none when it is on the table)."""
        tc = tile_code(tile)
        return [placement_of(_key(tc, pc)) for pc in self.legal_point_codes(tc)]

    def legal_point_codes(self, tc: int) -> list[int]:
        """The codes of the points where the tile with code ``tc`` may join (-1: the opening)."""
        if self._occupied[tc] >= 0:
            return []
        if not self.placed:
            return [_NO_TARGET]
        low, high = LOW_OF[tc], HIGH_OF[tc]
        if low == high:
            return self.points_by_value[low].copy()
        return self.points_by_value[low] + self.points_by_value[high]

    def can_place(self, tile: Tile) -> bool:
        """True when ``tile`` has at least one legal placement now."""
        tc = tile_code(tile)
        if self._occupied[tc] >= 0:
            return False
        avail = self.points_by_value
        return not self.placed or bool(avail[LOW_OF[tc]] or avail[HIGH_OF[tc]])

    def __repr__(self) -> str:
        texts = ", ".join(repr(p.text) for p in self.placements())
        return f"Layout.from_placements([{texts}])"


class _VariantLayout(Layout):
    """A layout whose SPN-1 is a variant's: some doubles are placed as ordinary tiles."""

    __slots__ = ()

    def place_key(self, key: int) -> int:
        """Place, then ask the rules whether a double just placed spins; if not, close it."""
        total = super().place_key(key)
        tc = key // KEY_STRIDE
        if LOW_OF[tc] != HIGH_OF[tc] or self._rules.spins(self, placement_of(key)):
            return total
        old = self._occupied[tc]
        new = old | _BRANCH_BITS
        tables = self._tables
        still_open = tables.open[tc * _N_MASKS + new]
        for code in tables.open[tc * _N_MASKS + old]:
            if code not in still_open:
                points = self.points_by_value[POINT_VALUE[code]]
                points.remove(code)
                if not points:
                    self.open_values &= ~(1 << POINT_VALUE[code])
        self._occupied[tc] = new
        total += tables.counted_sum[tc * _N_MASKS + new] - tables.counted_sum[tc * _N_MASKS + old]
        self._sum = total
        self._flat.append(tc)
        return total

    def spinners(self) -> list[Tile]:
        """The doubles on the table that the rules let spin, in placement order."""
        return [t for t in self.tiles() if t.is_double and tile_code(t) not in self._flat]


def _start(layout: Layout, rules: Rules) -> None:
    """Set up ``layout`` as an empty table played by ``rules``."""
    layout._occupied = [-1] * N_TILE_CODES
    layout.points_by_value = [[], [], [], [], [], [], []]
    layout.placed = []
    layout._sum = 0
    layout.open_values = 0
    layout._rules = rules
    if rules is STANDARD and _STANDARD_TABLES:
        tables = _STANDARD_TABLES[0]
    else:
        found = _TABLES_OF.get(id(rules))
        tables = found[1] if found is not None and found[0] is rules else tables_for(rules)
    layout._tables = tables
    layout._joins = tables.joins
    if type(layout) is not Layout:
        layout._flat = []


_STANDARD_TABLES: list[LayoutTables] = []
"""The tables of the spec's rules, once a table has been built by them."""


def new_layout(rules: Rules = STANDARD) -> Layout:
    """An empty table played by ``rules``: ``Layout(rules)`` without the constructor's calls.

    A round deals a new table every time; this is the same table, of the same class.
    """
    if rules is STANDARD and _STANDARD_TABLES:  # every round of the spec's: _start inline
        layout = object.__new__(Layout)
        layout._occupied = [-1] * N_TILE_CODES
        layout.points_by_value = [[], [], [], [], [], [], []]
        layout.placed = []
        layout._sum = 0
        layout.open_values = 0
        layout._rules = rules
        tables = _STANDARD_TABLES[0]
        layout._tables = tables
        layout._joins = tables.joins
        return layout
    layout = object.__new__(Layout if rules.spins is every_double_spins else _VariantLayout)
    _start(layout, rules)
    return layout


def _point(code: int) -> Point:
    point = POINT_OF[code]
    assert point is not None
    return point
