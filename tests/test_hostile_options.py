"""Hostile options and files for the commands that read or write them: each is refused in one line.

Every attack below is given to ``fiveup`` in-process, as a hostile user would type it: a FIFO, a
device, a folder, an oversized or deeply nested file, a number too large to act on, a word of
thousands of characters. Each must exit 2, name the option or the file and the problem in its
first line of stderr, print no traceback, print nothing on stdout and write nothing. (Fixture
files are attacked in test_hostile_fixtures.py, engines in test_hostile_engines.py, protocol
requests in test_hostile_requests.py; transcripts' own files in test_transcripts.py.)
"""

from __future__ import annotations

import io
import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from fiveup.cli import main
from fiveup.cli.app import COMMANDS
from fiveup.harness.corpus import bundled_fixture_dir
from fiveup.harness.regressions import REPORT_MAX_BYTES
from fiveup.harness.sources import MAX_FILE_BYTES

LONG = "9" * 5000
"""A number past Python's limit of 4,300 digits for turning text into an int."""
FORGED = "\x1b[2J\nfiveup: all good\x07" + "y" * 5000
"""A word that would clear the screen, forge a line and ring the bell, echoed whole."""


def _fifo(folder: Path) -> Path:
    os.mkfifo(folder / "fifo.yaml")
    return folder / "fifo.yaml"


def _big(folder: Path) -> Path:
    (folder / "big.json").write_bytes(b" " * (MAX_FILE_BYTES + 1))
    return folder / "big.json"


def _deep(folder: Path) -> Path:
    (folder / "deep.json").write_text("[" * 100_000)
    return folder / "deep.json"


def _file(folder: Path) -> Path:
    (folder / "a-file").write_text("mine\n")
    return folder / "a-file"


def _zero_link(folder: Path) -> Path:
    (folder / "zero.yaml").symlink_to("/dev/zero")
    return folder / "zero.yaml"


def _huge_report(folder: Path) -> Path:
    with (folder / "huge.json").open("wb") as fh:  # sparse: refused by its size, never read
        fh.truncate(REPORT_MAX_BYTES + 1)
    return folder / "huge.json"


def _wide(folder: Path) -> Path:  # a quadratic check of duplicate names took minutes on it
    members = ",".join(f'"k{i}":0' for i in range(80_000))
    (folder / "wide.json").write_text("{" + members + "}")
    return folder / "wide.json"


def _wide_twice(folder: Path) -> Path:  # and the name of the first member again, last
    members = ",".join(f'"k{i}":0' for i in range(80_000))
    (folder / "twice.json").write_text("{" + members + ',"k0":1}')
    return folder / "twice.json"


def _fifo_folder(folder: Path) -> Path:
    (folder / "corpus").mkdir()
    os.mkfifo(folder / "corpus" / "cases.yaml")
    return folder / "corpus"


def _loop(folder: Path) -> Path:  # certify's check of distinct files raised RuntimeError on it
    (folder / "one.yaml").symlink_to("two.yaml")
    (folder / "two.yaml").symlink_to("one.yaml")
    return folder / "one.yaml"


def _empty_yaml_folder(folder: Path) -> Path:
    (folder / "x.yaml").mkdir()
    return folder / "x.yaml"


MAKERS: dict[str, Callable[[Path], Path]] = {
    "fifo": _fifo,
    "loop": _loop,
    "empty-yaml-folder": _empty_yaml_folder,
    "big": _big,
    "deep": _deep,
    "wide": _wide,
    "wide-twice": _wide_twice,
    "file": _file,
    "zero-link": _zero_link,
    "fifo-folder": _fifo_folder,
    "huge-report": _huge_report,
    "none": lambda folder: folder / "absent",
}


@dataclass(frozen=True)
class Attack:
    """One hostile command line: ``{path}`` is the file ``make`` plants; ``words`` in stderr."""

    id: str
    argv: tuple[str, ...]
    words: tuple[str, ...]
    make: str = "none"
    stdout: bool = False
    """The problems are the command's report, on stdout (validate)."""
    known: str = ""
    """A defect found and not yet fixed in a module this suite's owner does not hold."""


ATTACKS = [
    Attack("certify-loop", ("certify", "--fixtures", "{path}"), ("{path}", "loops"), "loop"),
    Attack(
        "certify-output-loop", ("certify", "--output", "{path}", "--case", "x.y"), ("x.y",), "loop"
    ),
    Attack("validate-loop", ("validate", "{path}"), ("{path}", "loops"), "loop"),
    Attack("list-loop", ("list", "--fixtures", "{path}"), ("{path}", "loops"), "loop"),
    Attack(
        "validate-empty-folder",
        ("validate", "{path}"),
        ("{path}", "no *.yaml"),
        "empty-yaml-folder",
    ),
    Attack("tally-huge", ("tally", str(10**12)), ("too large",)),
    Attack("tally-digits", ("tally", LONG), ("SCORE", "more than 30 digits")),
    Attack("tally-negative", ("tally", "-5"), ("0 or more",)),
    Attack(
        "transcripts-seed-digits",
        ("transcripts", "--players", "2", "--seed", LONG),
        ("--seed",),
    ),
    Attack("transcripts-players", ("transcripts", "--players", "9", "--seed", "1"), ("--players",)),
    Attack("transcripts-write-file", ("transcripts", "--write", "{path}"), ("--write",), "file"),
    Attack("transcripts-write-fifo", ("transcripts", "--write", "{path}"), ("--write",), "fifo"),
    Attack(
        "transcripts-check-file",
        ("transcripts", "--check", "{path}"),
        ("--check", "is a file, not a folder"),
        "file",
    ),
    Attack(
        "transcripts-check-fifo",
        ("transcripts", "--check", "{path}"),
        ("--check", "is a FIFO (named pipe), not a folder"),
        "fifo",
    ),
    Attack(
        "transcripts-check-zero",
        ("transcripts", "--check", "{path}"),
        ("--check", "is a character device, not a folder"),
        "zero-link",
    ),
    Attack("transcripts-check-none", ("transcripts", "--check", "{path}"), ("no such folder",)),
    Attack("show-fifo", ("show", "x", "--fixtures", "{path}"), ("{path}", "FIFO"), "fifo"),
    Attack("show-zero", ("show", "x", "--fixtures", "{path}"), ("{path}", "device"), "zero-link"),
    Attack(
        "show-fifo-in-folder",
        ("show", "x", "--fixtures", "{path}"),
        ("cases.yaml", "FIFO"),
        "fifo-folder",
    ),
    Attack(
        "show-unknown-case",
        ("show", "x\x1b[2J" + "y" * 3000),
        ("no case", "\\x1b"),
    ),
    Attack("list-fifo", ("list", "--fixtures", "{path}"), ("{path}", "FIFO"), "fifo"),
    Attack("list-big", ("list", "--fixtures", "{path}"), ("{path}", "too large"), "big"),
    Attack("list-absent", ("list", "--fixtures", "{path}"), ("{path}",)),
    Attack("list-deep-k", ("list", "-k", "(" * 20_000 + "x"), ("-k",)),
    Attack("list-decision", ("list", "--decision", "OQ-" + LONG), ("--decision",)),
    Attack("list-format", ("list", "--format", "xml"), ("--format",)),
    Attack("validate-fifo", ("validate", "{path}"), ("{path}", "FIFO"), "fifo", stdout=True),
    Attack("validate-zero", ("validate", "{path}"), ("{path}", "device"), "zero-link", stdout=True),
    Attack("validate-big", ("validate", "{path}"), ("{path}", "too large"), "big", stdout=True),
    Attack("validate-absent", ("validate", "{path}"), ("{path}", "no such file"), stdout=True),
    Attack(
        "render-observation-fifo", ("render", "--observation", "{path}"), ("--observation",), "fifo"
    ),
    Attack(
        "render-observation-zero", ("render", "--observation", "{path}"), ("device",), "zero-link"
    ),
    Attack("render-observation-big", ("render", "--observation", "{path}"), ("too large",), "big"),
    Attack("render-observation-deep", ("render", "--observation", "{path}"), ("deeply",), "deep"),
    Attack(
        "render-out-file", ("render", "spec", "--out", "{path}"), ("--out", "not a folder"), "file"
    ),
    Attack("render-observation-wide", ("render", "--observation", "{path}"), ("neither",), "wide"),
    Attack("compare-wide", ("compare", "{path}", "{path}"), ("{path}", "not a report"), "wide"),
    Attack("fuzz-merge-wide", ("fuzz", "--merge", "{path}"), ("--merge", "{path}"), "wide"),
    Attack(
        "render-observation-wide-twice",
        ("render", "--observation", "{path}"),
        ('"k0" appears twice',),
        "wide-twice",
    ),
    Attack("compare-wide-twice", ("compare", "{path}", "{path}"), ("appears twice",), "wide-twice"),
    Attack(
        "fuzz-merge-wide-twice", ("fuzz", "--merge", "{path}"), ("appears twice",), "wide-twice"
    ),
    Attack("compare-fifo", ("compare", "{path}", "{path}"), ("{path}", "FIFO"), "fifo"),
    Attack("compare-zero", ("compare", "{path}", "{path}"), ("{path}", "device"), "zero-link"),
    Attack("compare-deep", ("compare", "{path}", "{path}"), ("{path}", "deeply"), "deep"),
    Attack("compare-huge", ("compare", "{path}", "{path}"), ("{path}", "too large"), "huge-report"),
    Attack("compare-folder", ("compare", "{path}", "{path}"), ("folder",), "fifo-folder"),
    Attack("engine-forged-module", ("certify", "--engine", FORGED + ":x"), ("--engine", "\\x1b")),
    Attack("engine-forged-name", ("certify", "--engine", FORGED), ("--engine", "\\n")),
    Attack(
        "engine-forged-attribute",
        ("certify", "--engine", "fiveup.mutants.engines:" + FORGED),
        ("--engine", "\\x07"),
    ),
    Attack("engine-no-module", ("certify", "--engine", ":x"), ("--engine", "absolute name")),
    Attack("engine-relative", ("certify", "--engine", "..x:y"), ("--engine", "absolute name")),
    Attack(
        "engine-mistyped-mutant",
        ("certify", "--engine", "fiveup.mutants.engines:pen2_remainder_three_round_down"),
        ("did you mean pen2_remainder_three_rounds_down",),
    ),
    Attack("engine-cmd-forged", ("certify", "--engine-cmd", FORGED), ("--engine-cmd", "\\x1b")),
    *(
        Attack(
            f"{command}-engine-cmd-unbalanced-quote",
            (command, "--engine-cmd", "'./engine --fast"),
            ("engine command", "No closing quotation"),
        )
        for command in ("certify", "bench-harness")
    ),
    Attack("list-k-forged", ("list", "-k", FORGED), ("-k",)),
    Attack("tally-forged", ("tally", FORGED), ("SCORE",)),
    *(Attack(f"{command.NAME}-unknown-word", (command.NAME, FORGED), ()) for command in COMMANDS),
    *(
        Attack(f"{command.NAME}-unknown-option", (command.NAME, "--" + FORGED), ())
        for command in COMMANDS
    ),
    *(
        Attack(
            f"{command}-{option}-empty", (command, f"--{option}", " "), (f"--{option} is empty",)
        )
        for command, option in (
            ("certify", "engine"),
            ("certify", "engine-cmd"),
            ("fuzz", "engine"),
            ("fuzz", "baseline"),
            ("fuzz", "baseline-cmd"),
            ("bench", "engine"),
            ("bench-harness", "engine"),
            ("engine", "engine"),
        )
    ),
    # Path("out/") is out: a file named as a folder was written, or read, without its slash
    *(
        Attack(
            f"{argv[0]}-{argv[-2][2:] if argv[-2][:2] == '--' else 'report'}-trailing-slash",
            argv,
            ("{path}/' ends with a slash, so it names a folder: name a file",),
        )
        for argv in (
            ("certify", "--output", "{path}/"),
            ("certify", "--badge", "{path}/"),
            ("certify", "--write-expected-failures", "{path}/"),
            ("certify", "--expected-failures", "{path}/"),
            ("render", "--observation", "{path}/"),
            ("render", "doc.layout.branches-1-3", "--svg", "--output", "{path}/"),
            ("fuzz", "--merge", "{path}/"),
            ("compare", "{path}/", "{path}"),
        )
    ),
    Attack("engine-unknown", ("engine", "--engine", "no.such.module:x"), ("--engine",)),
    Attack("engine-not-an-engine", ("engine", "--engine", "fiveup:__version__"), ("--engine",)),
    *(
        Attack(
            f"engine-stdlib-{name.replace(':', '-').replace('.', '-')}",
            (command, "--engine", name),
            ("--engine", "standard library"),
        )
        for command, name in (
            ("certify", "os:abort"),
            ("certify", "os:fork"),
            ("certify", "faulthandler:_sigsegv"),
            ("certify", "builtins:breakpoint"),
            ("engine", "code:interact"),
            ("engine", "builtins:input"),
            ("engine", "os.path:curdir"),
        )
    ),
    Attack(
        "engine-the-command-line",
        ("certify", "--engine", "fiveup.cli.app:main"),
        ("--engine", "is the command line"),
    ),
]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are for POSIX")
@pytest.mark.parametrize(
    "attack",
    [
        pytest.param(a, marks=pytest.mark.xfail(strict=True, reason=a.known)) if a.known else a
        for a in ATTACKS
    ],
    ids=[a.id for a in ATTACKS],
)
def test_a_hostile_option_or_file_is_refused_in_one_line(attack: Attack, tmp_path: Path) -> None:
    planted = MAKERS[attack.make](tmp_path)
    before = sorted(p.name for p in tmp_path.rglob("*"))
    argv = [word.replace("{path}", str(planted)) for word in attack.argv]
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, stdout=out, stderr=err, stdin=io.StringIO())
    said = err.getvalue()
    assert code == 2, (out.getvalue(), said)
    if attack.stdout:
        said += out.getvalue()
    else:
        assert out.getvalue() == ""
    assert "Traceback" not in said
    assert len(said) < 3000  # a 5,000-character word is not echoed whole
    assert all(char.isprintable() for line in said.split("\n") for char in line)
    assert "\nfiveup: all good" not in said  # no word forges a line of its own
    for word in attack.words:
        assert word.replace("{path}", str(planted)) in said
    assert sorted(p.name for p in tmp_path.rglob("*")) == before  # nothing written


def _tree(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


@pytest.mark.parametrize(
    "argv",
    [
        ["render", "spec", "--out", "{corpus}"],  # wrote 80 files and a copy of every fixture
        ["render", "spec", "--out", "{corpus}/site"],
        ["fuzz", "--engine", "fiveup.mutants.engines:scr2_five_not_credited", "--out", "{corpus}"],
        ["certify", "-k", "credit-15", "--write-expected-failures", "{corpus}/known.yaml"],
        ["certify", "-k", "credit-15", "--format", "html", "--output", "{corpus}/round/r.html"],
        ["certify", "-k", "credit-15", "--badge", "{corpus}/../fixtures/badge.json"],
        ["transcripts", "--write", "{corpus}/golden"],
    ],
    ids=lambda argv: "-".join(w.strip("-") for w in argv[:1] + argv[-2:-1]),
)
def test_no_output_goes_into_the_bundled_corpus(argv: list[str]) -> None:
    """Every command reads it: the site's copies of the fixtures, a baseline or a fuzz fixture
    written there made every later command refuse the corpus (each case a duplicate)."""
    corpus = bundled_fixture_dir()
    before = _tree(corpus)
    out, err = io.StringIO(), io.StringIO()
    words = [w.replace("{corpus}", str(corpus)) for w in argv]
    code = main(words, stdout=out, stderr=err, stdin=io.StringIO())
    assert code == 2, err.getvalue()
    assert "is inside the bundled corpus" in err.getvalue()
    assert "which every command reads: name a place outside it" in err.getvalue()
    assert _tree(corpus) == before


CREDIT_15 = {"function": "credit", "input": 15}


def test_engine_answers_a_hostile_line_and_serves_on() -> None:
    lines = [
        "x" * (MAX_FILE_BYTES + 10),  # longer than a message may be
        "[" * 100_000,  # nested past any parser's stack
        "\x00\x01garbage",
        '{"cmd": "start", "protocol": 1}',
        json.dumps({"seq": 1, "cmd": "run", "level": "scoring", "given": CREDIT_15}),
        '{"cmd": "stop"}',
    ]
    out, err = io.StringIO(), io.StringIO()
    code = main(["engine"], stdout=out, stderr=err, stdin=io.StringIO("\n".join(lines) + "\n"))
    assert code == 0 and "Traceback" not in err.getvalue()
    assert len(err.getvalue().splitlines()) >= 3  # one line for each ignored message
    replies = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [sorted(reply)[0] for reply in replies] == ["engine", "observation", "stopped"]
    assert replies[1] == {"seq": 1, "observation": {"value": 15}}
