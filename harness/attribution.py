"""Which rule a difference, and so a failed case, is counted under (``spec/README.md``).

Each key of an observation is governed by a rule of the spec: a placement's ``credit`` by SCR-2,
an available point of a branch by SPN-2, a round's ``pips`` by PEN-1, and so on. :data:`GOVERNS`
lists, for the last key of a difference's path, the rules that may govern it, most specific
first; a difference is counted under the first of them that its case checks, or else the first
of them. A placement (a connection, a play) that differs at a spinner's side is the spinner
rule's (SPN-*), not LAY-1's, whatever rules the case lists: the difference decides, not the
case. A refusal is counted under the rule the case expects to refuse it. A difference whose
key names no rule (a list of the wrong length, a scoring value) is counted under the case's
primary rule.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Final

from fiveup.contract.engine import JSON
from fiveup.contract.notation import Action, Placement, Slot, Tile, Verb
from fiveup.errors import NotationError

from .compare import REFUSED_ALLOWED, Difference, json_key
from .corpus import Case
from .spec_index import spec_rules

__all__ = ["GOVERNS", "case_rule", "diagnose", "rule_of"]

GOVERNS: Final[Mapping[str, tuple[str, ...]]] = {
    "credit": ("SCR-2",),
    "displayed": ("PTS-1",),
    "sum": ("CNT-*", "SCR-1"),
    "contributions": ("CNT-*", "CNT-1"),
    "spinners": ("SPN-1", "SPN-4"),
    "tiles": ("LAY-1", "LAY-4"),
    "connections": ("LAY-1", "LAY-2", "LAY-4"),
    "seat": ("TRN-1", "TRN-2"),
    "play": ("LAY-1", "DRW-3", "TRN-1"),
    "draw": ("DRW-2", "DRW-1", "SET-4"),
    "pass": ("DRW-5",),
    "turn": ("TRN-1", "TRN-2", "DRW-3"),
    "pending": ("DRW-3", "DRW-4"),
    "hands": ("SET-3", "LAY-3", "DRW-2"),
    "boneyard": ("SET-4", "DRW-2"),
    "end": ("END-1", "END-2"),
    "winner": ("END-3", "MAT-2", "MAT-3", "MAT-4"),
    "pips": ("PEN-1",),
    "penalties": ("PEN-2", "PEN-4", "PEN-1"),
    "next_opener": ("OPN-3", "OPN-4"),
    "result": ("END-1", "END-2"),
    "over": ("MAT-2", "MAT-3", "MAT-1"),
    "scores": ("SCR-3", "PEN-3", "PEN-4", "MAT-5", "MAT-1"),
    "rounds": ("MAT-1", "MAT-2"),
}
"""The rules that may govern a key, most specific first; ``XXX-*`` is any rule of a section."""

_POINT = re.compile(r"^\[\d\|\d\]:(low|high|line-[ab]|branch-[ab])$")
_POINT_RULES: Final = {
    "low": ("LAY-2", "CNT-1"),
    "high": ("LAY-2", "CNT-1"),
    "line-a": ("SPN-2", "SPN-1", "SPN-4"),
    "line-b": ("SPN-2", "SPN-1", "SPN-4"),
    "branch-a": ("SPN-2", "SPN-3", "SPN-4"),
    "branch-b": ("SPN-2", "SPN-3", "SPN-4"),
}
_REPLAY_NOTE = "a refused action changed the game"

_SPINNER_SIDE = re.compile(r"\[\d\|\d\]:(line-[ab]|branch-[ab])")
_PLACING: Final = frozenset({"connections", "play"})
"""Keys whose values name connection points: the point decides the rule."""


def _choose(candidates: Sequence[str], rules: Sequence[str]) -> str:
    for candidate in candidates:
        if candidate.endswith("-*"):
            prefix = candidate[:-1]
            for rule in rules:
                if rule.startswith(prefix):
                    return rule
        elif candidate in rules:
            return candidate
    first = next((c for c in candidates if not c.endswith("-*")), "")
    return first or rules[0]


def _expected_refusal(case: Case) -> str | None:
    error: JSON = case.expect.get("error")
    return str(error["rule"]) if isinstance(error, dict) and "rule" in error else None


def _strings(value: JSON) -> list[str]:
    found: list[str] = []
    todo = [value]
    while todo and len(found) < 64:  # an engine may send any list: look at a few
        item = todo.pop()
        if isinstance(item, str):
            found.append(item)
        elif isinstance(item, list):
            todo.extend(reversed(item))
    return found


def _spinner_side(expected: JSON, actual: JSON) -> str | None:
    """The spinner side (``line-a``...) that the first differing placement names, if any."""
    if isinstance(expected, list) and isinstance(actual, list):
        for index in range(max(len(expected), len(actual))):
            want = expected[index] if index < len(expected) else None
            got = actual[index] if index < len(actual) else None
            if want != got:
                expected, actual = want, got
                break
    for text in [*_strings(expected), *_strings(actual)]:
        side = _SPINNER_SIDE.search(text)
        if side:
            return side[1]
    return None


def _same_tile(expected: JSON, actual: JSON) -> bool:
    """Not two plays of different tiles (``[1|5]@...`` against ``[2|3]@...``).

    Two tiles apart are no question of where a tile goes.
    """
    if isinstance(expected, str) and isinstance(actual, str):
        return expected.split("@")[0] == actual.split("@")[0]
    return True


def rule_of(case: Case, difference: Difference) -> str:
    """The rule ``difference`` is counted under."""
    parts = [part for part in difference.path.split("/") if part]
    refusal = _expected_refusal(case)
    if parts[:1] == ["error"] or _REPLAY_NOTE in difference.note:
        return refusal if refusal is not None else _refusal_rule(case, difference)
    for part in reversed(parts):
        point = _POINT.match(part)
        if point:
            return _choose(_POINT_RULES[point[1]], case.rules)
        if part == "points":
            return _choose(("SPN-2", "LAY-2", "CNT-1"), case.rules)
        if part in _PLACING and _same_tile(difference.expected, difference.actual):
            side = _spinner_side(difference.expected, difference.actual)
            if side is not None:
                return _choose(_POINT_RULES[side], case.rules)
        if part in GOVERNS:
            counted = None
            if part == "contributions":
                counted = _counting_rule(case, difference.expected, difference.actual)
            return counted or _choose(GOVERNS[part], case.rules)
    return case.primary_rule


def _refusal_rule(case: Case, difference: Difference) -> str:
    """The rule of a refusal the case does not expect, or of one that changed the game."""
    actual = difference.actual
    if difference.note == REFUSED_ALLOWED:
        allowing = _allowing_rule(case, actual)
        if allowing is not None:
            return allowing
    cited = actual.get("rule") if isinstance(actual, dict) else None
    # The engine names the rule it applied; one the spec does not have counts nowhere.
    known = isinstance(cited, str) and (cited in case.rules or cited in spec_rules())
    return str(cited) if known else case.primary_rule


_ALLOWING: Final = {
    Slot.LOW: "LAY-1",
    Slot.HIGH: "LAY-1",
    Slot.LINE_A: "SPN-2",
    Slot.LINE_B: "SPN-2",
    Slot.BRANCH_A: "SPN-3",
    Slot.BRANCH_B: "SPN-3",
}
"""The rule that allows a play at each slot (a double at a branch: SPN-4)."""


def _allowing_rule(case: Case, error: JSON) -> str | None:
    """The rule that allows the action an engine refused where the case expects none.

    The refusal is the root of every difference after it (the steps stop there); the rule it
    breaks is the one that allows the action, not the one the engine cited: a play at a
    spinner's line side SPN-2, at a branch SPN-3 (SPN-4 for a double there), elsewhere LAY-1;
    a draw DRW-1, a pass DRW-5.
    """
    at = error.get("at") if isinstance(error, dict) else None
    placements, actions = case.given.get("placements"), case.given.get("actions")
    given = placements if isinstance(placements, list) else actions
    if type(at) is not int or not isinstance(given, list) or not 0 <= at < len(given):
        return None
    text = given[at]
    placement: Placement | None
    try:
        if placements is given:
            placement = Placement.parse(str(text))
        else:
            action = Action.parse(str(text))
            if action.verb is not Verb.PLAY:
                return "DRW-1" if action.verb is Verb.DRAW else "DRW-5"
            placement = action.placement
    except NotationError:
        return None
    if placement is None or placement.target is None:  # an opening: its own rules decide
        return None
    slot = placement.target.slot
    if slot.is_branch and placement.tile.is_double:
        return "SPN-4"
    return _ALLOWING[slot]


def _entries_of(value: JSON) -> Counter[tuple[str, str]]:
    """A list of contributions as tile texts and values, each value as the comparison sees it."""
    return Counter(
        (entry[0], json_key(entry[1]))
        for entry in (value if isinstance(value, list) else [])
        if isinstance(entry, list) and len(entry) == 2 and isinstance(entry[0], str)
    )


def _double_value(text: str) -> int | None:
    """The value of the double a tile text names; None for another tile or no tile."""
    try:
        tile = Tile.parse(text)
    except NotationError:
        return None
    return tile.low if tile.is_double else None


def _counting_rule(case: Case, expected: JSON, actual: JSON) -> str | None:
    """The counting rule (CNT-2 to CNT-5) the tiles whose contributions differ fall under.

    A double the case counts (a terminal double) is CNT-3's. One it does not count is internal:
    CNT-4's, or CNT-5's when the engine counts it the value of its one unstarted branch (the
    case's ``points`` say which branch is open; both halves, ``2v``, is the double counted
    whole, CNT-4). Any other tile's free end is CNT-2's. None when no entry differs by tile.
    """
    wanted, given = _entries_of(expected), _entries_of(actual)
    differing = [*(wanted - given), *(given - wanted)]
    if not differing or not given:  # nothing counted at all: no tile's rule, but the sum's
        return None
    counted = {tile for tile, _ in wanted}
    doubles = [(tile, v) for tile, v in differing if _double_value(tile) is not None]
    if not doubles:
        return "CNT-2"
    double, value = doubles[0]
    if double in counted:
        return "CNT-3"
    layout = case.expect.get("layout")
    points = layout.get("points") if isinstance(layout, dict) else None
    open_branches = sum(
        isinstance(point, str) and point.startswith(f"{double}:branch-")
        for point in (points if isinstance(points, dict) else {})
    )
    return "CNT-5" if open_branches == 1 and value == json_key(_double_value(double)) else "CNT-4"


def _credit(total: int) -> int:
    """SCR-2, restated so that the harness does not lean on the engine it judges."""
    return total if total > 0 and total % 5 == 0 else 0


def _rounded(pips: int) -> int:
    """PEN-2, restated for the same reason."""
    return (pips + 2) // 5 * 5


def _entries(observation: JSON) -> list[Mapping[str, JSON]]:
    """Every step, event and result object of an observation, at any depth."""
    found: list[Mapping[str, JSON]] = []
    todo = [observation]
    while todo:
        value = todo.pop()
        if isinstance(value, dict):
            found.append(value)
            todo.extend(value.values())
        elif isinstance(value, list):
            todo.extend(value)
    return found


def diagnose(observation: JSON) -> str | None:
    """A rule the engine's own observation contradicts, whatever the case expects.

    A credit that is not SCR-2 of its own sum, or penalties that are not PEN-2 of the pips left
    (none at all: PEN-1), explain every score that follows from them: such a case is counted
    under that rule.
    """
    for entry in _entries(observation):
        total, credit = entry.get("sum"), entry.get("credit")
        if type(total) is int and type(credit) is int and credit != _credit(total):
            return "SCR-2"
        wrong = _penalty_rule(entry.get("pips"), entry.get("penalties"))
        if wrong is not None:
            return wrong
    return None


def _penalty_rule(pips: JSON, penalties: JSON) -> str | None:
    """PEN-1 when nothing is charged for pips left, PEN-2 when a penalty is not their rounding."""
    if not (isinstance(pips, list) and isinstance(penalties, list) and len(pips) == len(penalties)):
        return None
    pairs = [(p, q) for p, q in zip(pips, penalties, strict=True) if type(p) is int and p >= 0]
    if not any(type(q) is int and q != _rounded(p) for p, q in pairs):
        return None
    if all(q == 0 for _, q in pairs) and any(_rounded(p) for p, _ in pairs):
        return "PEN-1"
    return "PEN-2"


def _side_penalty_rule(case: Case, differences: Sequence[Difference]) -> str | None:
    """PEN-4 when a side's penalty is its pips merged then rounded; PEN-2 for another sum.

    A side's penalty is each player's pips rounded, then added (PEN-4); an engine that rounds
    each right cannot be wrong there but by merging, and one that merges cannot be told apart
    from one whose rounding is wrong (PEN-2) unless its answer is the merged rounding.
    """
    given = case.given
    pips = given.get("input")
    if given.get("function") != "side_penalty" or not isinstance(pips, list):
        return None
    if not all(type(p) is int and p >= 0 for p in pips):
        return None
    value = next((d.actual for d in differences if d.path == "/value"), None)
    if type(value) is not int:
        return None
    return "PEN-4" if value == _rounded(sum(pips)) else "PEN-2"


def case_rule(case: Case, differences: Sequence[Difference], observation: JSON = None) -> str:
    """The rule a failed case is counted under (its primary rule when nothing differs).

    A rule the observation contradicts by itself comes first; then the first difference's.
    """
    if not differences:
        return case.primary_rule
    diagnosed = diagnose(observation) or _side_penalty_rule(case, differences)
    if diagnosed is not None:
        return diagnosed
    for difference in differences:  # a refusal the rules do not make: what follows is its echo
        if difference.note == REFUSED_ALLOWED and difference.rule:
            return difference.rule
    ruled = [d for d in differences if d.rule]
    if ruled and ruled[0].path.endswith("/sum"):
        # a sum is the symptom of what is counted: the tile whose contribution differs says why
        for d in ruled:
            counted = d.path.endswith("/contributions") and _counting_rule(
                case, d.expected, d.actual
            )
            if counted:
                return counted
    return ruled[0].rule if ruled else case.primary_rule
