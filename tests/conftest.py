"""Shared test set-up: pytester drives the pytest plugin in its own tests.

Two things keep the suite from paying the same compilation and imports again and again:

- The suite's interpreters (this one, pytest-xdist's workers, ``fiveup`` commands and engines
  over the protocol, inner pytest sessions) keep their bytecode, and pytest its assertion-rewritten
  test modules, under ``.pytest_cache/pycache`` (``PYTHONPYCACHEPREFIX``), even where
  ``PYTHONDONTWRITEBYTECODE`` is set: otherwise each of them compiles (and rewrites) every module
  it imports from source, a third of a worker's collection. Nothing is written beside the sources;
  a ``PYTHONPYCACHEPREFIX`` of the user's own is kept.
- An in-process pytester run drops every module it imported when it ends, so the next run
  imports (and assertion-rewrites) them again; the modules such runs import are imported here once
  before pytester takes its snapshot.
"""

from __future__ import annotations

import importlib
import os
import sys
from pathlib import Path

import pytest

PYCACHE = Path(__file__).resolve().parent.parent / ".pytest_cache" / "pycache"


def _cache_bytecode() -> None:
    """Bytecode under one prefix folder, for this interpreter and every child it starts."""
    prefix = os.environ.get("PYTHONPYCACHEPREFIX") or str(PYCACHE)
    try:
        Path(prefix).mkdir(parents=True, exist_ok=True)
    except OSError:
        return  # a read-only checkout: every interpreter compiles, as before
    os.environ["PYTHONPYCACHEPREFIX"] = sys.pycache_prefix = prefix
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    sys.dont_write_bytecode = False


_cache_bytecode()

pytest_plugins = ["pytester"]

# What an inner pytest session with the plugin imports: Hypothesis's plugin imports Hypothesis when
# it writes its summary, the plugin the reference engine and the fixtures.
INNER_IMPORTS = ("hypothesis.internal.observability", "fiveup.fixtures", "fiveup.reference.engine")


@pytest.fixture(scope="session")
def _inner_imports() -> None:
    """Import once what in-process pytester runs import (see the module's docstring)."""
    for name in INNER_IMPORTS:
        importlib.import_module(name)


@pytest.fixture
def pytester(_inner_imports: None, pytester: pytest.Pytester) -> pytest.Pytester:
    """pytester, with the modules its in-process runs import already imported."""
    return pytester
