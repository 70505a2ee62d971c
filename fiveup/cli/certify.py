"""``fiveup certify``: run the fixtures against an engine and report conformance."""

from __future__ import annotations

import argparse
import os
import secrets
from collections.abc import Callable, Sequence
from pathlib import Path
from urllib.parse import quote

from fiveup.contract.engine import DEFAULT_ENGINE, Level
from fiveup.errors import UsageError
from fiveup.fuzz.campaign import fresh_cases
from fiveup.harness.badge import badge_json
from fiveup.harness.certify import Run, certify, load_engine, open_engine, plan_run
from fiveup.harness.corpus import Case, Corpus
from fiveup.harness.engines import close_engine
from fiveup.harness.expectations import baseline_text
from fiveup.harness.levels import Claims
from fiveup.harness.process import DEFAULT_MEMORY
from fiveup.harness.report import json_report, junit_report, summary_line, text_report
from fiveup.harness.report_html import html_report
from fiveup.harness.sandbox import Sandbox
from fiveup.harness.text import printable

from .common import (
    Streams,
    add_engine_options,
    add_fixtures_option,
    check_engine_command,
    check_writable,
    engine_args,
    load_fixtures,
    shown,
    write_all_atomically,
)
from .options import a_file, count, mebibytes, seconds, seed
from .spec_copy import check_site, check_spec_copy_place, spec_copy_folder, stage_spec_copy
from .tally import tally_text

DEFAULT_FRESH = 5
"""Fresh cases per declared level on a whole-corpus run: about a tenth of a second in-process."""
MAX_FRESH = 1000
"""The most fresh cases per level ``--fresh`` takes (they are made before the first runs)."""
NAME = "certify"
HELP = "run the fixtures against an engine and report conformance"


def configure(parser: argparse.ArgumentParser) -> None:
    """The options of ``certify``."""
    add_engine_options(parser, "the engine to certify")
    parser.add_argument(
        "-k",
        dest="keyword",
        metavar="EXPR",
        help="select cases by keyword expression (words, and, or, not, brackets)",
    )
    parser.add_argument(
        "--case",
        action="append",
        default=[],
        metavar="ID",
        help="select one case by ID (repeatable)",
    )
    add_fixtures_option(parser, " to run")
    parser.add_argument(
        "--without-decision",
        action="append",
        default=[],
        metavar="OQ-n",
        help="leave out every case whose expectation depends on this decision of "
        "spec/open-questions.md, and the fresh cases of its levels (repeatable)",
    )
    parser.add_argument(
        "--expected-failures",
        type=a_file,
        metavar="FILE",
        help="YAML mapping of case ID to reason; an entry that passes fails the run",
    )
    parser.add_argument(
        "--format",
        choices=("text", "json", "junit", "html"),
        default="text",
        help="text for people (default), json or junit XML for tools, html for a page with "
        "the layouts drawn (needs --output)",
    )
    parser.add_argument(
        "--site",
        metavar="URL",
        help="with --format html: link rules and fixtures to the spec site at URL (an http(s) "
        "URL or a relative path); by default a copy of the site is written beside the report",
    )
    parser.add_argument(
        "--tally",
        action="store_true",
        help="in the text and html reports, show scores that differ also as the documents' "
        "paper tally",
    )
    parser.add_argument(
        "--output",
        type=a_file,
        metavar="FILE",
        help="write the report to FILE (written whole or not at all)",
    )
    parser.add_argument(
        "--timeout",
        type=seconds,
        default=10.0,
        metavar="SECONDS",
        help="time limit per case (default 10)",
    )
    parser.add_argument(
        "--write-expected-failures",
        type=a_file,
        metavar="FILE",
        help="write this run's failures, each with its first difference, as a baseline file "
        "for --expected-failures",
    )
    parser.add_argument(
        "--sandbox",
        action="store_true",
        help="run the --engine-cmd engine under bubblewrap (bwrap): its own PID, IPC and "
        "network namespaces, a read-only filesystem without the fixtures and the reports "
        "(spec/protocol.md, Security)",
    )
    parser.add_argument(
        "--engine-memory",
        type=mebibytes,
        default=None,
        metavar="MIB",
        help="the data memory each process of the --engine-cmd engine may use, in MiB "
        f"(default {DEFAULT_MEMORY >> 20}: 4 GiB, or half this machine's memory when less); "
        "an allocation beyond it fails (Linux)",
    )
    parser.add_argument(
        "--fresh",
        type=count(MAX_FRESH),
        metavar="N",
        help=f"play N fresh random cases of each declared level beside the corpus, expected as "
        f"the reference plays them (default {DEFAULT_FRESH} on a whole-corpus run, with or "
        f"without a baseline, 0 on a selection; at most {MAX_FRESH})",
    )
    parser.add_argument(
        "--seed",
        type=seed,
        metavar="S",
        help="the seed of the fresh cases (default: the seed of the fresh cases the "
        "--expected-failures file lists, else a new one, printed in the report)",
    )
    parser.add_argument(
        "--badge",
        type=a_file,
        metavar="FILE",
        help="write a shields.io endpoint badge of the conclusion (whole corpus only)",
    )
    parser.add_argument(
        "--verbose",
        action="store_true",
        help="in the text report, every row of the tables by section and by rule (default: "
        "the rows with a case not passed)",
    )


def _selection(
    args: argparse.Namespace, corpus: Corpus, cases: int, decisions: Sequence[str]
) -> str:
    """How the cases were chosen (``decisions``: the ones left out), when not the whole corpus."""
    how = []
    if args.fixtures:
        how.append("--fixtures " + ", ".join(printable(str(p)) for p in args.fixtures))
    if args.keyword:
        how.append(f"-k {printable(args.keyword)}")
    how += [f"--case {printable(case_id)}" for case_id in args.case]
    how += [f"--without-decision {oq}" for oq in decisions]
    if not how:
        return ""
    return f"{'; '.join(how)}: {cases} of {len(corpus.cases)} cases"


def _fresh(
    args: argparse.Namespace, selection: str, skipped: tuple[str, ...], seed: int
) -> Callable[[Claims], list[Case]] | None:
    """The maker of fresh cases of ``seed``, or None: by default only on a whole-corpus run.

    The levels ``skipped`` get none: the reference plays every decision, so a fresh case of a
    level that a left-out decision touches could depend on it.
    """
    # A selection wants the same cases every time: no random ones by default. A whole-corpus
    # run plays them, baseline or not: an engine right only on the corpus must not pass a gate.
    default = 0 if selection else DEFAULT_FRESH
    count = args.fresh if args.fresh is not None else default
    if count == 0:
        return None
    reference = load_engine(DEFAULT_ENGINE)

    def make(claims: Claims) -> list[Case]:
        kept = [level for level in claims.touched_levels if level not in skipped]
        functions = claims.of_level(Level.SCORING)
        return fresh_cases(reference, seed, count, kept, functions) if kept else []

    return make


def _certify(args: argparse.Namespace) -> Run:
    check_engine_command(args)
    corpus = load_fixtures(args.fixtures)
    plan = plan_run(
        corpus,
        keyword=args.keyword,
        case_ids=args.case,
        decisions=args.without_decision,
        expected_failures=args.expected_failures,
    )
    xfails = plan.baseline
    cases = list(plan.cases)
    selection = _selection(args, corpus, len(cases), plan.decisions)
    skipped = plan.skipped_levels
    engine = open_engine(
        args.engine,
        args.engine_cmd,
        args.timeout,
        sandbox=_sandbox(args),
        memory=_memory(args) << 20,
    )
    seed = _seed(args.seed, xfails.fresh_seed)
    fresh = _fresh(args, selection, skipped, seed)
    left_out = plan.left_out(fresh is not None)
    try:
        return certify(
            engine, corpus, cases, xfails, selection=selection, fresh=fresh,
            fresh_seed=seed if fresh else None, left_out=left_out,
        )  # fmt: skip
    finally:
        close_engine(engine)


def _memory(args: argparse.Namespace) -> int:
    """``--engine-memory`` in MiB, refused for an in-process engine, which it cannot bound."""
    if args.engine_memory is None:
        return DEFAULT_MEMORY >> 20
    if args.engine_cmd is None:
        raise UsageError(
            "--engine-memory bounds an engine run as a process (--engine-cmd): an in-process "
            "Python engine (--engine, or the default reference) uses the harness's own memory"
        )
    memory: int = args.engine_memory
    return memory


def _seed(given: int | None, baseline: int | None) -> int:
    """The fresh cases' seed: ``--seed``, else the baseline's, else a new one."""
    if given is not None:
        return given
    return baseline if baseline is not None else secrets.randbelow(1 << 31)


def _sandbox(args: argparse.Namespace) -> Sandbox | None:
    """The sandbox of ``--sandbox``: it hides this run's fixtures and every file it writes."""
    if not args.sandbox:
        return None
    files = [args.expected_failures, args.output, args.write_expected_failures, args.badge]
    if args.output is not None and args.format == "html":
        files.append(spec_copy_folder(args.output))  # a copy of the site holds the fixtures
    return Sandbox(hide=tuple([*(args.fixtures or []), *(f for f in files if f is not None)]))


def _rerun_args(args: argparse.Namespace) -> list[str]:
    """What a rerun of one case must name again: the engine, the sandbox, the fixtures."""
    fixtures = [word for path in args.fixtures or [] for word in ("--fixtures", str(path))]
    memory = args.engine_memory
    limit = ["--engine-memory", str(memory)] if memory not in (None, DEFAULT_MEMORY >> 20) else []
    return [*engine_args(args), *(["--sandbox"] if args.sandbox else []), *limit, *fixtures]


def _report(result: Run, args: argparse.Namespace, site: str | None) -> str:
    """The report in ``--format``; ``site``: the checked ``--site``, or the copy's (html)."""
    if args.format == "json":
        return json_report(result, _rerun_args(args))
    if args.format == "junit":
        return junit_report(result)
    tally = tally_text if args.tally else None
    if args.format == "html":
        return html_report(result, _rerun_args(args), tally=tally, site=site)
    return text_report(result, _rerun_args(args), tally=tally, verbose=args.verbose)


_OUTPUTS = ("output", "write_expected_failures", "badge")
"""The options that name a file ``certify`` writes."""


def _resolved(path: Path) -> Path:
    """``path`` with its links followed; a link that loops is its own (it is read or replaced)."""
    try:
        return path.resolve()
    except (OSError, RuntimeError):  # RuntimeError: Python before 3.13 on a loop
        return Path(os.path.abspath(path))


def _check_distinct(args: argparse.Namespace) -> None:
    """Refuse a file named twice among what is written, or written over what is read.

    Each file is written whole, one after the other: the last would silently replace the
    first, or a report would replace the baseline or a fixture it was read from. Rewriting
    the ``--expected-failures`` file with ``--write-expected-failures`` is a refresh, and
    allowed.
    """
    named: dict[Path, str] = {}
    for option in _OUTPUTS:
        path = getattr(args, option)
        if path is None:
            continue
        flag = f"--{option.replace('_', '-')}"
        key = _resolved(path)
        if key in named:
            raise UsageError(f"{named[key]} and {flag} name one file, {shown(path)}: name two")
        named[key] = flag
    inputs = [("--expected-failures", args.expected_failures)]
    inputs += [("--fixtures", path) for path in args.fixtures or []]
    for flag, path in inputs:
        if path is None:
            continue
        key = _resolved(path)
        if flag == "--fixtures" and key.is_dir():
            _outside(key, path, _written(args))
        refresh = (flag, named.get(key)) == ("--expected-failures", "--write-expected-failures")
        if key in named and not refresh:
            raise UsageError(
                f"{named[key]} {shown(path)} is the {flag} file this run reads: name another"
            )


def _written(args: argparse.Namespace) -> list[tuple[Path, str, bool]]:
    """Where this run writes, as the writer does: a link of the name is replaced, not followed.

    Each with its option and whether it may hold fixture files (the spec's copy beside an HTML
    report holds the corpus's).
    """
    places = []
    for option in _OUTPUTS:
        path = getattr(args, option)
        if path is not None:
            flag = f"--{option.replace('_', '-')}"
            places.append((path, flag, path.suffix in (".yaml", ".yml")))
    if args.output is not None and args.format == "html" and args.site is None:
        places.append((spec_copy_folder(args.output), "--output", True))
    return [
        (Path(os.path.realpath(path.parent if str(path.parent) else ".")) / path.name, flag, holds)
        for path, flag, holds in places
    ]


def _outside(folder: Path, given: Path, outputs: list[tuple[Path, str, bool]]) -> None:
    """Refuse fixture files written into a ``--fixtures`` folder: the next run would read them."""
    for output, flag, holds in outputs:
        if holds and output.is_relative_to(folder):
            what = "--output: the spec's copy" if output.suffix not in (".yaml", ".yml") else flag
            raise UsageError(
                f"{what} {shown(output)}: is inside the --fixtures folder {shown(given)}, where "
                "the next run would read its fixture files: name a place outside it"
            )


def _extras(result: Run, args: argparse.Namespace, streams: Streams) -> list[_Output]:
    """The baseline and the badge to write beside the report, saying why one is not."""
    extras: list[_Output] = []
    if args.write_expected_failures and result.engine is None:
        # The engine never ran a case: an empty baseline would pass every failure it has.
        streams.stderr.write(
            f"fiveup certify: no baseline written to {shown(args.write_expected_failures)}: "
            "the engine did not start, so no case was checked\n"
        )
    elif args.write_expected_failures:
        baseline = baseline_text(result)
        extras.append((args.write_expected_failures, baseline, "--write-expected-failures"))
    if args.badge and result.selection:
        streams.stderr.write(
            f"fiveup certify: no badge written to {args.badge}: a badge speaks for the whole "
            f"corpus, and this run is a selection ({result.selection})\n"
        )
    elif args.badge:
        extras.append((args.badge, badge_json(result), "--badge"))
    return extras


_Output = tuple[Path, str, str]
"""A file a run writes: its path, its text and the option that names it."""


def _html_site(args: argparse.Namespace) -> str | None:
    """``--site`` checked, or None; UsageError for HTML options that cannot work, before the run.

    Without ``--site`` the copy of the spec goes beside the page: a folder of other files in
    its place is refused now, not after the run (the copy would replace it whole).
    """
    if args.format == "html" and not args.output:
        raise UsageError("--format html needs --output FILE: a page is written to a file")
    if args.site is not None and args.format != "html":
        raise UsageError("--site has a use only with --format html: it is where rules link to")
    if args.site is not None:
        return check_site(args.site)
    if args.format == "html":
        check_spec_copy_place(args.output)
    return None


def run(args: argparse.Namespace, streams: Streams) -> int:
    """Certify; 0 when the engine conforms (or has no new failures), 1 when not."""
    site = _html_site(args)
    for option in _OUTPUTS:
        check_writable(getattr(args, option), f"--{option.replace('_', '-')}")
    _check_distinct(args)
    result = _certify(args)
    copy = None
    if args.format == "html" and site is None:  # built now, put in place with the files
        copy = stage_spec_copy(args.output)
        site = quote(copy.target.name)  # a link: '#', '?' or '%' in the name is escaped
    try:
        text = _report(result, args, site)
        outputs = [(args.output, text, "--output")] if args.output else []
        write_all_atomically(outputs + _extras(result, args, streams))  # all of them, or none
        if copy is not None:
            copy.commit()
    except BaseException:  # Ctrl-C between the two too: no staged copy is left behind
        if copy is not None:
            copy.discard()
        raise
    if not args.output:
        streams.stdout.write(text)
    elif args.format != "text":
        streams.stdout.write(summary_line(result) + "\n")
    return result.exit_code
