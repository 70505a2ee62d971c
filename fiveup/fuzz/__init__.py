"""Differential fuzzing (``fiveup fuzz``): random cases on a baseline and a candidate engine.

It stands above both sides, like the command line: it plays random starts with the reference's
legal moves (:mod:`.cases`) and judges the candidate with the harness's case runner
(:mod:`.campaign`).
"""
