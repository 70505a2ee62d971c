"""Shared test set-up: pytester drives the pytest plugin in its own tests.

Every test of Hypothesis runs derandomized (``fiveup.strategies.EVERYDAY_PROFILE``: the same
examples every run, no example database, no deadline) unless a profile is asked for, such as
``--hypothesis-profile=fiveup-long`` or ``FIVEUP_HYPOTHESIS_PROFILE=fiveup-long``, which explore.

Three things keep the suite from paying the same work again and again:

- The suite's interpreters (this one, pytest-xdist's workers, ``fiveup`` commands and engines
  over the protocol, inner pytest sessions) keep their bytecode, and pytest its assertion-rewritten
  test modules, under ``.pytest_cache/pycache`` (``PYTHONPYCACHEPREFIX``), even where
  ``PYTHONDONTWRITEBYTECODE`` is set: otherwise each of them compiles (and rewrites) every module
  it imports from source, a third of a worker's collection. Nothing is written beside the sources;
  a ``PYTHONPYCACHEPREFIX`` of the user's own is kept.
- An in-process pytester run drops every module it imported when it ends, so the next run
  imports (and assertion-rewrites) them again; the modules such runs import are imported here once
  before pytester takes its snapshot.
- The cyclic garbage collector walks only what the current test file made: what is alive at a
  file's first test is frozen out of it (``pytest_runtest_setup``).
"""

from __future__ import annotations

import gc
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


def pytest_configure(config: pytest.Config) -> None:
    """The everyday profile of Hypothesis, unless the command line or the environment names one.

    Only the suite's two profiles are taken: any other (a mistyped name, Hypothesis's own
    ``default`` or ``ci``) would run random examples with deadlines. The variable and the option
    must agree, since ``strategies.long_profile_selected`` reads the variable first.
    """
    from hypothesis import settings  # imported once the bytecode cache is set up

    from fiveup import strategies

    given = config.getoption("hypothesis_profile", None) or None
    named = os.environ.get(strategies.PROFILE_ENV) or None
    known = (strategies.EVERYDAY_PROFILE, strategies.LONG_PROFILE)
    for where, asked in (("--hypothesis-profile", given), (strategies.PROFILE_ENV, named)):
        if asked is not None and asked not in known:
            raise pytest.UsageError(
                f"{where}={asked!r}: the suite's profiles are {' and '.join(known)}"
            )
    if given and named and given != named:
        raise pytest.UsageError(
            f"--hypothesis-profile={given} and {strategies.PROFILE_ENV}={named}"
        )
    settings.load_profile(given or named or strategies.EVERYDAY_PROFILE)


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


_FROZEN_AT: list[Path] = []


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    """At each file's first test, collect, then freeze what is alive out of the cyclic collector.

    A worker's heap grows with every file it runs (the test modules, the corpus, the caches),
    and every full collection walked all of it: Python's own, pytest's after each in-process
    pytester run, a campaign's; the run took a seventh more CPU (87-98 against 74-82 s in
    interleaved runs). Frozen objects are still freed by reference counting, a file's garbage is
    collected (its unraisable exceptions and warnings raised) before the next file freezes, and
    what each test makes is collected as before. Only a cycle alive at a file's start and
    dropped later is never collected: the peak memory is unchanged (214 against 217 MB).
    """
    if _FROZEN_AT[-1:] != [item.path]:
        _FROZEN_AT[:] = [item.path]
        gc.collect()
        gc.freeze()


# The longest files first (CPU and waits, measured with two and three workers), then the rest in
# collection order. pytest-xdist hands out whole files (--dist loadfile, --no-loadscope-reorder)
# in this order, so the last file a worker starts is a short one: ordered by their number of
# tests, files of a few long tests (the README's block, the CI example) came last and kept one
# worker busy while the others were idle.
LONGEST_FIRST = (
    "test_hostile_engines.py",
    "test_conclusions.py",
    "test_cli.py",
    "test_compare.py",
    "test_fuzz.py",
    "test_rules.py",
    "test_process.py",
    "test_shapes.py",
    "test_hostile_fixtures.py",
    "test_strategies.py",
    "test_stateful.py",
    "test_render_svg.py",
    "test_perft.py",
    "test_wrong_engines.py",
    "test_site.py",
    "test_fresh.py",
    "test_spec_copy.py",
    "test_simulation.py",
    "test_readme.py",
    "test_hostile_requests.py",
    "test_mutants.py",
    "test_cli_inspect.py",
    "test_report_html.py",
    "test_report.py",
    "test_pytest_plugin.py",
    "test_corpus.py",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Put the longest files first (see LONGEST_FIRST); within a file nothing moves."""
    rank = {name: index for index, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))
