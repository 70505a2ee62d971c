"""One case in text, for people (``fiveup show``) and for engines (``fiveup show --request``)."""

from __future__ import annotations

from collections.abc import Mapping

import yaml

from fiveup.contract.engine import JSON

from .corpus import Case
from .process import run_line
from .text import printable

__all__ = ["case_text", "layout_table", "request_line"]


def request_line(case: Case, seq: int = 1) -> str:
    """The exact ``run`` line the harness sends for ``case`` over the process protocol."""
    return run_line(seq, case.level.value, case.request())


def _yaml(value: JSON) -> str:
    """``value`` as YAML, what PyYAML leaves raw (U+202E, U+200B) escaped line by line."""
    text = yaml.safe_dump(
        value, sort_keys=False, allow_unicode=True, width=96, default_flow_style=None
    ).rstrip()
    return "\n".join(map(printable, text.split("\n")))


def layout_table(layout: Mapping[str, JSON]) -> list[str]:
    """An expected or observed layout as lines of text: placements, points, counted ends, sum."""
    lines = []
    tiles, links = layout.get("tiles"), layout.get("connections")
    if isinstance(tiles, list) and isinstance(links, list) and tiles:
        joined = [f"{tile}@{link[0]}" for tile, link in zip(tiles[1:], links, strict=False)]
        lines.append("placed: " + "  ".join([str(tiles[0]), *joined]))
    if isinstance(layout.get("spinners"), list):
        lines.append("spinners: " + (" ".join(map(str, layout["spinners"])) or "none"))
    points = layout.get("points")
    if isinstance(points, dict):
        shown = "  ".join(f"{point}={value}" for point, value in points.items())
        lines.append("available points: " + (shown or "none"))
    counted = layout.get("contributions")
    if isinstance(counted, list):
        lines.append("counted ends: " + ("  ".join(f"{t}:{v}" for t, v in counted) or "none"))
    if "sum" in layout:
        lines.append(f"sum: {layout['sum']}")
    return lines


def _layouts(expect: Mapping[str, JSON]) -> list[tuple[str, Mapping[str, JSON]]]:
    found: list[tuple[str, Mapping[str, JSON]]] = []
    if isinstance(expect.get("layout"), dict):
        found.append(("the table", expect["layout"]))
    state = expect.get("state")
    if isinstance(state, dict) and isinstance(state.get("layout"), dict):
        found.append(("the table", state["layout"]))
    for i, entry in enumerate(expect.get("rounds") or []):
        state = entry.get("state") if isinstance(entry, dict) else None
        if isinstance(state, dict) and isinstance(state.get("layout"), dict):
            found.append((f"the table of round {i}", state["layout"]))
    return found


def case_text(case: Case) -> str:
    """The case as a person reads it: what it checks, what is given, what is expected."""
    rules = ", ".join(case.rules)
    out = [
        f"{case.id}: {printable(case.title)}",  # a bidi override may be in a title: escaped
        f"level: {case.level.value}    primary rule: {case.primary_rule}    rules: {rules}",
        f"fixture: {case.file}:{case.line}",
    ]
    if case.tags:
        out.append(f"tags: {', '.join(case.tags)}")
    if case.decisions:
        out.append(f"depends on the decisions of: {', '.join(case.decisions)}")
    out.append("provenance:\n" + _indent(_yaml(dict(case.provenance))))
    if case.description:
        lines = case.description.strip().split("\n")
        out.append("description:\n" + _indent("\n".join(map(printable, lines))))
    out.append("given:\n" + _indent(_yaml(dict(case.given))))
    out.append("expect:\n" + _indent(_yaml(dict(case.expect))))
    for title, layout in _layouts(case.expect):
        out.append(f"{title}, as expected:\n" + _indent("\n".join(layout_table(layout))))
    return "\n".join(out) + "\n"


def _indent(text: str) -> str:
    return "\n".join("  " + line if line else line for line in text.splitlines())
