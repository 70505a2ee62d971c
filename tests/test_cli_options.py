"""Every numeric option of every subcommand: found by walking the parsers, attacked alike.

The options are not listed here: each subcommand's parser is built and every option whose value
is a number is found, so an option added tomorrow is attacked too, and one typed with a bare
``int`` or ``float`` (which take ``5_000``, ``٣``, ``nan`` and ``inf``) fails the first test.
"""

from __future__ import annotations

import argparse
import io
import math
import os
from pathlib import Path
from typing import Any

import pytest

from fiveup.cli import main
from fiveup.cli.app import COMMANDS
from fiveup.cli.common import Parser
from fiveup.cli.options import (
    DIGITS,
    MAX_TIMEOUT,
    Seconds,
    WholeNumber,
    a_file,
    file_or_folder,
    seconds,
)
from fiveup.errors import UsageError
from fiveup.harness.engines import TimedEngine, open_engine
from fiveup.harness.process import ProcessEngine, check_seconds
from fiveup.harness.text import printable
from fiveup.reference import ReferenceEngine

NumberType = WholeNumber | Seconds


def _options() -> list[tuple[str, str, argparse.Action]]:
    found = []
    for command in COMMANDS:
        parser = Parser(prog=f"fiveup {command.NAME}", stdout=io.StringIO())
        command.configure(parser)
        for action in parser._actions:  # argparse has no public list of a parser's options
            name = action.option_strings[-1] if action.option_strings else str(action.metavar)
            found.append((command.NAME, name, action))
    return found


OPTIONS = _options()
NUMERIC = [(c, n, a) for c, n, a in OPTIONS if isinstance(a.type, NumberType)]
IDS = [f"{command}-{name.lstrip('-')}" for command, name, _ in NUMERIC]


PATH_TYPES = (file_or_folder, a_file)
OTHER_TYPES = {("fuzz", "--shard")}
"""Options of a type of their own, attacked where it is defined (I/K: tests/test_fuzz.py)."""


def test_every_typed_option_is_a_path_a_number_type_or_listed() -> None:
    odd = {
        (c, n)
        for c, n, a in OPTIONS
        if a.type is not None and a.type not in PATH_TYPES and not isinstance(a.type, NumberType)
    }
    assert odd == OTHER_TYPES, "a number's or a path's type comes from fiveup.cli.options"
    assert len(NUMERIC) >= 20  # the walk finds them: counts, seeds, time limits, players


WHOLE_ATTACKS = [
    "5\x00",
    "9" * 100_000,
    "\udcff",
    "\x1c5",
    "1" + "0" * DIGITS,
    "y" * 3000,
    "nan",
    "inf",
    "1e3",
    "5_0",
    "٣",
    "0x10",
    "",
    " ",
    "1" * (DIGITS + 1),
    "+-1",
    "1.0",
]
SECONDS_ATTACKS = [
    "5\x00",
    "9" * 100_000,
    "\udcff",
    "1e-400",
    "\x1c5",
    "1" + "0" * DIGITS,
    "nan",
    "inf",
    "-inf",
    "1e400",
    "0",
    "-1",
    "0x10",
    "1_0",
    "٣",
    "",
    "1" * 40,
]


@pytest.mark.parametrize(("command", "name", "action"), NUMERIC, ids=IDS)
def test_every_numeric_option_refuses_what_is_no_number_in_its_range(
    command: str, name: str, action: argparse.Action
) -> None:
    number = action.type
    assert isinstance(number, NumberType)
    if isinstance(number, WholeNumber):
        attacks = [*WHOLE_ATTACKS, str(number.low - 1), str(number.high + 1)]
        assert number(str(number.low)) == number.low and number(f" {number.high} ") == number.high
    else:
        attacks = [*SECONDS_ATTACKS, repr(number.high * 2), "0.001", "1e-300"]
        assert number(str(number.high)) == number.high and number("0.05") == 0.05
    for word in attacks:
        argv = [command, f"{name}={word}"] if action.option_strings else [command, "--", word]
        out, err = io.StringIO(), io.StringIO()
        code = main(argv, stdout=out, stderr=err, stdin=io.StringIO())
        said = err.getvalue()
        assert code == 2, (word, said)
        first = said.splitlines()[0]
        assert f"argument {name}:" in first, said
        assert any(words in first for words in ("out of range", "not a", f"than {DIGITS} digits"))
        assert out.getvalue() == "" and "Traceback" not in said and "\\udc" not in said
        assert "invalid" not in first and len(first) < 300  # no argparse fallback, no long echo


def test_a_time_limit_is_checked_where_an_engine_is_opened() -> None:
    for value in (math.nan, math.inf, -1.0, 0.0, 1e-300, 0.001, MAX_TIMEOUT * 2, True):
        with pytest.raises(UsageError, match=r"out of range: at least 0\.05 and at most"):
            check_seconds(value)
        with pytest.raises(UsageError, match="timeout"):
            open_engine(None, None, value)
        with pytest.raises(UsageError, match="timeout"):
            TimedEngine(ReferenceEngine(), value)
        with pytest.raises(UsageError, match="timeout"):
            ProcessEngine("true", timeout=value)
    assert check_seconds(2) == 2.0 and isinstance(check_seconds(2), float)


def test_the_types_read_their_bounds_inclusively() -> None:
    assert WholeNumber(-3, 3)("-3") == -3 and WholeNumber(-3, 3)("+3") == 3
    assert seconds(".5") == 0.5 and seconds("5.") == 5.0 and seconds("5e-2") == 0.05
    with pytest.raises(argparse.ArgumentTypeError, match="from -3 to 3"):
        WholeNumber(-3, 3)("4")


PATHS = [(c, n) for c, n, a in OPTIONS if a.type in PATH_TYPES]


@pytest.mark.parametrize(("command", "name"), PATHS, ids=[f"{c}-{n.lstrip('-')}" for c, n in PATHS])
@pytest.mark.parametrize("word", ["", " ", "\t"])
def test_every_path_option_refuses_an_empty_name(command: str, name: str, word: str) -> None:
    before = ["old.json"] if name == "NEW.json" else []  # compare OLD.json NEW.json
    argv = [command, *before, word] if not name.startswith("-") else [command, f"{name}={word}"]
    out, err = io.StringIO(), io.StringIO()
    assert main(argv, stdout=out, stderr=err) == 2
    said = err.getvalue()
    assert f"argument {name}: is empty" in said and "Traceback" not in said
    assert out.getvalue() == ""


def test_the_path_options_are_found() -> None:
    assert len(PATHS) >= 15  # --output, --fixtures, --out, --write, OLD.json, PATH, ...
    assert file_or_folder("a\nb") == Path("a\nb")  # any name a file may have but an empty one


BYTE = os.fsdecode(b"\xff")
"""A byte of an argument that is not UTF-8, as Python hands it over (a lone surrogate)."""


@pytest.mark.parametrize(
    "argv",
    [
        [BYTE],
        ["list", "--format", BYTE],
        ["list", "-k", BYTE],
        ["list", "-k", f"a and ({BYTE}"],
        ["mutants", "--mutant", BYTE],
        ["certify", "--engine", f"{BYTE}:x"],
        ["certify", "--engine", f"fiveup.mutants.engines:{BYTE}"],
        ["fuzz", "--shard", BYTE],
        ["compare", BYTE, BYTE],
    ],
)
def test_a_byte_that_is_not_utf8_is_shown_one_way_everywhere(argv: list[str]) -> None:
    out, err = io.StringIO(), io.StringIO()
    assert main(argv, stdout=out, stderr=err) == 2
    said = err.getvalue()
    assert "\\xff" in said and "\\udc" not in said, said


@pytest.mark.parametrize(("command", "name"), PATHS, ids=[f"{c}-{n.lstrip('-')}" for c, n in PATHS])
@pytest.mark.parametrize(
    ("word", "problem"),
    [("a\x00b", "holds a NUL character"), ("x" * 100_000, "is longer than any path")],
)
def test_every_path_option_refuses_a_name_no_path_can_have(
    command: str, name: str, word: str, problem: str
) -> None:
    before = ["old.json"] if name == "NEW.json" else []
    argv = [command, *before, word] if not name.startswith("-") else [command, f"{name}={word}"]
    out, err = io.StringIO(), io.StringIO()
    assert main(argv, stdout=out, stderr=err) == 2  # os.stat raised ValueError: a traceback
    first = err.getvalue().splitlines()[0]
    assert f"argument {name}: " in first and problem in first and len(first) < 300
    assert out.getvalue() == ""


@pytest.mark.parametrize("option", ["--engine-cmd", "--baseline-cmd", "--engine", "--baseline"])
def test_an_engine_option_holding_a_nul_is_refused_naming_it(option: str) -> None:
    argv = ["fuzz", option, "run\x00me"] + ([] if "engine" in option else ["--engine", "reference"])
    out, err = io.StringIO(), io.StringIO()
    assert main(argv, stdout=out, stderr=err) == 2
    assert f"fiveup fuzz: error: {option} 'run\\x00me': holds a NUL character" in err.getvalue()


# The whole class: every option of every subcommand, from the registry, with hostile values. ----

CASE_ID = "rule.layout.lay-1.matching-half-accepted"
BASE: dict[str, list[str]] = {
    "fuzz": ["--engine", "reference", "--rounds", "2"],
    "certify": ["-k", "credit-15"],
    "mutants": ["-k", "credit-15", "--mutant", "cnt1_sums_connection_points"],
    "bench": ["--rounds", "1", "--matches", "1", "--requests", "1"],
    "bench-harness": ["--repeat", "1"],
    "bench-fuzz": ["--rounds", "1", "--cases", "1"],
    "transcripts": ["--players", "2", "--seed", "1"],
}
"""The options each command is given besides the attacked one, so that only it is wrong and a
value wrongly taken does little work (a command not listed is given none)."""
POSITIONALS: dict[str, list[str]] = {
    "show": [CASE_ID],
    "render": [CASE_ID],
    "tally": ["15"],
    "compare": ["old.json", "new.json"],
}
"""Each command's positional words, in order, when another is attacked."""

ROLES = {
    ("validate", "PATH"): "input",
    ("compare", "OLD.json"): "input-file",
    ("compare", "NEW.json"): "input-file",
    ("certify", "--expected-failures"): "input-file",
    ("render", "--observation"): "input-file",
    ("fuzz", "--merge"): "input-file",
    ("transcripts", "--check"): "input-folder",
    ("certify", "--output"): "output-file",
    ("certify", "--write-expected-failures"): "output-file",
    ("certify", "--badge"): "output-file",
    ("render", "--output"): "output-file",
    ("render", "--out"): "output-folder",
    ("fuzz", "--out"): "output-folder",
    ("transcripts", "--write"): "output-folder",
    **{(c, "--fixtures"): "input" for c in ("list", "show", "certify", "mutants", "render")},
}
"""What each path option names: a new one must be given a role here (a test says so)."""
ROLE_ATTACKS = {
    "input": ["missing/x", BYTE],
    "input-file": ["missing/x", BYTE, "d", "file/"],
    "input-folder": ["missing/x", BYTE, "file"],
    "output-file": ["missing/x", f"missing{BYTE}/x", "d", "x.txt/"],
    "output-folder": ["missing/x", f"missing{BYTE}/x", "file"],
}
"""Values naming no file or folder of the role (the scratch folder holds ``d/`` and ``file``)."""
WORDS = ["", " ", "a\x00b", "x" * 100_000, BYTE]
"""Hostile values of an option that takes any word: an engine, an expression, a case, a URL."""
CONTEXT = {("render", "--output"): ["--svg"], ("render", "--out"): ["spec"]}
"""What an option needs beside it to be used at all (render --output goes with --svg)."""


def _name(action: argparse.Action) -> str:
    return action.option_strings[-1] if action.option_strings else str(action.metavar)


def _argv(command: str, action: argparse.Action, value: str) -> list[str]:
    """``command`` with its base words, the attacked option's own left out, given ``value``."""
    name = _name(action)
    base = list(BASE.get(command, []))
    if name in base:
        del base[base.index(name) : base.index(name) + 2]
    positionals = list(POSITIONALS.get(command, []))
    context = CONTEXT.get((command, name), [])
    if context[:1] == ["spec"]:
        positionals, context = ["spec"], []
    if not action.option_strings:
        slots = [_name(a) for c, _, a in OPTIONS if c == command and not a.option_strings]
        positionals = (positionals or [value] * len(slots))[: len(slots)]
        positionals[slots.index(name)] = value
        return [command, *base, "--", *positionals]
    return [
        command,
        *base,
        *context,
        f"{name}={value}",
        *(["--", *positionals] if positionals else []),
    ]


def _attacks() -> list[tuple[str, str, str]]:
    found = []
    for command, name, action in OPTIONS:
        if isinstance(action, argparse._HelpAction) or isinstance(action.type, NumberType):
            continue  # numbers: test_every_numeric_option_refuses_...
        if action.nargs == 0:
            continue  # a flag takes no value: given twice, below
        if action.type in PATH_TYPES:
            values = ROLE_ATTACKS[ROLES[(command, name)]]
        elif action.choices is not None:
            values = [BYTE, "x" * 100_000, str(next(iter(action.choices))).upper() or "X", "\x00"]
        else:
            values = WORDS
        found += [(command, name, value) for value in values]
    return found


ATTACKS = _attacks()


def _scratch(folder: Path) -> None:
    (folder / "d").mkdir()
    (folder / "file").write_text("KEEP\n")
    report = io.StringIO()
    main(["certify", "-k", "credit-15", "--format", "json"], stdout=report, stderr=io.StringIO())
    (folder / "old.json").write_text(report.getvalue())
    (folder / "new.json").write_text(report.getvalue())


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p): p.read_bytes() if p.is_file() else b"/" for p in sorted(folder.rglob("*"))}


def test_every_path_option_has_a_role() -> None:
    assert {(c, n) for c, n in PATHS} == set(ROLES)


def test_an_option_that_names_a_file_takes_no_trailing_slash() -> None:
    """``Path("x.txt/")`` is ``x.txt``: ``--output out/`` wrote a file where a folder was meant."""
    files = {(c, n) for c, n, a in OPTIONS if a.type is a_file}
    assert files == {key for key, role in ROLES.items() if role.endswith("-file")}


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("scratch")
    _scratch(folder)
    return folder


def _refused(argv: list[str], name: str, folder: Path) -> str:
    """Run ``argv`` in ``folder``: exit 2, the option named in the first line, nothing written."""
    before = _files(folder)
    out, err = io.StringIO(), io.StringIO()
    cwd = os.getcwd()
    os.chdir(folder)
    try:
        code = main(argv, stdout=out, stderr=err, stdin=io.StringIO())
    finally:
        os.chdir(cwd)
    said = err.getvalue()
    first = said.split("\n")[0]
    assert code == 2, (argv[:6], said[:300], out.getvalue()[:300])
    assert name in first and len(first) < 1200, said[:300]
    assert "Traceback" not in said and "\\udc" not in said, said[:300]
    assert out.getvalue() == ""
    assert _files(folder) == before, "a refused command wrote or changed a file"
    return first


KNOWN: dict[tuple[str, str], str] = {}
"""Found and not fixed (notes/opts-27.md): the attacks of these options that reach the engine."""


def _marked(command: str, name: str, value: str) -> Any:
    known = KNOWN.get((command, name))
    reaches = value.strip() and "\x00" not in value  # refused before any engine starts
    if known and reaches:
        return pytest.param(
            command, name, value, marks=pytest.mark.xfail(strict=True, reason=known)
        )
    return (command, name, value)


@pytest.mark.parametrize(
    ("command", "name", "value"),
    [_marked(*attack) for attack in ATTACKS],
    ids=[f"{c}-{n.lstrip('-')}-{i}" for i, (c, n, _) in enumerate(ATTACKS)],
)
def test_every_option_of_every_command_refuses_a_hostile_value_by_name(
    command: str, name: str, value: str, scratch: Path
) -> None:
    action = next(a for c, n, a in OPTIONS if (c, n) == (command, name))
    argv = _argv(command, action, value)
    named = name if action.option_strings else value.split("/")[0][:50] or name
    _refused(argv, printable(named) if not action.option_strings else name, scratch)


ONE_VALUE = [
    (c, n, a)
    for c, n, a in OPTIONS
    if a.option_strings and isinstance(a, argparse._StoreAction | argparse._StoreConstAction)
]


@pytest.mark.parametrize(
    ("command", "name", "action"), ONE_VALUE, ids=[f"{c}-{n.lstrip('-')}" for c, n, _ in ONE_VALUE]
)
def test_an_option_of_one_value_given_twice_is_refused(
    command: str, name: str, action: argparse.Action, scratch: Path
) -> None:
    words = [name] if action.nargs == 0 else [name, "1"]
    base = [w for w in BASE.get(command, [])]
    if name in base:
        del base[base.index(name) : base.index(name) + 2]
    argv = [command, *base, *words, *words, *POSITIONALS.get(command, [])]
    assert "given twice" in _refused(argv, name, scratch)


LONG_OPTIONS = [
    (c, n) for c, n, a in OPTIONS if n.startswith("--") and len(n) > 5 and n != "--help"
]


@pytest.mark.parametrize(
    ("command", "name"), LONG_OPTIONS, ids=[f"{c}-{n}" for c, n in LONG_OPTIONS]
)
def test_an_option_one_letter_off_is_refused_with_the_right_one_suggested(
    command: str, name: str, scratch: Path
) -> None:
    typo = name[:-2] + name[-1]  # --format -> --formt
    first = _refused([command, typo, "1", *POSITIONALS.get(command, [])], typo, scratch)
    assert f"{typo} -> {name}" in first
