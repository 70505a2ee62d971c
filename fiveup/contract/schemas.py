"""The protocol's JSON Schemas: one loader and the check of every message.

Every schema of ``spec/schemas/`` is read here and validated with the others in one registry,
so ``$ref`` between files (``common.json#/$defs/tile``) resolves the same way for the harness,
the server, the reference engine and the fixture linter. Each check returns what is wrong as
one line of text, or None when the message fits.
"""

from __future__ import annotations

from functools import cache
from itertools import islice
from typing import Any, Final

import jsonschema
import jsonschema.exceptions
from jsonschema.protocols import Validator
from referencing import Registry, Resource

from fiveup.errors import UsageError

from .definitions import read_schema
from .engine import JSON, EngineInfo, Level

__all__ = [
    "SCHEMA_NAMES",
    "clip",
    "fixture_schema",
    "fixture_validator",
    "given_problem",
    "info_problem",
    "message_problem",
    "observation_problem",
    "observation_schema",
    "protocol_schema",
    "ready_message",
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

_LEVELS: Final = frozenset(level.value for level in Level)
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
    schemas = [protocol_schema(name) for name in SCHEMA_NAMES]
    return Registry().with_resources(
        (schema["$id"], Resource.from_contents(schema)) for schema in schemas
    )


@cache
def _validator(name: str) -> Validator:
    return jsonschema.Draft202012Validator(protocol_schema(name), registry=_registry())


@cache
def fixture_validator() -> Validator:
    """The validator of fixture files, resolving references into the protocol schemas."""
    return jsonschema.Draft202012Validator(fixture_schema(), registry=_registry())


_WEIGHED: Final = 100
"""The most schema errors weighed for the one a problem names."""


def clip(text: str, limit: int) -> str:
    """``text`` shortened to ``limit`` characters, ``...`` marking the cut.

    The one way the suite shortens a text from the other side (a message, a reply, a problem).
    """
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _problem(validator: Validator, schema_name: str, value: JSON) -> str | None:
    if validator.is_valid(value):
        return None
    # The first errors only: best_match weighs every error it is given, and a value of a
    # hundred thousand wrong items (an engine's reply, say) has as many.
    error = jsonschema.exceptions.best_match(islice(validator.iter_errors(value), _WEIGHED))
    return clip(f"does not follow {schema_name}.json at {error.json_path}: {error.message}", _CLIP)


def message_problem(name: str, message: JSON) -> str | None:
    """What is wrong with ``message`` as the protocol message ``name``, or None if it fits.

    The text reads after the message's name: "does not follow reply.json at $.seq: ...".
    """
    return _problem(_validator(name), name, message)


@cache
def _given_validator(level: str) -> Validator:
    run = _validator("run")
    return run.evolve(schema={"$ref": f"{protocol_schema('run')['$id']}#/$defs/{level}"})


def given_problem(level: Level | str, given: JSON) -> str | None:
    """What is wrong with ``given`` as the ``given`` of a run request of ``level``, or None."""
    name = level.value if isinstance(level, Level) else level
    if name not in _LEVELS:
        return f"names no level: {name!r} is none of {', '.join(sorted(_LEVELS))}"
    return _problem(_given_validator(name), "run", given)


def observation_schema(level: Level | str) -> str:
    """The name of the protocol schema an observation of ``level`` follows."""
    return f"observation-{level.value if isinstance(level, Level) else level}"


def observation_problem(level: Level | str, observation: JSON) -> str | None:
    """What is wrong with the shape of an observation of ``level``, or None if it fits.

    jsonschema's answer; :func:`fiveup.contract.shapes.problem` gives the same one faster.
    """
    return message_problem(observation_schema(level), observation)


def ready_message(info: EngineInfo) -> dict[str, JSON]:
    """The ``ready`` message that announces an engine with this identity."""
    engine: dict[str, JSON] = {
        "name": info["name"],
        "version": info["version"],
        "levels": info["levels"],
    }
    if "features" in info:
        engine["features"] = info["features"]
    return {"ready": True, "protocol": info["protocol"], "engine": engine}


def info_problem(info: JSON) -> str | None:
    """What is wrong with an in-process engine's ``info()``, judged as its ready message."""
    if not isinstance(info, dict):
        return f"info() answered {type(info).__name__}, not an object"
    missing = [key for key in ("name", "version", "protocol", "levels") if key not in info]
    if missing:
        return f"info() lacks {', '.join(repr(key) for key in missing)}"
    return message_problem("ready", ready_message(info))  # type: ignore[arg-type]
