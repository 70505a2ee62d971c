"""Shared test set-up: pytester drives the pytest plugin in its own tests.

Two things keep the suite's many inner interpreters and inner pytest sessions from paying the same
imports again and again:

- Child Python processes (``fiveup`` commands, engines over the protocol, inner pytest sessions
  in a subprocess) write and read their bytecode under one folder of the session's temporary
  directory (``PYTHONPYCACHEPREFIX``), even where ``PYTHONDONTWRITEBYTECODE`` is set: otherwise
  each of them compiles every module it imports from source. Nothing is written beside the
  sources.
- An in-process pytester run drops every module it imported when it ends, so the next run
  imports (and assertion-rewrites) them again; the modules such runs import are imported here once
  before pytester takes its snapshot.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Iterator

import pytest

pytest_plugins = ["pytester"]

# What an inner pytest session with the plugin imports: Hypothesis's plugin imports Hypothesis when
# it writes its summary, the plugin the reference engine and the fixtures.
INNER_IMPORTS = ("hypothesis.internal.observability", "fiveup.fixtures", "fiveup.reference.engine")


@pytest.fixture(scope="session", autouse=True)
def _children_cache_their_bytecode(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Child interpreters keep their bytecode in the session's temporary directory."""
    # The workers of one xdist session share the parent of their own temporary directories.
    prefix = tmp_path_factory.getbasetemp().parent / "pycache"
    prefix.mkdir(exist_ok=True)
    saved = {
        name: os.environ.get(name) for name in ("PYTHONPYCACHEPREFIX", "PYTHONDONTWRITEBYTECODE")
    }
    os.environ["PYTHONPYCACHEPREFIX"] = str(prefix)
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    yield
    for name, value in saved.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value


@pytest.fixture(scope="session")
def _inner_imports() -> None:
    """Import once what in-process pytester runs import (see the module's docstring)."""
    for name in INNER_IMPORTS:
        importlib.import_module(name)


@pytest.fixture
def pytester(_inner_imports: None, pytester: pytest.Pytester) -> pytest.Pytester:
    """pytester, with the modules its in-process runs import already imported."""
    return pytester
