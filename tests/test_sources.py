"""Reading a file the user names: bounded, regular files only, and why not in plain words."""

from __future__ import annotations

import os
from pathlib import Path

from fiveup.harness.sources import read_bounded


def test_a_regular_file_is_read_whole_and_an_empty_one_is_empty(tmp_path: Path) -> None:
    (tmp_path / "a.json").write_bytes(b'{"a": 1}')
    (tmp_path / "empty.json").write_bytes(b"")
    assert read_bounded(tmp_path / "a.json") == b'{"a": 1}'
    assert read_bounded(tmp_path / "empty.json") == b""


def test_a_link_that_leads_nowhere_says_where_it_leads(tmp_path: Path) -> None:
    os.symlink(tmp_path / "gone.json", tmp_path / "report.json")
    told = read_bounded(tmp_path / "report.json")
    assert told == f"cannot read: a symbolic link to '{tmp_path}/gone.json', which does not exist"


def test_a_link_loop_and_a_missing_file_say_what_the_system_says(tmp_path: Path) -> None:
    os.symlink("loop", tmp_path / "loop")
    assert read_bounded(tmp_path / "loop") == "cannot read: Too many levels of symbolic links"
    assert read_bounded(tmp_path / "none.json") == "cannot read: No such file or directory"


def test_a_link_to_an_unprintable_name_is_quoted_printable(tmp_path: Path) -> None:
    os.symlink("gone\x1b[2J.json", tmp_path / "report.json")
    told = read_bounded(tmp_path / "report.json")
    assert isinstance(told, str) and "\x1b" not in told and "gone\\x1b[2J.json" in told


def test_a_folder_or_a_file_past_the_limit_is_not_read(tmp_path: Path) -> None:
    (tmp_path / "big.json").write_bytes(b"x" * 11)
    assert read_bounded(tmp_path) == "is a folder, not a file"
    assert read_bounded(tmp_path / "big.json", limit=10) == (
        "file too large: 11 bytes, the limit is 10 bytes (0 MiB)"
    )
