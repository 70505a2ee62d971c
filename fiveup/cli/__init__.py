"""The ``fiveup`` command line; :func:`main` runs it (``fiveup.cli:main`` is the script)."""

from .app import main

__all__ = ["main"]
