"""Untrusted text made safe to print: one home for the escaping every report and message uses.

A file name, a fixture's message or an engine's stderr reaches the terminal through
:func:`printable` (one line) or :func:`printable_lines` (a clipped block), so that no control
character, bidirectional override or undecodable byte can forge a line of the report.
"""

from __future__ import annotations

__all__ = ["cut", "printable", "printable_lines", "quoted"]


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
