"""The table: tiles placed so far, their connection points and their counted ends.

Two small pure functions carry the rules and can be read against the spec line by line:

* :func:`open_slots` says which slots of a tile on the table are available connection points
  (LAY-2 for a non-double; SPN-1 to SPN-3 for a double, the spinner rule);
* :func:`contributions` says what a tile on the table adds to the sum of the counted ends
  (CNT-2 to CNT-5).

:class:`Layout` keeps the sum of the counted ends and the available points indexed by value up to
date on every placement, so that queries during play cost no recomputation. It works on small
integer codes internally (a tile is ``7 * low + high``, a point ``6 * tile + slot``) and builds its
tables from the two rule functions at import, so the rules live in one place only.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Set
from dataclasses import dataclass
from types import MappingProxyType
from typing import NoReturn

from fiveup.contract.notation import (
    ALL_TILES,
    DOUBLE_SLOTS,
    END_SLOTS,
    Placement,
    Point,
    Slot,
    Tile,
)
from fiveup.errors import IllegalMoveError

from .scoring import displayed, placement_credit

__all__ = [
    "KEY_STRIDE",
    "Layout",
    "PlacementResult",
    "contributions",
    "interned_placements",
    "open_slots",
    "placement_key",
    "placement_of",
    "point_code",
    "split_key",
    "tile_code",
]


def open_slots(tile: Tile, occupied: Set[Slot]) -> tuple[Slot, ...]:
    """The available connection points of ``tile`` on the table, given its ``occupied`` slots.

    A slot is occupied when a tile is joined there, including the slot by which the tile itself
    joined the layout (a joined double always joins by its line side A).

    * LAY-2: each free end of a non-double is a connection point.
    * SPN-1: every double is a spinner, with two line sides and two branches.
    * SPN-2: a free line side is always open; a branch is closed until both line sides are
      occupied.
    * SPN-3: once both line sides are occupied, each free branch is open.
    """
    if not tile.is_double:
        return tuple(slot for slot in END_SLOTS if slot not in occupied)
    lines_full = Slot.LINE_A in occupied and Slot.LINE_B in occupied
    return tuple(
        slot for slot in DOUBLE_SLOTS if slot not in occupied and (slot.is_line or lines_full)
    )


def contributions(tile: Tile, occupied: Set[Slot]) -> tuple[int, ...]:
    """What ``tile`` on the table adds to the counted ends, given its ``occupied`` slots.

    * CNT-2: each free end of a non-double counts its value, zero included (the opening
      non-double has two free ends and counts both).
    * CNT-3: a double with fewer than two line sides occupied counts both halves, once.
    * CNT-4: a double with both line sides occupied does not count.
    * CNT-5: branches never count as such; a started branch counts through the free end of the
      tile placed on it, an unstarted one counts nothing.
    """
    if not tile.is_double:
        return tuple(Point(tile, slot).value for slot in END_SLOTS if slot not in occupied)
    lines_occupied = (Slot.LINE_A in occupied) + (Slot.LINE_B in occupied)
    if lines_occupied < 2:
        return (2 * tile.low,)
    return ()


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

_SLOTS: tuple[Slot, ...] = (*END_SLOTS, *DOUBLE_SLOTS)
_SLOT_INDEX = {slot: index for index, slot in enumerate(_SLOTS)}
_N_SLOTS = len(_SLOTS)
N_TILE_CODES = 49
"""Tile codes run from 0 to 48 (``7 * low + high``); 28 of them name tiles."""
_N_MASKS = 1 << _N_SLOTS
_NO_TARGET = -1
KEY_STRIDE = N_TILE_CODES * _N_SLOTS + 1
"""A placement key is ``tile code * KEY_STRIDE + point code + 1`` (``+ 0`` for the opening)."""


def tile_code(tile: Tile) -> int:
    """The integer code of a tile: ``7 * low + high``."""
    return 7 * tile.low + tile.high


def point_code(point: Point) -> int:
    """The integer code of a connection point: ``6 * tile code + slot index``."""
    return (7 * point.tile.low + point.tile.high) * _N_SLOTS + _SLOT_INDEX[point.slot]


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
_OPEN: list[tuple[int, ...]] = [()] * (N_TILE_CODES * _N_MASKS)
_OPEN_VALUED: list[tuple[tuple[int, int], ...]] = [()] * (N_TILE_CODES * _N_MASKS)
_GAINED: list[tuple[tuple[int, int], ...]] = [()] * (N_TILE_CODES * _N_MASKS * _N_SLOTS)
_CONTRIB: list[tuple[int, ...]] = [()] * (N_TILE_CODES * _N_MASKS)
_CONTRIB_SUM: list[int] = [0] * (N_TILE_CODES * _N_MASKS)
_PLACEMENTS: dict[int, Placement] = {}
_KEY_BY_ID: dict[int, int] = {}
# Per key of a placement whose tile shows the point's value: the tile code, the point code, the
# target's tile code and slot index, the value joined, and the new tile's occupied-slot mask.
_JOINS: dict[int, tuple[int, int, int, int, int, int]] = {}


def _build_rule_tables() -> None:
    """Fill the tables above from :func:`open_slots` and :func:`contributions`."""
    for tile in ALL_TILES:
        tc = tile_code(tile)
        TILE_OF[tc] = tile
        LOW_OF[tc], HIGH_OF[tc] = tile.low, tile.high
        for slot in tile.slots():
            point = Point(tile, slot)
            POINT_OF[point_code(point)] = point
            POINT_VALUE[point_code(point)] = point.value
        for mask in _masks_of(tile):
            occupied = _slots_of(mask)
            row = tc * _N_MASKS + mask
            _OPEN[row] = tuple(point_code(Point(tile, s)) for s in open_slots(tile, occupied))
            _OPEN_VALUED[row] = tuple((POINT_VALUE[p], p) for p in _OPEN[row])
            _CONTRIB[row] = contributions(tile, occupied)
            _CONTRIB_SUM[row] = sum(_CONTRIB[row])
    for tile in ALL_TILES:
        tc = tile_code(tile)
        for mask in _masks_of(tile):
            row = tc * _N_MASKS + mask
            for slot in tile.slots():
                bit = 1 << _SLOT_INDEX[slot]
                if not mask & bit:
                    now_open = _OPEN[tc * _N_MASKS + (mask | bit)]
                    _GAINED[row * _N_SLOTS + _SLOT_INDEX[slot]] = tuple(
                        (POINT_VALUE[p], p) for p in now_open if p not in _OPEN[row]
                    )


_build_rule_tables()


def _key(tc: int, pc: int) -> int:
    return tc * KEY_STRIDE + pc + 1


def _intern(placement: Placement, tc: int, pc: int) -> None:
    key = _key(tc, pc)
    _PLACEMENTS[key] = placement
    _KEY_BY_ID[id(placement)] = key
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

    Interned placements (those the engine hands out) are recognised by identity.
    """
    key = _KEY_BY_ID.get(id(placement))
    if key is not None:
        return key
    tile = placement.tile
    target = placement.target
    return _key(7 * tile.low + tile.high, _NO_TARGET if target is None else point_code(target))


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
    :class:`~fiveup.errors.IllegalMoveError` and changes nothing.
    """

    __slots__ = ("_avail", "_occupied", "_order", "_sum")

    def __init__(self) -> None:
        """An empty table."""
        # Per tile code: -1 while the tile is off the table, else the mask of occupied slots.
        self._occupied: list[int] = [-1] * N_TILE_CODES
        # Per value 0..6: codes of the available points of that value, in the order they opened.
        self._avail: list[list[int]] = [[], [], [], [], [], [], []]
        self._order: list[int] = []
        self._sum = 0

    @classmethod
    def from_placements(cls, placements: Iterable[Placement | str]) -> Layout:
        """A table built by placing ``placements`` in order (texts are parsed)."""
        layout = cls()
        for placement in placements:
            layout.place(Placement.parse(placement) if isinstance(placement, str) else placement)
        return layout

    def copy(self) -> Layout:
        """An independent copy (a few list copies)."""
        other = Layout.__new__(Layout)
        other._occupied = self._occupied.copy()
        other._avail = [points.copy() for points in self._avail]
        other._order = self._order.copy()
        other._sum = self._sum
        return other

    # --- placing --------------------------------------------------------------------------

    def place(self, placement: Placement) -> PlacementResult:
        """Put ``placement`` on the table and score it (SCR-1, SCR-2).

        Raises IllegalMoveError, leaving the table unchanged, with the first rule broken in
        this order: LAY-3 (the tile is already on the table); LAY-4 (a target on an empty
        table, a target tile not on the table, an occupied point) or SPN-2 (a branch of a
        spinner whose line sides are not both occupied); LAY-1 (no target once the table has
        tiles, or a tile that does not show the point's value).
        """
        total = self._place(placement_key(placement))
        credit = placement_credit(total)
        return PlacementResult(placement, total, credit, displayed(credit))

    def check(self, placement: Placement) -> None:
        """Raise the IllegalMoveError that :meth:`place` would raise, without placing."""
        tc, pc = split_key(placement_key(placement))
        self._check(tc, pc)

    def _check(self, tc: int, pc: int) -> None:
        """Raise for an illegal placement of tile ``tc`` at point ``pc`` (-1: the opening)."""
        occupied = self._occupied
        if occupied[tc] >= 0:
            raise IllegalMoveError("LAY-3", f"{_tile_text(tc)} is already on the table")
        if pc == _NO_TARGET:
            if self._order:
                raise IllegalMoveError(
                    "LAY-1",
                    f"the table has tiles: {_tile_text(tc)} must be joined to a connection point",
                )
            return
        target_tc = pc // _N_SLOTS
        point = POINT_OF[pc]
        assert point is not None
        if not self._order:
            raise IllegalMoveError(
                "LAY-4", f"the table is empty: {point.text} does not exist (open with a tile)"
            )
        mask = occupied[target_tc]
        if mask < 0:
            raise IllegalMoveError(
                "LAY-4", f"{point.text} does not exist: no {point.tile.text} on the table"
            )
        if pc not in _OPEN[target_tc * _N_MASKS + mask]:
            if mask >> (pc % _N_SLOTS) & 1:
                raise IllegalMoveError("LAY-4", f"{point.text} is occupied")
            raise IllegalMoveError(
                "SPN-2",
                f"{point.text} is not open: a branch starts only once both line sides of "
                f"{point.tile.text} are occupied",
            )
        value = POINT_VALUE[pc]
        if LOW_OF[tc] != value and HIGH_OF[tc] != value:
            raise IllegalMoveError(
                "LAY-1", f"{_tile_text(tc)} does not match {point.text} (value {value})"
            )

    def _refuse(self, key: int) -> NoReturn:
        self._check(*split_key(key))
        raise AssertionError(f"placement {placement_of(key)} passed the checks it failed")

    def _place(self, key: int) -> int:
        """Place the placement with this key; return the new sum.

        The happy path tests legality in one expression; :meth:`_check` finds the rule broken.
        """
        try:
            tc, pc, target_tc, slot, value, mask = _JOINS[key]
        except KeyError:  # the tile shows no half of the point's value, or is the point's tile
            self._refuse(key)
        occupied = self._occupied
        avail = self._avail
        if pc == _NO_TARGET:
            if self._order or occupied[tc] >= 0:
                self._refuse(key)
            total = 0
        else:
            target_mask = occupied[target_tc]
            row = target_tc * _N_MASKS + target_mask
            if occupied[tc] >= 0 or target_mask < 0 or pc not in _OPEN[row]:
                self._refuse(key)
            occupied[target_tc] = target_mask | 1 << slot
            avail[value].remove(pc)
            for gained_value, gained in _GAINED[row * _N_SLOTS + slot]:
                avail[gained_value].append(gained)
            # the slot was free, so adding its bit to the row gives the target's new row
            total = self._sum - _CONTRIB_SUM[row] + _CONTRIB_SUM[row + (1 << slot)]
        occupied[tc] = mask
        row = tc * _N_MASKS + mask
        for opened_value, opened in _OPEN_VALUED[row]:
            avail[opened_value].append(opened)
        total += _CONTRIB_SUM[row]
        self._sum = total
        self._order.append(key)
        return total

    # --- queries ---------------------------------------------------------------------------

    @property
    def sum(self) -> int:
        """The sum of the counted ends (SCR-1); kept up to date on every placement."""
        return self._sum

    @property
    def is_empty(self) -> bool:
        """True before the opening."""
        return not self._order

    def __len__(self) -> int:
        return len(self._order)

    def __contains__(self, tile: object) -> bool:
        return isinstance(tile, Tile) and self._occupied[tile_code(tile)] >= 0

    def placements(self) -> list[Placement]:
        """Every placement on the table, in placement order."""
        return [placement_of(key) for key in self._order]

    def tiles(self) -> list[Tile]:
        """The tiles on the table, in placement order."""
        return [placement_of(key).tile for key in self._order]

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
        """The occupied slots of ``tile`` (including the one it joined by); empty if off table."""
        mask = self._occupied[tile_code(tile)]
        return frozenset() if mask < 0 else _slots_of(mask)

    def points(self) -> dict[Point, int]:
        """Every available connection point with its value, in tile then slot order."""
        codes = sorted(code for points in self._avail for code in points)
        return {_point(code): POINT_VALUE[code] for code in codes}

    def points_of_value(self, value: int) -> list[Point]:
        """The available connection points of ``value``, in the order they opened."""
        return [_point(code) for code in self._avail[value]]

    def counted(self) -> list[tuple[Tile, int]]:
        """The counted ends as (tile, value) pairs, in placement order (CNT-1 to CNT-5).

        The opening non-double gives two pairs, one per free end.
        """
        pairs: list[tuple[Tile, int]] = []
        for key in self._order:
            tc = key // KEY_STRIDE
            tile = TILE_OF[tc]
            assert tile is not None
            pairs.extend((tile, value) for value in _CONTRIB[tc * _N_MASKS + self._occupied[tc]])
        return pairs

    def legal_placements(self, tile: Tile) -> list[Placement]:
        """Every placement of ``tile`` the rules allow now (none when it is on the table)."""
        tc = tile_code(tile)
        return [placement_of(_key(tc, pc)) for pc in self._legal_points(tc)]

    def _legal_points(self, tc: int) -> list[int]:
        if self._occupied[tc] >= 0:
            return []
        if not self._order:
            return [_NO_TARGET]
        low, high = LOW_OF[tc], HIGH_OF[tc]
        if low == high:
            return self._avail[low].copy()
        return self._avail[low] + self._avail[high]

    def can_place(self, tile: Tile) -> bool:
        """True when ``tile`` has at least one legal placement now."""
        tc = tile_code(tile)
        if self._occupied[tc] >= 0:
            return False
        avail = self._avail
        return not self._order or bool(avail[LOW_OF[tc]] or avail[HIGH_OF[tc]])

    def __repr__(self) -> str:
        texts = ", ".join(repr(p.text) for p in self.placements())
        return f"Layout.from_placements([{texts}])"


def _point(code: int) -> Point:
    point = POINT_OF[code]
    assert point is not None
    return point


def _tile_text(tc: int) -> str:
    tile = TILE_OF[tc]
    assert tile is not None
    return tile.text
