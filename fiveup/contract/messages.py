"""The protocol's messages as typed values: one frozen class per message of ``spec/protocol.md``.

The harness's process client and the server both build their lines from these classes and read
the lines they receive back into them, so a message's shape is written once. ``to_json()`` gives
the message as JSON-shaped data, ``from_json()`` reads it back and checks it against its schema
of ``spec/schemas/protocol/`` (:func:`~fiveup.contract.shapes.problem`), raising
:class:`MessageError` with what is wrong; ``from_json(m.to_json()) == m`` for every message.

* :class:`Start` and :class:`Ready`: the handshake (``start.json``, ``ready.json``);
* :class:`Run`: one request (``run.json``);
* :class:`Observed`, :class:`Errored`, :class:`Unsupported`: the three kinds of reply
  (``reply.json``), read by :func:`reply_from_json`;
* :class:`Stop` and :class:`Stopped`: the end (``stop.json``, ``stopped.json``).

:data:`COMPACT` is the one encoder of every line, :func:`decode` the one reader of every line
received, and :func:`clip` the one way a long text from the other side is shortened.
"""

from __future__ import annotations

import decimal
import json
import math
import re
import sys
from dataclasses import dataclass
from typing import ClassVar, Final, NoReturn

from .engine import JSON, EngineInfo
from .schemas import clip, ready_message
from .shapes import problem as shape_problem

__all__ = [
    "COMPACT",
    "Errored",
    "MessageError",
    "Observed",
    "Ready",
    "Reply",
    "Run",
    "Start",
    "Stop",
    "Stopped",
    "Unsupported",
    "clip",
    "decode",
    "reply_from_json",
    "values_over",
]

COMPACT: Final = json.JSONEncoder(separators=(",", ":"), allow_nan=False, check_circular=False)
"""One encoder for every line sent; a cycle ends in RecursionError rather than being looked for."""


def _no_constant(name: str) -> NoReturn:
    raise ValueError(f"{name} is not a JSON number")


def _unique(pairs: list[tuple[str, JSON]]) -> dict[str, JSON]:
    found = dict(pairs)
    if len(found) != len(pairs):
        seen: set[str] = set()
        for twice, _ in pairs:  # one pass: a slice per name was quadratic on a wide object
            if twice in seen:
                break
            seen.add(twice)
        raise ValueError(f"the name {_quoted(clip(twice, 40))} appears twice in one object")
    return found


def _quoted(name: str) -> str:
    """A name as JSON writes it, its characters that are not printable escaped."""
    return "".join(
        c if c.isprintable() else json.dumps(c)[1:-1] for c in json.dumps(name, ensure_ascii=False)
    )


_EXACT: Final = 2**53
"""Below it a double holds every whole number: a whole double read from other digits was not one."""


def _finite(text: str) -> float:
    number = float(text)
    if math.isinf(number):  # 1e999: Python reads infinity, which is no JSON number
        raise ValueError(f"{clip(text, 40)} is past the largest number (about 1.8e308)")
    if number.is_integer() and abs(number) < _EXACT and decimal.Decimal(text) != int(number):
        # 1.0000000000000001 reads as 1.0, which the schemas take for the integer 1: a seq, a
        # protocol version or a count that is not one would be taken for one
        raise ValueError(
            f"{clip(text, 40)} is not a whole number, but too close to one for a double to hold"
        )
    return number


_DECODER: Final = json.JSONDecoder(
    object_pairs_hook=_unique, parse_constant=_no_constant, parse_float=_finite
)
_DIGITS: Final = re.compile(r"value has (\d+) digits")


def decode(line: str) -> JSON:
    """A line or a file received, read strictly: ValueError for JSON that RFC 8259 leaves open.

    ``NaN`` and ``Infinity`` are no JSON, and an object that names a member twice is read
    differently by different parsers (Python keeps the last), so either side could be judged on
    a value the other never meant; both are refused, as is a number too large for a float
    (``1e999``, which Python would read as infinity) or an integer of more than 4,300 digits
    (Python's limit), and a byte order mark. A line nested past the interpreter's limit
    raises RecursionError.
    """
    if not line.strip(" \t\r\n"):  # Python's message would be "Expecting value: line 1 column 1"
        raise ValueError("it is empty" if not line else "it holds nothing but blanks")
    if line.startswith("\ufeff"):  # Python's message would be "Expecting value: line 1 column 1"
        raise ValueError("it starts with a byte order mark (U+FEFF), which JSON does not allow")
    try:
        return _DECODER.decode(line)
    except ValueError as exc:
        digits = _DIGITS.search(str(exc))
        if digits is None:
            raise
        raise ValueError(
            f"a whole number of {int(digits[1]):,} digits: at most "
            f"{sys.get_int_max_str_digits():,} are read"
        ) from None


_STRING: Final = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_OPENERS: Final = (b"[", b"{", b",", b":")


def _openers(data: bytes) -> int:
    # an empty [] or {} is one value, not two; one inside a string had its [ or { counted too
    empty = data.count(b"[]") + data.count(b"{}")
    return 1 + sum(data.count(char) for char in _OPENERS) - empty


def values_over(data: bytes, limit: int) -> bool:
    """Whether :func:`decode` would build more than ``limit`` values from ``data``, names included.

    Counted on the bytes, before anything is built: every value and member name but the first
    follows a ``[``, ``{``, ``,`` or ``:`` (an empty ``[]`` or ``{}`` holds none). Those inside
    strings count only when the quick count with them is already over ``limit``; then they are
    counted again with each string as one character. The
    memory that decoding takes is bounded by the values it builds (at most ~100 bytes each in
    CPython) and the text, not by the size of a file alone: a file of ``[],`` builds 25 bytes
    for each of its bytes.
    """
    quick = _openers(data)
    if quick <= limit:
        return False
    # those inside strings taken off, string by string: a copy of the text without its strings
    # (re.sub) took ten times the text's size, for a text of millions of strings
    inside = 0
    count = data.count
    for found in _STRING.finditer(data):
        start, end = found.span()
        if end - start > 2:  # "" holds none
            inside += (
                count(b"[", start, end) + count(b"{", start, end) + count(b",", start, end)
                + count(b":", start, end) - count(b"[]", start, end) - count(b"{}", start, end)
            )  # fmt: skip
    return quick - inside > limit


class MessageError(ValueError):
    """A message that does not follow its schema; ``problem`` reads after the message's name."""

    def __init__(self, problem: str) -> None:
        """``problem``: "does not follow reply.json at $.seq: ..."."""
        super().__init__(problem)
        self.problem = problem


def _checked(schema: str, value: JSON) -> dict[str, JSON]:
    problem = shape_problem(schema, value)
    if problem:
        raise MessageError(problem)
    checked: dict[str, JSON] = value
    return checked


@dataclass(frozen=True, slots=True)
class Start:
    """``{"cmd": "start", "protocol": 1}``: the harness opens the session."""

    protocol: int
    schema: ClassVar[str] = "start"

    def to_json(self) -> dict[str, JSON]:
        """The message as JSON-shaped data."""
        return {"cmd": "start", "protocol": self.protocol}

    @classmethod
    def from_json(cls, value: JSON) -> Start:
        """Read a start message; MessageError if it does not follow ``start.json``."""
        return cls(_checked(cls.schema, value)["protocol"])


@dataclass(frozen=True, slots=True)
class Ready:
    """The engine's answer to start: its protocol, name, version, levels and optional features.

    ``features`` are the optional behaviours the engine declares (``"<level>.<feature>"``); the
    message carries them only when there are some.
    """

    protocol: int
    name: str
    version: str
    levels: tuple[str, ...]
    features: tuple[str, ...] = ()
    schema: ClassVar[str] = "ready"

    def to_json(self) -> dict[str, JSON]:
        """The message as JSON-shaped data."""
        message = ready_message(self.info())  # the shape's home, which info_problem uses too
        if self.features:
            message["engine"]["features"] = list(self.features)
        return message

    @classmethod
    def from_json(cls, value: JSON) -> Ready:
        """Read a ready message; MessageError if it does not follow ``ready.json``."""
        engine = _checked(cls.schema, value)["engine"]
        return cls(
            value["protocol"],
            engine["name"],
            engine["version"],
            tuple(engine["levels"]),
            tuple(engine.get("features", ())),
        )

    @classmethod
    def from_info(cls, info: EngineInfo) -> Ready:
        """The ready message that announces an engine with this identity (not checked)."""
        return cls(
            info["protocol"],
            info["name"],
            info["version"],
            tuple(info["levels"]),
            tuple(info.get("features", ())),
        )

    def info(self) -> EngineInfo:
        """The engine's identity, as an in-process engine's ``info()`` gives it."""
        info = EngineInfo(
            name=self.name, version=self.version, protocol=self.protocol, levels=list(self.levels)
        )
        if self.features:
            info["features"] = list(self.features)
        return info


@dataclass(frozen=True, slots=True)
class Run:
    """``{"cmd": "run", "seq": n, "level": ..., "given": {...}}``: one case's request."""

    seq: int
    level: str
    given: dict[str, JSON]
    schema: ClassVar[str] = "run"

    def to_json(self) -> dict[str, JSON]:
        """The message as JSON-shaped data."""
        return {"cmd": "run", "seq": self.seq, "level": self.level, "given": self.given}

    @classmethod
    def from_json(cls, value: JSON) -> Run:
        """Read a run request; MessageError if it does not follow ``run.json``."""
        checked = _checked(cls.schema, value)
        return cls(checked["seq"], checked["level"], checked["given"])


@dataclass(frozen=True, slots=True)
class Observed:
    """The reply that carries the engine's observation of the request ``seq``."""

    seq: int
    observation: dict[str, JSON]

    def to_json(self) -> dict[str, JSON]:
        """The message as JSON-shaped data."""
        return {"seq": self.seq, "observation": self.observation}

    @classmethod
    def from_json(cls, value: JSON) -> Observed:
        """Read this kind of reply; MessageError if it is not one (see :func:`reply_from_json`)."""
        reply = reply_from_json(value)
        if not isinstance(reply, cls):
            raise MessageError(f"is not a reply of the kind {cls.__name__}")
        return reply


@dataclass(frozen=True, slots=True)
class Errored:
    """The reply of an engine that failed on the request ``seq``, and why."""

    seq: int
    reason: str

    def to_json(self) -> dict[str, JSON]:
        """The message as JSON-shaped data."""
        return {"seq": self.seq, "errored": self.reason}

    @classmethod
    def from_json(cls, value: JSON) -> Errored:
        """Read this kind of reply; MessageError if it is not one (see :func:`reply_from_json`)."""
        reply = reply_from_json(value)
        if not isinstance(reply, cls):
            raise MessageError(f"is not a reply of the kind {cls.__name__}")
        return reply


@dataclass(frozen=True, slots=True)
class Unsupported:
    """The reply of an engine that declines the request ``seq``, and why."""

    seq: int
    reason: str

    def to_json(self) -> dict[str, JSON]:
        """The message as JSON-shaped data."""
        return {"seq": self.seq, "unsupported": self.reason}

    @classmethod
    def from_json(cls, value: JSON) -> Unsupported:
        """Read this kind of reply; MessageError if it is not one (see :func:`reply_from_json`)."""
        reply = reply_from_json(value)
        if not isinstance(reply, cls):
            raise MessageError(f"is not a reply of the kind {cls.__name__}")
        return reply


Reply = Observed | Errored | Unsupported
"""The three kinds of reply to a run request (``reply.json``)."""

_REPLY_KINDS: Final = {"observation": dict, "unsupported": str, "errored": str}


def _plain_reply(value: JSON) -> bool:
    """A quick test that implies ``reply.json``; the schema explains the other cases."""
    if type(value) is not dict or len(value) != 2:
        return False
    seq = value.get("seq")
    if type(seq) is not int or seq < 0:
        return False
    return any(type(value.get(key)) is kind for key, kind in _REPLY_KINDS.items())


def reply_from_json(value: JSON) -> Reply:
    """Read a reply; MessageError if it does not follow ``reply.json``.

    The common case, a two-key object of the right types, is told at once; only the others are
    validated against the schema, which explains what is wrong.
    """
    if not _plain_reply(value):
        _checked("reply", value)
    seq: int = value["seq"]
    if "observation" in value:
        return Observed(seq, value["observation"])
    if "errored" in value:
        return Errored(seq, value["errored"])
    return Unsupported(seq, value["unsupported"])


@dataclass(frozen=True, slots=True)
class Stop:
    """``{"cmd": "stop"}``: the harness ends the session."""

    schema: ClassVar[str] = "stop"

    def to_json(self) -> dict[str, JSON]:
        """The message as JSON-shaped data."""
        return {"cmd": "stop"}

    @classmethod
    def from_json(cls, value: JSON) -> Stop:
        """Read a stop message; MessageError if it does not follow ``stop.json``."""
        _checked(cls.schema, value)
        return cls()


@dataclass(frozen=True, slots=True)
class Stopped:
    """``{"stopped": true}``: the engine's answer to stop."""

    schema: ClassVar[str] = "stopped"

    def to_json(self) -> dict[str, JSON]:
        """The message as JSON-shaped data."""
        return {"stopped": True}

    @classmethod
    def from_json(cls, value: JSON) -> Stopped:
        """Read a stopped message; MessageError if it does not follow ``stopped.json``."""
        _checked(cls.schema, value)
        return cls()
