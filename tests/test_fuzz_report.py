"""A campaign's JSON report, and K shard reports merged into the whole campaign's."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path
from typing import Any

import pytest

from fiveup.cli import main

ROOT = Path(__file__).resolve().parent.parent
WRONG = "fiveup.mutants.engines:pen2_remainder_three_rounds_down"
CAMPAIGN = ("fuzz", "--engine", WRONG, "--rounds", "90", "--seed", "5", "--keep", "2")
TIMINGS = ("seconds", "cases_per_second", "rounds_per_second")


@pytest.fixture(autouse=True)
def _at_the_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)


def fiveup(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(args), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def _untimed(report: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in report.items() if key not in TIMINGS}


@pytest.fixture(scope="module")
def shards(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], list[Path]]:
    """The whole campaign's report, and the files of its three shards' reports."""
    folder = tmp_path_factory.mktemp("shards")
    out = str(folder / "found")
    old = Path.cwd()
    try:
        os.chdir(ROOT)
        code, text, err = fiveup(*CAMPAIGN, "--out", out, "--format", "json")
        assert code == 1, err
        files = []
        for i in range(3):
            code, part, err = fiveup(
                *CAMPAIGN, "--out", out, "--shard", f"{i}/3", "--format", "json"
            )
            assert code in (0, 1), err
            files.append(folder / f"shard-{i}.json")
            files[-1].write_text(part, encoding="utf-8")
    finally:
        os.chdir(old)
    return json.loads(text), files


def test_three_shards_merge_into_the_whole_campaigns_report(
    shards: tuple[dict[str, Any], list[Path]],
) -> None:
    whole, files = shards
    assert whole["divergences"] and len({d["kind"] for d in whole["divergences"]}) >= 1
    assert any(d["file"] is None for d in whole["divergences"]), "--keep 2 leaves some unwritten"
    parts = [json.loads(f.read_text(encoding="utf-8")) for f in files]
    assert sorted(p["shard"] for p in parts) == ["0/3", "1/3", "2/3"]
    assert sum(p["cases"] for p in parts) == whole["cases"] == 90
    code, text, err = fiveup("fuzz", "--merge", *map(str, reversed(files)), "--format", "json")
    assert code == 1, err
    merged = json.loads(text)
    assert _untimed(merged) == _untimed(whole)
    assert merged["seconds"] == max(p["seconds"] for p in parts)


def test_shards_over_a_mebibyte_each_merge_as_they_are(
    shards: tuple[dict[str, Any], list[Path]], tmp_path: Path
) -> None:
    whole, files = shards
    padded = []
    for number, file in enumerate(files):  # a shard of many divergences: 1.2 MB and more
        text = file.read_text(encoding="utf-8")
        padded.append(tmp_path / f"big-{number}.json")
        padded[-1].write_text("{" + " " * 1_200_000 + text[1:], encoding="utf-8")
    code, text, err = fiveup("fuzz", "--merge", *map(str, padded), "--format", "json")
    assert code == 1, err
    assert _untimed(json.loads(text)) == _untimed(whole)


def test_the_merged_text_report_is_the_whole_campaigns(
    shards: tuple[dict[str, Any], list[Path]],
) -> None:
    whole, files = shards
    code, text, _ = fiveup("fuzz", "--merge", *map(str, files))
    assert code == 1
    lines = text.splitlines()
    kinds = {d["kind"] for d in whole["divergences"]}
    assert sum(" of kind " in line for line in lines) == len(kinds)
    assert lines[-1].startswith("seed 5: 90 cases in ")
    assert lines[-1].endswith(f"{len(whole['divergences'])} divergences of {len(kinds)} kinds")


def test_the_merged_text_report_prints_a_report_s_words_escaped(
    shards: tuple[dict[str, Any], list[Path]], tmp_path: Path
) -> None:
    _, files = shards
    report = json.loads(files[0].read_text(encoding="utf-8"))
    hostile = report["divergences"][0]
    for key in ("rule", "first_difference", "file"):
        hostile[key] = f"{key}\x1b[2J\x07\x9b"
    for row in report["divergences"]:
        row["kind"] = "kind\x1b]0;title\x07"
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps(report), encoding="utf-8")
    code, text, err = fiveup("fuzz", "--merge", str(edited), *map(str, files[1:]))
    assert code == 1, err
    assert f"DIVERGES: {hostile['case']} (rule\\x1b[2J\\x07\\x9b): first_difference\\x1b[2J" in text
    assert "-> file\\x1b[2J\\x07\\x9b" in text and " of kind kind\\x1b]0;title\\x07" in text
    assert all(line.isprintable() for line in text.splitlines()), text


def _edited(files: list[Path], tmp_path: Path, key: str, value: object) -> list[str]:
    report = json.loads(files[1].read_text(encoding="utf-8"))
    report[key] = value
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps(report), encoding="utf-8")
    return [str(files[0]), str(edited), str(files[2])]


@pytest.mark.parametrize(
    ("key", "value", "words"),
    [
        ("seed", 6, "another campaign"),
        ("suite", "0.9.0", "another campaign"),
        ("engine", "reference", "another campaign"),
        ("rounds", 91, "another campaign"),
        ("keep", None, "another campaign"),
        ("shard", "1/4", "is not one of 3 shards"),
        ("shard", "0/3", "shard 0/3 again"),
        ("shard", "7", "not a shard"),
        ("shard", " 01/3", "shard ' 01/3' is not written as fiveup fuzz writes it (1/3)"),
        ("by_level", {"layout": 40, "scoring": -10}, "'by_level' counts -10 for scoring"),
        ("cases", "many", "wrong type"),
        ("cases", -4, "-4 cases in shard 1/3 of a campaign of 90"),
        ("cases", 10**40, "... cases in shard 1/3 of a campaign of 90"),
        ("seconds", -1.0, "'seconds' is -1.0"),
        ("by_level", {"layout": 1}, "'by_level' counts 1 cases, not 30"),
        ("by_level", {"layout": 40, "bogus": -10}, "'by_level' names no level 'bogus'"),
        ("round_cases", 10**6, "'round_cases' is 1000000, not the round level's count"),
        ("engine", "x" * 100_000, "xxxxxxxx..., not 'fiveup.mutants.engines:pen2_rem"),
    ],
)
def test_shards_of_other_campaigns_are_refused(
    shards: tuple[dict[str, Any], list[Path]], tmp_path: Path, key: str, value: object, words: str
) -> None:
    _, files = shards
    code, out, err = fiveup("fuzz", "--merge", *_edited(files, tmp_path, key, value))
    assert code == 2 and out == ""
    assert err.startswith("fiveup fuzz: error: --merge ") and words in err, err


def test_a_missing_or_repeated_shard_is_refused(shards: tuple[dict[str, Any], list[Path]]) -> None:
    _, files = shards
    code, _, err = fiveup("fuzz", "--merge", str(files[0]), str(files[2]))
    assert code == 2 and "shards missing: 1/3" in err
    code, _, err = fiveup("fuzz", "--merge", *map(str, files), str(files[1]))
    assert code == 2 and "shard 1/3 again" in err


@pytest.mark.parametrize(
    ("edit", "words"),
    [
        ({"index": 0}, "divergence at case 0: not a case of shard 1/3, or listed twice"),
        ({"index": 91}, "divergence at case 91: not a case of shard 1/3"),
        ({"index": -2}, "divergence at case -2: not a case of shard 1/3"),
        ({"status": "pass"}, "level 'round', status 'pass'"),
        ({"level": "bogus"}, "level 'bogus'"),
        ({"file": 7}, "'file' is 7"),
        ({"case": "fuzz.round.s999-12345"}, "its case is 'fuzz.round.s999-12345', not the camp"),
        ({"level": "moves"}, "its case is 'fuzz.round.s5-"),
    ],
)
def test_a_divergence_that_no_campaign_can_give_is_refused(
    shards: tuple[dict[str, Any], list[Path]], tmp_path: Path, edit: dict[str, Any], words: str
) -> None:
    _, files = shards
    report = json.loads(files[1].read_text(encoding="utf-8"))
    assert report["divergences"], "shard 1/3 of the campaign finds divergences"
    first = report["divergences"][0]
    row = {**first, "level": "round", "case": f"fuzz.round.s5-{first['index']}", **edit}
    report["divergences"] = [row, *report["divergences"][1:]]
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps(report), encoding="utf-8")
    code, out, err = fiveup("fuzz", "--merge", str(files[0]), str(edited), str(files[2]))
    assert code == 2 and out == ""
    assert err.startswith(f"fiveup fuzz: error: --merge {edited}: not a fuzz report: "), err
    assert words in err, err


def test_a_divergence_listed_twice_or_more_divergences_than_cases_are_refused(
    shards: tuple[dict[str, Any], list[Path]], tmp_path: Path
) -> None:
    _, files = shards
    report = json.loads(files[1].read_text(encoding="utf-8"))
    report["divergences"] = [report["divergences"][0]] * 2
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps(report), encoding="utf-8")
    code, _, err = fiveup("fuzz", "--merge", str(files[0]), str(edited), str(files[2]))
    assert code == 2 and "or listed twice" in err, err
    interrupted = json.loads(files[1].read_text(encoding="utf-8"))
    interrupted.update(cases=0, round_cases=0, by_level={}, interrupted=True)
    edited.write_text(json.dumps(interrupted), encoding="utf-8")
    code, _, err = fiveup("fuzz", "--merge", str(files[0]), str(edited), str(files[2]))
    assert code == 2 and "divergences among 0 cases" in err, err


@pytest.mark.parametrize(
    ("key", "value", "words"),
    [
        ("keep", 0, "'keep' is 0 (a number of files from 1, or null for every one)"),
        ("keep", "all", "'keep' is 'all'"),
        ("players", 7, "'players' is 7 (2, 3, 4 or null)"),
        (
            "levels",
            ["round", "bogus"],
            "'levels' is ['round', 'bogus'] (level names, each once, or null)",
        ),
        ("levels", [], "'levels' is []"),
        ("levels", ["round", "round"], "'levels' is ['round', 'round'] (level names, each once"),
        ("levels", ["round"], "'by_level' names no level 'layout' of the campaign"),
        ("seed", 2**63, "'seed' is 9223372036854775808 (a seed of fiveup fuzz --seed)"),
        ("rounds", -3, "'rounds' is -3"),
        ("rounds", 2**63, "'rounds' is 9223372036854775808 (a number of cases from 0, less"),
        # past a float's range (an OverflowError traceback), or a rate JSON cannot write
        ("seconds", 10**400, "'seconds' is 1000000000000000000000000000000000000..."),
        ("seconds", 1e-320, "'seconds' is 1e-320 (0, or from 1e-9 to 1e9)"),
        ("seconds", 1e300, "'seconds' is 1e+300"),
    ],
)
def test_a_campaign_that_fiveup_fuzz_cannot_run_is_refused(
    shards: tuple[dict[str, Any], list[Path]], tmp_path: Path, key: str, value: object, words: str
) -> None:
    _, files = shards
    edited = []
    for number, file in enumerate(files):  # every shard alike: they belong together
        report = json.loads(file.read_text(encoding="utf-8"))
        report[key] = value
        edited.append(tmp_path / f"edited-{number}.json")
        edited[-1].write_text(json.dumps(report), encoding="utf-8")
    code, out, err = fiveup("fuzz", "--merge", *map(str, edited))
    assert code == 2 and out == ""
    assert err.startswith(f"fiveup fuzz: error: --merge {edited[0]}: not a fuzz report: "), err
    assert words in err, err
