"""The architecture, checked from the source: who imports whom, and no private names shared.

Every import of every module is read from its syntax tree, function-level imports included,
and resolved to a file the way a reader would follow it. The graph must show the contract at
the bottom (``fiveup.contract`` and ``fiveup.errors`` import neither side), no import between
the reference engine and the harness in either direction, no cycle anywhere, and mutants (the wrong
engines among them) that build on the public seam only.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest
from privacy import imported_private_uses, nodes, private_uses

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = {
    "fiveup": ROOT / "fiveup",
    "fiveup.reference": ROOT / "reference",
    "fiveup.harness": ROOT / "harness",
    "fiveup.spec": ROOT / "spec",
    "fiveup.fixtures": ROOT / "fixtures",
}
"""Where each installed package's files live in the checkout (pyproject's package-dir)."""


def _modules() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for package, folder in PACKAGES.items():
        for path in sorted(folder.rglob("*.py")):
            relative = path.relative_to(folder)
            if any(part in PACKAGES or (folder / part).is_symlink() for part in relative.parts):
                continue  # fiveup/reference etc. are links to the top-level folders
            parts = [*package.split("."), *relative.with_suffix("").parts]
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


MODULES = _modules()


@cache
def _source(path: Path) -> str:
    """A module's text, read once for every check."""
    return path.read_text(encoding="utf-8")


def _imports(name: str, path: Path) -> Iterator[tuple[str, int]]:
    """Every project module ``name`` imports, with the line, at any depth of the file."""
    is_package = path.name == "__init__.py"
    for node in nodes(_source(path)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = name.split(".")
                anchor = anchor if is_package else anchor[:-1]
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:
                full = f"{base}.{alias.name}"
                yield (full if full in MODULES else base), node.lineno


@cache
def _graph() -> dict[str, set[str]]:
    """Who imports whom among the project's modules, built when a test first asks for it."""
    graph: dict[str, set[str]] = {name: set() for name in MODULES}
    for name, path in MODULES.items():
        for target, _ in _imports(name, path):
            if target.split(".")[0] == "fiveup":
                graph[name].add(target)
    return graph


def _inside(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def test_the_modules_are_found_under_their_installed_names() -> None:
    for expected in (
        "fiveup.contract.notation",
        "fiveup.contract.schemas",
        "fiveup.reference.rules",
        "fiveup.reference.layout",
        "fiveup.harness.runner",
        "fiveup.cli.certify",
    ):
        assert expected in MODULES
    assert not any(name.startswith("fiveup.fiveup") for name in MODULES)


def test_every_import_of_a_project_module_leads_to_a_file() -> None:
    unresolved = sorted(
        f"{name} imports {target} ({MODULES[name].relative_to(ROOT)})"
        for name, targets in _graph().items()
        for target in targets
        if target not in MODULES
    )
    assert unresolved == []


@pytest.mark.parametrize(("side", "other"), [("reference", "harness"), ("harness", "reference")])
def test_the_reference_and_the_harness_never_import_each_other(side: str, other: str) -> None:
    crossing = sorted(
        f"{name} -> {target}"
        for name, targets in _graph().items()
        if _inside(name, f"fiveup.{side}")
        for target in targets
        if _inside(target, f"fiveup.{other}")
    )
    assert crossing == []


def test_the_contract_imports_neither_side() -> None:
    above = ("fiveup.reference", "fiveup.harness", "fiveup.cli")
    bottom = [
        name for name in _graph() if _inside(name, "fiveup.contract") or name == "fiveup.errors"
    ]
    assert len(bottom) >= 6
    leaks = sorted(
        f"{name} -> {target}"
        for name in bottom
        for target in _graph()[name]
        if any(_inside(target, package) for package in above)
    )
    assert leaks == []


def test_render_stands_on_the_contract_and_the_standard_library_alone() -> None:
    render = [name for name in MODULES if _inside(name, "fiveup.render")]
    assert len(render) >= 4
    allowed = ("fiveup.contract", "fiveup.render")
    leaks = sorted(
        f"{name} -> {target}"
        for name in render
        for target, _ in _imports(name, MODULES[name])
        if not any(_inside(target, package) for package in allowed)
        and target.split(".")[0] not in sys.stdlib_module_names
        and target != "__future__"
    )
    assert leaks == []


def _reach(graph: dict[str, set[str]], start: str) -> set[str]:
    seen: set[str] = set()
    todo = list(graph.get(start, ()))
    while todo:
        node = todo.pop()
        if node not in seen:
            seen.add(node)
            todo.extend(graph.get(node, ()))
    return seen


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The groups of modules that import each other, directly or through others."""
    reach = {node: _reach(graph, node) for node in graph}
    groups = {
        tuple(sorted(other for other in reach[node] if node in reach[other]))
        for node in graph
        if node in reach[node]
    }
    return sorted(list(group) for group in groups)


def test_no_import_cycle_function_level_imports_included() -> None:
    assert _cycles(_graph()) == []


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"a"}}) == [["a"]]


MUTANTS = sorted((ROOT / "fiveup" / "mutants").glob("*.py"))


@pytest.mark.parametrize("path", MUTANTS, ids=lambda path: path.stem)
def test_the_mutants_and_wrong_engines_use_no_private_name(path: Path) -> None:
    assert private_uses(_source(path)) == []


def test_the_private_name_check_sees_the_old_kind_of_patch() -> None:
    old = (
        "from fiveup.reference import layout\nlayout._build_rule_tables()\nvars(layout)['x'] = 1\n"
    )
    assert private_uses(old) == ["line 2: ._build_rule_tables", "line 3: vars()"]
    assert private_uses("from fiveup.reference.layout import _SLOT_INDEX\n") == [
        "line 1: import _SLOT_INDEX"
    ]


def test_a_bare_import_of_a_top_level_folder_is_refused_not_a_second_copy() -> None:
    for name in ("reference", "harness", "spec", "fixtures", "harness.runner"):
        result = subprocess.run(
            [sys.executable, "-c", f"import {name}"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=False,
        )
        assert result.returncode == 1, name
        assert f"import fiveup.{name.split('.')[0]}, not {name.split('.')[0]}" in result.stderr


_MESSAGE_KEYS = {"cmd", "ready", "stopped"}
_REPLY_KEYS = {"observation", "errored", "unsupported"}


def protocol_dicts(source: str) -> list[str]:
    """The dict displays in ``source`` shaped like a protocol message, as ``line N: keys``.

    A message has a ``cmd`` (start, run, stop), says ``ready`` or ``stopped``, or is a reply:
    a ``seq`` beside an ``observation``, ``errored`` or ``unsupported``.
    """
    found = []
    for node in nodes(source):
        if not isinstance(node, ast.Dict):
            continue
        keys = {k.value for k in node.keys if isinstance(k, ast.Constant)}
        if keys & _MESSAGE_KEYS or ("seq" in keys and keys & _REPLY_KEYS):
            found.append(f"line {node.lineno}: {', '.join(sorted(map(str, keys)))}")
    return found


def test_no_module_outside_the_contract_builds_a_protocol_message() -> None:
    builders = {
        name: protocol_dicts(_source(path))
        for name, path in MODULES.items()
        if not _inside(name, "fiveup.contract")
    }
    assert {name: found for name, found in builders.items() if found} == {}


def test_the_message_check_sees_each_kind_of_hand_built_message() -> None:
    assert protocol_dicts('x = {"cmd": "stop"}\ny = {"seq": 1, "errored": "e"}\n') == [
        "line 1: cmd",
        "line 2: errored, seq",
    ]
    assert protocol_dicts('z = {"stopped": True}\nw = {"seq": 1, "level": "x"}\n') == [
        "line 1: stopped"
    ]


SPEC_INDEX = "fiveup.harness.spec_index"
_INDEXED = frozenset({"rules.md", "open-questions.md", "README.md"})
"""The spec's documents the index alone reads: the rules and the pins, the register, the ledger."""
_SPEC_PATTERNS = ("[A-Z]{3}-", "OQ-[1-9]", "OQ-\\d", "OQ-[0-9]")
"""How a rule or question ID pattern starts, as a module's source would spell it."""


def spec_reads(source: str) -> list[str]:
    """Where ``source`` reaches the spec's files itself or reads an indexed document by name."""
    found = []
    for node in nodes(source):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        func = node.func
        called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        first = node.args[0]
        name = first.value if isinstance(first, ast.Constant) else None
        if called == "files" and name == "fiveup.spec":
            found.append(f"line {node.lineno}: files('fiveup.spec')")
        elif called in ("spec_text", "spec_file", "joinpath") and name in _INDEXED:
            found.append(f"line {node.lineno}: {called}({name!r})")
    return found


def test_only_the_spec_index_reads_the_spec_documents() -> None:
    # The contract reads its schemas under spec/schemas itself: it stands below the harness.
    readers = {
        name: spec_reads(_source(path))
        for name, path in MODULES.items()
        if name not in (SPEC_INDEX, "fiveup.contract.definitions")
    }
    assert {name: found for name, found in readers.items() if found} == {}
    assert spec_reads(_source(MODULES[SPEC_INDEX]))


def test_the_spec_read_check_sees_each_kind_of_read() -> None:
    source = (
        'a = importlib.resources.files("fiveup.spec")\n'
        'b = spec_text("open-questions.md")\n'
        'c = root.joinpath("rules.md")\n'
        'd = spec_text("terms.md")\n'
    )
    assert spec_reads(source) == [
        "line 1: files('fiveup.spec')",
        "line 2: spec_text('open-questions.md')",
        "line 3: joinpath('rules.md')",
    ]


def test_the_rule_and_question_id_patterns_are_written_once_in_the_spec_index() -> None:
    writers = {
        name: [p for p in _SPEC_PATTERNS if p in _source(path)] for name, path in MODULES.items()
    }
    assert {name: found for name, found in writers.items() if found} == {
        SPEC_INDEX: ["[A-Z]{3}-", "OQ-[1-9]"]
    }


def capability_reads(source: str) -> list[str]:
    """Where ``source`` reads an optional engine capability by its name, as ``line N: name``.

    The capabilities (:data:`fiveup.contract.engine.CAPABILITIES`) are read through the
    contract's functions; a ``getattr`` or ``hasattr`` of one of their names is a second reader.
    """
    from fiveup.contract.engine import CAPABILITIES

    found = []
    for node in nodes(source):
        if not isinstance(node, ast.Call) or len(node.args) < 2:
            continue
        called = getattr(node.func, "id", "")
        name = node.args[1].value if isinstance(node.args[1], ast.Constant) else None
        if called in ("getattr", "hasattr") and name in CAPABILITIES:
            found.append(f"line {node.lineno}: {called}(..., {name!r})")
    return found


def test_only_the_contract_reads_an_engines_optional_capabilities() -> None:
    readers = {
        name: capability_reads(_source(path))
        for name, path in MODULES.items()
        if not _inside(name, "fiveup.contract")
    }
    assert {name: found for name, found in readers.items() if found} == {}
    assert capability_reads(_source(MODULES["fiveup.contract.engine"]))


def test_the_capability_check_sees_each_kind_of_read() -> None:
    source = (
        'a = getattr(engine, "close", None)\n'
        'b = hasattr(candidate, "submit")\n'
        'c = getattr(inner, "engine", inner)\n'
        'd = getattr(streams.stderr, "isatty", None)\n'
        "e = getattr(rules, field.name)\n"
    )
    assert capability_reads(source) == [
        "line 1: getattr(..., 'close')",
        "line 2: hasattr(..., 'submit')",
        "line 3: getattr(..., 'engine')",
    ]


def test_the_only_module_called_rules_is_the_references_seam() -> None:
    # The spec's rules are read by fiveup.harness.spec_index; a second "rules" module was
    # confused with the seam.
    assert [name for name in MODULES if name.rsplit(".", 1)[-1] == "rules"] == [
        "fiveup.reference.rules"
    ]


def namespace_writes(source: str) -> list[str]:
    """Where ``source`` sets an attribute on a parsed ``args`` (or calls ``setattr`` on it)."""
    found = []
    for node in nodes(source):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        elif (
            isinstance(node, ast.Call)
            and getattr(node.func, "id", "") == "setattr"
            and node.args
            and getattr(node.args[0], "id", "") == "args"
        ):
            found.append(f"line {node.lineno}: setattr(args, ...)")
        for target in targets:
            if isinstance(target, ast.Attribute) and getattr(target.value, "id", "") == "args":
                found.append(f"line {target.lineno}: args.{target.attr}")
    return found


def test_no_subcommand_keeps_computed_state_on_the_parsed_options() -> None:
    # A value computed from the options is passed on explicitly: the Namespace holds what the
    # user typed, so every reader of it sees the same thing.
    writers = {
        name: namespace_writes(_source(path))
        for name, path in MODULES.items()
        if _inside(name, "fiveup.cli")
    }
    assert {name: found for name, found in writers.items() if found} == {}


def test_the_namespace_check_sees_each_kind_of_write() -> None:
    source = "args.seed = 1\nargs.count += 2\nsetattr(args, 'site', 'x')\nother.seed = 3\n"
    assert namespace_writes(source) == [
        "line 1: args.seed",
        "line 2: args.count",
        "line 3: setattr(args, ...)",
    ]


_ESCAPING = frozenset({"printable", "printable_lines", "cut"})
"""The names of harness.text, the one home of output escaping and cutting."""


def escaping_imports(name: str, source: str) -> list[str]:
    """Where module ``name`` imports an escaping name from another module than harness.text."""
    found = []
    for node in nodes(source):
        if isinstance(node, ast.ImportFrom) and {a.name for a in node.names} & _ESCAPING:
            base = node.module or ""
            if node.level:
                anchor = name.split(".")[: -node.level]
                base = ".".join([*anchor, base] if base else anchor)
            if base != "fiveup.harness.text":
                found.append(f"line {node.lineno}: from {base}")
    return found


def test_output_escaping_is_imported_from_its_one_home() -> None:
    # fiveup.harness.sources still exports printable and printable_lines for older importers.
    importers = {name: escaping_imports(name, _source(path)) for name, path in MODULES.items()}
    assert {name: found for name, found in importers.items() if found} == {}


def test_the_escaping_check_sees_an_import_through_another_module() -> None:
    source = (
        "from .text import printable\n"
        "from .sources import printable_lines\n"
        "from fiveup.harness.sources import pointer, printable\n"
        "from fiveup.harness.text import cut\n"
    )
    assert escaping_imports("fiveup.harness.lint", source) == [
        "line 2: from fiveup.harness.sources",
        "line 3: from fiveup.harness.sources",
    ]
    assert escaping_imports("fiveup.cli.x", source)[0] == "line 1: from fiveup.cli.text"


KNOWN_PRIVATE_IMPORTS: dict[str, list[str]] = {}
"""Private names still taken from another module, each to be given a public name."""


def test_no_module_takes_a_private_name_from_another_module() -> None:
    taken = {name: imported_private_uses(_source(path)) for name, path in MODULES.items()}
    assert {name: found for name, found in taken.items() if found} == KNOWN_PRIVATE_IMPORTS


def test_the_private_import_check_sees_each_kind_of_use() -> None:
    source = (
        "from fiveup.reference.round import _PLAYED, Round\n"
        "from .layout import _N_MASKS\n"
        "from fiveup.reference import layout\n"
        "from os import _exit\n"
        "x = layout._tile_text(1) + layout.__name__ + Round._private + _own\n"
    )
    assert imported_private_uses(source) == [
        "line 1: import _PLAYED",
        "line 2: import _N_MASKS",
        "line 5: Round._private",
        "line 5: layout._tile_text",
    ]


_OLDER_NAMES = frozenset({"fiveup.harness.shapes"})
"""Modules kept only so that older importers work: the project itself imports their homes."""


def older_name_imports(name: str, source: str) -> list[str]:
    """Where module ``name`` imports a module of :data:`_OLDER_NAMES` (or a name from one)."""
    found = []
    for node in nodes(source):
        if isinstance(node, ast.Import):
            found += [
                f"line {node.lineno}: import {a.name}" for a in node.names if a.name in _OLDER_NAMES
            ]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = name.split(".")[: -node.level]
                base = ".".join([*anchor, base] if base else anchor)
            targets = {base} | {f"{base}.{a.name}" for a in node.names}
            if targets & _OLDER_NAMES:
                found.append(f"line {node.lineno}: from {base}")
    return found


def test_the_project_imports_the_shape_checks_from_their_home() -> None:
    importers = {
        name: older_name_imports(name, _source(path))
        for name, path in MODULES.items()
        if name not in _OLDER_NAMES
    }
    assert {name: found for name, found in importers.items() if found} == {}
    assert older_name_imports("fiveup.harness.runner", "from .shapes import problem\n")
    assert older_name_imports("fiveup.fuzz.campaign", "from fiveup.harness import shapes\n")
