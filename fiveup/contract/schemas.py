"""The protocol's JSON Schemas: one loader and the check of every message.

Every schema of ``spec/schemas/`` is read (:mod:`fiveup.contract.validators`) and validated with
the others in one registry, so ``$ref`` between files (``common.json#/$defs/tile``) resolves the
same way for the harness, the server, the reference engine and the fixture linter. Each check
returns what is wrong as one line of text, or None when the message fits. A request's ``given``
and an engine's identity are judged by the compiled checks of :mod:`fiveup.contract.shapes`
first (the same answers), so an engine served over the protocol never imports jsonschema for a
request or a ready message that fits.
"""

from __future__ import annotations

from typing import Final

from fiveup import PROTOCOL_VERSION

from . import shapes
from .engine import JSON, EngineInfo, Level
from .validators import (
    SCHEMA_NAMES,
    clip,
    fixture_schema,
    fixture_validator,
    given_validator,
    json_words,
    message_problem,
    protocol_schema,
    validator_problem,
)

__all__ = [
    "SCHEMA_NAMES",
    "clip",
    "fixture_schema",
    "fixture_validator",
    "given_problem",
    "info_problem",
    "json_words",
    "message_problem",
    "observation_problem",
    "observation_schema",
    "protocol_schema",
    "ready_message",
]

_LEVELS: Final = frozenset(level.value for level in Level)


def given_problem(level: Level | str, given: JSON) -> str | None:
    """What is wrong with ``given`` as the ``given`` of a run request of ``level``, or None.

    Judged by the compiled check; jsonschema describes a problem of a given of at most
    :data:`~fiveup.contract.shapes.DESCRIBED_VALUES` values (a 1 MiB request of 200,000 wrong
    actions took it 8 s).
    """
    name = level.value if isinstance(level, Level) else level
    if name not in _LEVELS:
        return f"names no level: {name!r} is none of {', '.join(sorted(_LEVELS))}"
    return shapes.bounded_problem(
        shapes.compiled_given(name),
        given,
        "run",
        lambda: validator_problem(given_validator(name), "run", given),
    )


def observation_schema(level: Level | str) -> str:
    """The name of the protocol schema an observation of ``level`` follows."""
    return f"observation-{level.value if isinstance(level, Level) else level}"


def observation_problem(level: Level | str, observation: JSON) -> str | None:
    """What is wrong with the shape of an observation of ``level``, or None if it fits.

    :func:`fiveup.contract.shapes.problem` of the level's schema: jsonschema's words, in time
    bounded whatever the observation holds.
    """
    return shapes.problem(observation_schema(level), observation)


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


def other_protocol(ready: JSON) -> int | None:
    """The protocol version a ready message (or an ``info()``) names, if another integer.

    None when the version is the harness's or not an integer at all. Only such a version refuses
    the engine for the whole run; a version of the wrong type (``"1"``, ``true``, ``1.5``,
    ``null``) makes the message one of the wrong shape, like any other wrongly typed field.
    """
    spoken = ready.get("protocol") if isinstance(ready, dict) else None
    if isinstance(spoken, bool) or not isinstance(spoken, int) or spoken == PROTOCOL_VERSION:
        return None
    return spoken


def info_problem(info: JSON) -> str | None:
    """What is wrong with an in-process engine's ``info()``, judged as its ready message."""
    if not isinstance(info, dict):
        return f"info() answered {type(info).__name__}, not an object"
    missing = [key for key in ("name", "version", "protocol", "levels") if key not in info]
    if missing:
        return f"info() lacks {', '.join(repr(key) for key in missing)}"
    return shapes.problem("ready", ready_message(info))  # type: ignore[arg-type]
