"""The comparison table: spec/fixtures.md and the code agree, and the table-driven comparator
answers exactly what the comparator it replaced answered.

The old comparator (``harness/runner.py`` at commit dcce518, before the table) is kept below,
copied verbatim but for its name and its equality (now JSON's: ``2.0`` is ``2``, and ``true``
is not ``1`` inside a list either), as the oracle: over every bundled case, against the
reference engine's observation, the observations of the wrong engines and many mutations of
them, both must produce the same differences in the same order, down to the types of the values
(``True`` is not ``1``) and the order of the keys of a dict.
"""

from __future__ import annotations

import copy
import json
import random
import re
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from fiveup import strategies as fs
from fiveup.contract.engine import JSON, Engine, Level
from fiveup.harness.compare import (
    ENTRY_PARTS,
    LAYOUT,
    LAYOUT_PARTS,
    MAX_KEPT,
    STATE_PARTS,
    TABLE,
    Difference,
    Row,
    kept,
    rows_for,
    same_json,
)
from fiveup.harness.corpus import Case, load_corpus
from fiveup.harness.levels import LEVELS
from fiveup.harness.runner import compare
from fiveup.mutants import WRONG_ENGINES
from fiveup.reference.engine import ReferenceEngine

ROOT = Path(__file__).resolve().parent.parent
FIXTURES_MD = ROOT / "spec" / "fixtures.md"


# --------------------------------------------------------------------------- the document


def _cells(line: str) -> list[str]:
    """The cells of a GitHub table row: split at the pipes not escaped, ``\\|`` unescaped."""
    inner = line.strip().removeprefix("|").removesuffix("|")
    return [cell.strip().replace("\\|", "|") for cell in re.split(r"(?<!\\)\|", inner)]


def _doc_table() -> list[tuple[tuple[str, ...], tuple[str, ...], str]]:
    """The table of "How expectations are compared": keys, levels and comparison per row."""
    text = FIXTURES_MD.read_text(encoding="utf-8")
    section = text.split("## How expectations are compared", 1)[1].split("\n## ", 1)[0]
    lines = [line for line in section.splitlines() if line.startswith("|")]
    header, rule, *rows = (_cells(line) for line in lines)
    assert header == ["key", "level", "comparison"]
    assert all(set(cell) <= set("-:") for cell in rule)
    table = []
    for cells in rows:
        assert len(cells) == 3, cells
        keys = tuple(re.findall(r"`([^`]+)`", cells[0]))
        assert re.sub(r"`[^`]+`|,|\s", "", cells[0]) == "", cells[0]
        levels = tuple(level.strip() for level in cells[1].split(","))
        table.append((keys, levels, cells[2]))
    return table


DOC = _doc_table()


def _doc_row(key: str) -> str:
    (text,) = [text for keys, _, text in DOC if key in keys]
    return text


def test_the_document_table_has_the_rows_of_the_code_table() -> None:
    code = [(row.keys, tuple(level.value for level in row.levels)) for row in TABLE]
    assert [(keys, levels) for keys, levels, _ in DOC] == code


@pytest.mark.parametrize("row", TABLE, ids=lambda row: ",".join(row.keys))
def test_each_row_says_the_words_of_its_kind(row: Row) -> None:
    (text,) = [text for keys, _, text in DOC if keys == row.keys]
    missing = [word for word in row.kind.words if word not in text]
    assert missing == [], f"{row.kind.name}: {text}"


def test_the_parts_of_a_kind_are_named_in_its_row() -> None:
    for key in LAYOUT_PARTS:
        assert f"`{key}`" in _doc_row("layout")
    for key in STATE_PARTS:
        assert f"`{key}`" in _doc_row("state")
    for key, parts in ENTRY_PARTS.items():
        assert all(f"`{part}`" in _doc_row(key) for part in (key, *parts))
    for spec in LEVELS.values():
        assert all(f"`{key}`" in _doc_row("error") for key in spec.error_keys)
    assert set(LAYOUT.words) >= {w for kind in LAYOUT_PARTS.values() for w in kind.words}


def test_every_key_a_level_compares_has_its_row() -> None:
    for level, spec in LEVELS.items():
        rows = rows_for(level)
        assert spec.rows == rows
        for key in spec.expects:
            assert [row for row in rows if key in row.keys], (level, key)
    for parts in (*ENTRY_PARTS.values(), STATE_PARTS):
        for key in parts:
            assert any(key in row.keys for row in TABLE)


def test_the_parser_reads_escaped_pipes() -> None:
    assert _cells("| `a` | b, c | x `[1\\|4]` y |") == ["`a`", "b, c", "x `[1|4]` y"]


# --------------------------------------------------------------------------- the oracle

_MISSING = "<missing>"


@dataclass(slots=True)
class _Diff:
    found: list[Difference] = field(default_factory=list)

    def add(self, path: str, expected: JSON, actual: JSON, note: str = "") -> None:
        self.found.append(Difference(path, expected, actual, note))


def _get(obj: JSON, key: str) -> JSON:
    return obj.get(key, _MISSING) if isinstance(obj, dict) else _MISSING


def _whole(text: str) -> float | int:
    number = float(text)
    return int(number) if number.is_integer() else number


def _plain(value: JSON) -> JSON:
    # through JSON text and back, whole numbers read as integers: what a JSON reader sees
    result: JSON = json.loads(json.dumps(value), parse_float=_whole)
    return result


def _same(expected: JSON, actual: JSON) -> bool:
    # as JSON text: true is not 1 at any depth, 2.0 is 2
    return _key(expected) == _key(actual)


def _exact(d: _Diff, path: str, exp: JSON, act: JSON) -> None:
    if not _same(exp, act):
        d.add(path, exp, act)


def _as_set(d: _Diff, path: str, exp: list[JSON], act: JSON) -> None:
    if not isinstance(act, list):
        d.add(path, exp, act, "not a list")
    elif Counter(map(_key, exp)) != Counter(map(_key, act)):
        d.add(path, sorted(exp, key=_key), sorted(act, key=_key), "order does not matter")


def _key(value: JSON) -> str:
    return json.dumps(_plain(value), sort_keys=True)


def _partial_list(
    d: _Diff,
    path: str,
    exp: Sequence[Mapping[str, JSON]],
    act: JSON,
    each: Callable[[_Diff, str, Mapping[str, JSON], JSON], None],
) -> None:
    if not isinstance(act, list):
        d.add(path, f"{len(exp)} entries", act, "not a list")
        return
    if len(exp) != len(act):
        d.add(f"{path}", f"{len(exp)} entries", f"{len(act)} entries")
    for i, (e, a) in enumerate(zip(exp, act, strict=False)):
        each(d, f"{path}/{i}", e, a)


def _partial(d: _Diff, path: str, exp: Mapping[str, JSON], act: JSON) -> None:
    for key, value in exp.items():
        _exact(d, f"{path}/{key}", value, _get(act, key))


def _layout(d: _Diff, path: str, exp: Mapping[str, JSON], act: JSON) -> None:
    for key, value in exp.items():
        got = _get(act, key)
        if key in ("spinners", "contributions"):
            _as_set(d, f"{path}/{key}", value, got)
        elif key == "points":
            _points(d, f"{path}/points", value, got)
        else:
            _exact(d, f"{path}/{key}", value, got)


def _points(d: _Diff, path: str, exp: Mapping[str, int], act: JSON) -> None:
    if not isinstance(act, dict):
        d.add(path, exp, act, "not a mapping")
        return
    for point in sorted(set(exp) | set(act)):
        e, a = exp.get(point, _MISSING), act.get(point, _MISSING)
        if e == _MISSING:
            d.add(f"{path}/{point}", e, a, "the engine offers a point the rules do not open")
        elif a == _MISSING:
            d.add(f"{path}/{point}", e, a, "an available point the engine does not offer")
        elif not _same(e, a):
            d.add(f"{path}/{point}", e, a)


def _state(d: _Diff, path: str, exp: Mapping[str, JSON], act: JSON) -> None:
    for key, value in exp.items():
        got = _get(act, key)
        if key == "layout":
            _layout(d, f"{path}/layout", value, got)
        elif key == "hands":
            if not isinstance(got, list) or len(got) != len(value):
                d.add(f"{path}/hands", value, got)
            else:
                for i, (e, a) in enumerate(zip(value, got, strict=True)):
                    _as_set(d, f"{path}/hands/{i}", e, a)
        elif key == "result" and isinstance(value, dict):
            if not isinstance(got, dict):
                d.add(f"{path}/result", value, got, "the round is not over")
            else:
                _partial(d, f"{path}/result", value, got)
        else:
            _exact(d, f"{path}/{key}", value, got)


def _round_entry(d: _Diff, path: str, exp: Mapping[str, JSON], act: JSON) -> None:
    if "events" in exp:
        _partial_list(d, f"{path}/events", exp["events"], _get(act, "events"), _partial)
    if "state" in exp:
        _state(d, f"{path}/state", exp["state"], _get(act, "state"))


def _error(d: _Diff, exp: Mapping[str, JSON], act: JSON, keys: Sequence[str]) -> None:
    want = exp.get("error")
    got = _get(act, "error")
    if want is None:
        if got not in (None, _MISSING):
            d.add("/error", None, got, "the engine refused an action the rules allow")
        return
    if not isinstance(got, dict):
        d.add("/error", want, got, "the engine accepted an action the rules forbid")
        return
    for key in keys:
        _exact(d, f"/error/{key}", want[key], _get(got, key))


def old_compare(level: Level, expect: Mapping[str, JSON], observation: JSON) -> list[Difference]:
    """Every difference between a case's expectations and an engine's observation."""
    d = _Diff()
    if level is Level.SCORING:
        _exact(d, "/value", expect["value"], _get(observation, "value"))
    elif level is Level.LAYOUT:
        if "steps" in expect:
            _partial_list(d, "/steps", expect["steps"], _get(observation, "steps"), _partial)
        if "layout" in expect:
            _layout(d, "/layout", expect["layout"], _get(observation, "layout"))
        _error(d, expect, observation, ("at", "rule"))
    elif level is Level.ROUND:
        _round_entry(d, "", expect, observation)
        _error(d, expect, observation, ("at", "rule"))
    else:
        if "rounds" in expect:
            _partial_list(d, "/rounds", expect["rounds"], _get(observation, "rounds"), _round_entry)
        for key in ("over", "winner", "scores"):
            if key in expect:
                _exact(d, f"/{key}", expect[key], _get(observation, key))
        _error(d, expect, observation, ("round", "at", "rule"))
    return d.found


# --------------------------------------------------------------------------- the equivalence

_SEED = 20240501
_SCALARS: tuple[JSON, ...] = (None, True, False, 0, 1, -5, 5.0, "", "x", "<missing>", [], {})


def _paths(value: JSON, at: tuple[str | int, ...] = ()) -> Iterator[tuple[str | int, ...]]:
    """Every place in a JSON value, the root included."""
    yield at
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, (*at, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _paths(item, (*at, index))


def _at(value: JSON, path: tuple[str | int, ...]) -> JSON:
    for part in path:
        value = value[part]
    return value


def _copied_to(value: JSON, path: tuple[str | int, ...]) -> tuple[JSON, Any]:
    """A copy of ``value`` and its container at ``path`` in the copy.

    Only the containers on the way to it are copied: the rest is shared with ``value``, which is
    as good as a deep copy since neither comparator changes what it is given, and much cheaper.
    """
    out = copy.copy(value)
    node: Any = out
    for part in path:
        node[part] = copy.copy(node[part])
        node = node[part]
    return out, node


def _replaced(value: JSON, path: tuple[str | int, ...], new: JSON) -> JSON:
    if not path:
        return new
    out, parent = _copied_to(value, path[:-1])
    parent[path[-1]] = new
    return out


def _dropped(value: JSON, path: tuple[str | int, ...]) -> JSON:
    out, parent = _copied_to(value, path[:-1])
    del parent[path[-1]]
    return out


def _variants(node: JSON, rng: random.Random) -> list[JSON]:
    """Values to put in the place of ``node``: near misses of every sort."""
    found: list[JSON] = [rng.choice(_SCALARS), rng.choice(_SCALARS)]
    if isinstance(node, bool):
        found += [not node, int(node)]
    elif isinstance(node, int):
        found += [node + 5, node - 1, bool(node), float(node), str(node)]
    elif isinstance(node, str):
        found += [node + " ", node.upper(), node[::-1], [node]]
    elif isinstance(node, list):
        found += [
            node[::-1],
            node[:-1],
            [*node, *node[:1]],
            [*node, "[6|6]"],
            dict(enumerate(node)),
        ]
        shuffled = list(node)
        rng.shuffle(shuffled)
        found.append(shuffled)
        if node and isinstance(node[0], list):
            found.append([inner[::-1] if isinstance(inner, list) else inner for inner in node])
    elif isinstance(node, dict):
        found += [
            dict(reversed(node.items())),
            {**node, "[6|6]:high": 6},
            {**node, "extra": True},
            list(node),
            {k: (True if v == 1 else v) for k, v in node.items()},
        ]
    return found


def _mutants(observation: JSON, rng: random.Random, per_case: int) -> Iterator[JSON]:
    """The observation with one place changed, dropped or swapped, ``per_case`` of them at most."""
    yield from (None, [], "x", {}, {"error": None})
    places = list(_paths(observation))
    options: list[tuple[str, tuple[str | int, ...]]] = [("replace", p) for p in places]
    options += [("drop", p) for p in places if p]
    rng.shuffle(options)
    made = 0
    for how, path in options:
        if made >= per_case:
            return
        if how == "drop":
            yield _dropped(observation, path)
            made += 1
            continue
        for new in _variants(_at(observation, path), rng):
            yield _replaced(observation, path, new)
            made += 1


def _wrong_engines() -> list[Engine]:
    return [mutant.engine() for mutant in WRONG_ENGINES]


def _exactly(diffs: Sequence[Difference]) -> list[tuple[type, str]]:
    """Differences as values that tell every type and order apart: the whole of each one.

    The class and the repr of each: the repr shows every field whole (``True`` is not ``1``,
    ``5.0`` is not ``5``, a dict's keys in their order), and the text and JSON of a difference
    are functions of its fields alone, so they agree when these do.
    """
    return [(type(d), repr(d)) for d in diffs]


@dataclass
class _Agreement:
    comparisons: int = 0
    with_differences: int = 0
    differences: int = 0
    by_level: Counter[str] = field(default_factory=Counter)

    def check(self, case: Case, observation: JSON, new: list[Difference] | None = None) -> None:
        """The old comparator's differences are the new one's (``new``, when already found)."""
        old = old_compare(case.level, case.expect, observation)
        if new is None:
            new = compare(case.level, case.expect, observation)
        assert _exactly(new) == _exactly(old), (case.id, observation)
        self.comparisons += 1
        self.with_differences += bool(old)
        self.differences += len(old)
        self.by_level[case.level.value] += 1


_OLD_LEVELS = (Level.SCORING, Level.LAYOUT, Level.ROUND, Level.MATCH)
"""The levels the old comparator knew (``moves`` came after it, with kinds of its own)."""


def _old_cases() -> list[Case]:
    return [case for case in load_corpus().cases if case.level in _OLD_LEVELS]


def _observations(engine: Engine, case: Case) -> JSON:
    try:
        return engine.run(case.level.value, case.request())
    except Exception as exc:  # a wrong engine may crash on a case: its message is a value too
        return {"error": {"at": 0, "rule": type(exc).__name__, "message": str(exc)}}


@dataclass(frozen=True)
class _Judged:
    case: Case
    observation: JSON
    new: list[Difference]
    """The new comparator's differences."""
    mutated: bool


@pytest.fixture(scope="module")
def reference_mutants() -> list[_Judged]:
    """Each old case with the reference's observation and its seeded mutants, judged once.

    Two tests read them: the old comparator must agree with each judgement, and the judgements
    must make every note appear. Nothing is changed by being judged (neither comparator changes
    what it is given), so one list serves both.
    """
    rng = random.Random(_SEED)
    reference = ReferenceEngine()
    judged = []
    for case in _old_cases():
        observation = reference.run(case.level.value, case.request())
        seen = [(observation, False)] + [(m, True) for m in _mutants(observation, rng, per_case=60)]
        for value, mutated in seen:
            new = compare(case.level, case.expect, value)
            judged.append(_Judged(case, value, new, mutated))
    return judged


def test_the_old_and_the_new_comparator_agree_on_every_case_and_its_mutants(
    reference_mutants: list[_Judged],
) -> None:
    tally = _Agreement()
    for judged in reference_mutants:
        tally.check(judged.case, judged.observation, judged.new)
    assert tally.comparisons > 10_000
    assert tally.with_differences > 5_000
    assert set(tally.by_level) == {level.value for level in _OLD_LEVELS}


def test_the_old_and_the_new_comparator_agree_on_the_wrong_engines() -> None:
    """Each wrong engine's own observation of every case: realistic differences, many of them."""
    tally = _Agreement()
    cases = _old_cases()
    for engine in _wrong_engines():
        for case in cases:
            tally.check(case, _observations(engine, case))
    assert tally.comparisons == len(WRONG_ENGINES) * len(cases) > 5_000
    assert tally.with_differences > 500


OTHER_EXPECTATION_MUTANTS = 3 if fs.long_profile_selected() else 1
"""Mutants of the observation judged against each changed expectation (the long profile's 3)."""


def test_the_old_and_the_new_comparator_agree_when_the_case_names_other_things() -> None:
    """Expectations changed too: partial keys dropped, refusals added or taken away."""
    rng = random.Random(_SEED + 2)
    tally = _Agreement()
    reference = ReferenceEngine()
    for case in _old_cases():
        observation = reference.run(case.level.value, case.request())
        for expect in _expectation_mutants(case, rng):
            other = Case(**{**_fields(case), "expect": expect})
            tally.check(other, observation)
            for mutant in _mutants(observation, rng, per_case=OTHER_EXPECTATION_MUTANTS):
                tally.check(other, mutant)
    assert tally.comparisons > 2_000


def _fields(case: Case) -> dict[str, Any]:
    return {name: getattr(case, name) for name in Case.__dataclass_fields__}


def _expectation_mutants(case: Case, rng: random.Random) -> Iterator[dict[str, JSON]]:
    expect: dict[str, JSON] = dict(case.expect)
    yield expect
    yield dict(reversed(expect.items()))
    if case.level is not Level.SCORING:
        yield {**expect, "error": None}
        yield {k: v for k, v in expect.items() if k != "error"}
        yield {**expect, "error": {"round": 0, "at": 0, "rule": "LAY-1", "message": "m"}}
    places = [p for p in _paths(expect) if len(p) > 1 and not (p[0] == "value" or p[0] == "error")]
    rng.shuffle(places)
    for path in places[:8]:
        parent = _at(expect, path[:-1])
        if isinstance(parent, dict):
            yield _dropped(expect, path)
        else:
            yield _replaced(expect, path[:-1], parent[::-1])


def test_the_mutants_reach_every_kind_of_difference(reference_mutants: list[_Judged]) -> None:
    """The equivalence above is worth something only if the mutants make every note appear."""
    notes: Counter[str] = Counter()
    for judged in reference_mutants:
        if judged.mutated:
            notes.update(d.note for d in judged.new)
    assert set(notes) == {
        "",
        "not a list",
        "order does not matter",
        "not a mapping",
        "the engine offers a point the rules do not open",
        "an available point the engine does not offer",
        "the round is not over",
        "the engine refused an action the rules allow",
        "the engine accepted an action the rules forbid",
    }


# --------------------------------------------------------------------------- the moves level

_MOVES_EXPECT: dict[str, JSON] = {
    "legal": ["1 play [0|4]@[1|4]:high", "1 play [2|4]@[1|4]:high"],
    "count": 7,
    "divide": {"1 play [0|4]@[1|4]:high": 3, "1 play [2|4]@[1|4]:high": 4},
}


def _moves(**changes: JSON) -> dict[str, JSON]:
    return {**copy.deepcopy(_MOVES_EXPECT), "error": None, **changes}


def test_a_moves_observation_that_agrees_has_no_difference() -> None:
    assert compare(Level.MOVES, _MOVES_EXPECT, _moves()) == []


def test_legal_actions_in_another_order_are_a_difference_that_says_so() -> None:
    legal = list(reversed(_MOVES_EXPECT["legal"]))
    (diff,) = compare(Level.MOVES, {"legal": _MOVES_EXPECT["legal"]}, _moves(legal=legal))
    assert diff.path == "/legal"
    assert diff.note == "the same actions in another order: legal is listed in the canonical order"


def test_legal_actions_missing_or_extra_are_named() -> None:
    legal = ["1 play [2|4]@[1|4]:high", "1 draw"]
    (diff,) = compare(Level.MOVES, {"legal": _MOVES_EXPECT["legal"]}, _moves(legal=legal))
    assert diff.note == (
        "legal actions the engine does not offer: 1 play [0|4]@[1|4]:high; "
        "actions the rules do not allow: 1 draw"
    )
    (diff,) = compare(Level.MOVES, {"legal": []}, _moves(legal="1 draw"))
    assert diff.note == "not a list"


def test_the_divide_is_compared_per_first_action_both_ways() -> None:
    divide = {"1 play [0|4]@[1|4]:high": 2, "1 draw": 4}
    diffs = compare(Level.MOVES, _MOVES_EXPECT, _moves(count=6, divide=divide))
    assert [(d.path, d.expected, d.actual, d.note) for d in diffs] == [
        ("/count", 7, 6, ""),
        ("/divide/1 play [0|4]@[1|4]:high", 3, 2, "sequences under this first action"),
        (
            "/divide/1 play [2|4]@[1|4]:high",
            4,
            _MISSING,
            "a legal first action the engine does not count",
        ),
        ("/divide/1 draw", _MISSING, 4, "a first action the rules do not allow"),
    ]
    (diff,) = compare(
        Level.MOVES, {"divide": {}}, {k: v for k, v in _moves().items() if k != "divide"}
    )
    assert (diff.path, diff.note) == ("/divide", "not a mapping: the engine gave no divide")


def test_a_count_is_exact_and_true_is_not_one() -> None:
    (diff,) = compare(Level.MOVES, {"count": 1}, _moves(count=True))
    assert (diff.path, diff.expected, diff.actual) == ("/count", 1, True)


def test_a_whole_number_written_with_a_point_is_that_number_in_every_kind() -> None:
    # an engine in a language with one number type writes 5 as 5.0; the schemas take it, so
    # must every kind of comparison (a multiset counted 5.0 and 5 as two entries)
    expect = {
        "layout": {
            "contributions": [["[5|5]", 10], ["[0|5]", 5]],
            "points": {"[5|5]:high": 5},
            "sum": 15,
        }
    }
    written = {
        "contributions": [["[0|5]", 5.0], ["[5|5]", 10.0]],
        "points": {"[5|5]:high": 5.0},
        "sum": 15.0,
    }
    assert compare(Level.LAYOUT, expect, {"layout": written}) == []
    assert compare(Level.MOVES, {"count": 7}, _moves(count=7.0)) == []


def test_true_is_not_one_inside_a_list_or_a_mapping_either() -> None:
    expect = {"layout": {"contributions": [["[0|5]", 1]], "points": {"[0|5]:high": 1}}}
    written = {"contributions": [["[0|5]", True]], "points": {"[0|5]:high": True}}
    diffs = compare(Level.LAYOUT, expect, {"layout": written})
    assert [d.path for d in diffs] == ["/layout/contributions", "/layout/points/[0|5]:high"]
    assert same_json([1, {"a": 2}], [1.0, {"a": 2.0}])
    assert not same_json([1], [True])
    assert not same_json({"a": [0]}, {"a": [False]})
    assert not same_json(1.5, 1)


def test_a_moves_refusal_is_checked_whether_named_or_not() -> None:
    refused = {"at": 1, "rule": "DRW-1", "message": "may not draw"}
    (diff,) = compare(Level.MOVES, {"count": 7}, _moves(error=refused))
    assert diff.note == "the engine refused an action the rules allow"
    assert compare(Level.MOVES, {"error": {"at": 1, "rule": "DRW-1"}}, _moves(error=refused)) == []


def test_legal_actions_listed_twice_are_named_not_called_another_order() -> None:
    legal = [*_MOVES_EXPECT["legal"], *_MOVES_EXPECT["legal"]]
    (diff,) = compare(Level.MOVES, {"legal": _MOVES_EXPECT["legal"]}, _moves(legal=legal))
    assert diff.note == (
        "actions listed more than once: 1 play [0|4]@[1|4]:high, 1 play [2|4]@[1|4]:high"
    )


def test_thousands_of_actions_the_rules_do_not_allow_give_a_bounded_note() -> None:
    legal = [f"{seat} draw" for seat in range(5000)]
    (diff,) = compare(Level.MOVES, {"legal": _MOVES_EXPECT["legal"]}, _moves(legal=legal))
    assert diff.note.endswith(
        "actions the rules do not allow: " + ", ".join(legal[:10]) + " and 4990 more"
    )
    assert len(diff.note) < 500


def test_thousands_of_first_actions_in_a_divide_give_a_bounded_list_of_differences() -> None:
    divide = {**_MOVES_EXPECT["divide"], **{f"{seat} draw": 1 for seat in range(5000)}}
    diffs = compare(Level.MOVES, {"divide": _MOVES_EXPECT["divide"]}, _moves(divide=divide))
    assert len(diffs) == 11
    assert [d.path for d in diffs[:10]] == [f"/divide/{seat} draw" for seat in range(10)]
    assert (diffs[-1].path, diffs[-1].expected, diffs[-1].actual, diffs[-1].note) == (
        "/divide",
        "2 first actions",
        "5002 first actions",
        "and 4990 more first actions the rules do not allow, not listed one by one",
    )


@pytest.mark.parametrize(
    ("expected", "actual", "text"),
    [
        (True, None, "/v: expected true, got null"),
        ({"a": [1, False]}, "x", '/v: expected {"a": [1, false]}, got x'),
        (["\u202e"], 5, '/v: expected ["\\u202e"], got 5'),
    ],
)
def test_a_difference_writes_its_values_as_json_not_as_python(
    expected: JSON, actual: JSON, text: str
) -> None:
    assert Difference("/v", expected, actual).text == text


def test_an_engines_value_past_the_kept_size_is_told_not_repeated() -> None:
    wide = [["[6|6]", 12]] * 10_000  # 150,000 characters of JSON
    expect = {"layout": {"contributions": [["[6|6]", 12]]}}
    (diff,) = compare(Level.LAYOUT, expect, {"layout": {"contributions": wide}})
    assert diff.path == "/layout/contributions"
    assert diff.actual == (
        "<a list of 150,000 characters of JSON, not kept: past the 65,536 a report keeps>"
    )
    assert diff.expected == [["[6|6]", 12]]  # the case's own value is kept whole
    assert kept("x" * MAX_KEPT) == "x" * MAX_KEPT and kept(wide[:100]) == wide[:100]
    assert kept({"a": "y" * MAX_KEPT}).startswith("<an object of 65,545 characters")
