"""certify --site, and the copy of the spec site written beside an HTML report."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest

from fiveup.cli import main
from fiveup.cli.spec_copy import StagedSite, stage_site

# A wrong engine in process: what is tested is the report and the copy beside it, which do not
# depend on how the engine is reached (a process started for each run was half of its CPU).
WRONG = "fiveup.mutants.engines:scr2_credit_rounded_sum"
ARGS = ["certify", "--engine", WRONG, "-k", "scoring.credit"]


def certify(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main([*ARGS, *args], stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize(
    "site", ["javascript:alert(1)", "file:///etc", "/abs/path", "//host/x", "a b", "ftp://x.org"]
)
def test_spec_copy_a_site_that_is_no_http_url_or_relative_path_is_refused(
    site: str, tmp_path: Path
) -> None:
    report = tmp_path / "r.html"
    code, out, err = certify("--format", "html", "--output", str(report), "--site", site)
    assert code == 2 and out == "" and "Traceback" not in err
    assert "--site" in err and "not an http(s) URL or a relative path" in err
    assert not report.exists() and not (tmp_path / "r-spec").exists()


def test_spec_copy_site_has_a_use_only_with_an_html_report() -> None:
    code, _, err = certify("--site", "https://example.org/spec")
    assert code == 2 and "--site has a use only with --format html" in err


def test_spec_copy_a_given_site_is_linked_and_no_copy_is_written(tmp_path: Path) -> None:
    report = tmp_path / "r.html"
    code, _, _ = certify(
        "--format", "html", "--output", str(report), "--site", "https://example.org/spec/"
    )
    assert code == 1
    page = report.read_text(encoding="utf-8")
    assert 'href="https://example.org/spec/rules/SCR-2.html#SCR-2"' in page
    assert 'href="https://example.org/spec/fixtures/scoring.yaml"' in page
    assert not (tmp_path / "r-spec").exists()


def test_spec_copy_without_site_the_copy_is_written_beside_and_replaced_whole(
    tmp_path: Path,
) -> None:
    report = tmp_path / "r.html"
    for _ in range(2):  # the second run replaces the first copy
        code, _, _ = certify("--format", "html", "--output", str(report))
        assert code == 1
    page = report.read_text(encoding="utf-8")
    assert 'href="r-spec/rules/SCR-2.html#SCR-2"' in page
    assert (tmp_path / "r-spec" / "rules" / "SCR-2.html").is_file()
    assert (tmp_path / "r-spec" / "fixtures" / "scoring.yaml").is_file()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r-spec", "r.html"]  # nothing left over


def test_spec_copy_a_file_in_the_way_of_the_copy_is_refused(tmp_path: Path) -> None:
    (tmp_path / "r-spec").write_text("mine", encoding="utf-8")
    code, _, err = certify("--format", "html", "--output", str(tmp_path / "r.html"))
    assert code == 2 and "is in the way of the spec's copy" in err
    assert (tmp_path / "r-spec").read_text(encoding="utf-8") == "mine"


def test_spec_copy_a_case_of_other_fixtures_names_its_file_without_a_dead_link(
    tmp_path: Path,
) -> None:
    mine = tmp_path / "mine.yaml"
    bundled = Path(__file__).parent.parent / "fixtures" / "scoring.yaml"
    mine.write_text(bundled.read_text(encoding="utf-8"), encoding="utf-8")
    report = tmp_path / "r.html"
    code, _, _ = certify("--fixtures", str(mine), "--format", "html", "--output", str(report))
    assert code == 1
    page = report.read_text(encoding="utf-8")
    assert "mine.yaml:" in page and 'href="r-spec/fixtures/mine.yaml"' not in page
    assert 'href="r-spec/rules/SCR-2.html#SCR-2"' in page


def _site(folder: Path, text: str) -> None:
    folder.mkdir()
    (folder / "index.html").write_text(text, encoding="utf-8")


@pytest.mark.parametrize("when", [1, 2], ids=["after-the-first-rename", "after-the-second"])
def test_spec_copy_a_commit_interrupted_between_its_renames_keeps_one_whole_site(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, when: int
) -> None:
    target, fresh = tmp_path / "out-spec", tmp_path / ".out-spec.new"
    _site(target, "old")
    _site(fresh, "new")
    replace, renames = os.replace, []

    def interrupted(src: str | Path, dst: str | Path) -> None:
        replace(src, dst)
        renames.append(dst)
        if len(renames) == when:  # Ctrl-C as this rename returns
            raise KeyboardInterrupt

    monkeypatch.setattr("fiveup.cli.spec_copy.os.replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        StagedSite(target, fresh, 1, "--output", "the spec's copy").commit()
    monkeypatch.undo()
    site = (target / "index.html").read_text(encoding="utf-8")
    assert site == ("old" if when == 1 else "new")  # never none, never half of one
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out-spec"]  # nothing aside left


def test_spec_copy_a_build_interrupted_leaves_no_half_built_site(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def interrupted(*args: object, **kwargs: object) -> list[Path]:
        raise KeyboardInterrupt

    monkeypatch.setattr("fiveup.cli.spec_copy.write_site", interrupted)
    with pytest.raises(KeyboardInterrupt):
        stage_site(tmp_path / "site", "--out", "the site")
    assert list(tmp_path.iterdir()) == []
