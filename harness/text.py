"""Untrusted text made safe to print: one home for the escaping every report and message uses.

A file name, a fixture's message or an engine's stderr reaches the terminal through
:func:`printable` (one line) or :func:`printable_lines` (a clipped block), so that no control
character, bidirectional override or undecodable byte can forge a line of the report.
"""

from __future__ import annotations

import json
import re
from typing import Final

__all__ = ["cut", "json_text", "printable", "printable_lines", "quoted"]


def printable(text: str) -> str:
    r"""``text`` with every non-printable character escaped as Python's ``repr`` escapes it.

    A byte of a file name that is not UTF-8 (a lone surrogate) becomes ``\xNN``. The result is
    one line of printable text, and escaping it again changes nothing.
    """
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else _escape(c) for c in text)


def quoted(text: str) -> str:
    r"""``text`` in single quotes, :func:`printable`: how a message quotes the user's word.

    ``repr`` would show a byte that is not UTF-8 as ``\udcff`` where :func:`printable` (every
    path and -k expression) shows ``\xff``; one rendering everywhere.
    """
    return f"'{printable(text)}'"


def printable_lines(text: str, limit: int) -> str:
    """Untrusted ``text`` (an engine's message) cut to ``limit`` characters, each line printable.

    The cut says so, and every line is :func:`printable`: no control character or lone
    surrogate reaches a report, and the line breaks of a stderr tail stay.
    """
    return "\n".join(printable(line) for line in cut(text, limit).split("\n"))


def cut(text: str, limit: int) -> str:
    """``text`` cut after ``limit`` characters, saying how many more there were.

    For a text shown whole up to a limit (a name, a message); where a field's width is fixed,
    :func:`fiveup.contract.schemas.clip` shortens to the width instead.
    """
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text) - limit} more characters not shown)"


def _escape(char: str) -> str:
    code = ord(char)
    if 0xDC80 <= code <= 0xDCFF:  # os.fsdecode's stand-in for an undecodable byte
        return f"\\x{code - 0xDC00:02x}"
    return repr(char)[1:-1]


_LONE_SURROGATE: Final = re.compile(
    r"(?<!\\)((?:\\\\)*)\\u(d[89ab][0-9a-f]{2})(?!\\ud[c-f][0-9a-f]{2})"
    r"|(?<!\\)((?:\\\\)*)(?<!\\ud[89ab][0-9a-f]{2})\\u(d[c-f][0-9a-f]{2})"
)
"""An escape of a lone surrogate in ``json.dumps``'s ASCII output (not of an escaped backslash,
nor one half of a pair)."""


def json_text(value: object, indent: int | None = 2) -> str:
    r"""``json.dumps(value, indent=indent)`` that every strict JSON reader reads.

    A string from an engine may hold a lone surrogate (JSON's ``"\ud800"`` decodes to one):
    ``json.dumps`` writes it back as that escape, which is no Unicode character and which
    strict readers refuse. It is written as the six characters ``\ud800`` instead (an escaped
    backslash), as :func:`printable` shows it.
    """
    text = json.dumps(value, indent=indent)
    if "\\ud" not in text:
        return text
    return _LONE_SURROGATE.sub(_literal, text)


def _literal(found: re.Match[str]) -> str:
    slashes = found[1] if found[2] else found[3] or ""
    return f"{slashes}\\\\u{found[2] or found[4]}"
