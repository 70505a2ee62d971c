"""The compiled schema checks answer exactly what jsonschema answers, valid or broken."""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator
from typing import cast

import jsonschema
import pytest

from fiveup import strategies as fs
from fiveup.contract import schemas, shapes
from fiveup.contract.engine import JSON, EngineInfo, Level
from fiveup.contract.schemas import (
    SCHEMA_NAMES,
    fixture_validator,
    given_problem,
    info_problem,
    message_problem,
    observation_problem,
    observation_schema,
    ready_message,
)
from fiveup.contract.validators import given_validator
from fiveup.fuzz.cases import LEVEL_WEIGHTS, random_case
from fiveup.harness.corpus import bundled_fixture_dir, fixture_files
from fiveup.harness.levels import LEVELS
from fiveup.harness.sources import read_yaml
from fiveup.reference.engine import ReferenceEngine

_ODD: list[JSON] = [
    None, True, False, 0, 1, -1, 5, 2.0, 2.5, "", "x", "[1|4]", "[1|1]:line-b", "1 draw",
    "[1|4]\n", "SPN-2", [], {}, ["[1|4]"], {"a": 1}, 10**30,
]  # fmt: skip


LONG = fs.long_profile_selected()
OBSERVATIONS = 80 if LONG else 40
"""Random reference observations whose mutants both checks judge (three mutants each)."""
FIXTURE_MUTANTS = 300 if LONG else 150
"""Mutants of corpus cases both fixture checks judge; the long profile judges twice as many."""


def _observations() -> Iterator[tuple[str, JSON]]:
    engine = ReferenceEngine()
    for index in range(OBSERVATIONS):
        level, given = random_case(11, index, levels=tuple(LEVEL_WEIGHTS))
        yield LEVELS[level].schema, engine.run(level.value, LEVELS[level].request(given))


def _paths(value: JSON, path: tuple[object, ...] = ()) -> Iterator[tuple[object, ...]]:
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, (*path, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _paths(item, (*path, i))


def _mutant(value: JSON, rng: random.Random) -> JSON:
    """The value with one part replaced, removed or added to."""
    broken = copy.deepcopy(value)
    path = rng.choice(list(_paths(broken))[1:] or [()])
    if not path:
        return rng.choice(_ODD)
    parent: JSON = broken
    for step in path[:-1]:
        parent = parent[step]
    last = path[-1]
    how = rng.randrange(4)
    if how == 0 and isinstance(parent, dict):
        del parent[last]
    elif how == 1 and isinstance(parent, dict):
        parent[f"extra{rng.randrange(3)}"] = rng.choice(_ODD)
    elif how == 2 and isinstance(parent, list):
        parent.append(copy.deepcopy(rng.choice(parent + _ODD)))
    else:
        parent[last] = rng.choice(_ODD)
    return broken


def _compiled_says(name: str, value: JSON) -> bool | None:
    try:
        return bool(shapes.compiled(name)(value))
    except shapes.Unknown:
        return None


def test_the_compiled_check_and_jsonschema_agree_on_reference_observations_and_mutants(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # shapes describes a broken value in jsonschema's words: it is handed the words this test
    # has just asked jsonschema for the same value, rather than walking it again (half the CPU).
    said: dict[tuple[str, int], tuple[JSON, str | None]] = {}

    def described(name: str, value: JSON) -> str | None:
        value_and_words = said.get((name, id(value)))
        if value_and_words is None or value_and_words[0] is not value:
            return message_problem(name, value)
        return value_and_words[1]

    monkeypatch.setattr(shapes, "message_problem", described)
    rng = random.Random(4)
    decided = undecided = broken = 0
    for name, observation in _observations():
        assert _compiled_says(name, observation) is True
        for _ in range(3):
            mutant = _mutant(observation, rng)
            words = message_problem(name, mutant)
            said[name, id(mutant)] = (mutant, words)
            valid = words is None
            says = _compiled_says(name, mutant)
            assert says in (valid, None), (name, mutant)
            assert shapes.conforms(name, mutant) is valid
            assert (shapes.problem(name, mutant) is None) is valid
            decided += says is not None
            undecided += says is None
            broken += not valid
    assert broken > OBSERVATIONS * 3 // 2 and decided > 10 * undecided  # most are broken


def test_the_compiled_given_check_and_jsonschema_agree_on_random_cases_and_mutants() -> None:
    """given_problem asks the compiled check first: it must say what jsonschema says."""
    rng = random.Random(5)
    judged: list[tuple[Level, JSON]] = [(level, value) for level in Level for value in _ODD]
    for index in range(OBSERVATIONS):
        level, given = random_case(12, index, levels=tuple(LEVEL_WEIGHTS))
        request = LEVELS[level].request(given)
        judged += [(level, v) for v in (request, *(_mutant(request, rng) for _ in range(3)))]
    decided = broken = 0
    for level, value in judged:
        valid = given_validator(level.value).is_valid(value)
        try:
            says: bool | None = bool(shapes.compiled_given(level.value)(value))
        except shapes.Unknown:
            says = None
        assert says in (valid, None), (level, value)
        assert (given_problem(level, value) is None) is valid, (level, value)
        decided += says is not None
        broken += not valid
    assert decided > 0.9 * len(judged) and broken > len(judged) // 2


def test_an_engines_identity_is_judged_as_jsonschema_judges_its_ready_message() -> None:
    info = ReferenceEngine().info()
    assert info_problem(info) is None
    for key, value in (("levels", ["poker"]), ("protocol", "1"), ("name", 5)):
        broken = cast(EngineInfo, {**info, key: value})
        assert info_problem(broken) == message_problem("ready", ready_message(broken)) is not None


@pytest.mark.parametrize("name", SCHEMA_NAMES)
def test_every_protocol_schema_compiles_and_agrees_on_odd_values(name: str) -> None:
    for value in _ODD:
        says = _compiled_says(name, value)
        assert says in (message_problem(name, value) is None, None), value


def test_a_float_where_an_integer_is_expected_is_left_to_jsonschema() -> None:
    observation = {"value": 5.0}
    assert _compiled_says("observation-scoring", observation) is None
    assert shapes.conforms("observation-scoring", observation) is (
        message_problem("observation-scoring", observation) is None
    )
    assert shapes.conforms("observation-scoring", {"value": True}) is False


def test_an_observations_problem_is_jsonschemas_message_and_the_contracts_check() -> None:
    bad = {"value": "five"}
    schema = observation_schema(Level.SCORING)
    assert schema == observation_schema("scoring") == "observation-scoring"
    assert shapes.problem(schema, bad) == message_problem(schema, bad)
    assert shapes.problem(schema, bad) == observation_problem("scoring", bad) is not None
    assert shapes.problem(schema, {"value": 5}) is None


def test_past_the_described_size_the_compiled_check_alone_judges_and_jsonschema_agrees(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rng = random.Random(9)
    cases = []
    for name, observation in _observations():
        cases += [
            (name, observation),
            (name, _mutant(observation, rng)),
            (name, _floats(observation)),
        ]
    judged = {case_id: message_problem(*case) is None for case_id, case in enumerate(cases)}
    asked: list[str] = []
    monkeypatch.setattr(shapes, "DESCRIBED_VALUES", 0)
    monkeypatch.setattr(shapes, "message_problem", lambda name, value: asked.append(name))
    for case_id, (name, value) in enumerate(cases):
        found = shapes.problem(name, value)
        assert (found is None) is judged[case_id], (name, value)
        assert found is None or "a value of more than 0 JSON values" in found
        assert shapes.conforms(name, value) is judged[case_id]
    assert asked == []  # jsonschema was not asked: a hostile reply's size costs nothing more
    assert sum(judged.values()) > len(cases) // 3 and not all(judged.values())


def test_a_given_past_the_described_size_is_judged_inside_a_run_request(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rng = random.Random(3)
    givens = []
    for index in range(OBSERVATIONS):
        level, given = random_case(12, index, levels=tuple(LEVEL_WEIGHTS))
        request = LEVELS[level].request(given)
        givens += [(level.value, request), (level.value, _mutant(request, rng))]
    judged = [given_validator(level).is_valid(given) for level, given in givens]
    monkeypatch.setattr(shapes, "DESCRIBED_VALUES", 0)
    monkeypatch.setattr(schemas, "validator_problem", lambda *args: pytest.fail("jsonschema"))
    assert [schemas.given_problem(*case) is None for case in givens] == judged
    assert 0 < sum(judged) < len(judged)


def _floats(value: JSON) -> JSON:
    """``value`` with every int a float (1 as 1.0): the compiled check leaves those undecided."""
    if isinstance(value, dict):
        return {key: _floats(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_floats(item) for item in value]
    return float(value) if type(value) is int else value


def test_a_reply_of_a_hundred_thousand_values_is_judged_at_once() -> None:
    wide = {"value": 5, **{f"x{i}": i for i in range(100_000)}}
    found = shapes.problem("observation-scoring", wide)
    assert found == (
        "does not follow observation-scoring.json (a value of more than 10,000 JSON values; "
        "where is not looked for)"
    )


def _errors(errors: Iterator[jsonschema.ValidationError]) -> list[tuple[str, str, str]]:
    # The linear uniqueItems names the array shortened (reprlib), where jsonschema prints it whole.
    return sorted(
        (e.json_path, str(e.validator), "" if e.validator == "uniqueItems" else e.message)
        for e in errors
    )


def test_the_fixture_check_is_jsonschemas_on_the_corpus_and_its_mutants() -> None:
    plain = fixture_validator()
    files = [read_yaml(path).data for path in fixture_files([bundled_fixture_dir()])]
    compiled = shapes.compiled(shapes.FIXTURE)
    for data in files:
        assert _errors(shapes.fixture_errors(data)) == _errors(plain.iter_errors(data)) == []
        assert compiled(data) is True  # the fast path decides every file of the corpus
    rng = random.Random(5)
    cases = [case for data in files for case in data["cases"]]
    found = decided = 0
    for _ in range(FIXTURE_MUTANTS):
        data = _mutant({"cases": [rng.choice(cases)]}, rng)
        errors = _errors(shapes.fixture_errors(data))
        assert errors == _errors(plain.iter_errors(data)), data
        found += bool(errors)
        try:
            assert compiled(data) is (errors == []), data
            decided += 1
        except shapes.Unknown:
            pass
    # most mutants are broken: the check is not comparing two empty lists
    assert found > FIXTURE_MUTANTS * 2 // 3
    assert decided > FIXTURE_MUTANTS * 5 // 6  # and the compiled check decided most of them
