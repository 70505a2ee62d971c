"""Mutants of the reference engine: the measure of how much a corpus of fixtures can catch.

A mutant is the reference engine with one rule of the spec replaced through its public seam
(:class:`fiveup.reference.Rules`); a case *kills* a mutant when it fails or errs against it.
A corpus that leaves a mutant alive cannot tell an engine with that mistake from a correct one.

* :mod:`.catalogue`: the mutants shipped with the suite (:data:`CATALOGUE`), each a named entry
  with the rule ID it breaks and a one-line description;
* :mod:`.run`: certifying a corpus against every mutant, in-process (:func:`measure`).

``fiveup mutants`` is the command-line front end.
"""

from .catalogue import CATALOGUE, Mutant, mutant_named
from .run import Measurement, Report, measure

__all__ = ["CATALOGUE", "Measurement", "Mutant", "Report", "measure", "mutant_named"]
