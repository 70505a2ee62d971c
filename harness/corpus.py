"""The fixture corpus: the case model, and loading a validated set of cases.

Files are read by :mod:`fiveup.harness.sources` and judged by :mod:`fiveup.harness.lint`; only
a corpus without problems becomes :class:`Corpus`.
"""

from __future__ import annotations

import hashlib
import importlib.resources
import os
import stat
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from fiveup.contract.engine import JSON, Level
from fiveup.errors import FixtureError, UsageError

from .levels import LEVELS
from .lint import lint
from .sources import MAX_FILE_BYTES, SourceFile, display_name, pointer
from .text import printable


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
    tags: tuple[str, ...] = ()
    """``optional``: a case of an optional feature, which an engine may decline."""
    decisions: tuple[str, ...] = ()
    """The open questions (``OQ-n``, spec/open-questions.md) whose decision the expectation
    depends on, in register order: ``certify --without-decision`` leaves such a case out."""

    @property
    def primary_rule(self) -> str:
        """The rule the case exists to check: the first of its rules."""
        return self.rules[0]

    @property
    def optional(self) -> bool:
        """True for a case of an optional feature (tagged ``optional``)."""
        return "optional" in self.tags

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


def engine_given(level: Level, given: Mapping[str, JSON]) -> dict[str, JSON]:
    """Turn a case's ``given`` into the request ``given`` of spec/protocol.md."""
    return LEVELS[level].request(given)


def bundled_fixture_dir() -> Path:
    """The folder of the bundled corpus (inside the installed package)."""
    return Path(str(importlib.resources.files("fiveup.fixtures"))).resolve()


FIXTURE_SUFFIXES = (".yaml", ".yml")


def fixture_files(paths: Iterable[Path]) -> list[Path]:
    """Every ``*.yaml``/``*.yml`` file named or found under the named folders, sorted.

    A folder is searched without following a symbolic link to a folder (which could lead back
    into it). Whatever cannot be searched or told apart is kept, whatever its name, for reading
    to report it by name instead of skipping it: a folder that cannot be listed, a symbolic link
    to a folder, a link that loops or cannot be followed.

    A file is listed once, where it is first met: named twice, or named and inside a named
    folder, or reached again through a link, it would be read twice and each of its cases
    refused as a duplicate of itself.
    """
    found: list[Path] = []
    seen: set[object] = set()
    for p in paths:
        for file in sorted(_search(p)) if _is_folder(p) else [p]:
            identity = _identity(file)
            if identity not in seen:
                seen.add(identity)
                found.append(file)
    return found


def _identity(path: Path) -> object:
    """The file ``path`` names (device and inode), or the path itself when it cannot be read."""
    try:
        info = os.stat(path)
    except (OSError, ValueError):
        return os.path.abspath(path)
    return (info.st_dev, info.st_ino) if stat.S_ISREG(info.st_mode) else os.path.abspath(path)


def _is_folder(path: Path) -> bool:
    try:
        return stat.S_ISDIR(os.stat(path).st_mode)
    except OSError:
        return False


def _search(root: Path) -> Iterator[Path]:
    folders = [root]
    while folders:
        folder = folders.pop()
        try:
            with os.scandir(folder) as listing:
                entries = list(listing)
        except OSError:
            yield folder  # read_yaml says why it cannot be listed
            continue
        for entry in entries:
            path = folder / entry.name
            kind = _kind(entry)
            if kind == "folder":
                folders.append(path)
            elif kind == "odd" or path.suffix in FIXTURE_SUFFIXES:
                yield path


def _kind(entry: os.DirEntry[str]) -> str:
    """``folder`` to search, ``file`` to read when its name says so, ``odd`` to report."""
    try:
        if entry.is_dir(follow_symlinks=False):
            return "folder"
        if not entry.is_symlink():
            return "file"
        return "odd" if stat.S_ISDIR(os.stat(entry.path).st_mode) else "file"
    except FileNotFoundError:
        return "file"  # a dangling link: read (and reported) when its name says so
    except OSError:
        return "odd"  # a loop, or a link through a folder that cannot be searched


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
            tags=tuple(raw.get("tags", ())),
            decisions=tuple(raw.get("decisions", ())),
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


_K = TypeVar("_K")
_V = TypeVar("_V")

_LOADED: dict[tuple[tuple[str, ...], bool, tuple[tuple[str, str], ...]], Corpus] = {}
"""Valid corpora already loaded in this process, by their files' names and contents: linting
is most of a load, and one process (a test run, a campaign) may load the same corpus often.
The names the cases give their files are part of the key: a name is written as seen from the
working folder (relative inside it, as given outside), so loads from two folders that see the
files by the same names share one corpus.
The spec the linter judges by is read once per process too (spec_index)."""
_LOADED_AT_MOST = 8

_LINTED: dict[tuple[bool, tuple[str, ...]], tuple[SourceFile, ...]] = {}
"""The files of valid corpora already linted in this process, by their contents alone.

Whether a corpus is valid depends on its files' contents and order, not on their names (only
the problems of an invalid one name its files): a corpus loaded again from another working
folder, or from another copy of the same files, takes the parsed files from here, and only its
cases' file names are made anew. A pytest run loads the bundled corpus from a hundred folders."""


def _relinked(files: list[Path], linted: tuple[SourceFile, ...]) -> list[SourceFile]:
    """The parsed files again, each at the path it has in this load."""
    return [
        SourceFile(path, src.data, digest=src.digest, where=src.where)
        for path, src in zip(files, linted, strict=True)
    ]


def _contents_key(files: list[Path]) -> tuple[tuple[str, str], ...] | None:
    try:
        found = [f.stat() for f in files]
        if not all(stat.S_ISREG(st.st_mode) and st.st_size <= MAX_FILE_BYTES for st in found):
            return None  # a FIFO would block here, a huge file fill memory: the linter refuses
        key = []
        for f in files:
            fd = os.open(f, os.O_RDONLY | os.O_NONBLOCK)  # a FIFO swapped in: no wait
            with os.fdopen(fd, "rb") as fh:
                if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
                    return None
                data = fh.read(MAX_FILE_BYTES + 1)
            if len(data) > MAX_FILE_BYTES:
                return None  # grown since: the linter's bounded read refuses it
            key.append((str(f), hashlib.sha256(data).hexdigest()))
        return tuple(key)
    except OSError:
        return None  # the linter names the file it cannot read


def check_fixture_paths(paths: Iterable[Path], option: str = "--fixtures") -> None:
    """Refuse paths that do not exist, or that hold no ``*.yaml`` fixture file (UsageError).

    An empty corpus would list, run or measure nothing and say so as if it were an answer.
    ``fiveup``'s ``--fixtures`` and the plugin's ``--fiveup-fixtures`` say it in the same words.
    """
    named = list(paths)
    for path in named:
        if not path.exists():
            why = "no such file or folder"
            if path.is_symlink():
                why = "a symbolic link that leads to no file (it loops, or what it names is gone)"
            raise UsageError(f"{option} {printable(str(path))}: {why}")
    if named and not fixture_files(named):
        shown = ", ".join(printable(str(path)) for path in named)
        raise UsageError(f"{option} {shown}: no *.yaml fixture files there")


def load_corpus(paths: Iterable[Path] | None = None) -> Corpus:
    """Load and validate a corpus (the bundled one by default).

    Raises FixtureError listing every problem when any file is not valid.
    """
    bundled = paths is None
    files = fixture_files([bundled_fixture_dir()] if paths is None else paths)
    contents = _contents_key(files)
    key = (tuple(display_name(f) for f in files), bundled, contents or ())
    linted_key = (bundled, tuple(digest for _, digest in contents or ()))
    if contents is not None and key in _LOADED:
        if linted_key in _LINTED:  # used too: the most recently used is left out last
            _LINTED[linted_key] = _LINTED.pop(linted_key)
        _LOADED[key] = _LOADED.pop(key)
        return _LOADED[key]
    linted = _LINTED.get(linted_key) if contents is not None else None
    if linted is not None:
        sources = _relinked(files, linted)
    else:
        report = lint(files, require_coverage=False)
        if report.problems:
            raise FixtureError("\n".join(p.text for p in report.problems))
        sources = report.sources
    root = bundled_fixture_dir() if bundled else None
    corpus = Corpus(
        cases=tuple(c for src in sources for c in cases_of(src)),
        digest=corpus_digest(sources, root),
        files=tuple(s.name for s in sources),
    )
    if contents is not None and [s.digest for s in sources] != [d for _, d in contents]:
        contents = None  # changed since it was hashed: the key would name other contents
    if contents is not None:
        _remember(_LOADED, key, corpus)
        if len(sources) == len(files):  # every file is a source of a valid corpus
            _remember(_LINTED, linted_key, tuple(sources))
    return corpus


def _remember(cache: dict[_K, _V], key: _K, value: _V) -> None:
    """Keep ``value`` under ``key``, leaving out the least recently used past the bound.

    The bundled corpus, loaded first and most often, was the first left out once eight corpora
    of a test's own had been loaded after it.
    """
    cache.pop(key, None)
    if len(cache) >= _LOADED_AT_MOST:
        del cache[next(iter(cache))]
    cache[key] = value
