"""``fiveup render``: a case's layout, or an engine's, described as the documents describe them.

``fiveup render CASE_ID`` prints the description line of the table a case expects (a layout
case's ``expect.layout`` with the credit of its last step, a round case's
``expect.state.layout``); ``--all`` every case that has one, each after its ID;
``--observation FILE`` the layout of an engine's observation (or a bare layout) in a JSON file.
``--lang`` picks Italian, Finnish, German or English (the default). ``--svg`` draws the one
layout named as an SVG diagram instead (:func:`fiveup.render.svg.layout_svg`), with the
description as its accessible ``<desc>``, on standard output or into ``--output FILE``.

What is rendered (:func:`items`) is chosen apart from how it is written (:func:`text`), so
another form of output is one more writer over the same items.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from fiveup.contract.engine import JSON, Level
from fiveup.contract.messages import decode
from fiveup.contract.schemas import observation_problem
from fiveup.errors import UsageError
from fiveup.harness.corpus import Case
from fiveup.harness.levels import LEVELS
from fiveup.harness.selection import select
from fiveup.harness.sources import MAX_FILE_BYTES, read_bounded
from fiveup.harness.text import printable
from fiveup.render.svg import layout_svg
from fiveup.render.text import LANGS, Lang, describe

from .common import (
    Streams,
    add_fixtures_option,
    check_parent,
    check_writable,
    load_fixtures,
    shown,
    write_atomically,
)
from .options import a_file, file_or_folder
from .spec_copy import write_site_whole

NAME = "render"
SPEC: Final = "spec"
"""The word in place of a case ID that writes the spec site (no case ID is one word)."""
HELP = "describe a case's layout (or an engine's) as the documents do, in it, fi, de or en"

MAX_OBSERVATION_BYTES: Final = MAX_FILE_BYTES
"""The largest ``--observation`` file read (1 MiB, as for fixtures): far more than any table."""

_LAYOUT_KEYS: Final = frozenset(
    {"tiles", "spinners", "connections", "points", "contributions", "sum"}
)


@dataclass(frozen=True, slots=True)
class Item:
    """One layout to render: where it comes from, the layout, and its placement's credit."""

    label: str
    """The case ID, or the file it was read from."""
    layout: Mapping[str, JSON]
    credit: int | None
    """The raw credit of the placement that led to the layout; None when not known."""
    title: str = ""
    """The case's title; empty for an observation."""


def configure(parser: argparse.ArgumentParser) -> None:
    """The options of ``render``."""
    what = parser.add_mutually_exclusive_group()
    what.add_argument(
        "case",
        nargs="?",
        metavar="CASE_ID",
        help="the case whose table to render (see fiveup list), or the word spec to write "
        "the spec as a static site (with --out DIR)",
    )
    what.add_argument(
        "--all", action="store_true", help="render every case that has a table, each after its ID"
    )
    what.add_argument(
        "--observation",
        type=a_file,
        metavar="FILE",
        help="render the layout in this JSON file instead: an engine's observation of the "
        "layout or round level, or a layout alone",
    )
    parser.add_argument(
        "--lang",
        choices=[lang.value for lang in LANGS],
        default=Lang.EN.value,
        help="the language: it, fi and de as the rule documents write it, en as spec/terms.md "
        "(default: en)",
    )
    add_fixtures_option(parser)
    parser.add_argument(
        "--out",
        type=file_or_folder,
        metavar="DIR",
        help="with spec: the folder to write the site into (index.html and a page per rule)",
    )
    parser.add_argument(
        "--svg",
        action="store_true",
        help="draw the layout as an SVG diagram (the description becomes its <desc>)",
    )
    parser.add_argument(
        "--output",
        type=a_file,
        metavar="FILE",
        help="with --svg: write the diagram into FILE (whole or not at all), not to stdout",
    )


# --------------------------------------------------------------------------- what to render


def case_item(case: Case) -> Item | None:
    """The table a case expects, with its credit; None when the case expects no table."""
    found = LEVELS[case.level].table_of(dict(case.expect))
    return None if found is None else Item(case.id, *found, case.title)


def _cases(args: argparse.Namespace) -> list[Item]:
    corpus = load_fixtures(args.fixtures)
    if args.all:
        return [item for case in corpus.cases if (item := case_item(case)) is not None]
    (case,) = select(corpus, ids=[args.case])
    item = case_item(case)
    if item is None:
        spec = LEVELS.get(case.level)
        at = spec.layout_at if spec is not None else None
        where = (
            f"its expectation gives no table (expect.{'.'.join(at)})"
            if at is not None
            else f"a {case.level.value} case has no table"
        )
        raise UsageError(f"case {case.id} has no layout to render: {where}")
    return [item]


def read_observation(path: Path) -> JSON:
    """The JSON value of ``path``, or UsageError naming the file and what is wrong."""
    where = f"--observation {shown(path)}"
    raw = read_bounded(path)
    if isinstance(raw, str):
        raise UsageError(f"{where}: {raw}")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UsageError(f"{where}: not UTF-8 text: {exc.reason} at byte {exc.start}") from None
    try:
        return decode(text)
    except RecursionError:
        raise UsageError(f"{where}: not read: the JSON nests too deeply") from None
    except ValueError as exc:
        raise UsageError(f"{where}: not JSON: {exc}") from None


def observation_item(path: Path, value: JSON) -> Item:
    """The layout in ``value`` read from ``path``: an observation's, or a layout alone.

    An observation must follow its level's schema (spec/schemas/protocol), and a layout alone
    the layout's: what an engine may send is what is rendered, however wrong its content.
    """
    where = f"--observation {shown(path)}"
    if not isinstance(value, dict):
        raise UsageError(f"{where}: not a JSON object, so neither a layout nor an observation")
    if "events" in value or "state" in value:
        level, observation = Level.ROUND, value
    elif "steps" in value or "layout" in value:
        level, observation = Level.LAYOUT, value
    elif set(value) & _LAYOUT_KEYS:
        level, observation = Level.LAYOUT, {"steps": [], "layout": value, "error": None}
    else:
        raise UsageError(
            f"{where}: neither a layout (tiles, spinners, connections, points, contributions, "
            "sum) nor an observation of the layout or round level (steps or events)"
        )
    problem = observation_problem(level, observation)
    if problem is not None:
        bare = observation is not value  # a bare layout, wrapped in an observation here
        what = "a layout" if bare else f"an observation of the {level.value} level"
        raise UsageError(f"{where}: not {what}: {problem}")
    layout = LEVELS[level].layout_of(observation)
    return Item(shown(path), layout, LEVELS[level].credit_of(observation))


def items(args: argparse.Namespace) -> list[Item]:
    """What the command line asks to render, in order."""
    if args.observation is not None:
        if args.fixtures:
            raise UsageError("--fixtures has no use with --observation, which names no case")
        return [observation_item(args.observation, read_observation(args.observation))]
    if args.case is None and not args.all:
        raise UsageError("name what to render: a CASE_ID, --all, or --observation FILE")
    return _cases(args)


# --------------------------------------------------------------------------- how to write it


def text(rendered: list[Item], lang: Lang, *, labelled: bool) -> str:
    """Each item's description line; ``labelled``: each after its label, a blank line between."""
    if not labelled:
        return "".join(describe(i.layout, lang, credit=i.credit) + "\n" for i in rendered)
    return "\n".join(f"{i.label}\n{describe(i.layout, lang, credit=i.credit)}\n" for i in rendered)


def svg(item: Item, lang: Lang) -> str:
    """The diagram of one item: titled by its label and title, described in ``lang``."""
    title = f"{item.label}: {item.title}" if item.title else item.label
    title = printable(title)  # a bidi override in a title would turn the terminal's text too
    desc = describe(item.layout, lang, credit=item.credit)
    return layout_svg(item.layout, title=title, desc=desc, credit=item.credit, lang=lang)


def _write_svg(args: argparse.Namespace, streams: Streams) -> int:
    if args.all:
        raise UsageError("--svg draws one layout: name a CASE_ID or --observation FILE, not --all")
    check_writable(args.output)
    read = args.observation.resolve() if args.observation is not None else None
    if args.output is not None and args.output.resolve() == read:  # the drawing would replace it
        raise UsageError(
            f"--output {shown(args.output)} is the --observation file this run reads: name another"
        )
    (item,) = items(args)
    drawing = svg(item, Lang(args.lang))
    if args.output is not None:
        write_atomically(args.output, drawing)
    else:
        streams.stdout.write(drawing)
    return 0


def _write_spec(args: argparse.Namespace, streams: Streams) -> int:
    """``fiveup render spec --out DIR``: the spec site of the bundled spec and corpus."""
    if args.out is None:
        raise UsageError("render spec needs --out DIR: the folder to write the site into")
    if args.fixtures:
        raise UsageError("--fixtures has no use with spec: the site shows the bundled corpus")
    if args.svg or args.output is not None:
        raise UsageError("--svg and --output have no use with spec: the site is written to --out")
    check_parent(args.out, "--out")
    if args.out.is_symlink() or (args.out.exists() and not args.out.is_dir()):
        raise UsageError(f"--out {shown(args.out)}: not a folder")
    count = write_site_whole(args.out, "--out", f"the site {shown(args.out)}", only_a_site=True)
    streams.stdout.write(f"wrote {count} files; open {shown(args.out / 'index.html')}\n")
    return 0


def run(args: argparse.Namespace, streams: Streams) -> int:
    """Print the description of each layout asked for, or write the spec site."""
    if args.case == SPEC:
        return _write_spec(args, streams)
    if args.out is not None:
        raise UsageError("--out has a use only with spec: fiveup render spec --out DIR")
    if args.svg:
        return _write_svg(args, streams)
    if args.output is not None:
        raise UsageError(
            "--output has a use only with --svg: fiveup render CASE_ID --svg --output FILE"
        )
    rendered = items(args)
    streams.stdout.write(text(rendered, Lang(args.lang), labelled=args.all))
    return 0
