"""The spec as a static site (``fiveup render spec --out DIR``).

Rules, cases, worked examples and open questions, linked both ways, with diagrams and the
documents' sentences per rule.

It stands above the harness (which reads the corpus and the spec) and :mod:`fiveup.render`.
"""
