"""The fixture corpus: safe YAML loading with source positions, and the case model.

YAML is read only with PyYAML's safe loader: a ``!!python/...`` tag is refused. Every value
keeps the line it came from, so a problem is reported as ``file:line: /json/pointer: message``.
"""

from __future__ import annotations

import hashlib
import importlib.resources
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from fiveup.errors import FixtureError
from fiveup.harness.protocol import JSON, Level


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


@dataclass(frozen=True, slots=True)
class Case:
    """One conformance case: what the engine is given and what is expected of it."""

    id: str
    title: str
    rules: tuple[str, ...]
    level: Level
    given: Mapping[str, JSON]
    expect: Mapping[str, JSON]
    provenance: Mapping[str, JSON]
    description: str
    file: str
    line: int

    @property
    def negative(self) -> bool:
        """True when the case expects a refused action."""
        return "error" in self.expect

    def request(self) -> dict[str, JSON]:
        """What the engine receives: ``given`` with each deal turned into one deck."""
        return engine_given(self.level, self.given)

    def sections(self) -> tuple[str, ...]:
        """The spec sections (rule ID prefixes) the case checks."""
        return tuple(sorted({r.split("-")[0] for r in self.rules}))


def side_count(players: int) -> int:
    """How many sides score: one per player, or two partnerships with four players (PLY-2/3)."""
    return 2 if players == 4 else players


def _deck(start: Mapping[str, JSON]) -> list[JSON]:
    deck: list[JSON] = [tile for hand in start["hands"] for tile in hand]
    deck.extend(start["boneyard"])
    return deck


def engine_given(level: Level, given: Mapping[str, JSON]) -> dict[str, JSON]:
    """Turn a case's ``given`` into the request ``given`` of spec/protocol.md."""
    if level is Level.ROUND:
        players = given["players"]
        return {
            "players": players,
            "deck": _deck(given),
            "opener": given["opener"],
            "scores": list(given.get("scores", [0] * side_count(players))),
            "actions": list(given["actions"]),
        }
    if level is Level.MATCH:
        players = given["players"]
        rounds: list[JSON] = []
        for r in given["rounds"]:
            item: dict[str, JSON] = {"deck": _deck(r), "actions": list(r["actions"])}
            if "opener" in r:
                item["opener"] = r["opener"]
            rounds.append(item)
        return {
            "players": players,
            "scores": list(given.get("scores", [0] * side_count(players))),
            "rounds": rounds,
        }
    return dict(given)


def bundled_fixture_dir() -> Path:
    """The folder of the bundled corpus (inside the installed package)."""
    return Path(str(importlib.resources.files("fiveup.fixtures"))).resolve()


def fixture_files(paths: Iterable[Path]) -> list[Path]:
    """Every ``*.yaml``/``*.yml`` file named or found under the named folders, sorted."""
    found: list[Path] = []
    for p in paths:
        if p.is_dir():
            found.extend(sorted(q for q in p.rglob("*") if q.suffix in (".yaml", ".yml")))
        else:
            found.append(p)
    return found


def cases_of(src: SourceFile) -> Iterator[Case]:
    """The cases of a file that passed validation."""
    for index, raw in enumerate(src.data["cases"]):
        yield Case(
            id=raw["id"],
            title=raw["title"],
            rules=tuple(raw["rules"]),
            level=Level(raw["level"]),
            given=raw["given"],
            expect=raw["expect"],
            provenance=raw["provenance"],
            description=raw.get("description", ""),
            file=src.name,
            line=src.line_of(pointer(["cases", index])),
        )


@dataclass(frozen=True, slots=True)
class Corpus:
    """A validated set of cases and the digest that identifies it."""

    cases: tuple[Case, ...]
    digest: str
    files: tuple[str, ...]

    def by_id(self) -> dict[str, Case]:
        """The cases by ID."""
        return {c.id: c for c in self.cases}


def corpus_digest(sources: Iterable[SourceFile], root: Path | None) -> str:
    """A short hash of the corpus: file names (relative to ``root``) and contents."""
    h = hashlib.sha256()
    for src in sorted(sources, key=lambda s: s.name):
        name = (
            str(src.path.relative_to(root)) if root and src.path.is_relative_to(root) else src.name
        )
        h.update(name.encode() + b"\0" + src.digest.encode() + b"\n")
    return h.hexdigest()[:16]


def load_corpus(paths: Iterable[Path] | None = None) -> Corpus:
    """Load and validate a corpus (the bundled one by default).

    Raises FixtureError listing every problem when any file is not valid.
    """
    from fiveup.harness.lint import lint  # the linter builds on this module

    bundled = paths is None
    files = fixture_files([bundled_fixture_dir()] if paths is None else paths)
    report = lint(files, require_coverage=False)
    if report.problems:
        raise FixtureError("\n".join(p.text for p in report.problems))
    root = bundled_fixture_dir() if bundled else None
    return Corpus(
        cases=tuple(c for src in report.sources for c in cases_of(src)),
        digest=corpus_digest(report.sources, root),
        files=tuple(s.name for s in report.sources),
    )
