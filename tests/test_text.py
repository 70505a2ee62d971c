"""Untrusted text made safe to print (fiveup.harness.text), and its older home still answering."""

from __future__ import annotations

import json

import pytest

from fiveup.harness import sources
from fiveup.harness.text import cut, json_text, printable, printable_lines


def test_printable_leaves_printable_text_alone() -> None:
    assert printable("rule.scoring.scr-2 [3|4] Zählung") == "rule.scoring.scr-2 [3|4] Zählung"


def test_printable_escapes_control_and_bidi_characters_as_repr_does() -> None:
    # repr("\n") is '\n', repr("\x1b") is '\x1b', repr("\u202e") is '\u202e': the escapes, not
    # the characters, so no name can end a line or turn the text around.
    assert printable("a\nb\x1b[31mc\u202ed") == "a\\nb\\x1b[31mc\\u202ed"


def test_printable_shows_an_undecodable_byte_of_a_name_as_its_hex() -> None:
    # os.fsdecode(b"x\xff") is "x\udcff": the lone surrogate stands for the byte 0xff.
    assert printable("x\udcff") == "x\\xff"


def test_printable_is_idempotent() -> None:
    once = printable("tab\there\x00")
    assert once == "tab\\there\\x00"
    assert printable(once) == once


def test_printable_lines_keeps_line_breaks_and_says_where_it_cut() -> None:
    assert printable_lines("one\ntwo\x07", 100) == "one\ntwo\\x07"
    # 10 characters kept of 14: 4 more are not shown.
    assert printable_lines("0123456789abcd", 10) == ("0123456789... (4 more characters not shown)")


def test_the_yaml_reader_still_answers_for_the_older_names() -> None:
    assert sources.printable is printable
    assert sources.printable_lines is printable_lines


def test_cut_keeps_a_short_text_and_says_how_much_of_a_long_one_is_not_shown() -> None:
    assert cut("abc", 3) == "abc"
    assert cut("abcdef", 3) == "abc... (3 more characters not shown)"


@pytest.mark.parametrize(
    ("value", "read_back"),
    [
        ("\ud800", "\\ud800"),  # a lone high surrogate: six characters, an escaped backslash
        ("x\udfffy", "x\\udfffy"),  # a lone low one
        ("\ud83d", "\\ud83d"),
        ("a\ud83d\ude00b", "a\U0001f600b"),  # a pair is one character, kept
        ("\\ud800", "\\ud800"),  # text that only looks like an escape, kept
        ("\\\ud800", "\\\\ud800"),  # a backslash, then a lone surrogate
        (["\ud800", {"k\udc00": 1}], ["\\ud800", {"k\\udc00": 1}]),
    ],
)
def test_json_text_writes_what_every_strict_reader_reads(value: object, read_back: object) -> None:
    text = json_text(value)
    assert json.loads(text) == read_back
    json.dumps(json.loads(text), ensure_ascii=False).encode("utf-8")  # no lone surrogate left
