"""The shared definitions of the protocol schemas, read once from ``common.json``.

``spec/schemas/protocol/common.json`` is the one place where the notation's grammar and the
ranges of players and seats are written down: the protocol schemas and the fixture schema refer
to it, and the notation parser and the player counts of this package are read from it, so no
second copy can drift.
"""

from __future__ import annotations

import json
from functools import cache
from importlib.resources import files
from typing import Any

__all__ = ["clip", "common_schema", "definition", "pattern", "read_schema"]


def clip(text: str, limit: int) -> str:
    """``text`` shortened to ``limit`` characters, ``...`` marking the cut.

    The one way the suite shortens a text from the other side (a message, a reply, a problem).
    """
    return text if len(text) <= limit else text[: limit - 3] + "..."


@cache
def read_schema(relative: str) -> dict[str, Any]:
    """A JSON Schema shipped in ``fiveup.spec``, by its path under ``schemas/``."""
    text = files("fiveup.spec").joinpath("schemas", *relative.split("/")).read_text("utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


def common_schema() -> dict[str, Any]:
    """``common.json``: the definitions every protocol and fixture schema refers to."""
    return read_schema("protocol/common.json")


def definition(name: str) -> dict[str, Any]:
    """The definition ``name`` of ``common.json`` (``tile``, ``players``, ...)."""
    found: dict[str, Any] = common_schema()["$defs"][name]
    return found


def pattern(name: str) -> str:
    r"""The regular expression of the string definition ``name``, without its anchors.

    The schemas anchor every pattern with ``^`` and ``$``; the parser matches whole strings.
    Python's ``re.search`` lets ``$`` match before a final line break, which ECMA-262 does not,
    so each patterned definition also refuses any line break with ``"not": {"type": "string",
    "pattern": "\\n"}`` beside its pattern: a value matches exactly, in both dialects.
    """
    text: str = definition(name)["pattern"]
    if not (text.startswith("^") and text.endswith("$")):
        raise ValueError(f"common.json pattern {name!r} is not anchored: {text!r}")
    return text[1:-1]
