"""The protocol's schemas (fiveup.contract.schemas and .definitions): one loader, every check."""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fiveup.contract.definitions import common_schema, definition, pattern
from fiveup.contract.engine import Level
from fiveup.contract.notation import Action, Placement, Point, Tile
from fiveup.contract.schemas import (
    SCHEMA_NAMES,
    fixture_validator,
    given_problem,
    info_problem,
    json_words,
    message_problem,
    observation_problem,
    protocol_schema,
    ready_message,
)
from fiveup.errors import NotationError, UsageError

PARSERS = {"tile": Tile.parse, "point": Point.parse, "placement": Placement.parse,
           "action": Action.parse}  # fmt: skip


def test_every_schema_loads_and_names_itself() -> None:
    for name in SCHEMA_NAMES:
        assert protocol_schema(name)["$id"].endswith(f"/protocol/{name}.json")
    with pytest.raises(UsageError, match="no protocol schema 'nope'"):
        protocol_schema("nope")


def test_the_levels_are_the_ones_of_the_schemas() -> None:
    assert [level.value for level in Level] == definition("level")["enum"]


def test_patterns_come_without_their_anchors() -> None:
    assert pattern("tile") == r"\[[0-6]\|[0-6]\]"
    assert common_schema()["$defs"]["tile"]["pattern"] == "^" + pattern("tile") + "$"


def test_the_fixture_schema_resolves_the_common_definitions() -> None:
    case: dict[str, Any] = {"id": "x.y", "title": "t", "rules": ["SCR-2"], "level": "scoring",
            "provenance": {"source": "derived", "note": "n"},
            "given": {"function": "credit", "input": 5}, "expect": {"value": 5}}  # fmt: skip
    assert fixture_validator().is_valid({"cases": [case]})
    bad = {**case, "rules": ["scr-2"]}
    assert not fixture_validator().is_valid({"cases": [bad]})


def test_messages_and_parts_of_messages() -> None:
    assert message_problem("stop", {"cmd": "stop"}) is None
    assert "does not follow stop.json" in (message_problem("stop", {"cmd": "halt"}) or "")
    assert given_problem("scoring", {"function": "credit", "input": 5}) is None
    assert '"input" is a required property' in (given_problem("scoring", {"function": "x"}) or "")
    assert "names no level" in (given_problem("chess", {}) or "")
    assert observation_problem(Level.SCORING, {"value": 5}) is None
    assert observation_problem("scoring", {}) is not None


def test_an_engines_info_is_judged_as_its_ready_message() -> None:
    info = {"name": "e", "version": "1", "protocol": 1, "levels": ["round"]}
    assert message_problem("ready", ready_message(info)) is None  # type: ignore[arg-type]
    assert info_problem(info) is None
    assert info_problem([]) == "info() answered list, not an object"
    assert info_problem({"name": "e"}) == "info() lacks 'version', 'protocol', 'levels'"
    assert "ready.json" in (info_problem({**info, "levels": "round"}) or "")


TEXT = st.text(alphabet="[]|:@0123456789 abcdefghilnoprstwy-٣", max_size=30)


@given(TEXT, st.sampled_from(sorted(PARSERS)))
def test_the_parser_accepts_what_the_schema_pattern_accepts(text: str, name: str) -> None:
    matches = re.fullmatch(pattern(name), text) is not None
    try:
        PARSERS[name](text)
        parsed = True
    except NotationError:
        parsed = False
    if parsed:
        assert matches, text
    elif matches:
        # the grammar allows it; only a slot the tile does not have may still refuse it
        assert name in ("point", "placement", "action"), text
        assert any(slot in text for slot in ("low", "high", "line", "branch")), text


@pytest.mark.parametrize("text", ["0 play [1|4]", "12 draw", "3 pass", "0 play [1|2]@[1|1]:line-b"])
def test_canonical_actions_match_the_schema(text: str) -> None:
    assert re.fullmatch(pattern("action"), text)
    assert Action.parse(text).text == text


@pytest.mark.parametrize(
    "text",
    ["0  draw", "٣ draw", "0 play [1|٤]", "0 play  [1|4]", " 0 draw", "0 draw ", "0 draw\n",
     "0\tdraw", "0 play [1|4] ", "0 play [1|2]@[1|1]:line-b\n"],
)  # fmt: skip
def test_text_outside_the_grammar_is_refused(text: str) -> None:
    with pytest.raises(NotationError):
        Action.parse(text)


@pytest.mark.parametrize(
    ("said", "written"),
    [
        ("True is not of type 'integer'", 'true is not of type "integer"'),
        ("None is not of type 'string'", 'null is not of type "string"'),
        ("{'a': 1, 'b': [False]} is not valid", '{"a": 1, "b": [false]} is not valid'),
        ("'it\\'s' is too long", '"it\'s" is too long'),
        ("'a\\u202eb' should be non-empty", '"a\\u202eb" should be non-empty'),
        ("'Ä' is not one of ['a', 'b']", '"Ä" is not one of ["a", "b"]'),
        ("Additional properties are not allowed (1, 'x' were unexpected)",
         'Additional properties are not allowed (1, "x" were unexpected)'),
    ],
)  # fmt: skip
def test_json_words_write_the_values_jsonschema_names_as_the_files_do(
    said: str, written: str
) -> None:
    assert json_words(said) == written


@given(st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
    max_leaves=10,
))  # fmt: skip
def test_json_words_of_a_repr_is_the_json_of_the_value(value: Any) -> None:
    import json

    assert json.loads(json_words(repr(value))) == value
