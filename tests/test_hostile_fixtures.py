"""Hostile fixture files: each is refused with exit 2 and ``file:line: /pointer: problem``.

Every kind below is made in a folder of its own and given to ``fiveup validate`` (some also to
``certify --fixtures``, ``certify --expected-failures`` and ``list --fixtures``), in-process. Each
must exit 2, name the file, the line and the problem, print no traceback, and write nothing. The
last tests measure the limits of spec/fixtures.md ("Limits"): any file up to 1 MiB is judged in
under 2 s and under 200 MB.
"""

from __future__ import annotations

import html
import io
import json
import os
import socket
import stat
import subprocess
import sys
import textwrap
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from fiveup.cli import main
from fiveup.harness.expectations import MAX_BASELINE_BYTES
from fiveup.harness.sources import (
    MAX_DEPTH,
    MAX_FILE_BYTES,
    MAX_KEY_CHARS,
    MAX_MESSAGE_CHARS,
    MAX_NUMBER_CHARS,
    MAX_TEXT_CHARS,
    MAX_VALUES,
)
from fiveup.harness.text import printable

TILES = [f"[{a}|{b}]" for a in range(7) for b in range(a, 7)]


def flow(tiles: list[str]) -> str:
    return "[" + ", ".join(f'"{t}"' for t in tiles) + "]"


SCORING = """\
cases:
  - id: t.scoring.credit-15
    title: a sum of 15 credits 15
    rules: [SCR-2]
    provenance: {source: derived, note: test}
    level: scoring
    given: {function: credit, input: 15}
    expect: {value: 15}
"""
"""A valid file: line 2 is the ID, 4 the rules, 7 the given, 8 the expect."""

ROUND = f"""\
cases:
  - id: t.round.one
    title: a round
    rules: [OPN-5]
    provenance: {{source: derived, note: test}}
    level: round
    given:
      players: 2
      hands:
        - {flow(TILES[0:5])}
        - {flow(TILES[5:10])}
      boneyard: {flow(TILES[10:])}
      opener: 0
      actions: ["0 play [0|0]", "1 draw"]
    expect:
      state: {{turn: 1}}
"""
"""A valid round: line 8 players, 10 the first hand, 12 the boneyard, 14 the actions."""

LAYOUT = """\
cases:
  - id: t.layout.one
    title: a layout
    rules: [SCR-2]
    provenance: {source: derived, note: test}
    level: layout
    given: {placements: ["[1|4]"]}
    expect:
      layout:
        points: {"[1|4]:low": 1, "[1|4]:high": 4}
"""


def laughs(levels: int = 9) -> str:
    """The billion laughs: each anchor nine aliases of the one before (9**9 values)."""
    lines = ['a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]" for i in range(1, levels)]
    return "\n".join(lines) + "\n"


# Making the hostile files ------------------------------------------------------------------

Maker = Callable[[Path, pytest.MonkeyPatch], Path]


def text(content: str, name: str = "case.yaml") -> Maker:
    def make(folder: Path, _: pytest.MonkeyPatch) -> Path:
        path = folder / name
        path.write_text(content, encoding="utf-8")
        return path

    return make


def raw(content: bytes, name: str = "case.yaml") -> Maker:
    def make(folder: Path, _: pytest.MonkeyPatch) -> Path:
        path = folder / name
        path.write_bytes(content)
        return path

    return make


def fifo(folder: Path, _: pytest.MonkeyPatch) -> Path:
    path = folder / "pipe.yaml"
    os.mkfifo(path)
    return path


def link_to(target: str) -> Maker:
    def make(folder: Path, _: pytest.MonkeyPatch) -> Path:
        path = folder / "link.yaml"
        path.symlink_to(target)
        return path

    return make


def unix_socket(folder: Path, _: pytest.MonkeyPatch) -> Path:
    path = folder / "s.yaml"
    with socket.socket(socket.AF_UNIX) as sock:
        sock.bind(str(path))
    return path


def loop_in_folder(folder: Path, _: pytest.MonkeyPatch) -> Path:
    (folder / "a.yaml").symlink_to("b.yaml")
    (folder / "b.yaml").symlink_to("a.yaml")
    return folder


def self_loop_in_folder(folder: Path, _: pytest.MonkeyPatch) -> Path:
    (folder / "loop").symlink_to("loop")  # no .yaml: it could be a folder, so it is reported
    return folder


def cycle_in_folder(folder: Path, _: pytest.MonkeyPatch) -> Path:
    (folder / "good.yaml").write_text(SCORING)
    (folder / "up").symlink_to(".")
    return folder


def link_to_folder(folder: Path, _: pytest.MonkeyPatch) -> Path:
    (folder / "elsewhere").mkdir()
    (folder / "elsewhere" / "good.yaml").write_text(SCORING)
    (folder / "fixtures.yaml").symlink_to("elsewhere")  # named itself, it would be searched
    return folder


def dangling_in_folder(folder: Path, _: pytest.MonkeyPatch) -> Path:
    (folder / "gone.yaml").symlink_to("nowhere.yaml")
    return folder


def _denied(path: Path) -> PermissionError:
    return PermissionError(13, "Permission denied", str(path))


def unreadable_file(folder: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = folder / "secret.yaml"
    path.write_text(SCORING)
    path.chmod(0)
    if os.geteuid() == 0:  # root reads whatever the mode says: refuse as the kernel would
        real_open = os.open

        def refusing_open(name: str | os.PathLike[str], *args: int, **kwargs: int) -> int:
            if Path(name) == path:
                raise _denied(path)
            return real_open(name, *args, **kwargs)

        monkeypatch.setattr(os, "open", refusing_open)
    return path


def unreadable_folder(folder: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (folder / "good.yaml").write_text(SCORING)
    closed = folder / "closed"
    closed.mkdir()
    (closed / "hidden.yaml").write_text(SCORING)
    closed.chmod(0)
    if os.geteuid() == 0:
        real_scandir = os.scandir

        def refusing_scandir(name: str | os.PathLike[str]) -> Iterator[os.DirEntry[str]]:
            if Path(name) == closed:
                raise _denied(closed)
            return real_scandir(name)

        monkeypatch.setattr(os, "scandir", refusing_scandir)
    return folder


def named(name: str) -> Maker:
    def make(folder: Path, _: pytest.MonkeyPatch) -> Path:
        path = folder / name
        path.write_text(SCORING.replace("[SCR-2]", "[SCR-99]"))
        return path

    return make


def named_bytes(name: bytes) -> Maker:
    def make(folder: Path, _: pytest.MonkeyPatch) -> Path:
        path = Path(os.fsdecode(os.fsencode(folder) + b"/" + name))
        path.write_text(SCORING.replace("[SCR-2]", "[SCR-99]"))
        return path

    return make


def too_many_problems() -> str:
    cases = "".join(
        SCORING.split("\n", 1)[1].replace("credit-15", f"c{i}").replace("[SCR-2]", "[SCR-99]")
        for i in range(300)
    )
    return "cases:\n" + cases


def deep_block(levels: int) -> str:
    return "".join("  " * d + "k:\n" for d in range(levels)) + "  " * levels + "0\n"


def quoted_title(escaped: str) -> str:
    """The valid file with its title a double-quoted string holding ``escaped``, as written."""
    return SCORING.replace("title: a sum of 15 credits 15", f'title: "{escaped}"')


def quoted_note(escaped: str) -> str:
    return SCORING.replace("note: test", f'note: "{escaped}"')


def aliased_title(cases: int, chars: int) -> str:
    """``cases`` cases sharing one title of ``chars`` characters through an alias."""
    case = (
        "  - {{id: t.s.c{i}, title: {title}, rules: [SCR-2], provenance: {{source: derived,"
        " note: n}}, level: scoring, given: {{function: credit, input: 15}},"
        " expect: {{value: 15}}}}\n"
    )
    first = case.format(i=0, title='&t "' + "x" * chars + '"')
    return "cases:\n" + first + "".join(case.format(i=i, title="*t") for i in range(1, cases))


def deep_alias() -> str:
    inner = "[" * 20 + "0" + "]" * 20
    return f"a: &a {inner}\nb: &b [[[[[[[[[[[[[[*a]]]]]]]]]]]]]]\n"


# The kinds ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Kind:
    """A hostile file and what its report must say: the line (0: the whole file) and words."""

    id: str
    make: Maker
    line: int
    words: str
    pointer: str = ""
    shown: str | None = None
    """The file name as the report must print it, when not the path itself (escaped)."""


def kinds() -> list[Kind]:
    long_id = "x" * 600_000
    escape_id = SCORING.replace("id: t.scoring.credit-15", 'id: "t.scoring\\e[31m.red"')
    return [
        # what the file is
        Kind("fifo", fifo, 0, "a FIFO (named pipe), not a regular file"),
        Kind("link-to-dev-zero", link_to("/dev/zero"), 0, "a character device"),
        Kind("link-to-dev-urandom", link_to("/dev/urandom"), 0, "a character device"),
        Kind("unix-socket", unix_socket, 0, "a socket, not a regular file"),
        Kind("unreadable-file", unreadable_file, 0, "cannot read: Permission denied"),
        Kind("too-large", raw(b"#" * MAX_FILE_BYTES + b"\n"), 0, "file too large: 1048577"),
        Kind(
            "too-large-for-a-baseline",
            raw(b"#" * MAX_BASELINE_BYTES + b"\n"),
            0,
            f"file too large: {MAX_BASELINE_BYTES + 1}",
        ),
        # what a folder holds
        Kind("symlink-loop-in-folder", loop_in_folder, 0, "Too many levels of symbolic links"),
        Kind("self-loop-in-folder", self_loop_in_folder, 0, "Too many levels of symbolic links"),
        Kind("cycle-through-a-link", cycle_in_folder, 0, "is not followed: name the folder"),
        Kind("link-to-a-folder", link_to_folder, 0, "a symbolic link to a folder is not followed"),
        Kind("unreadable-folder", unreadable_folder, 0, "cannot read the folder: Permission"),
        Kind("dangling-link-in-folder", dangling_in_folder, 0, "to 'nowhere.yaml', which does not"),
        # the bytes and characters
        Kind(
            "invalid-utf8-on-line-5",
            raw(b"cases:\n  - id: a.b\n\n\n    title: caf\xe9 au lait\n"),
            5,
            "not UTF-8 text: invalid continuation byte: byte 0xe9 at column 15",
        ),
        Kind("latin1-line-3", raw(b"cases:\n  - id: a.b\n    title: \xe9t\xe9\n"), 3, "0xe9"),
        Kind("utf16", raw("cases: []\n".encode("utf-16")), 1, "not UTF-8 text"),
        Kind(
            "truncated-utf8-at-end",
            raw(b"cases:\n  - id: a.b\n    title: \xe2\x82"),
            3,
            "unexpected end of data",
        ),
        Kind("overlong-utf8", raw(b"cases:\n  - id: \xc0\xaf\n"), 2, "invalid start byte"),
        Kind("encoded-surrogate", raw(b"cases:\n\n  - id: \xed\xa0\x80\n"), 3, "0xed"),
        Kind("nul-byte", raw(b"cases:\n  - id: a.b\n\n    title: a\x00b\n"), 4, "U+0000"),
        Kind("terminal-escape", text("cases:\n  - id: a.b\n    title: \x1b[2J\n"), 3, "U+001B"),
        Kind("bell-in-a-comment", text(SCORING[:-1] + "\n# ding\x07\n"), 9, "U+0007 at column 7"),
        Kind("delete-char", text("cases:\n  - id: a\x7fb\n"), 2, "control character U+007F"),
        Kind("lone-carriage-return", text("cases:\r  - id: a.b\n"), 1, "a carriage return"),
        Kind("next-line-c1", text("cases:\n  - id: a.b\n    title: a\x85b\n"), 3, "U+0085"),
        Kind("line-separator", text("cases:\n  - id: a\u2028b\n"), 2, "U+2028 (LINE SEPARATOR)"),
        Kind("non-character", text("cases:\n  - id: a.b\n    title: \uffff\n"), 3, "U+FFFF"),
        # the YAML
        Kind("billion-laughs", text(laughs()), 5, "too many values: more than 50000", "/a4/5"),
        Kind(
            "alias-to-a-long-title",
            text(aliased_title(1500, 600_000)),
            5,
            f"too much text: more than {MAX_TEXT_CHARS} characters in strings",
            "/cases/3/title",
        ),
        Kind("alias-nests-too-deep", text(deep_alias()), 2, "nests values more than 32 deep"),
        Kind("recursive-alias", text("cases: &a [*a]\n"), 1, "refers to the list or mapping"),
        Kind("undefined-alias", text("cases: [*nope]\n"), 1, "alias *nope names no anchor"),
        Kind("duplicate-anchor", text("a: &x 1\nb: &x 2\n"), 2, "anchor &x is defined twice"),
        Kind(
            "nesting-just-under-990",
            text("cases: " + "[" * 990 + "]" * 990 + "\n"),
            1,
            f"nested too deeply: over {MAX_DEPTH}",
        ),
        Kind("deep-block-mappings", text(deep_block(40)), MAX_DEPTH + 1, "nested too deeply"),
        Kind(
            "int-of-5000-digits",
            text(SCORING.replace("input: 15", "input: " + "9" * 5000)),
            7,
            "number too long: 5000 characters",
            "/cases/0/given/input",
        ),
        Kind("long-hex-int", text("cases: 0x" + "f" * 100_000 + "\n"), 1, "number too long"),
        Kind("sexagesimal-int", text("cases: " + "1:" * 2000 + "1\n"), 1, "number too long"),
        Kind(
            "fraction",
            text(ROUND.replace("players: 2", "players: 2.0")),
            8,
            "'2.0' reads as a fraction",
            "/cases/0/given/players",
        ),
        Kind("infinity", text(SCORING.replace("input: 15", "input: .inf")), 7, "a fraction"),
        Kind(
            "octal-int",
            text(SCORING.replace("input: 15", "input: 017")),
            7,
            "'017' is not written in decimal (YAML 1.1 reads it as 15",
            "/cases/0/given/input",
        ),
        Kind("zero-padded-int", text(ROUND.replace("opener: 0", "opener: 00")), 13, "decimal"),
        Kind("binary-int", text(SCORING.replace("input: 15", "input: 0b1111")), 7, "as 15"),
        Kind("hex-int", text(SCORING.replace("input: 15", "input: 0xf")), 7, "not written in"),
        Kind("underscored-int", text(SCORING.replace("input: 15", "input: 1_5")), 7, "decimal"),
        Kind("short-sexagesimal", text(SCORING.replace("input: 15", "input: 1:15")), 7, "as 75"),
        Kind(
            "yaml-1.1-boolean",
            text(SCORING.replace("input: 15", "input: yes")),
            7,
            "'yes' reads as a boolean in YAML 1.1 and as text in YAML 1.2",
            "/cases/0/given/input",
        ),
        Kind("on-as-a-key", text("cases: []\non: 1\n"), 2, "'on' reads as a boolean"),
        Kind("off-in-a-list", text(SCORING.replace("[SCR-2]", "[SCR-2, Off]")), 4, "'Off' reads"),
        Kind("impossible-date", text("cases: 2024-02-30\n"), 1, "reads as a date or time"),
        Kind(
            "python-tag",
            text("cases: !!python/object/apply:os.system ['echo hi']\n"),
            1,
            "tag refused (only plain YAML is allowed)",
        ),
        Kind("local-tag", text("cases: !shout [a]\n"), 1, "tag refused"),
        Kind(  # YAML reads `! 15` as the text "15", PyYAML as the number 15
            "non-specific-tag-on-a-number",
            text(SCORING.replace("input: 15", "input: ! 15")),
            7,
            "'! 15' is text in YAML (the tag ! on a scalar) but reads as a number here",
            "/cases/0/given/input",
        ),
        Kind("non-specific-tag-on-true", text("cases: []\nx: ! true\n"), 2, "as a boolean"),
        Kind("non-specific-tag-on-a-key", text("cases: []\n! 1: x\n"), 2, "as a number"),
        Kind("binary-tag", text("cases: !!binary aGVsbG8=\n"), 1, "tag refused"),
        Kind("set-tag", text("cases: !!set {a, b}\n"), 1, "tag refused"),
        Kind("merge-key", text("a: &m {x: 1}\nb:\n  <<: *m\n"), 3, "a merge key", "/b"),
        Kind("complex-key", text("cases:\n  ? [a, b]\n  : c\n"), 2, "key must be a plain value"),
        Kind("alias-to-list-as-key", text("a: &l [1]\n*l : x\n"), 2, "key must be a plain value"),
        Kind(
            "long-key",
            text("cases:\n  - " + "k" * 300 + ": 1\n"),
            2,
            f"key too long: 300 characters, the limit is {MAX_KEY_CHARS}",
        ),
        Kind(
            "duplicate-key",
            text(SCORING.replace("    level: scoring\n", "    level: scoring\n    level: round\n")),
            7,
            "duplicate key 'level' (first at line 6)",
        ),
        Kind(
            "duplicate-key-three-times",
            text(SCORING.replace("    level: scoring\n", "    level: scoring\n" * 3)),
            8,
            "duplicate key 'level' (first at line 6)",  # the first, not the one just before
        ),
        Kind(  # one key in Python: the message said "duplicate key True"
            "boolean-and-number-keys",
            text("cases: []\ntrue: a\n1: b\n"),
            3,
            "keys true (line 2) and 1 are one key once read: a boolean key is the number 1 or 0",
        ),
        Kind(  # the pointer said /None
            "null-keys", text("cases: []\nnull: a\n~: b\n"), 3, "duplicate key null (first", "/null"
        ),
        Kind(
            "boolean-key-in-a-case",
            text(SCORING.replace("    level: scoring\n", "    level: scoring\n    true: 1\n")),
            2,
            "Additional properties are not allowed (true was unexpected)",
            "/cases/0",
        ),
        Kind("two-documents", text(SCORING + "---\n" + SCORING), 9, "single document"),
        Kind("tab-indentation", text("cases:\n\t- id: a.b\n"), 2, "YAML error"),
        Kind("unclosed-flow", text("cases: [a, b\n"), 2, "YAML error"),
        Kind("empty", text(""), 1, "empty file"),
        Kind("only-comments", text("# nothing\n# here\n"), 1, "empty file"),
        Kind("top-level-list", text("- a\n- b\n"), 1, 'is not of type "object"'),
        Kind("too-many-values", text("cases: [" + "0," * 60_000 + "0]\n"), 1, "too many values"),
        Kind(
            "too-many-items",
            text("cases: [{title: [" + "0," * 2_000 + "0]}]\n"),
            1,
            "too many items: more than 2,000 in one list or mapping",
            "/cases/0/title/2000",
        ),
        Kind(
            "too-many-keys",
            text("cases: [{given: {" + "".join(f"k{i}: 0, " for i in range(2_001)) + "}}]\n"),
            1,
            "too many items: more than 2,000 in one list or mapping",
            "/cases/0/given",
        ),
        # the schema and the notation
        Kind(
            "id-with-final-newline",
            text(SCORING.replace("t.scoring.credit-15", '"t.scoring.credit-15\\n"')),
            2,
            "holds a line break",
            "/cases/0/id",
        ),
        Kind(
            "id-as-block-scalar",
            text(SCORING.replace("id: t.scoring.credit-15", "id: |\n      t.scoring.c")),
            2,
            "holds a line break",
            "/cases/0/id",
        ),
        Kind(
            "action-with-final-newline",
            text(ROUND.replace('"1 draw"', '"1 draw\\n"')),
            14,
            '"1 draw\\n" holds a line break',
            "/cases/0/given/actions/1",
        ),
        Kind(
            "rule-with-final-newline",
            text(SCORING.replace("[SCR-2]", '["SCR-2\\n"]')),
            4,
            "holds a line break",
            "/cases/0/rules/0",
        ),
        Kind(
            "tile-with-final-newline",
            text(ROUND.replace('"[0|0]", "[0|1]"', '"[0|0]\\n", "[0|1]"', 1)),
            10,
            "holds a line break",
            "/cases/0/given/hands/0/0",
        ),
        Kind(
            "point-key-with-final-newline",
            text(LAYOUT.replace('"[1|4]:low"', '"[1|4]:low\\n"')),
            10,
            "holds a line break",
            "/cases/0/expect/layout/points",
        ),
        Kind(
            "leading-zero-seat",
            text(ROUND.replace('"1 draw"', '"00 draw"')),
            14,
            "'00 draw' is not canonical: write '0 draw'",
            "/cases/0/given/actions/1",
        ),
        Kind(
            "leading-zero-play",
            text(ROUND.replace('"0 play [0|0]"', '"00 play [0|0]"')),
            14,
            "'00 play [0|0]' is not canonical: write '0 play [0|0]'",
            "/cases/0/given/actions/0",
        ),
        Kind(
            "unsortable-unique-rules",
            text(
                SCORING.replace(
                    "[SCR-2]", "[" + ", ".join(f"{{a: {i}}}, {i}" for i in range(1_000)) + "]"
                )
            ),
            4,
            "schema:",
            "/cases/0/rules/0",
        ),
        Kind(
            "id-of-600-kb",
            text(SCORING.replace("t.scoring.credit-15", long_id)),
            2,
            'schema: "xxxx',
            "/cases/0/id",
        ),
        Kind("escape-inside-a-quoted-id", text(escape_id), 2, "U+001B in a quoted", "/cases/0/id"),
        Kind(
            "escaped-clear-in-a-title", text(quoted_title("\\e[2J")), 3, "U+001B", "/cases/0/title"
        ),
        Kind("escaped-nul-in-a-title", text(quoted_title("a\\0b")), 3, "U+0000 in a quoted"),
        Kind(
            "escaped-cr-in-a-title", text(quoted_title("a\\rb")), 3, "carriage return (U+000D) in"
        ),
        Kind("escaped-c1-in-a-title", text(quoted_title("\\x9b2J")), 3, "U+009B in a quoted"),
        Kind("escaped-nel-in-a-title", text(quoted_title("a\\Nb")), 3, "U+0085 in a quoted"),
        Kind(
            "escaped-u2029-in-a-note",
            text(quoted_note("\\P")),
            5,
            "U+2029",
            "/cases/0/provenance/note",
        ),
        Kind("escaped-noncharacter", text(quoted_title("\\uFFFE")), 3, "U+FFFE in a quoted"),
        Kind("escaped-bell-in-a-key", text('cases:\n  - "a\\ab": 1\n'), 2, "U+0007 in a quoted"),
        Kind("too-many-problems", text(too_many_problems()), 0, "too many problems"),
        # the name of the file
        Kind(
            "newline-in-the-name",
            named("x\n.yaml:9: forged.yaml"),
            4,
            "unknown rule ID SCR-99",
            shown="x\\n.yaml:9: forged.yaml",
        ),
        Kind("escape-in-the-name", named("\x1b[2Jx.yaml"), 4, "SCR-99", shown="\\x1b[2Jx.yaml"),
        Kind("bidi-override-in-the-name", named("a\u202eb.yaml"), 4, "SCR-99", shown="\\u202e"),
        Kind("non-utf8-name", named_bytes(b"\xff\xfe.yaml"), 4, "SCR-99", shown="\\xff\\xfe.yaml"),
    ]


KINDS = kinds()


def files_in(folder: Path) -> list[str]:
    found = []
    for root, dirs, names in os.walk(folder):
        found += [os.path.join(root, n) for n in [*dirs, *names]]
    return sorted(found)


def run(args: list[str]) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(args, stdout=out, stderr=err)
    return code, out.getvalue() + err.getvalue()


def check_refused(kind: Kind, folder: Path, target: Path, args: list[str]) -> None:
    before = files_in(folder)
    code, report = run(args)
    assert code == 2, report
    assert "Traceback" not in report and "Error:" not in report, report
    assert files_in(folder) == before, "something was written"
    name = kind.shown if kind.shown is not None else printable(str(target))
    where = f":{kind.line}: " if kind.line else ": "
    if kind.pointer:
        where += kind.pointer + ": "
    located = [ln for ln in report.splitlines() if name in ln and where in ln]
    assert any(kind.words in ln for ln in located), f"{name}{where}{kind.words}?\n{report}"
    for line in report.splitlines():
        assert line.isprintable(), repr(line)
        assert len(line) < 3 * MAX_MESSAGE_CHARS, line[:200]


def make(kind: Kind, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    folder = tmp_path / "hostile"
    folder.mkdir()
    return folder, kind.make(folder, monkeypatch)


@pytest.fixture
def restore_modes(tmp_path: Path) -> Iterator[None]:
    yield
    for root, dirs, _ in os.walk(tmp_path):
        for d in dirs:
            os.chmod(os.path.join(root, d), stat.S_IRWXU)
    for path in tmp_path.rglob("*"):
        if not path.is_symlink() and path.is_file():
            path.chmod(stat.S_IRUSR | stat.S_IWUSR)


@pytest.mark.usefixtures("restore_modes")
@pytest.mark.parametrize("kind", KINDS, ids=[k.id for k in KINDS])
def test_validate_refuses_it_with_file_line_and_problem(
    kind: Kind, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder, target = make(kind, tmp_path, monkeypatch)
    check_refused(kind, folder, target, ["validate", str(target)])


def test_there_are_more_than_fifty_kinds() -> None:
    assert len({k.id for k in KINDS}) == len(KINDS) >= 50


BY_ID = {k.id: k for k in KINDS}
THROUGH_CERTIFY = [
    "billion-laughs",
    "fifo",
    "symlink-loop-in-folder",
    "unreadable-folder",
    "invalid-utf8-on-line-5",
    "int-of-5000-digits",
    "leading-zero-seat",
    "newline-in-the-name",
]
THROUGH_EXPECTED_FAILURES = [
    "billion-laughs",
    "fifo",
    "link-to-dev-zero",
    "invalid-utf8-on-line-5",
    "terminal-escape",
    "int-of-5000-digits",
    "nesting-just-under-990",
    "too-large-for-a-baseline",  # a baseline may have 8 MiB, not 1 as a fixture file
]


@pytest.mark.usefixtures("restore_modes")
@pytest.mark.parametrize("name", THROUGH_CERTIFY)
def test_certify_and_list_refuse_it_as_fixtures(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    kind = BY_ID[name]
    folder, target = make(kind, tmp_path, monkeypatch)
    check_refused(kind, folder, target, ["certify", "--fixtures", str(target)])
    check_refused(kind, folder, target, ["list", "--fixtures", str(target)])


@pytest.mark.usefixtures("restore_modes")
@pytest.mark.parametrize("name", THROUGH_EXPECTED_FAILURES)
def test_certify_refuses_it_as_expected_failures(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    kind = BY_ID[name]
    folder, target = make(kind, tmp_path, monkeypatch)
    good = tmp_path / "good" / "scoring.yaml"
    good.parent.mkdir()
    good.write_text(SCORING)
    args = ["certify", "--fixtures", str(good), "--expected-failures", str(target)]
    check_refused(kind, folder, target, args)


def test_the_hostile_names_cannot_start_a_line_of_the_report(tmp_path: Path) -> None:
    folder = tmp_path / "names"
    folder.mkdir()
    for name in ("x\n.yaml:9: forged.yaml", "ok\rfake.yaml", "x\u2028y.yaml"):
        named(name)(folder, pytest.MonkeyPatch())
    code, report = run(["validate", str(folder)])
    assert code == 2
    lines = report.splitlines()
    assert len(lines) > 3 and all(ln.startswith(str(folder)) for ln in lines[:-1]), report
    assert not any(ln.startswith(".yaml") for ln in lines)


@pytest.mark.parametrize("form", ["text", "json", "html"])
def test_a_failing_case_of_a_hostile_name_has_a_printable_rerun_command(
    tmp_path: Path, form: str
) -> None:
    """The rerun command held the ESC as it was and the byte as a lone surrogate: the text
    report written by --output ended in a UnicodeEncodeError traceback."""
    path = Path(os.fsdecode(os.fsencode(tmp_path) + b"/\xff\x1b.yaml"))
    path.write_text(SCORING.replace("expect: {value: 15}", "expect: {value: 10}"))
    output = tmp_path / f"report.{form}"
    code, said = run(
        ["certify", "--fixtures", str(path), "--format", form, "--output", str(output)]
    )
    assert code == 1 and "Traceback" not in said, said
    report = output.read_text(encoding="utf-8")
    rerun = f"--fixtures $'{tmp_path}/\\xff\\x1b.yaml' --case t.scoring.credit-15"
    if form == "json":
        report = json.loads(report)["cases"][0]["rerun"]
    if form == "html":
        report = html.unescape(report)
    assert rerun in report, report[:2000]
    assert "\x1b" not in report


def test_an_expected_failures_file_with_a_hostile_name_is_named_escaped(tmp_path: Path) -> None:
    good = tmp_path / "scoring.yaml"
    good.write_text(SCORING)
    xfail = tmp_path / "x\n.yaml:1: forged"
    xfail.write_text("t.scoring.credit-15: fine\nno.such.case: why\n")
    code, report = run(["certify", "--fixtures", str(good), "--expected-failures", str(xfail)])
    assert code == 2 and "Traceback" not in report
    assert f"{tmp_path}/x\\n.yaml:1: forged:2: no case 'no.such.case'" in report, report
    assert all(line.isprintable() for line in report.splitlines())


def test_a_bundled_sized_valid_file_still_passes_and_aliases_still_work(tmp_path: Path) -> None:
    deal = textwrap.indent(
        f"hands: &hands\n  - {flow(TILES[0:5])}\n  - {flow(TILES[5:10])}\n"
        f"boneyard: &bone {flow(TILES[10:])}\n",
        "      ",
    )
    first = ROUND.replace(
        f"      hands:\n        - {flow(TILES[0:5])}\n        - {flow(TILES[5:10])}\n"
        f"      boneyard: {flow(TILES[10:])}\n",
        deal,
    )
    second = first.split("\n", 1)[1].replace("t.round.one", "t.round.two")
    second = second.replace(deal, "      hands: *hands\n      boneyard: *bone\n")
    path = tmp_path / "aliases.yaml"
    path.write_text(first + second)
    code, report = run(["validate", str(path)])
    assert code == 0, report
    assert report.startswith("ok: 2 cases in 1 files")


# Measuring the limits ----------------------------------------------------------------------

MEASURE = """
import json, resource, sys, time
from pathlib import Path
from fiveup.harness.lint import lint
lint([Path(sys.argv[1])], require_coverage=False)  # the schemas, read once
times = {}
for name in sys.argv[2:]:
    cpu = time.process_time()  # CPU, not wall: a busy machine must not fail the bound
    report = lint([Path(name)], require_coverage=False)
    times[Path(name).name] = {
        "cpu": time.process_time() - cpu,
        "problems": [p.text[:200] for p in report.problems[:3]],
        "cases": report.case_count,
    }
# VmHWM is this process's own peak since exec; ru_maxrss also carries the peak of the process
# that forked it (a pytest worker of some hundred MB), so it measures the parent on Linux.
status = Path("/proc/self/status")
if status.exists():
    line = next(x for x in status.read_text().splitlines() if x.startswith("VmHWM:"))
    peak = int(line.split()[1]) * 1024
else:
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
print(json.dumps({"times": times, "peak": peak}))
"""

HEAD = f"""\
cases:
  - id: t.round.long
    title: a long round
    rules: [OPN-5]
    provenance: {{source: derived, note: test}}
    level: round
    given:
      players: 2
      hands: [{flow(TILES[0:5])}, {flow(TILES[5:10])}]
      boneyard: {flow(TILES[10:])}
      opener: 0
      actions:
"""
TAIL = "    expect: {state: {turn: 1}}\n"


def fill(head: str, unit: str, tail: str, count: int | None = None) -> str:
    room = (MAX_FILE_BYTES - len(head) - len(tail)) // len(unit)
    return head + unit * (room if count is None else min(room, count)) + tail


def big_files() -> dict[str, str]:
    """Files of up to 1 MiB, each within the limits (judged in full) or just past one."""
    case = SCORING.split("\n", 1)[1]
    per_case = 26  # values of one scoring case: mappings, keys, scalars, one list
    cases = MAX_VALUES // per_case - 5
    dup = "  - &c {id: t.s.c, title: t, rules: [SCR-2], provenance: {source: derived, note: n},"
    dup += " level: scoring, given: {function: credit, input: 15}, expect: {value: 15}}\n"
    draws = MAX_VALUES - 100
    return {
        "plays.yaml": fill(HEAD, "        - 0 play [2|3]@[1|1]:branch-b\n", TAIL),
        "draws.yaml": HEAD[:-1] + " [" + "'1 draw', " * draws + "'1 draw']\n" + TAIL,
        "bad-draws.yaml": HEAD[:-1] + " [" + "'01 draw', " * draws + "'1 pass']\n" + TAIL,
        "cases.yaml": "cases:\n"
        + "".join(case.replace("credit-15", f"c{i}") for i in range(cases)),
        "bad-cases.yaml": "cases:\n"
        + "".join(
            case.replace("credit-15", f"c{i}").replace("SCR-2", "SCR-9") for i in range(cases)
        ),
        "aliased-cases.yaml": "cases:\n" + dup + "  - *c\n" * (cases - 1),
        "bounded-laughs.yaml": laughs(4) + "b: [" + ", ".join(["*a3"] * 5) + "]\n",
        "unique-mappings.yaml": "cases:\n  - id: a.b\n    rules: ["
        + ", ".join(f"{{a: {i}}}" for i in range(MAX_VALUES // 3 - 10))
        + "]\n",
        "one-string.yaml": "cases:\n  - id: a.b\n    title: " + "x" * (MAX_FILE_BYTES - 40) + "\n",
        "deep-long-keys.yaml": "".join(
            "  " * d + "k" * MAX_KEY_CHARS + ":\n" for d in range(MAX_DEPTH - 2)
        )
        + "  " * (MAX_DEPTH - 2)
        + "["
        + ", ".join(["1"] * (MAX_VALUES - 2 * MAX_DEPTH))
        + "]\n",
        "aliased-title.yaml": aliased_title(1500, 600_000),
        "numbers.yaml": "cases: ["
        + ", ".join(["9" * MAX_NUMBER_CHARS] * (MAX_FILE_BYTES // (MAX_NUMBER_CHARS + 2) - 5))
        + "]\n",
    }


def test_any_file_up_to_1_mib_is_judged_in_under_2_cpu_seconds_and_200_mb(tmp_path: Path) -> None:
    paths = []
    for name, content in big_files().items():
        path = tmp_path / name
        path.write_text(content)
        assert path.stat().st_size <= MAX_FILE_BYTES, name
        paths.append(str(path))
    warm = tmp_path / "warm.yaml"
    warm.write_text(SCORING)
    done = subprocess.run(
        [sys.executable, "-c", MEASURE, str(warm), *paths],
        capture_output=True,
        text=True,
        timeout=600,  # only stops a hang: generous, so a loaded machine never trips it
        check=True,
    )
    measured = json.loads(done.stdout)
    times = measured["times"]
    for name, figures in times.items():
        assert figures["cpu"] < 2.0, (name, figures)
    assert measured["peak"] < 200 * 2**20, measured["peak"]
    # a round's thousands of actions are refused as they are read, before any schema check
    for name in ("plays.yaml", "draws.yaml", "bad-draws.yaml", "unique-mappings.yaml"):
        assert "too many items" in " ".join(times[name]["problems"]), name
    assert times["cases.yaml"]["cases"] > 1500
    assert "too much text" in " ".join(times["aliased-title.yaml"]["problems"])
    for name in ("bad-cases.yaml", "aliased-cases.yaml"):
        assert "too many problems" in " ".join(times[name]["problems"]), name
    for name in ("bounded-laughs.yaml", "unique-mappings.yaml", "deep-long-keys.yaml"):
        assert not any("too many values" in p for p in times[name]["problems"]), name
    sizes = {Path(p).name: Path(p).stat().st_size for p in paths}
    assert sizes["plays.yaml"] > MAX_FILE_BYTES - 100 and sizes["one-string.yaml"] > 10**6


def test_a_quoted_string_may_still_escape_a_tab_a_line_feed_and_a_no_break_space(
    tmp_path: Path,
) -> None:
    path = tmp_path / "quoted.yaml"
    path.write_text(quoted_title("a\\tb\\_c").replace("note: test", 'note: "one\\ntwo"'))
    code, report = run(["validate", str(path)])
    assert code == 0, report


def test_signed_decimal_numbers_still_read(tmp_path: Path) -> None:
    path = tmp_path / "plain.yaml"
    path.write_text(
        SCORING.replace("input: 15", "input: +15").replace("[SCR-2]", "[SCR-2]\n    tags: []")
        + "  - id: t.scoring.credit-0\n    title: zero\n    rules: [SCR-2]\n"
        "    provenance: {source: derived, note: test}\n    level: scoring\n"
        "    given: {function: credit, input: -0}\n    expect: {value: 0}\n"
    )
    code, report = run(["validate", str(path)])
    assert code == 0, report
