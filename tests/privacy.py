"""Which private names a script reaches into: the test of building on a public seam only."""

from __future__ import annotations

import ast
from functools import cache


@cache
def nodes(source: str) -> tuple[ast.AST, ...]:
    """Every node of the source's syntax tree (ast.walk's order), parsed once for every check."""
    return tuple(ast.walk(ast.parse(source)))


def private_uses(source: str) -> list[str]:
    """Private names a script reaches into: ``x._name``, imported ``_name``, vars() or setattr."""
    uses: list[str] = []
    for node in nodes(source):
        if isinstance(node, ast.Attribute) and node.attr.startswith("_"):
            if not (node.attr.startswith("__") and node.attr.endswith("__")):
                uses.append(f"line {node.lineno}: .{node.attr}")
        elif isinstance(node, ast.ImportFrom):
            uses += [f"line {node.lineno}: import {a.name}" for a in node.names if a.name[0] == "_"]
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("vars", "setattr", "globals")
        ):
            uses.append(f"line {node.lineno}: {node.func.id}()")
    return uses


def imported_private_uses(source: str) -> list[str]:
    """Private names a module takes from the project's other modules, as ``line N: name``.

    ``from fiveup.x import _name`` (or a relative import of one), and ``name._x`` where
    ``name`` was imported from the project (a module or a class). A module's own private
    names, and the private attributes of objects (which the syntax alone cannot tie to a
    module), are not seen.
    """
    found: list[str] = []
    modules: set[str] = set()
    for node in nodes(source):
        if isinstance(node, ast.ImportFrom) and (
            node.level
            or (node.module or "") == "fiveup"
            or (node.module or "").startswith("fiveup.")
        ):
            for alias in node.names:
                if alias.name.startswith("_") and not alias.name.startswith("__"):
                    found.append(f"line {node.lineno}: import {alias.name}")
                else:
                    modules.add(alias.asname or alias.name)
        elif isinstance(node, ast.Import):
            modules.update(
                (a.asname or a.name).split(".")[0]
                for a in node.names
                if a.name.startswith("fiveup")
            )
    for node in nodes(source):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in modules
            and node.attr.startswith("_")
            and not node.attr.startswith("__")
        ):
            found.append(f"line {node.lineno}: {node.value.id}.{node.attr}")
    return sorted(found, key=lambda text: (int(text.split()[1].rstrip(":")), text))
