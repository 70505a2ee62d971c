"""Layouts for people: the documents' descriptions in four languages (:mod:`.text`) and
deterministic diagrams (:mod:`.svg`).

It reads only the contract's notation and the JSON a fixture or an engine's observation gives,
so a report, the spec site and the command line draw expected and observed layouts alike.
"""
