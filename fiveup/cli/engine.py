"""``fiveup engine``: serve a Python engine over the process protocol.

``--engine`` names the engine (the reference by default); ``--mutant NAME`` serves a mutant of
the catalogue instead, such as one of the wrong engines (``fiveup mutants --list`` names them).
"""

from __future__ import annotations

import argparse
import io
import sys
from typing import TextIO

from fiveup.contract.engine import DEFAULT_ENGINE, Engine
from fiveup.harness.server import serve

from .common import Streams

NAME = "engine"
HELP = "serve a Python engine over the process protocol"


def configure(parser: argparse.ArgumentParser) -> None:
    """The options of ``engine``."""
    which = parser.add_mutually_exclusive_group()
    which.add_argument(
        "--engine",
        metavar="NAME",
        help=f"entry-point name or module:attribute (default: {DEFAULT_ENGINE})",
    )
    which.add_argument(
        "--mutant",
        metavar="NAME",
        help="serve the reference with one rule broken: a mutant of the catalogue, such as a "
        "wrong engine (fiveup mutants --list names them)",
    )


def _tolerant(stream: TextIO) -> TextIO:
    """The process's stdin read as UTF-8 whatever the locale, a bad byte becoming U+FFFD."""
    buffer = getattr(stream, "buffer", None)
    if buffer is None or stream is not sys.stdin:
        return stream
    return io.TextIOWrapper(buffer, encoding="utf-8", errors="replace", newline="\n")


def _mutant(name: str) -> Engine:
    """The catalogue's mutant ``name`` as an engine; the catalogue is loaded only for it."""
    from fiveup.mutants.catalogue import mutant_named

    return mutant_named(name, "--mutant").engine()


def _named(name: str | None) -> Engine:
    """The engine ``--engine`` names; without it the reference, imported directly.

    Every engine over the protocol that a run of the corpus starts is one of these: finding the
    reference through its entry point cost each of them the import of importlib.metadata and a
    scan of every installed distribution, a quarter of its start-up.
    """
    if name is None:
        from fiveup.reference.engine import ReferenceEngine

        return ReferenceEngine()
    from fiveup.harness.engines import load_engine

    return load_engine(name)


def run(args: argparse.Namespace, streams: Streams) -> int:
    """Serve until stop or the end of the input."""
    engine = _mutant(args.mutant) if args.mutant is not None else _named(args.engine)
    return serve(engine, _tolerant(streams.stdin), streams.stdout, stderr=streams.stderr)
