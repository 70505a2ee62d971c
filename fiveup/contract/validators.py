"""The protocol's JSON Schemas read, and jsonschema's check of a message by them.

Every schema of ``spec/schemas/`` is read here and validated with the others in one registry,
so ``$ref`` between files (``common.json#/$defs/tile``) resolves the same way everywhere.
``jsonschema`` and ``referencing`` are imported where a validator is first built: a process that
builds none (an engine served over the protocol, whose messages the compiled checks of
:mod:`fiveup.contract.shapes` judge) starts without them, a third of its imports.
:mod:`fiveup.contract.schemas` is the public face of this module.
"""

from __future__ import annotations

import ast
import json
import re
from functools import cache
from typing import TYPE_CHECKING, Any, Final

from fiveup.errors import UsageError

from .definitions import clip, read_schema
from .engine import JSON

if TYPE_CHECKING:
    from jsonschema.protocols import Validator
    from referencing import Registry

__all__ = [
    "SCHEMA_NAMES",
    "clip",
    "fixture_schema",
    "fixture_validator",
    "given_validator",
    "json_words",
    "message_problem",
    "protocol_schema",
    "validator_problem",
]

SCHEMA_NAMES: Final = (
    "common",
    "start",
    "ready",
    "run",
    "reply",
    "stop",
    "stopped",
    "observation-scoring",
    "observation-layout",
    "observation-round",
    "observation-match",
    "observation-moves",
)
"""The JSON Schemas of ``spec/schemas/protocol/``, by file name without ``.json``."""

_CLIP = 400


def protocol_schema(name: str) -> dict[str, JSON]:
    """The protocol schema ``name`` (one of :data:`SCHEMA_NAMES`), as shipped in the package."""
    if name not in SCHEMA_NAMES:
        raise UsageError(f"no protocol schema {name!r}; there are {', '.join(SCHEMA_NAMES)}")
    return read_schema(f"protocol/{name}.json")


def fixture_schema() -> dict[str, Any]:
    """The JSON Schema of fixture files (``spec/schemas/fixture.schema.json``)."""
    return read_schema("fixture.schema.json")


@cache
def _registry() -> Registry[Any]:
    from referencing import Registry, Resource

    schemas = [protocol_schema(name) for name in SCHEMA_NAMES]
    return Registry().with_resources(
        (schema["$id"], Resource.from_contents(schema)) for schema in schemas
    )


@cache
def _validator(name: str) -> Validator:
    import jsonschema

    return jsonschema.Draft202012Validator(protocol_schema(name), registry=_registry())


@cache
def fixture_validator() -> Validator:
    """The validator of fixture files, resolving references into the protocol schemas."""
    import jsonschema

    return jsonschema.Draft202012Validator(fixture_schema(), registry=_registry())


@cache
def given_validator(level: str) -> Validator:
    """The validator of the ``given`` of a run request of ``level`` (``run.json#/$defs/...``)."""
    run = _validator("run")
    return run.evolve(schema={"$ref": f"{protocol_schema('run')['$id']}#/$defs/{level}"})


_PYTHON_LITERAL: Final = re.compile(
    r"""'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|\b(?:True|False|None)\b"""
)
_JSON_WORD: Final = {"True": "true", "False": "false", "None": "null"}


def _json_literal(found: re.Match[str]) -> str:
    word = found.group()
    if word in _JSON_WORD:
        return _JSON_WORD[word]
    try:
        text = json.dumps(ast.literal_eval(word), ensure_ascii=False)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return word
    # as repr did: what is not printable (U+202E, U+200B) is escaped, never shown raw
    return "".join(c if c.isprintable() else _escaped(c) for c in text)


def _escaped(char: str) -> str:
    return json.dumps(char)[1:-1]  # \u202e; a character past U+FFFF as its two surrogates


def json_words(message: str) -> str:
    """A jsonschema message with the values it names written as JSON and YAML write them.

    jsonschema names a value by its Python ``repr``: ``True is not of type 'integer'``,
    ``None``, ``{'a': 1}``. The files are JSON or YAML, so the message says ``true is not of
    type "integer"``, ``null``, ``{"a": 1}``. jsonschema's own words hold no quote and none of
    the three names, so only the values it quoted change.
    """
    return _PYTHON_LITERAL.sub(_json_literal, message)


def validator_problem(validator: Validator, schema_name: str, value: JSON) -> str | None:
    """What ``validator`` finds wrong with ``value``, read after ``schema_name``, or None."""
    if validator.is_valid(value):
        return None
    import jsonschema.exceptions

    error = jsonschema.exceptions.best_match(validator.iter_errors(value))
    words = json_words(error.message)
    return clip(f"does not follow {schema_name}.json at {error.json_path}: {words}", _CLIP)


def message_problem(name: str, message: JSON) -> str | None:
    """What is wrong with ``message`` as the protocol message ``name``, or None if it fits.

    The text reads after the message's name: "does not follow reply.json at $.seq: ...".
    """
    return validator_problem(_validator(name), name, message)
