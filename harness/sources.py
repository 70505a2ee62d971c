"""Reading fixture files: safe YAML with the source line of every value.

YAML is read only with PyYAML's safe loader: a ``!!python/...`` tag is refused. Every value
keeps the line it came from, so a problem is reported as ``file:line: /json/pointer: message``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from fiveup.contract.engine import JSON

__all__ = ["Problem", "SourceFile", "pointer", "read_yaml"]


@dataclass(frozen=True, slots=True, order=True)
class Problem:
    """One thing wrong with a fixture file: where it is and what it is."""

    file: str
    line: int
    pointer: str
    message: str

    @property
    def text(self) -> str:
        """``file:line: pointer: message``, the form printed by ``fiveup validate``."""
        where = f"{self.file}:{self.line}" if self.line else self.file
        return (
            f"{where}: {self.pointer}: {self.message}"
            if self.pointer
            else f"{where}: {self.message}"
        )

    def to_json(self) -> dict[str, JSON]:
        """The problem as a JSON object."""
        return {
            "file": self.file,
            "line": self.line,
            "pointer": self.pointer,
            "message": self.message,
        }


def pointer(parts: Iterable[str | int]) -> str:
    """A JSON pointer (RFC 6901) for a path of keys and indexes."""
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)


@dataclass(slots=True)
class SourceFile:
    """One parsed YAML file: its data and the line of every value by JSON pointer."""

    path: Path
    data: Any
    lines: dict[str, int] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)
    digest: str = ""

    @property
    def name(self) -> str:
        """The path for messages: relative to the working folder when inside it."""
        try:
            return str(self.path.resolve().relative_to(Path.cwd().resolve()))
        except (ValueError, OSError):
            return str(self.path)

    def line_of(self, ptr: str) -> int:
        """The line of the value at ``ptr``, or of its nearest enclosing value."""
        while ptr not in self.lines and ptr:
            ptr = ptr.rsplit("/", 1)[0]
        return self.lines.get(ptr, 1)

    def problem(self, ptr: str, message: str) -> Problem:
        """A problem located at ``ptr`` in this file."""
        return Problem(self.name, self.line_of(ptr), ptr, message)


_SafeLoader: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""libyaml's safe loader when PyYAML was built with it (ten times faster), else the pure one."""


def _walk(node: yaml.Node, parts: list[str | int], src: SourceFile) -> None:
    src.lines[pointer(parts)] = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        seen: dict[str, int] = {}
        for key_node, value_node in node.value:
            key = str(key_node.value)
            if key in seen:
                src.problems.append(
                    Problem(
                        src.name,
                        key_node.start_mark.line + 1,
                        pointer([*parts, key]),
                        f"duplicate key {key!r} (first at line {seen[key]})",
                    )
                )
            seen[key] = key_node.start_mark.line + 1
            _walk(value_node, [*parts, key], src)
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            _walk(item, [*parts, index], src)


def read_yaml(path: Path) -> SourceFile:
    """Read one YAML file safely; YAML errors become problems, never exceptions."""
    src = SourceFile(path, None)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        src.problems.append(Problem(src.name, 0, "", f"cannot read: {exc.strerror or exc}"))
        return src
    src.digest = hashlib.sha256(raw).hexdigest()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        src.problems.append(Problem(src.name, 1, "", f"not UTF-8 text: {exc.reason}"))
        return src
    loader = _SafeLoader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return src  # an empty document: data None, for the caller to judge
        _walk(node, [], src)
        src.data = loader.construct_document(node)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else 1
        what = exc.problem or str(exc)
        if exc.context:
            where = f" (line {exc.context_mark.line + 1})" if exc.context_mark else ""
            what = f"{what}, {exc.context}{where}"
        if "could not determine a constructor" in what:
            what = f"tag refused (only plain YAML is allowed): {what}"
        src.problems.append(Problem(src.name, line, "", f"YAML error: {what}"))
    except yaml.YAMLError as exc:
        src.problems.append(Problem(src.name, 1, "", f"YAML error: {exc}"))
    finally:
        loader.dispose()
    return src
