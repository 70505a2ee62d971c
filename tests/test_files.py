"""Writing an output whole or not at all (fiveup.harness.files)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from fakes import disk_full_at

from fiveup.harness.files import write_together, write_whole


def test_write_whole_writes_text_as_utf8_and_bytes_as_they_are(tmp_path: Path) -> None:
    write_whole(tmp_path / "a.txt", "Gutschrift für das Anlegen\n")
    write_whole(tmp_path / "b.bin", b"\x00\xff")
    assert (tmp_path / "a.txt").read_bytes() == "Gutschrift für das Anlegen\n".encode()
    assert (tmp_path / "b.bin").read_bytes() == b"\x00\xff"


def test_write_whole_replaces_a_planted_link_instead_of_writing_through_it(tmp_path: Path) -> None:
    victim = tmp_path / "victim"
    victim.write_text("keep", encoding="utf-8")
    (tmp_path / "report.txt").symlink_to(victim)
    write_whole(tmp_path / "report.txt", "new")
    assert victim.read_text(encoding="utf-8") == "keep"
    assert not (tmp_path / "report.txt").is_symlink()
    assert (tmp_path / "report.txt").read_text(encoding="utf-8") == "new"


def test_write_whole_makes_an_ordinary_file_under_the_umask(tmp_path: Path) -> None:
    old = os.umask(0o027)
    try:
        write_whole(tmp_path / "out", "x")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "out").stat().st_mode) == 0o640


def test_write_whole_keeps_the_permissions_of_a_file_it_writes_again(tmp_path: Path) -> None:
    private = tmp_path / "report.json"
    private.write_text("old", encoding="utf-8")
    private.chmod(0o600)
    shared = tmp_path / "badge.json"
    shared.write_text("old", encoding="utf-8")
    shared.chmod(0o664)
    old = os.umask(0o022)
    try:
        write_whole(private, "new")
        write_whole(shared, "new")
    finally:
        os.umask(old)
    assert stat.S_IMODE(private.stat().st_mode) == 0o600  # not 0o644: a private report stays so
    assert stat.S_IMODE(shared.stat().st_mode) == 0o664
    assert private.read_text(encoding="utf-8") == "new"


def test_write_whole_leaves_nothing_when_the_rename_fails(tmp_path: Path) -> None:
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "inside").write_text("a folder is not replaced", encoding="utf-8")
    with pytest.raises(OSError):
        write_whole(tmp_path / "out", "x")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]  # no temporary file left


def test_write_together_replaces_no_file_when_one_cannot_be_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    report, badge = tmp_path / "report.txt", tmp_path / "badge.json"
    report.write_text("old report", encoding="utf-8")
    disk_full_at(monkeypatch, badge)
    with pytest.raises(OSError) as refused:
        write_together([(report, "new report"), (badge, "{}")])
    assert refused.value.filename == str(badge)
    assert report.read_text(encoding="utf-8") == "old report"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.txt"]  # no temporary file


def test_write_together_puts_back_the_files_renamed_before_a_rename_that_fails(
    tmp_path: Path,
) -> None:
    report, badge, site = tmp_path / "report.txt", tmp_path / "badge.json", tmp_path / "site"
    report.write_text("old report", encoding="utf-8")
    report.chmod(0o600)
    site.mkdir()  # a folder at an output's name: its rename fails, after the first two
    with pytest.raises(OSError) as refused:
        write_together([(report, "new report"), (badge, "{}"), (site, "x")])
    assert refused.value.filename == str(site)
    assert report.read_text(encoding="utf-8") == "old report"
    assert stat.S_IMODE(report.stat().st_mode) == 0o600
    assert not badge.exists()  # it was not there before: it is not there after
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.txt", "site"]


def test_write_together_puts_back_a_replaced_link_as_the_link_it_was(tmp_path: Path) -> None:
    victim = tmp_path / "victim"
    victim.write_text("keep", encoding="utf-8")
    (tmp_path / "report.txt").symlink_to(victim)
    (tmp_path / "site").mkdir()
    with pytest.raises(OSError):
        write_together([(tmp_path / "report.txt", "new"), (tmp_path / "site", "x")])
    assert (tmp_path / "report.txt").is_symlink()
    assert os.readlink(tmp_path / "report.txt") == str(victim)
    assert victim.read_text(encoding="utf-8") == "keep"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.txt", "site", "victim"]


def test_write_together_puts_back_what_it_renamed_when_interrupted_among_the_renames(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, second = tmp_path / "first.txt", tmp_path / "second.txt"
    first.write_text("old first", encoding="utf-8")
    second.write_text("old second", encoding="utf-8")
    replace = os.replace
    interrupted: list[Path | str] = []

    def interrupted_after_second(src: str, dst: Path | str) -> None:
        replace(src, dst)
        if Path(dst) == second and not interrupted:  # Ctrl-C as the rename returns
            interrupted.append(dst)
            raise KeyboardInterrupt

    monkeypatch.setattr("fiveup.harness.files.os.replace", interrupted_after_second)
    with pytest.raises(KeyboardInterrupt):
        write_together([(first, "new first"), (second, "new second")])
    monkeypatch.undo()
    assert first.read_text(encoding="utf-8") == "old first"
    assert second.read_text(encoding="utf-8") == "old second"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["first.txt", "second.txt"]


def test_write_together_copies_an_old_file_no_hard_link_can_keep(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    report = tmp_path / "report.txt"
    report.write_text("old report", encoding="utf-8")
    (tmp_path / "site").mkdir()

    def no_hard_links(*args: object, **kwargs: object) -> None:
        raise OSError(1, "Operation not permitted")

    monkeypatch.setattr("fiveup.harness.files.os.link", no_hard_links)
    with pytest.raises(OSError):
        write_together([(report, "new report"), (tmp_path / "site", "x")])
    assert report.read_text(encoding="utf-8") == "old report"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.txt", "site"]


def test_write_together_leaves_no_kept_file_after_it_succeeds(tmp_path: Path) -> None:
    report, badge = tmp_path / "report.txt", tmp_path / "badge.json"
    report.write_text("old report", encoding="utf-8")
    write_together([(report, "new report"), (badge, "{}")])
    assert report.read_text(encoding="utf-8") == "new report"
    assert badge.read_text(encoding="utf-8") == "{}"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["badge.json", "report.txt"]
