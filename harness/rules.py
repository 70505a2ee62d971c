"""The older name of the spec index (:mod:`fiveup.harness.spec_index`), kept importable."""

from __future__ import annotations

from .spec_index import (
    Retired,
    Rule,
    Section,
    parse_retired,
    parse_rules,
    retired_ids,
    spec_rules,
    spec_sections,
)

__all__ = [
    "Retired",
    "Rule",
    "Section",
    "parse_retired",
    "parse_rules",
    "retired_ids",
    "spec_rules",
    "spec_sections",
]
