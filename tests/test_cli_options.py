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

import pytest

from fiveup.cli import main
from fiveup.cli.app import COMMANDS
from fiveup.cli.common import Parser
from fiveup.cli.options import DIGITS, MAX_TIMEOUT, Seconds, WholeNumber, file_or_folder, seconds
from fiveup.errors import UsageError
from fiveup.harness.engines import TimedEngine, open_engine
from fiveup.harness.process import ProcessEngine, check_seconds
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


OTHER_TYPES = {("fuzz", "--shard")}
"""Options of a type of their own, attacked where it is defined (I/K: tests/test_fuzz.py)."""


def test_every_typed_option_is_a_path_a_number_type_or_listed() -> None:
    odd = {
        (c, n)
        for c, n, a in OPTIONS
        if a.type is not None
        and a.type is not file_or_folder
        and not isinstance(a.type, NumberType)
    }
    assert odd == OTHER_TYPES, "a number's or a path's type comes from fiveup.cli.options"
    assert len(NUMERIC) >= 20  # the walk finds them: counts, seeds, time limits, players


WHOLE_ATTACKS = [
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
        attacks = [*SECONDS_ATTACKS, repr(number.high * 2)]
        assert number(str(number.high)) == number.high and number("0.001") == 0.001
    for word in attacks:
        argv = [command, f"{name}={word}"] if action.option_strings else [command, "--", word]
        out, err = io.StringIO(), io.StringIO()
        code = main(argv, stdout=out, stderr=err, stdin=io.StringIO())
        said = err.getvalue()
        assert code == 2, (word, said)
        first = said.splitlines()[0]
        assert f"argument {name}:" in first, said
        assert any(words in first for words in ("out of range", "not a", f"than {DIGITS} digits"))
        assert out.getvalue() == "" and "Traceback" not in said
        assert "invalid" not in first and len(first) < 300  # no argparse fallback, no long echo


def test_a_time_limit_is_checked_where_an_engine_is_opened() -> None:
    for value in (math.nan, math.inf, -1.0, 0.0, MAX_TIMEOUT * 2, True):
        with pytest.raises(UsageError, match="out of range: more than 0"):
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
    assert seconds(".5") == 0.5 and seconds("5.") == 5.0 and seconds("2e-3") == 0.002
    with pytest.raises(argparse.ArgumentTypeError, match="from -3 to 3"):
        WholeNumber(-3, 3)("4")


PATHS = [(c, n) for c, n, a in OPTIONS if a.type is file_or_folder]


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
