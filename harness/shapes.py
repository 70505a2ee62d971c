"""The shape checks under their older name: see :mod:`fiveup.contract.shapes`, their one home."""

from fiveup.contract.shapes import Unknown, compiled, conforms, problem

__all__ = ["Unknown", "compiled", "conforms", "problem"]
