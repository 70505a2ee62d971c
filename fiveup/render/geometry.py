"""Where each tile of a layout lies on the table: the geometry behind :mod:`fiveup.render.svg`.

:func:`arrange` reads a JSON layout (a fixture's expectation or an engine's observation, which
may be inconsistent) and places its tiles on an integer grid whose unit is half the width of a
tile: a half is 2 x 2 units, a tile 2 x 4. Non-doubles lie along their line, doubles crosswise,
the branches of a spinner leave it at right angles to its line, and the halves that join touch.

No two tiles overlap. Lines run straight while they can; where a straight run would collide
with something already placed, or would leave the room a later subtree needs, the line turns a
corner. The search is deterministic and bounded: a strict pass that also keeps every free
connection point clear, a relaxed pass, and a last greedy pass that, if a tile has no room
beside its point at all, draws it apart (a joint with ``attached`` False and a note).

What cannot be drawn (a connection to a tile not on the table, a tile listed twice, a point of
no tile, an unknown key...) is left out and described in ``notes``.
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Final

from fiveup.contract.engine import JSON
from fiveup.contract.notation import Point, Slot, Tile

__all__ = [
    "HALF",
    "KNOWN_KEYS",
    "SEARCH_BUDGET",
    "Arrangement",
    "Exit",
    "Half",
    "Joint",
    "Marker",
    "PlacedTile",
    "Rect",
    "arrange",
    "brief",
]

Vec = tuple[int, int]

HALF: Final = 2
"""The side of a tile's half in grid units."""
KNOWN_KEYS: Final = ("tiles", "spinners", "connections", "points", "contributions", "sum")
"""The keys of a layout object (``spec/protocol.md``); any other is noted and ignored."""

MAX_ENTRIES: Final = 1000
"""How many entries of each list (or mapping) are read; the rest is noted, not read."""
MAX_NOTES: Final = 24
"""How many notes are kept; the count of the others is noted."""
SEARCH_BUDGET = 4000
"""Tile placements tried by each of the two backtracking passes before the next takes over
(read at each call of :func:`arrange`, so a test may lower it)."""
_BOX: Final = 30
"""A line that would run on out of the square of this half-side (in units) turns if it can."""
_NEAR: Final = 12
"""Pending points this close to a new tile have their room checked again."""

_E: Final[Vec] = (1, 0)
_W: Final[Vec] = (-1, 0)


def _left(d: Vec) -> Vec:
    """The direction at a right angle to the left of ``d`` on screen (y grows downwards)."""
    return (d[1], -d[0])


def _neg(d: Vec) -> Vec:
    return (-d[0], -d[1])


def _at(p: Vec, d: Vec, a: int, b: int) -> Vec:
    """The point ``a`` units along ``d`` and ``b`` units to its left from ``p``."""
    left = _left(d)
    return (p[0] + a * d[0] + b * left[0], p[1] + a * d[1] + b * left[1])


@dataclass(frozen=True, slots=True, order=True)
class Rect:
    """An axis-parallel rectangle on the grid, ``x0 < x1`` and ``y0 < y1``."""

    x0: int
    y0: int
    x1: int
    y1: int

    def overlaps(self, other: Rect) -> bool:
        """True when the two interiors share any area."""
        return (
            self.x0 < other.x1 and other.x0 < self.x1 and self.y0 < other.y1 and other.y0 < self.y1
        )

    def touches(self, other: Rect) -> bool:
        """True when the two do not overlap and share a stretch of edge of positive length."""
        if self.overlaps(other):
            return False
        if self.x1 == other.x0 or other.x1 == self.x0:
            return min(self.y1, other.y1) - max(self.y0, other.y0) > 0
        if self.y1 == other.y0 or other.y1 == self.y0:
            return min(self.x1, other.x1) - max(self.x0, other.x0) > 0
        return False

    def union(self, other: Rect) -> Rect:
        """The smallest rectangle holding both."""
        return Rect(
            min(self.x0, other.x0),
            min(self.y0, other.y0),
            max(self.x1, other.x1),
            max(self.y1, other.y1),
        )

    def squares(self) -> Iterator[Vec]:
        """The unit squares inside, each named by its top left corner."""
        for x in range(self.x0, self.x1):
            for y in range(self.y0, self.y1):
                yield (x, y)


def _box(p: Vec, d: Vec, a0: int, a1: int, b0: int, b1: int) -> Rect:
    """The rectangle from ``a0`` to ``a1`` along ``d`` and ``b0`` to ``b1`` to its left."""
    c0, c1 = _at(p, d, a0, b0), _at(p, d, a1, b1)
    return Rect(min(c0[0], c1[0]), min(c0[1], c1[1]), max(c0[0], c1[0]), max(c0[1], c1[1]))


@dataclass(frozen=True, slots=True)
class Exit:
    """Where a connection point of a placed tile faces the table.

    ``anchor`` is the middle of the tile's edge there, ``direction`` the way out of the tile.
    """

    anchor: Vec
    direction: Vec

    def front(self, width: int = HALF) -> Rect:
        """The square (or, for a double joining here, the crosswise block) just outside."""
        return _box(self.anchor, self.direction, 0, HALF, -width // 2, width // 2)


@dataclass(frozen=True, slots=True)
class Half:
    """One half of a placed tile: its value, its rectangle and, on a non-double, its slot."""

    value: int
    rect: Rect
    slot: Slot | None


@dataclass(frozen=True, slots=True)
class PlacedTile:
    """A tile on the grid, with the exits of its slots that are not joined to its parent."""

    tile: Tile
    rect: Rect
    halves: tuple[Half, Half]
    exits: tuple[tuple[Slot, Exit], ...]
    axis: Vec
    """The direction of the tile's long side (``(1, 0)`` or ``(0, 1)``)."""
    spinner: bool
    """True when the layout lists the tile among its spinners (drawn with an orange outline)."""
    loose: bool = False
    """True for a tile joined to nothing, drawn in a row below the others."""

    def exit(self, slot: Slot) -> Exit | None:
        """The exit of ``slot``, None for the slot joined to the parent."""
        for own, found in self.exits:
            if own is slot:
                return found
        return None

    def face(self, slot: Slot) -> Rect:
        """The half a connection at ``slot`` touches: a non-double's half, a double's whole."""
        for half in self.halves:
            if half.slot is slot:
                return half.rect
        return self.rect


@dataclass(frozen=True, slots=True)
class Joint:
    """A drawn connection: the table point, the joined tile's slot, and the halves that touch."""

    table: Point
    joined: Point
    table_half: Rect
    joined_half: Rect
    start: Exit
    """The table point's exit."""
    end: Vec
    """The middle of the joined tile's edge that faces the table point."""
    attached: bool
    """False when the joined tile had no room beside its point and is drawn apart."""


@dataclass(frozen=True, slots=True)
class Marker:
    """What the documents mark on a point: a counted contribution or an uncounted point.

    A counted contribution is drawn as a filled number, a connection point that is not counted
    as a hollow dot. ``exit`` is None for a contribution that belongs to no free point of its
    tile; it is then drawn on the tile.
    """

    tile: Tile
    slot: Slot | None
    exit: Exit | None
    counted: int | None
    """The contribution's value, None for a hollow dot."""


@dataclass(frozen=True, slots=True)
class Arrangement:
    """A layout placed on the grid: what can be drawn, and notes on what could not."""

    tiles: tuple[PlacedTile, ...]
    joints: tuple[Joint, ...]
    markers: tuple[Marker, ...]
    sum: int | None
    notes: tuple[str, ...]

    @property
    def bounds(self) -> Rect | None:
        """The rectangle holding every tile and marker, None when nothing is drawn."""
        rects = [placed.rect for placed in self.tiles]
        rects += [m.exit.front() for m in self.markers if m.exit is not None]
        if not rects:
            return None
        found = rects[0]
        for rect in rects[1:]:
            found = found.union(rect)
        return found


# --- reading ----------------------------------------------------------------------------------


class _Notes:
    """The notes of one arrangement, bounded in number."""

    def __init__(self) -> None:
        self.kept: list[str] = []
        self.dropped = 0

    def add(self, text: str) -> None:
        if len(self.kept) < MAX_NOTES:
            self.kept.append(text)
        else:
            self.dropped += 1

    def result(self) -> tuple[str, ...]:
        if self.dropped:
            return (*self.kept, f"... and {self.dropped} more notes")
        return tuple(self.kept)


def brief(value: object) -> str:
    """A short, safe text naming a JSON value in a note (never recursing into it)."""
    if isinstance(value, str):
        shown = value if len(value) <= 40 else value[:37] + "..."
        return repr(shown)
    if value is None or isinstance(value, bool):
        return "null" if value is None else str(value).lower()
    if isinstance(value, int):
        text = str(value) if abs(value) < 10**12 else "a huge number"
        return text
    if isinstance(value, float):
        return "a number"
    if isinstance(value, list | tuple):
        return f"a list of {len(value)}"
    if isinstance(value, Mapping):
        return "an object"
    return "a value"


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _tile(value: object) -> Tile | None:
    if not isinstance(value, str) or len(value) > 16:
        return None
    try:
        return Tile.parse(value)
    except ValueError:  # the notation's NotationError is a ValueError
        return None


def _point(value: object) -> Point | None:
    if not isinstance(value, str) or len(value) > 32:
        return None
    try:
        return Point.parse(value)
    except ValueError:  # the notation's NotationError is a ValueError
        return None


def _entries(value: object, key: str, notes: _Notes) -> list[object]:
    """The first entries of a list field, noting a field that is not a list or too long."""
    if not isinstance(value, list):
        notes.add(f"{key}: expected a list, got {brief(value)}")
        return []
    if len(value) > MAX_ENTRIES:
        notes.add(f"{key}: only the first {MAX_ENTRIES} of {len(value)} entries are read")
    return list(value[:MAX_ENTRIES])


@dataclass(frozen=True, slots=True)
class _Child:
    table_slot: Slot
    tile: Tile
    joined_slot: Slot


@dataclass(slots=True)
class _Tree:
    root: Tile | None
    children: dict[Tile, list[_Child]]
    connections: list[tuple[Point, Point]]
    loose: list[Tile] = field(default_factory=list)
    """Tiles on the table that no consistent connection joins to the opening."""


def _read_tiles(layout: Mapping[str, JSON], notes: _Notes) -> list[Tile] | None:
    if "tiles" not in layout:
        return None
    tiles: list[Tile] = []
    seen: set[Tile] = set()
    for entry in _entries(layout["tiles"], "tiles", notes):
        tile = _tile(entry)
        if tile is None:
            notes.add(f"tiles: {brief(entry)} is not a tile")
        elif tile in seen:
            notes.add(f"tiles: {tile.text} is listed twice; drawn once")
        else:
            seen.add(tile)
            tiles.append(tile)
    return tiles


def _read_connections(layout: Mapping[str, JSON], notes: _Notes) -> list[tuple[Point, Point]]:
    if "connections" not in layout:
        return []
    found: list[tuple[Point, Point]] = []
    for entry in _entries(layout["connections"], "connections", notes):
        pair = entry if isinstance(entry, list) and len(entry) == 2 else None
        points = [_point(p) for p in pair] if pair is not None else []
        if pair is None or points[0] is None or points[1] is None:
            notes.add(f"connections: {brief(entry)} is not a pair of connection points")
            continue
        found.append((points[0], points[1]))
    return found


def _tree(tiles: list[Tile] | None, connections: list[tuple[Point, Point]], notes: _Notes) -> _Tree:
    """The tiles joined to the opening through the connections that are consistent."""
    if tiles is None:
        # A partial expectation may give connections but no tiles: the opening is the first
        # connection's table tile, the others are the tiles joined.
        tiles = []
        for table, joined in connections:
            tiles += [t for t in (table.tile, joined.tile) if t not in tiles]
    root = tiles[0] if tiles else None
    tree = _Tree(root, {tile: [] for tile in tiles}, [])
    waiting = _screen(connections, set(tiles), root, notes)
    placed = {root} if root is not None else set()
    while waiting:
        later = _join(tree, waiting, placed, notes)
        if len(later) == len(waiting):
            break
        waiting = later
    for table, joined in waiting:
        notes.add(
            f"connection {table.text} - {joined.text}: {table.tile.text} is not joined to the "
            "opening; not drawn"
        )
    tree.loose = [tile for tile in tiles if tile not in placed]
    for tile in tree.loose:
        notes.add(f"{tile.text} is on the table but joined to nothing; drawn apart, below")
    return tree


def _screen(
    connections: list[tuple[Point, Point]], on_table: set[Tile], root: Tile | None, notes: _Notes
) -> list[tuple[Point, Point]]:
    """The connections between two different tiles on the table that do not join the opening."""
    kept: list[tuple[Point, Point]] = []
    for table, joined in connections:
        text = f"{table.text} - {joined.text}"
        if table.tile not in on_table:
            notes.add(f"connection {text}: {table.tile.text} is not among the tiles")
        elif joined.tile not in on_table:
            notes.add(f"connection {text}: {joined.tile.text} is not among the tiles")
        elif joined.tile == root:
            notes.add(f"connection {text}: {joined.tile.text} is the opening tile")
        elif table.tile == joined.tile:
            notes.add(f"connection {text}: a tile joined to itself")
        else:
            kept.append((table, joined))
    return kept


def _join(
    tree: _Tree, waiting: list[tuple[Point, Point]], placed: set[Tile], notes: _Notes
) -> list[tuple[Point, Point]]:
    """Add to ``tree`` the connections whose table tile is placed; return those still waiting."""
    used = {p for pair in tree.connections for p in pair}
    later: list[tuple[Point, Point]] = []
    for table, joined in waiting:
        text = f"connection {table.text} - {joined.text}"
        if joined.tile in placed:
            notes.add(f"{text}: {joined.tile.text} is joined twice; not drawn")
        elif table.tile not in placed:
            later.append((table, joined))
        elif table in used:
            notes.add(f"{text}: {table.text} is joined twice; not drawn")
        else:
            _check_join(table, joined, notes)
            used.update((table, joined))
            placed.add(joined.tile)
            tree.children[table.tile].append(_Child(table.slot, joined.tile, joined.slot))
            tree.connections.append((table, joined))
    return later


def _check_join(table: Point, joined: Point, notes: _Notes) -> None:
    """Note a connection drawn as given although the rules would not make it."""
    text = f"connection {table.text} - {joined.text}"
    half = joined.tile.low if joined.slot is not Slot.HIGH else joined.tile.high
    if table.value != half:
        notes.add(f"{text}: the values {table.value} and {half} do not match")
    if joined.tile.is_double and joined.slot is not Slot.LINE_A:
        notes.add(f"{text}: a joined double joins by its line side A")


# --- placing ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Step:
    """One tile to place: the tile, its parent and the parent's slot it joins."""

    tile: Tile
    parent: Tile
    table_slot: Slot
    joined_slot: Slot
    size: int
    """How many tiles its subtree holds, itself included."""


def _opening(tile: Tile) -> tuple[Rect, tuple[Half, Half], dict[Slot, Exit], Vec]:
    if tile.is_double:
        return _double(tile, Slot.LINE_A, Exit((-1, 0), _E), mirror=False, opening=True)
    low = _box((-2, 0), _E, 0, 2, -1, 1)
    high = _box((-2, 0), _E, 2, 4, -1, 1)
    halves = (Half(tile.low, low, Slot.LOW), Half(tile.high, high, Slot.HIGH))
    exits = {Slot.LOW: Exit((-2, 0), _W), Slot.HIGH: Exit((2, 0), _E)}
    return low.union(high), halves, exits, _E


_OPPOSITE: Final = {
    Slot.LINE_A: Slot.LINE_B,
    Slot.LINE_B: Slot.LINE_A,
    Slot.BRANCH_A: Slot.BRANCH_B,
    Slot.BRANCH_B: Slot.BRANCH_A,
}


def _double(
    tile: Tile, joined: Slot, at: Exit, *, mirror: bool, opening: bool = False
) -> tuple[Rect, tuple[Half, Half], dict[Slot, Exit], Vec]:
    p, d = at.anchor, at.direction
    left = _left(d)
    halves = (
        Half(tile.low, _box(p, d, 0, 2, -2, 0), None),
        Half(tile.low, _box(p, d, 0, 2, 0, 2), None),
    )
    side_a, side_b = (
        (Slot.BRANCH_A, Slot.BRANCH_B) if joined.is_line else (Slot.LINE_A, Slot.LINE_B)
    )
    if mirror:
        side_a, side_b = side_b, side_a
    exits = {
        _OPPOSITE[joined]: Exit(_at(p, d, 2, 0), d),
        side_a: Exit(_at(p, d, 1, 2), left),
        side_b: Exit(_at(p, d, 1, -2), _neg(left)),
    }
    if opening:
        exits[joined] = Exit(p, _neg(d))
    axis = (abs(left[0]), abs(left[1]))
    return _box(p, d, 0, 2, -2, 2), halves, exits, axis


def _single(
    tile: Tile, joined: Slot, at: Exit, turn: int
) -> tuple[Rect, tuple[Half, Half], dict[Slot, Exit], Vec]:
    p, d = at.anchor, at.direction
    free = Slot.HIGH if joined is Slot.LOW else Slot.LOW
    value = {Slot.LOW: tile.low, Slot.HIGH: tile.high}
    near = _box(p, d, 0, 2, -1, 1)
    if turn == 0:
        far, out, axis = _box(p, d, 2, 4, -1, 1), Exit(_at(p, d, 4, 0), d), d
    else:
        side = _left(d) if turn > 0 else _neg(_left(d))
        b0, b1 = (1, 3) if turn > 0 else (-3, -1)
        far, out, axis = _box(p, d, 0, 2, b0, b1), Exit(_at(p, d, 1, 3 * turn), side), side
    halves = (Half(value[joined], near, joined), Half(value[free], far, free))
    return near.union(far), halves, {free: out}, (abs(axis[0]), abs(axis[1]))


_Shape = tuple[Rect, tuple[Half, Half], dict[Slot, Exit], Vec]


class _OutOfBudget(Exception):
    pass


class _Board:
    """The grid during a search: occupied squares and the squares kept free for later."""

    def __init__(self, points: frozenset[Point], strict: bool) -> None:
        self.points = points
        self.strict = strict
        self.occupied: set[Vec] = set()
        self.reserved: Counter[Vec] = Counter()
        self.placed: dict[Tile, _Shape] = {}
        self.pending: dict[tuple[Tile, Slot], tuple[Exit, int, list[Vec]]] = {}
        self.markers: dict[tuple[Tile, Slot], list[Vec]] = {}

    def free(self, squares: list[Vec]) -> bool:
        return not any(s in self.occupied or self.reserved[s] > 0 for s in squares)

    def room(self, start: list[Vec], need: int) -> bool:
        """True when at least ``need`` free squares are reachable from ``start``."""
        seen = set(start)
        queue = deque(start)
        while queue and len(seen) < need:
            x, y = queue.popleft()
            for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if n not in seen and n not in self.occupied:
                    seen.add(n)
                    queue.append(n)
        return len(seen) >= need


def _subtree_sizes(tree: _Tree) -> dict[Tile, int]:
    sizes: dict[Tile, int] = {}

    def size(tile: Tile) -> int:
        sizes[tile] = 1 + sum(size(c.tile) for c in tree.children[tile])
        return sizes[tile]

    if tree.root is not None:
        size(tree.root)
    return sizes


def _steps(tree: _Tree) -> list[_Step]:
    """The tiles after the opening in depth-first order, children by slot."""
    sizes = _subtree_sizes(tree)
    steps: list[_Step] = []

    def visit(tile: Tile) -> None:
        for child in sorted(tree.children[tile], key=lambda c: c.table_slot):
            steps.append(
                _Step(child.tile, tile, child.table_slot, child.joined_slot, sizes[child.tile])
            )
            visit(child.tile)

    if tree.root is not None:
        visit(tree.root)
    return steps


def _outward(shape: _Shape) -> bool:
    """True when the shape leads a line on out of the square of half-side ``_BOX``."""
    for at in shape[2].values():
        (x, y), (dx, dy) = at.anchor, at.direction
        if (x * dx > _BOX) or (y * dy > _BOX):
            return True
    return False


def _options(step: _Step, at: Exit) -> list[_Shape]:
    if step.tile.is_double:
        shapes = [_double(step.tile, step.joined_slot, at, mirror=m) for m in (False, True)]
    else:
        shapes = [_single(step.tile, step.joined_slot, at, turn) for turn in (0, 1, -1)]
    ranked = sorted(enumerate(shapes), key=lambda item: (_outward(item[1]), item[0]))
    return [shape for _, shape in ranked]


class _Search:
    """Depth-first placement with backtracking over the corners of lines and mirrored spinners."""

    def __init__(self, tree: _Tree, steps: list[_Step], points: frozenset[Point]) -> None:
        self.tree = tree
        self.steps = steps
        self.points = points
        self.children_of: dict[Tile, dict[Slot, int]] = {}
        for step in steps:
            self.children_of.setdefault(step.parent, {})[step.table_slot] = step.size
        self.left = 0

    def _needs(self, tile: Tile, exits: dict[Slot, Exit]) -> Iterator[tuple[Slot, Exit, int]]:
        kids = self.children_of.get(tile, {})
        for slot in sorted(exits):
            if slot in kids:
                yield slot, exits[slot], kids[slot]

    def _child_width(self, tile: Tile, slot: Slot) -> int:
        for step in self.steps:
            if step.parent == tile and step.table_slot is slot:
                return 2 * HALF if step.tile.is_double else HALF
        return HALF

    def run(self, strict: bool, budget: int) -> dict[Tile, _Shape] | None:
        board = _Board(self.points, strict)
        self.left = budget
        root = self.tree.root
        if root is None:
            return {}
        shape = _opening(root)
        if not self._commit(board, root, shape, check=True):
            return None
        try:
            return board.placed if self._place(board, 0) else None
        except _OutOfBudget:
            return None

    def _place(self, board: _Board, index: int) -> bool:
        if index == len(self.steps):
            return True
        step = self.steps[index]
        key = (step.parent, step.table_slot)
        at, _, front = board.pending.pop(key)
        board.reserved.subtract(front)
        for shape in _options(step, at):
            self.left -= 1
            if self.left < 0:
                raise _OutOfBudget
            if self._commit(board, step.tile, shape, check=True):
                if self._place(board, index + 1):
                    return True
                self._undo(board, step.tile)
        board.reserved.update(front)
        board.pending[key] = (at, step.size, front)
        return False

    def _commit(self, board: _Board, tile: Tile, shape: _Shape, *, check: bool) -> bool:
        rect, _, exits, _ = shape
        squares = list(rect.squares())
        if check and not board.free(squares):
            return False
        board.occupied.update(squares)
        board.placed[tile] = shape
        added: list[tuple[Tile, Slot]] = []
        ok = True
        for slot, at, size in self._needs(tile, exits):
            front = list(at.front(self._child_width(tile, slot)).squares())
            if check and not (board.free(front) and board.room(front, 8 * size)):
                ok = False
            board.pending[(tile, slot)] = (at, size, front)
            board.reserved.update(front)
            added.append((tile, slot))
        if board.strict:
            for slot in sorted(exits):
                if (tile, slot) in board.pending or Point(tile, slot) not in self.points:
                    continue
                front = list(exits[slot].front().squares())
                if check and not board.free(front):
                    ok = False
                board.markers[(tile, slot)] = front
                board.reserved.update(front)
        if ok and check:
            ok = self._pending_ok(board, rect, added)
        if not ok:
            self._undo(board, tile)
        return ok

    def _pending_ok(self, board: _Board, rect: Rect, own: list[tuple[Tile, Slot]]) -> bool:
        for key, (at, size, front) in board.pending.items():
            if key in own:
                continue
            x, y = at.anchor
            near = (
                rect.x0 - _NEAR <= x <= rect.x1 + _NEAR and rect.y0 - _NEAR <= y <= rect.y1 + _NEAR
            )
            if near and not board.room(front, 8 * size):
                return False
        return True

    def _undo(self, board: _Board, tile: Tile) -> None:
        rect, _, exits, _ = board.placed.pop(tile)
        board.occupied.difference_update(rect.squares())
        for slot in exits:
            entry = board.pending.pop((tile, slot), None)
            if entry is not None:
                board.reserved.subtract(entry[2])
            front = board.markers.pop((tile, slot), None)
            if front is not None:
                board.reserved.subtract(front)

    def greedy(self) -> tuple[dict[Tile, _Shape], set[Tile]]:
        """Place every tile at the first option that fits, or apart from the rest."""
        board = _Board(self.points, strict=False)
        apart: set[Tile] = set()
        root = self.tree.root
        if root is None:
            return {}, apart
        self._commit(board, root, _opening(root), check=False)
        for step in self.steps:
            at = board.placed[step.parent][2][step.table_slot]
            for shape in _options(step, at):
                if not any(s in board.occupied for s in shape[0].squares()):
                    break
            else:
                right = max(x for x, _ in board.occupied) + 8
                moved = Exit((right, 0), at.direction)
                shape = _options(step, moved)[0]
                apart.add(step.tile)
            self._commit(board, step.tile, shape, check=False)
        return board.placed, apart


# --- the arrangement --------------------------------------------------------------------------


def arrange(layout: object, *, budget: int | None = None) -> Arrangement:
    """Place the tiles of a JSON layout on the grid; never raises, whatever ``layout`` holds.

    ``budget`` bounds each backtracking pass (default :data:`SEARCH_BUDGET`); with 0 only the
    last, greedy pass runs.
    """
    budget = SEARCH_BUDGET if budget is None else budget
    notes = _Notes()
    if not isinstance(layout, Mapping):
        notes.add(f"the layout is {brief(layout)}, not an object; nothing is drawn")
        return Arrangement((), (), (), None, notes.result())
    unknown = sorted(brief(k) for k in layout if k not in KNOWN_KEYS)
    for name in unknown[:MAX_NOTES]:
        notes.add(f"unknown key {name} ignored")
    tiles = _read_tiles(layout, notes)
    connections = _read_connections(layout, notes)
    tree = _tree(tiles, connections, notes)
    points = _read_points(layout, notes)
    steps = _steps(tree)
    search = _Search(tree, steps, frozenset(points))
    shapes = search.run(strict=True, budget=budget)
    apart: set[Tile] = set()
    if shapes is None:
        shapes = search.run(strict=False, budget=budget)
    if shapes is None:
        shapes, apart = search.greedy()
    loose = _loose_row(tree.loose, shapes)
    spinners = _read_spinners(layout, set(shapes) | set(loose), notes)
    placed = {
        tile: PlacedTile(
            tile,
            rect,
            halves,
            tuple(sorted(exits.items())),
            axis,
            spinner=tile in spinners,
            loose=tile in loose,
        )
        for tile, (rect, halves, exits, axis) in (shapes | loose).items()
    }
    joints = []
    for table, joined in tree.connections:
        parent, child = placed[table.tile], placed[joined.tile]
        start = parent.exit(table.slot)
        if start is None:  # cannot happen: a slot joined to a child is never the parent's own
            continue
        end = _back(child, joined.slot)
        joints.append(
            Joint(
                table,
                joined,
                parent.face(table.slot),
                child.face(joined.slot),
                start,
                end,
                attached=joined.tile not in apart,
            )
        )
        if joined.tile in apart:
            notes.add(
                f"{joined.tile.text} is drawn apart from {table.text}: no room beside it "
                "(dashed line)"
            )
    markers = _markers(layout, placed, tree, points, notes)
    total = layout.get("sum")
    if "sum" in layout and not _is_int(total):
        notes.add(f"sum: {brief(total)} is not a whole number")
    return Arrangement(
        tuple(placed.values()),
        tuple(joints),
        markers,
        total if _is_int(total) else None,
        notes.result(),
    )


def _loose_row(tiles: list[Tile], shapes: dict[Tile, _Shape]) -> dict[Tile, _Shape]:
    """The tiles joined to nothing, in a row under the others, with room for their markers."""
    rects = [shape[0] for shape in shapes.values()]
    x = min((r.x0 for r in rects), default=0) + 2
    y = max((r.y1 for r in rects), default=-5) + 5
    row: dict[Tile, _Shape] = {}
    for tile in tiles:
        if tile.is_double:
            row[tile] = _double(tile, Slot.LINE_A, Exit((x, y), _E), mirror=False, opening=True)
        else:
            rect, halves, exits, axis = _single(tile, Slot.LOW, Exit((x, y), _E), 0)
            row[tile] = (rect, halves, {Slot.LOW: Exit((x, y), _W), **exits}, axis)
        x = row[tile][0].x1 + 2 * HALF
    return row


def _back(placed: PlacedTile, joined: Slot) -> Vec:
    """The middle of the half of ``placed`` that joined its table point."""
    rect = placed.face(joined)
    return ((rect.x0 + rect.x1) // 2, (rect.y0 + rect.y1) // 2)


def _read_points(layout: Mapping[str, JSON], notes: _Notes) -> dict[Point, int]:
    raw = layout.get("points")
    if "points" not in layout:
        return {}
    if not isinstance(raw, Mapping):
        notes.add(f"points: expected an object, got {brief(raw)}")
        return {}
    if len(raw) > MAX_ENTRIES:
        notes.add(f"points: only {MAX_ENTRIES} of {len(raw)} entries are read")
    found: dict[Point, int] = {}
    keys = sorted((k for k in raw if isinstance(k, str)), key=lambda k: (len(k), k))
    for key in keys[:MAX_ENTRIES]:
        point, value = _point(key), raw[key]
        if point is None:
            notes.add(f"points: {brief(key)} is not a connection point")
        elif not _is_int(value):
            notes.add(f"points: {point.text} has {brief(value)}, not a value")
        else:
            if value != point.value:
                notes.add(
                    f"points: {point.text} is given the value {brief(value)}, not {point.value}"
                )
            found[point] = value
    return dict(sorted(found.items()))


def _read_spinners(layout: Mapping[str, JSON], placed: set[Tile], notes: _Notes) -> set[Tile]:
    if "spinners" not in layout:
        return set()
    found: set[Tile] = set()
    for entry in _entries(layout["spinners"], "spinners", notes):
        tile = _tile(entry)
        if tile is None:
            notes.add(f"spinners: {brief(entry)} is not a tile")
        elif tile not in placed:
            notes.add(f"spinners: {tile.text} is not drawn on the table")
        elif not tile.is_double:
            notes.add(f"spinners: {tile.text} is not a double")
        else:
            found.add(tile)
    return found


def _markers(
    layout: Mapping[str, JSON],
    placed: dict[Tile, PlacedTile],
    tree: _Tree,
    points: dict[Point, int],
    notes: _Notes,
) -> tuple[Marker, ...]:
    used = {p for pair in tree.connections for p in pair}
    hollow: dict[tuple[Tile, Slot], Exit] = {}
    for point in points:
        owner = placed.get(point.tile)
        at = owner.exit(point.slot) if owner is not None else None
        if owner is None:
            notes.add(f"points: {point.text} is on no tile drawn")
        elif point in used or at is None:
            notes.add(f"points: {point.text} is joined, not available")
        else:
            hollow[(point.tile, point.slot)] = at
    counted: list[Marker] = []
    taken: set[tuple[Tile, Slot]] = set()
    for tile, value in _read_contributions(layout, placed, notes):
        slot = _counted_slot(placed[tile], value, used, taken, hollow)
        if slot is None:
            counted.append(Marker(tile, None, None, value))
            notes.add(f"contributions: {tile.text} counts {brief(value)} at no free end of it")
            continue
        taken.add((tile, slot))
        counted.append(Marker(tile, slot, placed[tile].exit(slot), value))
        hollow.pop((tile, slot), None)
    markers = [Marker(tile, slot, at, None) for (tile, slot), at in sorted(hollow.items())]
    return tuple(markers + counted)


def _read_contributions(
    layout: Mapping[str, JSON], placed: dict[Tile, PlacedTile], notes: _Notes
) -> list[tuple[Tile, int]]:
    """The contributions of tiles drawn, sorted (they are a multiset)."""
    if "contributions" not in layout:
        return []
    read: list[tuple[Tile, int]] = []
    for entry in _entries(layout["contributions"], "contributions", notes):
        pair = entry if isinstance(entry, list) and len(entry) == 2 else None
        tile = _tile(pair[0]) if pair is not None else None
        if pair is None or tile is None or not _is_int(pair[1]):
            notes.add(f"contributions: {brief(entry)} is not a [tile, value] pair")
        elif tile not in placed:
            notes.add(f"contributions: {tile.text} is not drawn on the table")
        else:
            read.append((tile, pair[1]))
    return sorted(read)


def _counted_slot(
    placed: PlacedTile,
    value: int,
    used: set[Point],
    taken: set[tuple[Tile, Slot]],
    points: dict[tuple[Tile, Slot], Exit],
) -> Slot | None:
    """The free slot where a contribution of ``value`` of ``placed`` is shown."""
    tile = placed.tile
    if tile.is_double:
        candidates = [Slot.LINE_B, Slot.LINE_A]
    else:
        candidates = [s for s in (Slot.LOW, Slot.HIGH) if Point(tile, s).value == value]
        candidates += [s for s in (Slot.LOW, Slot.HIGH) if s not in candidates]
    free = [
        s
        for s in candidates
        if Point(tile, s) not in used and placed.exit(s) is not None and (tile, s) not in taken
    ]
    preferred = [s for s in free if (tile, s) in points]
    chosen = preferred or free
    return chosen[0] if chosen else None
