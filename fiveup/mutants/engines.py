"""Every mutant of the catalogue as a Python engine, by name: ``fiveup.mutants.engines:NAME``.

The module's attributes are the catalogue's names (``dir()`` lists them), each the mutant's
in-process engine, built when first asked for and the same object afterwards, so that
``--engine fiveup.mutants.engines:pen2_remainder_three_rounds_down`` certifies or fuzzes a wrong
engine in-process. ``fiveup engine --mutant NAME`` serves one over the process protocol.
"""

from __future__ import annotations

import functools

from fiveup.errors import UsageError
from fiveup.reference import ReferenceEngine

from .catalogue import CATALOGUE, mutant_named

__all__: list[str] = []  # the names are the catalogue's, found by __getattr__


@functools.cache
def _engine(name: str) -> ReferenceEngine:
    return mutant_named(name, option="").engine()  # named by --engine's module:attribute


def __getattr__(name: str) -> ReferenceEngine:
    """The engine of the catalogue's mutant ``name``; AttributeError when there is none."""
    try:
        return _engine(name)
    except UsageError as exc:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}: {exc}") from None


def __dir__() -> list[str]:
    """The names of the catalogue's mutants, each an attribute."""
    return sorted(mutant.name for mutant in CATALOGUE)
