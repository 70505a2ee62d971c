"""Mutants of the reference engine: the measure of how much a corpus of fixtures can catch.

A mutant is the reference engine with one rule of the spec replaced through its public seam
(:class:`fiveup.reference.Rules`); a case *kills* a mutant when it fails or errs against it.
A corpus that leaves a mutant alive cannot tell an engine with that mistake from a correct one.

* :mod:`.catalogue`: the mutants shipped with the suite (:data:`CATALOGUE`), each a named entry
  with the rule ID it breaks and a one-line description; among them the wrong engines
  (:data:`WRONG_ENGINES`), each with the telling cases that must catch it;
* :mod:`.engines`: each mutant as a Python engine, ``--engine fiveup.mutants.engines:NAME``
  (``fiveup engine --mutant NAME`` serves one over the process protocol);
* :mod:`.run`: certifying a corpus against every mutant, in-process (:func:`measure`), imported
  when first used, so that serving a mutant does not load the harness.

``fiveup mutants`` is the command-line front end.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from .catalogue import CATALOGUE, WRONG_ENGINES, Mutant, mutant_named

if TYPE_CHECKING:
    from .run import Measurement, Report, measure

__all__ = [
    "CATALOGUE",
    "WRONG_ENGINES",
    "Measurement",
    "Mutant",
    "Report",
    "measure",
    "mutant_named",
]

_FROM_RUN = frozenset({"Measurement", "Report", "measure"})


def __getattr__(name: str) -> Any:
    """The names of :mod:`.run`, imported on first use."""
    if name in _FROM_RUN:
        return getattr(importlib.import_module(f"{__name__}.run"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
