"""How a case's expectations are compared with an observation: the table of spec/fixtures.md.

``spec/fixtures.md`` ("How expectations are compared") lists, for each key an expectation may
name, the levels it appears at and the kind of comparison it gets. :data:`TABLE` is that table
as data, row for row (``tests/test_compare.py`` holds the two together), and :func:`compare`
walks an expectation through it: each key the case names is compared by the kind of its row,
and the kinds that hold keys of their own (a ``state``, a ``layout``, a ``rounds`` entry) hand
those keys back to the table or to their own parts.

What a level compares at the top of its expectation, and which ``error`` keys, is the level's
business (:mod:`fiveup.harness.levels`); the walk itself knows no level.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final

from fiveup.contract.engine import JSON, Level

__all__ = [
    "DIVIDE",
    "ENTRY_PARTS",
    "LAYOUT_PARTS",
    "LEGAL",
    "MAX_KEPT",
    "MAX_LISTED",
    "MISSING",
    "REFUSED_ALLOWED",
    "STATE_PARTS",
    "TABLE",
    "Difference",
    "Kind",
    "Row",
    "compare",
    "json_key",
    "kept",
    "rows_for",
    "same_json",
]

MISSING: Final = "<missing>"
"""The actual value of a key the observation does not have."""
REFUSED_ALLOWED: Final = "the engine refused an action the rules allow"
"""The note of a refusal the case does not expect (attribution.py counts it first)."""


@dataclass(frozen=True, slots=True)
class Difference:
    """One expected value the engine did not produce."""

    path: str
    expected: JSON
    actual: JSON
    note: str = ""
    rule: str = ""
    """The rule the difference is counted under (set by the runner, see attribution.py)."""

    @property
    def text(self) -> str:
        """``/path: expected X, got Y``."""
        extra = f" ({self.note})" if self.note else ""
        return (
            f"{self.path or '/'}: expected {_show(self.expected)}, got {_show(self.actual)}{extra}"
        )

    def to_json(self) -> dict[str, JSON]:
        """The difference as a JSON object."""
        return {
            "path": self.path,
            "expected": self.expected,
            "actual": self.actual,
            "note": self.note,
            "rule": self.rule,
        }


def _show(value: JSON) -> str:
    if value == MISSING:
        return "nothing"
    # as the fixture and the observation write it (true, null, {"a": 1}), not repr; ASCII, so
    # that an engine's U+202E inside a list is escaped, as repr escaped it
    text = value if isinstance(value, str) else json.dumps(value)
    return text if len(text) <= 300 else text[:297] + "..."


MAX_KEPT: Final = 65_536
"""The most characters of JSON an engine's value may take in a difference or a kept observation.

The largest observation of the reference over the corpus and thousands of random cases is
about 11,000 characters; an engine may send up to the line limit (1 MiB) for every case, which
a report would repeat, indented, for every case (hundreds of megabytes)."""


def kept(value: JSON) -> JSON:
    """``value``, or when its JSON is longer than :data:`MAX_KEPT`, a text that says so."""
    if isinstance(value, str):
        size = len(value)
    elif isinstance(value, (list, dict)):
        try:
            size = len(json.dumps(value))
        except (TypeError, ValueError, RecursionError):
            return value  # not JSON: the runner reports that, not the comparison
    else:
        return value
    if size <= MAX_KEPT:
        return value
    what = (
        "a text" if isinstance(value, str) else "a list" if isinstance(value, list) else "an object"
    )
    return (
        f"<{what} of {size:,} characters of JSON, not kept: past the {MAX_KEPT:,} a report keeps>"
    )


# --------------------------------------------------------------------------- the kinds

Compare = Callable[["_Walk", str, str, JSON, JSON], None]
"""One kind of comparison: ``(walk, path, key, expected, actual)``; differences go to the walk."""


@dataclass(frozen=True, slots=True)
class Kind:
    """A kind of comparison, named by the words spec/fixtures.md uses for it."""

    name: str
    words: tuple[str, ...]
    """Words the table's ``comparison`` cell says for this kind (each appears in its row)."""
    compare: Compare = field(repr=False)
    always: bool = False
    """Compared even when the case does not name the key (``error``: not named means none)."""


def _get(obj: JSON, key: str) -> JSON:
    return obj.get(key, MISSING) if isinstance(obj, dict) else MISSING


def _plain(value: JSON) -> JSON:
    """``value`` with each whole number written without a point: JSON's ``2.0`` is ``2``."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def json_key(value: JSON) -> str:
    """The value as canonical JSON text: equal texts are equal values, as JSON has it."""
    return json.dumps(_plain(value), sort_keys=True)


def same_json(expected: JSON, actual: JSON) -> bool:
    """Equal as JSON: ``true`` is not ``1`` at any depth (as ``==`` has it), ``2.0`` is ``2``."""
    if expected != actual:
        return False
    if type(expected) is type(actual) and not isinstance(expected, (list, dict)):
        return True
    return json_key(expected) == json_key(actual)


def _exact(w: _Walk, path: str, key: str, exp: JSON, act: JSON) -> None:
    if not same_json(exp, act):
        w.add(path, exp, act)


def _each_exactly(w: _Walk, path: str, key: str, exp: Mapping[str, JSON], act: JSON) -> None:
    """Partial: only the keys the case names, each exactly."""
    for name, value in exp.items():
        _exact(w, f"{path}/{name}", name, value, _get(act, name))


def _as_set(w: _Walk, path: str, key: str, exp: list[JSON], act: JSON) -> None:
    if not isinstance(act, list):
        w.add(path, exp, act, "not a list")
    elif Counter(map(json_key, exp)) != Counter(map(json_key, act)):
        w.add(path, sorted(exp, key=json_key), sorted(act, key=json_key), "order does not matter")


def _points(w: _Walk, path: str, key: str, exp: Mapping[str, int], act: JSON) -> None:
    if not isinstance(act, dict):
        w.add(path, exp, act, "not a mapping")
        return
    for point in sorted(set(exp) | set(act)):
        e, a = exp.get(point, MISSING), act.get(point, MISSING)
        if e == MISSING:
            w.add(f"{path}/{point}", e, a, "the engine offers a point the rules do not open")
        elif a == MISSING:
            w.add(f"{path}/{point}", e, a, "an available point the engine does not offer")
        elif not same_json(e, a):
            w.add(f"{path}/{point}", e, a)


def _entries(w: _Walk, path: str, key: str, exp: Sequence[Mapping[str, JSON]], act: JSON) -> None:
    if not isinstance(act, list):
        w.add(path, f"{len(exp)} entries", act, "not a list")
        return
    if len(exp) != len(act):
        w.add(path, f"{len(exp)} entries", f"{len(act)} entries")
    parts = ENTRY_PARTS.get(key)
    for i, (e, a) in enumerate(zip(exp, act, strict=False)):
        if parts is None:
            _each_exactly(w, f"{path}/{i}", key, e, a)
        else:
            w.walk(f"{path}/{i}", parts, e, a)


def _partial(w: _Walk, path: str, key: str, exp: Mapping[str, JSON], act: JSON) -> None:
    """Partial: the keys with a row of their own by it (``as below``), every other exactly."""
    for name, value in exp.items():
        kind = w.kind_of(name) if name in STATE_PARTS else EXACT
        kind.compare(w, f"{path}/{name}", name, value, _get(act, name))


def _hands(w: _Walk, path: str, key: str, exp: list[list[JSON]], act: JSON) -> None:
    if not isinstance(act, list) or len(act) != len(exp):
        w.add(path, exp, act)
        return
    for i, (e, a) in enumerate(zip(exp, act, strict=True)):
        _as_set(w, f"{path}/{i}", key, e, a)


def _result(w: _Walk, path: str, key: str, exp: JSON, act: JSON) -> None:
    if not isinstance(exp, dict):
        _exact(w, path, key, exp, act)
    elif not isinstance(act, dict):
        w.add(path, exp, act, "the round is not over")
    else:
        _each_exactly(w, path, key, exp, act)


def _layout(w: _Walk, path: str, key: str, exp: Mapping[str, JSON], act: JSON) -> None:
    for name, value in exp.items():
        kind = LAYOUT_PARTS.get(name, EXACT)
        kind.compare(w, f"{path}/{name}", name, value, _get(act, name))


def _error(w: _Walk, path: str, key: str, want: JSON, got: JSON) -> None:
    if want is None:
        if got not in (None, MISSING):
            w.add(path, None, got, REFUSED_ALLOWED)
        return
    if not isinstance(got, dict):
        w.add(path, want, got, "the engine accepted an action the rules forbid")
        return
    for name in w.error_keys:
        _exact(w, f"{path}/{name}", name, want[name], _get(got, name))


MAX_LISTED: Final = 10
"""How many actions a note of a ``legal`` or ``divide`` difference names; the rest are counted."""


def _listed(actions: Sequence[JSON]) -> str:
    shown = ", ".join(map(_show, actions[:MAX_LISTED]))
    more = len(actions) - MAX_LISTED
    return f"{shown} and {more} more" if more > 0 else shown


def _legal(w: _Walk, path: str, key: str, exp: list[JSON], act: JSON) -> None:
    """In the canonical order; the note says which actions differ, or that only the order does."""
    if same_json(exp, act):
        return
    if not isinstance(act, list):
        w.add(path, exp, act, "not a list")
        return
    wanted, offered = Counter(map(json_key, exp)), Counter(map(json_key, act))
    missing = [a for a in exp if json_key(a) not in offered]
    extra = list({json_key(a): a for a in act if json_key(a) not in wanted}.values())
    repeated = [a for a in exp if offered[json_key(a)] > 1]
    notes = []
    if missing:
        notes.append(f"legal actions the engine does not offer: {_listed(missing)}")
    if extra:
        notes.append(f"actions the rules do not allow: {_listed(extra)}")
    if repeated:
        notes.append(f"actions listed more than once: {_listed(repeated)}")
    if not notes:
        notes.append("the same actions in another order: legal is listed in the canonical order")
    w.add(path, exp, act, "; ".join(notes))


def _divide(w: _Walk, path: str, key: str, exp: Mapping[str, int], act: JSON) -> None:
    """Every first action with its count, both ways: the divide a developer bisects with.

    Of the first actions the rules do not allow, :data:`MAX_LISTED` are differences of their own
    and the rest one difference that counts them: an engine may send thousands.
    """
    if not isinstance(act, dict):
        w.add(path, exp, act, "not a mapping: the engine gave no divide")
        return
    for action, e in exp.items():
        a = act.get(action, MISSING)
        if a == MISSING:
            w.add(f"{path}/{action}", e, a, "a legal first action the engine does not count")
        elif not same_json(e, a):
            w.add(f"{path}/{action}", e, a, "sequences under this first action")
    extra = [action for action in act if action not in exp]
    for action in extra[:MAX_LISTED]:
        w.add(f"{path}/{action}", MISSING, act[action], "a first action the rules do not allow")
    if len(extra) > MAX_LISTED:
        more = len(extra) - MAX_LISTED
        w.add(
            path,
            f"{len(exp)} first actions",
            f"{len(act)} first actions",
            f"and {more} more first actions the rules do not allow, not listed one by one",
        )


EXACT: Final = Kind("exact", ("exact",), _exact)
"""Equal values: numbers, texts, true, false and null exactly (true is not 1); lists in order."""
ENTRIES: Final = Kind("entries", ("a list of entries", "exactly as many entries"), _entries)
"""As many entries as the case lists; each entry partial (see :data:`ENTRY_PARTS`)."""
PARTIAL: Final = Kind("partial", ("partial", "only the keys it names"), _partial)
"""Only the keys the case names; those of :data:`STATE_PARTS` by their rows, others exactly."""
HANDS: Final = Kind("hands", ("one entry per seat", "as a set"), _hands)
"""One hand per seat (the count checked); each hand a set."""
RESULT: Final = Kind("result", ("`null`", "an object", "only the keys named"), _result)
"""``null`` exactly; an object: the engine's is an object too, and the named keys exactly."""
LIST: Final = Kind("list", ("as lists",), _exact)
"""A list in its order (placement order): exactly."""
SET: Final = Kind("set", ("as a set",), _as_set)
"""A list whose order does not matter."""
MULTISET: Final = Kind("multiset", ("as a multiset",), _as_set)
"""A list whose order does not matter and where an entry may repeat (counted)."""
LEGAL: Final = Kind("legal", ("as a list", "canonical order"), _legal)
"""The legal actions in the canonical order: exactly, the note naming what differs."""
DIVIDE: Final = Kind("divide", ("every first action", "both ways"), _divide)
"""Each first action with its count, and no other action; each difference per first action."""
POINTS: Final = Kind("points", ("exact mapping both ways",), _points)
"""Every point the case names with its value, and no other point."""
LAYOUT_PARTS: Final[Mapping[str, Kind]] = {
    "tiles": LIST,
    "connections": LIST,
    "spinners": SET,
    "contributions": MULTISET,
    "points": POINTS,
    "sum": EXACT,
}
"""The keys of a layout and their kinds (any other key the case names: exactly)."""
LAYOUT: Final = Kind(
    "layout",
    ("partial", "only the keys it names", *(w for k in LAYOUT_PARTS.values() for w in k.words)),
    _layout,
)
"""Partial: only the keys the case names, each by its kind of :data:`LAYOUT_PARTS`."""
ERROR: Final = Kind("error", ("always checked", "never compared"), _error, always=True)
"""Named: an object whose error keys (the level's) equal the case's; not named: null."""

ENTRY_PARTS: Final[Mapping[str, tuple[str, ...]]] = {"rounds": ("events", "state")}
"""Lists whose entries hold keys compared by their own rows (in this order; no other key).
An entry of any other list is partial, each key it names exactly."""
STATE_PARTS: Final = ("hands", "layout", "result")
"""The keys of a ``state`` compared by their own rows (``as below``); the others exactly."""


# --------------------------------------------------------------------------- the table


@dataclass(frozen=True, slots=True)
class Row:
    """One row of the table: the keys, the levels they appear at, their kind of comparison."""

    keys: tuple[str, ...]
    levels: tuple[Level, ...]
    kind: Kind


_ALL_BUT_SCORING: Final = (Level.LAYOUT, Level.ROUND, Level.MATCH)
_ROUNDS: Final = (Level.ROUND, Level.MATCH)
_REFUSING: Final = (*_ALL_BUT_SCORING, Level.MOVES)

TABLE: Final[tuple[Row, ...]] = (
    Row(("value",), (Level.SCORING,), EXACT),
    Row(("steps", "events", "rounds"), _ALL_BUT_SCORING, ENTRIES),
    Row(("state",), _ROUNDS, PARTIAL),
    Row(("hands",), _ROUNDS, HANDS),
    Row(("result",), _ROUNDS, RESULT),
    Row(("layout",), _ALL_BUT_SCORING, LAYOUT),
    Row(("over", "winner", "scores"), (Level.MATCH,), EXACT),
    Row(("legal",), (Level.MOVES,), LEGAL),
    Row(("count",), (Level.MOVES,), EXACT),
    Row(("divide",), (Level.MOVES,), DIVIDE),
    Row(("error",), _REFUSING, ERROR),
)
"""spec/fixtures.md, "How expectations are compared", row for row."""


def rows_for(level: Level) -> tuple[Row, ...]:
    """The rows of the table that apply at ``level``, in the table's order."""
    return tuple(row for row in TABLE if level in row.levels)


# --------------------------------------------------------------------------- the walk


@dataclass(slots=True)
class _Walk:
    rows: Mapping[str, Kind]
    error_keys: tuple[str, ...]
    found: list[Difference] = field(default_factory=list)

    def add(self, path: str, expected: JSON, actual: JSON, note: str = "") -> None:
        self.found.append(Difference(path, expected, kept(actual), note))

    def kind_of(self, key: str) -> Kind:
        return self.rows[key]

    def walk(self, path: str, keys: Iterable[str], exp: Mapping[str, JSON], act: JSON) -> None:
        """Compare the keys in this order, each the case names by its row."""
        for key in keys:
            kind = self.kind_of(key)
            if key in exp or kind.always:
                kind.compare(self, f"{path}/{key}", key, exp.get(key), _get(act, key))


def compare(
    rows: Sequence[Row],
    keys: Sequence[str],
    error_keys: tuple[str, ...],
    expect: Mapping[str, JSON],
    observation: JSON,
) -> list[Difference]:
    """Every difference between an expectation and an observation.

    ``keys`` are the keys compared at the top of the expectation, in order; each is compared by
    its row of ``rows`` (those of one level), ``error`` with ``error_keys``.
    """
    by_key = {key: row.kind for row in rows for key in row.keys}
    w = _Walk(by_key, error_keys)
    w.walk("", keys, expect, observation)
    return w.found
