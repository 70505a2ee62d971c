"""Fresh cases in certify: random cases beside the corpus, so a corpus lookup table fails."""

from __future__ import annotations

import io
import json
import re
import sys
from pathlib import Path

import pytest

from fiveup.cli import main

ROOT = Path(__file__).resolve().parent.parent
CHEAT = f"{sys.executable} {ROOT / 'tests' / 'engines' / 'hostile' / 'read_corpus.py'} fresh"


def certify(*args: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main(["certify", *args], stdout=out, stderr=io.StringIO())
    return code, out.getvalue()


def test_a_whole_corpus_run_plays_fresh_cases_and_prints_their_seed() -> None:
    code, out = certify()
    assert code == 0
    line = next(ln for ln in out.splitlines() if ln.startswith("fresh cases (seed "))
    assert line.endswith(": 25 passed, 0 failed, 0 errors")


def test_the_same_seed_plays_the_same_fresh_cases() -> None:
    runs = []
    for _ in range(2):
        code, out = certify("--seed", "41", "--format", "json")
        assert code == 0
        fresh = json.loads(out)["fresh"]
        assert fresh["seed"] == 41
        runs.append([case["id"] for case in fresh["cases"]])
    assert runs[0] == runs[1] and len(runs[0]) == 25
    _, out = certify("--seed", "42", "--format", "json")
    assert [c["id"] for c in json.loads(out)["fresh"]["cases"]] != runs[0]


def test_an_engine_that_copies_the_corpus_answers_fails_the_fresh_cases() -> None:
    code, out = certify("--engine-cmd", CHEAT, "-k", "tally", "--fresh", "3", "--seed", "7")
    assert code == 1
    assert "10 passed, 0 failed" in out.splitlines()[-1]  # the corpus cases it copied
    fresh = next(ln for ln in out.splitlines() if ln.startswith("fresh cases (seed 7,"))
    assert not fresh.endswith(" 0 errors") and "ERRORED: fresh.scoring.s7-" in out
    assert out.rstrip().splitlines()[-1].split(": ", 1)[1].startswith("DOES NOT CONFORM")


_CREDIT_LOOKUP = """
from fiveup.harness.corpus import load_corpus

_SEEN = {
    c.given["input"]: c.expect["value"]
    for c in load_corpus().cases
    if c.level.value == "scoring" and c.given["function"] == "credit"
}


class Engine:
    def info(self):
        return {"name": "lookup", "version": "1", "protocol": 1, "levels": [],
                "features": ["scoring.credit"]}

    def run(self, level, given):
        return {"value": _SEEN.get(given["input"], 7)}
"""


def test_an_engine_claiming_one_feature_gets_every_fresh_case_of_that_feature(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "credit_lookup.py").write_text(_CREDIT_LOOKUP, encoding="utf-8")
    monkeypatch.syspath_prepend(tmp_path)
    caught = []
    for seed in range(1, 21):  # drawn over all five functions, seed 2 gave it no credit case
        code, out = certify("--engine", "credit_lookup:Engine", "--seed", str(seed))
        fresh = next(ln for ln in out.splitlines() if ln.startswith("fresh cases (seed "))
        passed, failed = map(int, re.findall(r"(\d+) (?:passed|failed)", fresh.split(": ")[1]))
        assert passed + failed == 5 and "unsupported" not in fresh, (seed, fresh)
        assert (code == 1) is (failed > 0) is ("FAILED: fresh.scoring." in out), seed
        caught.append(failed > 0)
    # 18 of the 61 sums it is asked about are in the corpus: seed 2 drew five of them
    assert caught.count(False) == 1


def test_a_wrong_engine_fails_fresh_cases_too() -> None:
    wrong = f"{sys.executable} -m fiveup engine --mutant scr2_credit_rounded_sum"
    code, out = certify("--engine-cmd", wrong, "-k", "credit-15", "--fresh", "5", "--seed", "3")
    assert code == 1
    assert "fresh cases (seed 3" in out and "FAILED: fresh." in out
    assert "rerun: fiveup certify --engine-cmd" in out and " --seed 3\n" in out


@pytest.mark.parametrize("args", [["-k", "credit"], ["--fresh", "0"]])
def test_no_fresh_cases_on_a_selection_or_when_turned_off(args: list[str]) -> None:
    code, out = certify(*args)
    assert code == 0 and "fresh cases" not in out


def test_an_engine_right_only_on_the_corpus_fails_with_an_empty_baseline(tmp_path: Path) -> None:
    empty = tmp_path / "none.yaml"
    empty.write_text("# no known failures\n", encoding="utf-8")
    badge = tmp_path / "badge.json"
    code, out = certify(
        "--engine-cmd", CHEAT, "--expected-failures", str(empty), "--badge", str(badge)
    )
    assert code == 1
    assert "ERRORED: fresh." in out
    assert out.rstrip().splitlines()[-1].split(": ", 1)[1].startswith("DOES NOT CONFORM")
    assert json.loads(badge.read_text(encoding="utf-8"))["color"] == "red"


@pytest.mark.parametrize("count", ["1001", str(10**12)])
def test_fresh_is_bounded(count: str) -> None:
    out, err = io.StringIO(), io.StringIO()
    code = main(["certify", "--fresh", count], stdout=out, stderr=err)
    assert code == 2 and out.getvalue() == ""
    assert f"--fresh: {count} is out of range: from 0 to 1,000" in err.getvalue()
