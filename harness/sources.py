"""Reading fixture files: bounded, total, safe YAML with the source line of every value.

Any file gives either data or problems, never an exception, a hang or unbounded memory (the
limits are those of spec/fixtures.md, "Limits"): only a regular file of at most
:data:`MAX_FILE_BYTES` is read, without blocking; it must be UTF-8 text with no control
character but tab and line feed; and the YAML is composed here, event by event, so that nesting,
the number of values (an alias counting at its expanded size), keys and numbers stay bounded and
only plain data comes out: strings, whole numbers, booleans, nulls, lists and mappings, with no
tag (``!!python/...`` or any other), date, fraction, merge key or recursive alias. Every value
keeps the line it came from, so a problem is reported as ``file:line: /json/pointer: message``;
file names and messages are printed with every non-printable character escaped, so no name can
forge a line of the report.
"""

from __future__ import annotations

import errno
import hashlib
import os
import re
import stat
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

import yaml

from fiveup.contract.engine import JSON
from fiveup.contract.schemas import clip

from .text import printable, printable_lines, quoted

__all__ = [
    "MAX_DEPTH",
    "MAX_FILE_BYTES",
    "MAX_ITEMS",
    "MAX_KEY_CHARS",
    "MAX_MESSAGE_CHARS",
    "MAX_NUMBER_CHARS",
    "MAX_PROBLEMS",
    "MAX_RUN_PROBLEMS",
    "MAX_TEXT_CHARS",
    "MAX_VALUES",
    "TOO_MANY_PROBLEMS",
    "Problem",
    "SourceFile",
    "display_name",
    "key_text",
    "pointer",
    "printable",
    "printable_lines",
    "read_bounded",
    "read_yaml",
]

MAX_FILE_BYTES: Final = 1 << 20
"""The largest fixture file read: 1 MiB (the biggest bundled file is 50 KB)."""
MAX_ITEMS: Final = 2_000
"""Items of one list or mapping inside a case (the bundled corpus has 70 at most): a schema
problem under a ``oneOf`` is described by jsonschema with an error per item and branch, which a
list of tens of thousands of items makes hundreds of megabytes of. The file's mapping and the
lists and mappings it holds (``cases``, a baseline's entries) are bounded by the values alone."""
_UNCOUNTED_DEPTH: Final = 2
"""The depth down to which :data:`MAX_ITEMS` does not apply: the file's mapping, and ``cases``."""
MAX_DEPTH: Final = 32
"""How many lists and mappings may hold one another (the bundled corpus needs 9)."""
MAX_VALUES: Final = 50_000
"""Values of one file (scalars, lists, mappings, keys); an alias counts at its expanded size."""
MAX_TEXT_CHARS: Final = 2 << 20
"""The characters of a file's strings and keys, an alias counting at its expanded size: twice
what a file can hold written out, so an alias to a long text cannot make gigabytes of it."""
MAX_KEY_CHARS: Final = 256
"""The longest mapping key."""
MAX_NUMBER_CHARS: Final = 32
"""The longest number, as written (far below Python's limit of 4300 digits)."""
MAX_MESSAGE_CHARS: Final = 500
"""A problem's message is clipped to this length (a schema message quotes the value)."""
MAX_PROBLEMS: Final = 100
"""The problems reported of one file; a file with more says that the rest were left out."""
MAX_RUN_PROBLEMS: Final = 1_000
"""The problems after which a run checks no further file (a folder of thousands of broken files
is not read to its end, nor reported in full)."""


TOO_MANY_PROBLEMS: Final = (
    f"too many problems: only the first {MAX_PROBLEMS} of this file are reported"
)


@dataclass(frozen=True, slots=True, order=True)
class Problem:
    """One thing wrong with a fixture file: where it is and what it is."""

    file: str
    line: int
    pointer: str
    message: str

    @property
    def text(self) -> str:
        """``file:line: pointer: message``, the form printed by ``fiveup validate``.

        One line of printable text: a control character of a name or a message is escaped.
        """
        where = f"{self.file}:{self.line}" if self.line else self.file
        text = (
            f"{where}: {self.pointer}: {self.message}"
            if self.pointer
            else f"{where}: {self.message}"
        )
        return printable(text)

    def to_json(self) -> dict[str, JSON]:
        """The problem as a JSON object."""
        return {
            "file": self.file,
            "line": self.line,
            "pointer": self.pointer,
            "message": self.message,
        }


def pointer(parts: Iterable[object]) -> str:
    """A JSON pointer (RFC 6901) for a path of keys and indexes.

    A key that YAML read as null or a boolean is named as YAML writes it (``/null``, ``/true``),
    not as Python does (``/None``).
    """
    return "".join("/" + key_text(p).replace("~", "~0").replace("/", "~1") for p in parts)


def key_text(key: object) -> str:
    """A mapping key or an index as a pointer names it: ``null``, ``true``, ``5``, ``cases``."""
    if key is None or isinstance(key, bool):
        return {True: "true", False: "false", None: "null"}[key]
    return str(key)


def _pointer_parts(ptr: str) -> list[str]:
    return [p.replace("~1", "/").replace("~0", "~") for p in ptr.split("/")[1:]]


@dataclass(slots=True)
class _Where:
    """The line of a list or mapping and the lines of what it holds (a scalar's: an int)."""

    line: int
    children: dict[str, _Where | int] | list[_Where | int]

    def child(self, part: str) -> _Where | int | None:
        if isinstance(self.children, dict):
            return self.children.get(part)
        if part.isascii() and part.isdigit() and int(part) < len(self.children):
            return self.children[int(part)]
        return None


def display_name(path: Path) -> str:
    """The path for messages: relative to the working folder when inside it, escaped."""
    try:  # the name as given, not where a link leads (nor a loop: no exception)
        shown = str(Path(os.path.abspath(path)).relative_to(Path.cwd()))
    except (ValueError, OSError):
        shown = str(path)
    return printable(shown)


@dataclass(slots=True)
class SourceFile:
    """One parsed YAML file: its data and the line of every value by JSON pointer."""

    path: Path
    data: Any
    problems: list[Problem] = field(default_factory=list)
    digest: str = ""
    where: _Where | int | None = None
    """The lines of the values, in the shape of ``data``."""
    _name: str = ""

    @property
    def name(self) -> str:
        """The path for messages: relative to the working folder when inside it, escaped."""
        if not self._name:
            self._name = display_name(self.path)
        return self._name

    def line_of(self, ptr: str) -> int:
        """The line of the value at ``ptr``, or of its nearest enclosing value."""
        node = self.where
        if node is None:
            return 1
        line = node if isinstance(node, int) else node.line
        for part in _pointer_parts(ptr):
            child = node.child(part) if isinstance(node, _Where) else None
            if child is None:
                break
            node = child
            line = child if isinstance(child, int) else child.line
        return line

    def problem(self, ptr: str, message: str) -> Problem:
        """A problem located at ``ptr`` in this file."""
        return Problem(self.name, self.line_of(ptr), ptr, clip(message, MAX_MESSAGE_CHARS))

    def refuse(self, line: int, message: str, ptr: str = "") -> None:
        """Note a problem of reading the file (the first :data:`MAX_PROBLEMS` of them)."""
        if len(self.problems) < MAX_PROBLEMS:
            self.problems.append(Problem(self.name, line, ptr, clip(message, MAX_MESSAGE_CHARS)))
        elif len(self.problems) == MAX_PROBLEMS:
            self.problems.append(Problem(self.name, 0, "", TOO_MANY_PROBLEMS))


# Reading the bytes -------------------------------------------------------------------------

_OPEN_FLAGS: Final = (
    os.O_RDONLY
    | getattr(os, "O_NONBLOCK", 0)  # a FIFO swapped in after the check must not block
    | getattr(os, "O_NOCTTY", 0)
    | getattr(os, "O_CLOEXEC", 0)
    | getattr(os, "O_BINARY", 0)
)

_KINDS: Final = (
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def _why(exc: OSError) -> str:
    return exc.strerror or str(exc)


def _dangling(path: Path, exc: OSError) -> str:
    """``a symbolic link to T, which does not exist`` for a link that leads nowhere, else ''."""
    if exc.errno != errno.ENOENT:
        return ""
    try:
        target = os.readlink(path)
    except (OSError, ValueError):
        return ""
    if os.path.exists(path):
        return ""
    return f"a symbolic link to {quoted(clip(target, 120))}, which does not exist"


def _not_regular(path: Path, mode: int) -> str:
    if stat.S_ISDIR(mode):
        try:
            with os.scandir(path):
                pass
        except OSError as exc:
            return f"cannot read the folder: {_why(exc)}"
        if os.path.islink(path):
            return "a symbolic link to a folder is not followed: name the folder itself"
        return "is a folder, not a file"
    kind = next((name for test, name in _KINDS if test(mode)), "not a regular file")
    return f"cannot read: {kind}, not a regular file (only regular files are read)"


def _too_large(size: str, limit: int) -> str:
    return f"file too large: {size} bytes, the limit is {limit} bytes ({limit >> 20} MiB)"


def read_bounded(path: Path, limit: int = MAX_FILE_BYTES) -> bytes | str:
    """The bytes of a regular file of at most ``limit`` bytes, or why not.

    A FIFO, a device, a socket or a folder is refused without being opened for reading (it
    could block or never end); a file that grows past ``limit`` while it is read is refused.
    """
    try:
        info = os.stat(path)
        if not stat.S_ISREG(info.st_mode):
            return _not_regular(path, info.st_mode)
        if info.st_size > limit:
            return _too_large(str(info.st_size), limit)
        fd = os.open(path, _OPEN_FLAGS)
    except OSError as exc:
        return f"cannot read: {_dangling(path, exc) or _why(exc)}"
    except ValueError:  # os.stat's "embedded null byte": a name no file can have
        return "cannot read: the name holds a NUL character, which no file name can"
    try:
        opened = os.fstat(fd)
        if not stat.S_ISREG(opened.st_mode):  # replaced between the check and the opening
            return _not_regular(path, opened.st_mode)
        chunks: list[bytes] = []
        size = 0
        while size <= limit:
            chunk = os.read(fd, limit + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as exc:
        return f"cannot read: {_why(exc)}"
    finally:
        os.close(fd)
    return _too_large(f"more than {limit}", limit) if size > limit else b"".join(chunks)


# Decoding the text -------------------------------------------------------------------------

_FORBIDDEN: Final = re.compile(
    "[^\t\n\r\x20-\x7e\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]|[\u2028\u2029]|\r(?!\n)"
)
"""What YAML does not allow in a stream (C0 and C1 controls, U+FFFE, U+FFFF), and the line breaks
other than LF and CRLF (a lone CR, U+2028, U+2029), which would make lines counted differently."""

_FORBIDDEN_ESCAPED: Final = re.compile(
    "[^\t\n\x20-\x7e\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]|[\u2028\u2029]"
)
"""What a double-quoted string may not spell with an escape (``\\e``, ``\\0``, ``\\r``, ``\\x85``):
the characters refused in the file itself, which would otherwise reach a title that ``fiveup
show`` prints to a terminal, or a report."""


def _forbidden(char: str) -> str:
    if char == "\r":
        return "a carriage return (U+000D) without a line feed"
    name = unicodedata.name(char, "")
    kind = "control character" if unicodedata.category(char) == "Cc" else "character"
    return f"{kind} U+{ord(char):04X}" + (f" ({name})" if name else "")


def _decode(raw: bytes, src: SourceFile) -> str | None:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        start = raw.rfind(b"\n", 0, exc.start) + 1
        column = len(raw[start : exc.start].decode("utf-8")) + 1
        src.refuse(
            raw.count(b"\n", 0, exc.start) + 1,
            f"not UTF-8 text: {exc.reason}: byte 0x{raw[exc.start]:02x} at column {column}",
        )
        return None
    bad = _FORBIDDEN.search(text)
    if bad is not None:
        pos = bad.start()
        src.refuse(
            text.count("\n", 0, pos) + 1,
            f"{_forbidden(text[pos])} at column {pos - text.rfind(chr(10), 0, pos)}: "
            "not allowed (only printable text, tab and line feed, or CR LF)",
        )
        return None
    return text


# Composing the YAML ------------------------------------------------------------------------

_Loader: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""libyaml's parser when PyYAML was built with it (ten times faster), else the pure one."""

_TAG: Final = "tag:yaml.org,2002:"
_SCALAR_TAGS: Final = frozenset(_TAG + t for t in ("null", "bool", "int", "str"))
_STR: Final = _TAG + "str"
_NOT_JSON: Final = {
    _TAG + "float": "a fraction: numbers are whole here",
    _TAG + "timestamp": "a date or time",
    _TAG + "merge": "a merge key, which is not allowed",
    _TAG + "value": "a value key, which is not allowed",
}
_READS_AS: Final = {
    _TAG + "null": "null",
    _TAG + "bool": "a boolean",
    _TAG + "int": "a number",
    **{tag: what.split(":")[0].split(",")[0] for tag, what in _NOT_JSON.items()},
}
_NO_KEY: Final = object()
_DECIMAL: Final = re.compile("[-+]?(?:0|[1-9][0-9]*)")
"""A whole number as YAML 1.2 and JSON read it alike: YAML 1.1 (PyYAML) also reads ``017`` as 15
(octal), ``0b11``, ``0x1f``, ``1_000`` and ``1:30`` (90), where YAML 1.2 reads 17 or text."""
_BOOLEANS: Final = frozenset({"true", "True", "TRUE", "false", "False", "FALSE"})
"""The booleans of YAML 1.2; YAML 1.1 also reads ``yes``, ``no``, ``on`` and ``off`` as ones."""
_KEY_NOT_PLAIN: Final = "a mapping key must be a plain value, not a list or mapping"


def _line(event: yaml.Event) -> int:
    return event.start_mark.line + 1 if event.start_mark is not None else 1


class _Refused(Exception):
    """The reader stops: a limit or a rule of plain YAML is broken at ``line``."""

    def __init__(self, line: int, parts: list[str | int], message: str) -> None:
        super().__init__(message)
        self.line = line
        self.parts = parts
        self.message = message


@dataclass(slots=True)
class _Open:
    """A list or mapping being composed."""

    value: list[Any] | dict[Any, Any]
    where: _Where
    part: str | int | None
    """Its key or index in the collection that holds it."""
    depth: int
    start: int
    anchor: str | None
    height: int
    """The deepest level reached inside it so far (its own depth at first)."""
    start_chars: int = 0
    key: Any = _NO_KEY
    key_text: str = ""
    key_lines: dict[Any, tuple[int, Any]] = field(default_factory=dict)
    """Each key's first line, and the key as written there (``true`` and ``1`` are one key)."""


@dataclass(frozen=True, slots=True)
class _Anchored:
    value: Any
    where: _Where | int
    size: int
    height: int
    chars: int


@dataclass(slots=True)
class _Done:
    """A value just composed, and what it costs.

    Not frozen: one is made for every value of a file, and a frozen one sets each field by a
    call of its own (a fifth of reading a file).
    """

    value: Any
    where: _Where | int
    line: int
    size: int
    height: int
    anchor: str | None
    chars: int = 0
    """The characters of its strings, aliases expanded."""


class _Composer:
    """Builds the data and its lines from the parser's events, within the limits."""

    def __init__(self, loader: Any, src: SourceFile) -> None:
        self.loader = loader
        """The parser: its events, and the resolver and constructors of plain scalars."""
        self.src = src
        self.stack: list[_Open] = []
        self.anchors: dict[str, _Anchored] = {}
        self.values = 0
        self.chars = 0
        self.root: _Done | None = None

    def document(self) -> _Done | None:
        loader = self.loader
        loader.get_event()  # the start of the stream
        if loader.check_event(yaml.StreamEndEvent):
            return None
        first = loader.get_event()  # the start of the document
        while self.root is None:
            self._event(loader.get_event())
        loader.get_event()  # the end of the document
        if not loader.check_event(yaml.StreamEndEvent):
            raise yaml.composer.ComposerError(
                "expected a single document in the stream",
                first.start_mark,
                "but found another document",
                loader.get_event().start_mark,
            )
        return self.root

    def _path(self) -> list[str | int]:
        """The place of the next value: the keys and indexes down to it."""
        parts = [o.part for o in self.stack[1:] if o.part is not None]
        if self.stack:
            top = self.stack[-1]
            if isinstance(top.value, list):
                parts.append(len(top.value))
            elif top.key is not _NO_KEY:
                parts.append(top.key_text)
        return parts

    def _refuse(self, event: yaml.Event, message: str) -> _Refused:
        return _Refused(_line(event), self._path(), message)

    def _event(self, event: yaml.Event) -> None:
        if self.stack and not isinstance(event, yaml.CollectionEndEvent):
            top = self.stack[-1]
            if (
                len(top.value) >= MAX_ITEMS
                and top.depth > _UNCOUNTED_DEPTH
                and (isinstance(top.value, list) or top.key is _NO_KEY)
            ):
                raise self._refuse(
                    event, f"too many items: more than {MAX_ITEMS:,} in one list or mapping"
                )
        if isinstance(event, yaml.ScalarEvent):
            self._add(self._scalar(event))
        elif isinstance(event, yaml.AliasEvent):
            self._add(self._alias(event))
        elif isinstance(event, yaml.CollectionStartEvent):
            self._open(event)
        else:  # the end of a list or mapping
            self._add(self._close(self.stack.pop()))

    def _count(self, event: yaml.Event, size: int, chars: int = 0) -> None:
        self.values += size
        if self.values > MAX_VALUES:
            raise self._refuse(
                event,
                f"too many values: more than {MAX_VALUES} (an alias counts at its expanded size)",
            )
        self.chars += chars
        if self.chars > MAX_TEXT_CHARS:
            raise self._refuse(
                event,
                f"too much text: more than {MAX_TEXT_CHARS} characters in strings "
                "(an alias counts at its expanded size)",
            )

    def _check_node(self, event: yaml.NodeEvent) -> None:
        tag = getattr(event, "tag", None)
        if tag is not None and tag != "!":
            raise self._refuse(event, f"tag refused (only plain YAML is allowed): {tag}")
        anchor = event.anchor
        if anchor is not None and (
            anchor in self.anchors or any(o.anchor == anchor for o in self.stack)
        ):
            raise self._refuse(event, f"anchor &{anchor} is defined twice")

    def _scalar(self, event: yaml.ScalarEvent) -> _Done:
        self._check_node(event)
        text = event.value
        tag = self.loader.resolve(yaml.ScalarNode, text, event.implicit)
        if event.tag == "!" and tag != _STR:  # YAML makes `! 15` the text "15"; PyYAML, 15
            raise self._refuse(
                event,
                f"'! {text}' is text in YAML (the tag ! on a scalar) but reads as "
                f"{_READS_AS.get(tag, tag)} here (quote it if it is text, or drop the !)",
            )
        if tag not in _SCALAR_TAGS:
            what = _NOT_JSON.get(tag, tag)
            raise self._refuse(event, f"{text!r} reads as {what} (quote it if it is text)")
        if tag == _TAG + "int" and len(text) > MAX_NUMBER_CHARS:
            raise self._refuse(
                event,
                f"number too long: {len(text)} characters, the limit is {MAX_NUMBER_CHARS}",
            )
        if event.style == '"':  # only a double-quoted string has escapes
            bad = _FORBIDDEN_ESCAPED.search(text)
            if bad is not None:
                raise self._refuse(
                    event,
                    f"{_forbidden(bad.group()).replace(' without a line feed', '')} in a quoted "
                    "string (an escape): not allowed "
                    "(only printable text, tab and line feed)",
                )
        self._count(event, 1, len(text))
        if tag == _TAG + "int" and _DECIMAL.fullmatch(text) is None:
            number = self.loader.yaml_constructors[tag](self.loader, yaml.ScalarNode(tag, text))
            raise self._refuse(
                event,
                f"{text!r} is not written in decimal (YAML 1.1 reads it as {number}, YAML 1.2 "
                f"may not): write {number}, or quote it if it is text",
            )
        if tag == _TAG + "bool" and text not in _BOOLEANS:
            raise self._refuse(
                event,
                f"{text!r} reads as a boolean in YAML 1.1 and as text in YAML 1.2 "
                "(write true or false, or quote it if it is text)",
            )
        if tag == _STR:  # what PyYAML's constructor of a string returns: the text itself
            value = text
        else:
            value = self.loader.yaml_constructors[tag](self.loader, yaml.ScalarNode(tag, text))
        line = _line(event)
        return _Done(value, line, line, 1, 0, event.anchor, len(text))

    def _alias(self, event: yaml.AliasEvent) -> _Done:
        name = event.anchor or ""
        found = self.anchors.get(name)
        if found is None:
            inside = any(o.anchor == name for o in self.stack)
            raise self._refuse(
                event,
                f"alias *{name} refers to the list or mapping that holds it"
                if inside
                else f"alias *{name} names no anchor defined before it",
            )
        if len(self.stack) + found.height > MAX_DEPTH:
            raise self._refuse(event, f"alias *{name} nests values more than {MAX_DEPTH} deep")
        self._count(event, found.size, found.chars)
        line = _line(event)
        # a problem anywhere in the value is the problem of where the alias uses it
        where = line if isinstance(found.where, int) else _Where(line, [])
        return _Done(found.value, where, line, found.size, found.height, None, found.chars)

    def _open(self, event: yaml.CollectionStartEvent) -> None:
        self._check_node(event)
        top = self.stack[-1] if self.stack else None
        if top is not None and isinstance(top.value, dict) and top.key is _NO_KEY:
            raise self._refuse(event, _KEY_NOT_PLAIN)
        if len(self.stack) >= MAX_DEPTH:
            raise self._refuse(event, f"nested too deeply: over {MAX_DEPTH} lists and mappings")
        self._count(event, 1)
        part = self._path()[-1] if top is not None else None
        line = _line(event)
        is_list = isinstance(event, yaml.SequenceStartEvent)
        value: list[Any] | dict[Any, Any] = [] if is_list else {}
        where = _Where(line, [] if is_list else {})
        depth = len(self.stack) + 1
        opened = _Open(value, where, part, depth, self.values, event.anchor, depth, self.chars)
        self.stack.append(opened)

    def _close(self, done: _Open) -> _Done:
        return _Done(
            done.value,
            done.where,
            done.where.line,
            self.values - done.start + 1,
            done.height - done.depth + 1,
            done.anchor,
            self.chars - done.start_chars,
        )

    def _add(self, done: _Done) -> None:
        if done.anchor is not None:
            self.anchors[done.anchor] = _Anchored(
                done.value, done.where, done.size, done.height, done.chars
            )
        if not self.stack:
            self.root = done
            return
        top = self.stack[-1]
        top.height = max(top.height, top.depth + done.height)
        if isinstance(top.value, list):
            top.value.append(done.value)
            assert isinstance(top.where.children, list)
            top.where.children.append(done.where)
        elif top.key is _NO_KEY:
            self._key(top, done)
        else:
            top.value[top.key] = done.value
            assert isinstance(top.where.children, dict)
            top.where.children[top.key_text] = done.where
            top.key = _NO_KEY

    def _key(self, top: _Open, done: _Done) -> None:
        if not isinstance(done.where, int):
            raise _Refused(done.line, self._path(), _KEY_NOT_PLAIN)
        text = key_text(done.value)
        if len(text) > MAX_KEY_CHARS:
            raise _Refused(
                done.line,
                self._path(),
                f"key too long: {len(text)} characters, the limit is {MAX_KEY_CHARS}",
            )
        first = top.key_lines.get(done.value)
        if first is not None:
            line, before = first
            what = (
                f"duplicate key {_yaml_key(done.value)} (first at line {line})"
                if type(before) is type(done.value)
                else f"keys {_yaml_key(before)} (line {line}) and {_yaml_key(done.value)} are "
                "one key once read: a boolean key is the number 1 or 0"
            )
            self.src.refuse(done.line, what, pointer([*self._path(), text]))
        else:
            top.key_lines[done.value] = (done.line, done.value)
        top.key, top.key_text = done.value, text


def _yaml_key(key: object) -> str:
    """A plain key as YAML writes it: ``'cases'``, ``1``, ``true``, ``null``."""
    if isinstance(key, bool) or key is None:
        return {True: "true", False: "false", None: "null"}[key]
    return repr(key)


def _yaml_problem(exc: yaml.YAMLError) -> tuple[int, str]:
    if isinstance(exc, yaml.MarkedYAMLError):
        mark = exc.problem_mark or exc.context_mark
        what = exc.problem or str(exc)
        if exc.context:
            where = f" (line {exc.context_mark.line + 1})" if exc.context_mark else ""
            what = f"{what}, {exc.context}{where}"
        return (mark.line + 1 if mark else 1), f"YAML error: {what}"
    return 1, f"YAML error: {exc}"


def _compose(text: str, src: SourceFile) -> None:
    loader = _Loader(text)
    try:
        root = _Composer(loader, src).document()
        if root is not None:
            src.data, src.where = root.value, root.where
    except _Refused as exc:
        src.data, src.where = None, None
        src.refuse(exc.line, exc.message, pointer(exc.parts))
    except yaml.YAMLError as exc:
        src.data, src.where = None, None
        src.refuse(*_yaml_problem(exc))
    finally:
        loader.dispose()


def read_yaml(path: Path, limit: int = MAX_FILE_BYTES) -> SourceFile:
    """Read one YAML file of at most ``limit`` bytes safely, within the limits; never raises."""
    src = SourceFile(path, None)
    raw = read_bounded(path, limit)
    if isinstance(raw, str):
        src.refuse(0, raw)
        return src
    src.digest = hashlib.sha256(raw).hexdigest()
    text = _decode(raw, src)
    if text is not None:
        _compose(text, src)
    if src.problems:
        src.data = None
    return src
