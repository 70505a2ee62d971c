"""Which private names a script reaches into: the test of building on a public seam only."""

from __future__ import annotations

import ast


def private_uses(source: str) -> list[str]:
    """Private names a script reaches into: ``x._name``, imported ``_name``, vars() or setattr."""
    uses: list[str] = []
    for node in ast.walk(ast.parse(source)):
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
