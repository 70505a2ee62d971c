"""``fiveup engine``: serve a Python engine over the process protocol."""

from __future__ import annotations

import argparse
import io
import sys
from typing import TextIO

from fiveup.contract.engine import DEFAULT_ENGINE
from fiveup.harness.engines import load_engine
from fiveup.harness.server import serve

from .common import Streams

NAME = "engine"
HELP = "serve a Python engine over the process protocol"


def configure(parser: argparse.ArgumentParser) -> None:
    """The options of ``engine``."""
    parser.add_argument(
        "--engine",
        default=DEFAULT_ENGINE,
        metavar="NAME",
        help=f"entry-point name or module:attribute (default: {DEFAULT_ENGINE})",
    )


def _tolerant(stream: TextIO) -> TextIO:
    """The process's stdin read as UTF-8 whatever the locale, a bad byte becoming U+FFFD."""
    buffer = getattr(stream, "buffer", None)
    if buffer is None or stream is not sys.stdin:
        return stream
    return io.TextIOWrapper(buffer, encoding="utf-8", errors="replace", newline="\n")


def run(args: argparse.Namespace, streams: Streams) -> int:
    """Serve until stop or the end of the input."""
    engine = load_engine(args.engine)
    return serve(engine, _tolerant(streams.stdin), streams.stdout, stderr=streams.stderr)
