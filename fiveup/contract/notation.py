"""The notation: value types of the game and their text forms (``spec/terms.md``, "Notation").

Every value round-trips through text: ``Tile.parse(t.text) == t`` and likewise for
``Point``, ``Placement`` and ``Action``. The forms are::

    tile        [1|4]                      lower half first
    point       [1|4]:low  [1|4]:high      ends of a non-double
                [1|1]:line-a  [1|1]:line-b  [1|1]:branch-a  [1|1]:branch-b
    placement   [1|4]                      the opening tile
                [1|2]@[1|1]:line-b         a tile joined to a connection point
    action      0 play [1|2]@[1|1]:line-b   1 draw   2 pass

Each value also has an integer form, for engines that index tables by it (as python-chess
numbers squares): ``Tile.code`` is ``7 * low + high``; ``Point.code`` is ``SLOT_COUNT *
tile.code`` plus the slot's index in :class:`Slot` order; ``Placement.key`` is ``tile.code *
KEY_STRIDE``, plus ``target.code + 1`` when it joins a point; ``Action.code`` is the
placement's key for a play, :data:`DRAW_CODE` or :data:`PASS_CODE`. Together with the seat, an
action's code names it.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass, field
from functools import cache

from fiveup.errors import NotationError

from .definitions import clip, pattern

__all__ = [
    "ALL_TILES",
    "DOUBLE_SLOTS",
    "DRAW_CODE",
    "END_SLOTS",
    "KEY_STRIDE",
    "MAX_PIPS",
    "MAX_SEAT_DIGITS",
    "N_TILE_CODES",
    "PASS_CODE",
    "SLOT_COUNT",
    "Action",
    "Placement",
    "Point",
    "Slot",
    "Tile",
    "Verb",
]

MAX_PIPS = 6
N_TILE_CODES = 7 * MAX_PIPS + MAX_PIPS + 1
"""Tile codes run from 0 to 48 (``7 * low + high``); 28 of them name tiles."""
SLOT_COUNT = 6
"""The slots a tile may have: a point's code is ``SLOT_COUNT * tile code + slot index``."""
KEY_STRIDE = N_TILE_CODES * SLOT_COUNT + 1
"""A placement key is ``tile code * KEY_STRIDE + point code + 1`` (``+ 0`` for the opening)."""
DRAW_CODE = -1
"""The :attr:`Action.code` of a draw."""
PASS_CODE = -2
"""The :attr:`Action.code` of a pass."""


class Slot(enum.Enum):
    """Where on a tile a connection point sits; slots order as declared."""

    LOW = "low"
    """The lower-valued end of a non-double."""
    HIGH = "high"
    """The higher-valued end of a non-double."""
    LINE_A = "line-a"
    """A double's first line side; a double joined to the layout joins by this side."""
    LINE_B = "line-b"
    """A double's second line side."""
    BRANCH_A = "branch-a"
    """A double's first branch; open only once both line sides are occupied."""
    BRANCH_B = "branch-b"
    """A double's second branch; open only once both line sides are occupied."""

    rank: int
    """The slot's place in declaration order, 0 to 5: its index in a point's code."""

    def __init__(self, value: str) -> None:
        """Number the slot as declared (an attribute: a dict keyed by an Enum hashes in Python)."""
        self.rank = len(type(self).__members__)

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Slot):
            return NotImplemented
        return self.rank < other.rank

    def __le__(self, other: object) -> bool:
        if not isinstance(other, Slot):
            return NotImplemented
        return self.rank <= other.rank

    def __gt__(self, other: object) -> bool:
        if not isinstance(other, Slot):
            return NotImplemented
        return self.rank > other.rank

    def __ge__(self, other: object) -> bool:
        if not isinstance(other, Slot):
            return NotImplemented
        return self.rank >= other.rank

    @property
    def is_end(self) -> bool:
        """True for the two ends of a non-double."""
        return self in (Slot.LOW, Slot.HIGH)

    @property
    def is_line(self) -> bool:
        """True for a double's two line sides."""
        return self in (Slot.LINE_A, Slot.LINE_B)

    @property
    def is_branch(self) -> bool:
        """True for a double's two branches."""
        return self in (Slot.BRANCH_A, Slot.BRANCH_B)


DOUBLE_SLOTS = (Slot.LINE_A, Slot.LINE_B, Slot.BRANCH_A, Slot.BRANCH_B)
END_SLOTS = (Slot.LOW, Slot.HIGH)

# The grammar is the one of common.json, which the schemas use too: one source for both.
_TILE_RE = re.compile(pattern("tile"))
_POINT_RE = re.compile(pattern("point"))
_PLACEMENT_RE = re.compile(pattern("placement"))
_ACTION_RE = re.compile(pattern("action"))


@dataclass(frozen=True, slots=True, order=True)
class Tile:
    """A domino of the double-six set; ``low <= high`` always holds."""

    low: int
    high: int
    code: int = field(init=False, repr=False, compare=False)
    """``7 * low + high``: the tile's index in tables of :data:`N_TILE_CODES` entries."""

    def __post_init__(self) -> None:
        if not (0 <= self.low <= self.high <= MAX_PIPS):
            raise NotationError(
                f"no such tile [{self.low}|{self.high}]: halves run 0..6, lower half first"
            )
        object.__setattr__(self, "code", 7 * self.low + self.high)

    @staticmethod
    def of(a: int, b: int) -> Tile:
        """The tile with halves ``a`` and ``b`` in either order (shared instances)."""
        low, high = (a, b) if a <= b else (b, a)
        if low >= 0 and high <= MAX_PIPS:
            return _tile(low, high)
        return Tile(low, high)  # raises the NotationError

    @staticmethod
    def parse(text: str) -> Tile:
        """Read ``[a|b]`` exactly (no padding); the halves may come in either order."""
        found = _TILE_TEXTS.get(text)
        if found is not None:
            return found
        if _TILE_RE.fullmatch(text) is None:
            raise NotationError(f"not a tile: {_shown(text)} (expected a form like [1|4])")
        return Tile.of(int(text[1]), int(text[3]))

    @property
    def text(self) -> str:
        """Canonical text form, lower half first."""
        return f"[{self.low}|{self.high}]"

    @property
    def is_double(self) -> bool:
        """True when both halves show the same value: every double is a spinner."""
        return self.low == self.high

    @property
    def pips(self) -> int:
        """The sum of both halves."""
        return self.low + self.high

    def has(self, value: int) -> bool:
        """True when one half shows ``value``."""
        return self.low == value or self.high == value

    def other(self, value: int) -> int:
        """The half left free when the half ``value`` is matched."""
        return self.high if self.low == value else self.low

    def slots(self) -> tuple[Slot, ...]:
        """The connection-point slots this tile has."""
        return DOUBLE_SLOTS if self.is_double else END_SLOTS

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Tile.parse({self.text!r})"


@cache
def _tile(low: int, high: int) -> Tile:
    return Tile(low, high)


ALL_TILES: tuple[Tile, ...] = tuple(
    Tile.of(low, high) for low in range(MAX_PIPS + 1) for high in range(low, MAX_PIPS + 1)
)
"""The 28 tiles of the double-six set in canonical order."""

# Requests repeat the same few texts: reading each once keeps replays cheap. Only texts that
# parsed are kept (values are immutable), and the action cache is bounded.
_TILE_TEXTS: dict[str, Tile] = {
    text: tile for tile in ALL_TILES for text in {tile.text, f"[{tile.high}|{tile.low}]"}
}
_ACTION_TEXTS: dict[str, Action] = {}
_CACHE_LIMIT = 1 << 16
MAX_SEAT_DIGITS = 18
"""The most digits an action's seat is read with: no seat has more, and ``int()`` refuses text
of over 4,300 digits with a ``ValueError`` rather than a notation error."""
_SHOWN = 60
"""The most characters of a text a notation error quotes."""


def _shown(text: str) -> str:
    """How an error quotes a text it could not read: ``repr`` of it, clipped."""
    return repr(clip(text, _SHOWN))


@dataclass(frozen=True, slots=True, order=True)
class Point:
    """A connection point: a tile on the table and a slot on it (``[1|1]:branch-a``)."""

    tile: Tile
    slot: Slot
    code: int = field(init=False, repr=False, compare=False)
    """``SLOT_COUNT * tile.code`` plus the slot's index in :class:`Slot` order (0 to 293)."""

    def __post_init__(self) -> None:
        if self.slot not in self.tile.slots():
            kind = "a double" if self.tile.is_double else "a non-double"
            raise NotationError(
                f"{self.tile.text} is {kind} and has no slot {self.slot.value!r} "
                f"(it has {', '.join(s.value for s in self.tile.slots())})"
            )
        object.__setattr__(self, "code", SLOT_COUNT * self.tile.code + self.slot.rank)

    @staticmethod
    def parse(text: str) -> Point:
        """Read ``[a|b]:slot``."""
        tile_text, sep, slot_text = text.partition(":")
        if not sep:
            raise NotationError(
                f"not a connection point: {_shown(text)} (expected a form like [1|1]:line-b)"
            )
        try:
            slot = Slot(slot_text)
        except ValueError:
            names = ", ".join(s.value for s in Slot)
            raise NotationError(
                f"unknown slot {_shown(slot_text)} in {_shown(text)} (one of {names})"
            ) from None
        tile = Tile.parse(tile_text)
        if _POINT_RE.fullmatch(text) is None:
            raise NotationError(f"not a connection point: {_shown(text)}")
        return Point(tile, slot)

    @property
    def value(self) -> int:
        """The pip value a tile must match to join here."""
        if self.slot is Slot.HIGH:
            return self.tile.high
        return self.tile.low

    @property
    def text(self) -> str:
        """Canonical text form."""
        return f"{self.tile.text}:{self.slot.value}"

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Point.parse({self.text!r})"


@dataclass(frozen=True, slots=True)
class Placement:
    """A tile put on the table: the opening (``target`` is None) or joined to a point."""

    tile: Tile
    target: Point | None = None
    key: int = field(init=False, repr=False, compare=False)
    """``tile.code * KEY_STRIDE``, plus ``target.code + 1`` when the tile joins a point."""

    def __post_init__(self) -> None:
        target = self.target
        base = self.tile.code * KEY_STRIDE
        object.__setattr__(self, "key", base if target is None else base + target.code + 1)

    @staticmethod
    def parse(text: str) -> Placement:
        """Read ``[a|b]`` (opening) or ``[a|b]@[c|d]:slot``."""
        tile_text, sep, point_text = text.partition("@")
        tile = Tile.parse(tile_text)
        target = Point.parse(point_text) if sep else None
        if _PLACEMENT_RE.fullmatch(text) is None:
            raise NotationError(
                f"not a placement: {_shown(text)} "
                "(expected a form like [1|4] or [1|2]@[1|1]:line-b)"
            )
        return Placement(tile, target)

    @property
    def text(self) -> str:
        """Canonical text form."""
        return self.tile.text if self.target is None else f"{self.tile.text}@{self.target.text}"

    @property
    def joining_slot(self) -> Slot | None:
        """The slot of the placed tile that touches the target (None for the opening)."""
        if self.target is None:
            return None
        if self.tile.is_double:
            return Slot.LINE_A
        return Slot.LOW if self.tile.low == self.target.value else Slot.HIGH

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Placement.parse({self.text!r})"


class Verb(enum.Enum):
    """What a player does on a turn."""

    # Identity, as an Enum's equality is: the refusal order tests a verb's membership once per
    # refusal, and Enum's own hash (of the name, in Python) was a tenth of a variant's time.
    __hash__ = object.__hash__

    PLAY = "play"
    """Put a tile on the table."""
    DRAW = "draw"
    """Take the top tile of the boneyard."""
    PASS = "pass"
    """Give the turn away: only when unable to play and the boneyard is empty."""


@dataclass(frozen=True, slots=True)
class Action:
    """One step of a round by one seat: ``0 play [1|4]``, ``1 draw``, ``2 pass``."""

    seat: int
    verb: Verb
    placement: Placement | None = None
    code: int = field(init=False, repr=False, compare=False)
    """The placement's key for a play, :data:`DRAW_CODE` or :data:`PASS_CODE` (set when the
    action is made; an engine may read an action by its seat and code alone)."""

    def __post_init__(self) -> None:
        placement = self.placement
        if (self.verb is Verb.PLAY) != (placement is not None):
            raise NotationError("a play action carries a placement; draw and pass carry none")
        if self.seat < 0:
            raise NotationError(f"no seat {self.seat}: seats are numbered from 0")
        if placement is not None:
            object.__setattr__(self, "code", placement.key)
        else:
            object.__setattr__(self, "code", DRAW_CODE if self.verb is Verb.DRAW else PASS_CODE)

    @staticmethod
    def parse(text: str) -> Action:
        """Read ``<seat> play <placement>``, ``<seat> draw`` or ``<seat> pass``."""
        found = _ACTION_TEXTS.get(text)
        if found is not None:
            return found
        action = Action._read(text)
        if len(_ACTION_TEXTS) < _CACHE_LIMIT:
            _ACTION_TEXTS[text] = action
        return action

    @staticmethod
    def _read(text: str) -> Action:
        parts = text.split()
        if len(parts) < 2 or not (parts[0].isascii() and parts[0].isdigit()):
            raise NotationError(
                f"not an action: {_shown(text)} (expected '<seat> play <placement>', "
                "'<seat> draw' or '<seat> pass')"
            )
        try:
            verb = Verb(parts[1])
        except ValueError:
            raise NotationError(
                f"unknown verb {_shown(parts[1])} in {_shown(text)} (play, draw or pass)"
            ) from None
        if verb is Verb.PLAY and len(parts) != 3:
            raise NotationError(f"{_shown(text)}: 'play' takes one placement")
        if verb is not Verb.PLAY and len(parts) != 2:
            raise NotationError(f"{_shown(text)}: {verb.value!r} takes nothing after it")
        placement = Placement.parse(parts[2]) if verb is Verb.PLAY else None
        if _ACTION_RE.fullmatch(text) is None:
            raise NotationError(f"not an action: {_shown(text)} (single spaces between its words)")
        if len(parts[0]) > MAX_SEAT_DIGITS:  # int() of over 4,300 digits raises ValueError
            raise NotationError(
                f"not an action: {_shown(text)} (a seat of {len(parts[0]):,} digits; "
                f"at most {MAX_SEAT_DIGITS})"
            )
        return Action(int(parts[0]), verb, placement)

    @property
    def text(self) -> str:
        """Canonical text form."""
        base = f"{self.seat} {self.verb.value}"
        return base if self.placement is None else f"{base} {self.placement.text}"

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Action.parse({self.text!r})"
