"""Layouts for people: descriptions in four languages and deterministic diagrams.

:mod:`.text` writes a layout the way the documents describe it, :mod:`.svg` draws it. Both read
only the contract's notation and the JSON a fixture or an engine's observation gives, so a
report, the spec site and the command line draw expected and observed layouts alike.
"""
