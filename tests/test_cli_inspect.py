"""``fiveup list``, ``fiveup show`` and ``fiveup compare``: looking at cases and at two runs."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from fiveup.cli import main
from fiveup.harness.corpus import load_corpus


def run(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(args), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_list_prints_id_level_primary_rule_and_title() -> None:
    code, out, _ = run("list", "-k", "credit-15")
    assert code == 0
    lines = out.splitlines()
    assert lines[-1] == "1 cases"
    assert lines[0].split()[:3] == ["doc.scoring.credit-15", "scoring", "SCR-2"]
    code, out, _ = run("list", "--format", "json")
    rows = json.loads(out)
    assert len(rows) == len(load_corpus().cases)
    assert {
        "id",
        "level",
        "primary_rule",
        "title",
    } <= set(rows[0])
    assert sum("optional" in row["tags"] for row in rows) == 10


def test_list_decision_lists_the_cases_that_depend_on_it() -> None:
    code, out, _ = run("list", "--decision", "OQ-6", "--format", "json")
    assert code == 0
    rows = json.loads(out)
    assert [row["id"] for row in rows] == ["rule.match.tie-break-round-leaves-everyone-below"]
    assert "OQ-6" in rows[0]["decisions"]
    code, out, _ = run("list", "--decision", "OQ-6", "--decision", "OQ-20", "-k", "match")
    assert code == 0 and out.splitlines()[-1] == "2 cases"
    code, out, err = run("list", "--decision", "OQ-60")
    assert code == 2 and not out
    assert "--decision OQ-60: not an open question" in err and "did you mean OQ-6" in err


def test_show_prints_the_case_and_its_table() -> None:
    code, out, _ = run("show", "doc.layout.branches-1-2")
    assert code == 0
    assert out.startswith("doc.layout.branches-1-2: ")
    assert "given:\n  placements:" in out and "expect:\n  steps:" in out
    assert "the table, as expected:" in out
    assert "  placed: [1|4]  [1|1]@[1|4]:low  [4|4]@[1|4]:high" in out


def test_show_request_is_the_line_the_harness_sends_and_an_engine_answers_it() -> None:
    code, out, _ = run("show", "doc.scoring.credit-15", "--request")
    assert code == 0
    assert (
        out == '{"cmd":"run","seq":1,"level":"scoring","given":{"function":"credit","input":15}}\n'
    )
    served = subprocess.run(
        [sys.executable, "-m", "fiveup", "engine"],
        input='{"cmd":"start","protocol":1}\n' + out,
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(served.stdout.splitlines()[1]) == {"seq": 1, "observation": {"value": 15}}


def test_a_mistyped_case_id_gets_suggestions() -> None:
    code, out, err = run("show", "doc.scoring.credit-16")
    assert code == 2 and out == ""
    assert "no case 'doc.scoring.credit-16'" in err and "doc.scoring.credit-15" in err


WRONG = "fiveup.mutants.engines:pen2_remainder_three_rounds_down"
"""A wrong engine in process: compare reads reports, which do not depend on how the engine was
reached (a process for the whole corpus cost more than the certify run itself)."""


def _report(tmp_path: Path, name: str, engine: list[str]) -> Path:
    target = tmp_path / name
    run("certify", *engine, "--format", "json", "--output", str(target))
    return target


def test_compare_names_new_failures_and_fixed_cases(tmp_path: Path) -> None:
    good = _report(tmp_path, "good.json", [])
    bad = _report(tmp_path, "bad.json", ["--engine", WRONG])
    code, out, _ = run("compare", str(good), str(bad), "--allow-different")
    assert code == 1
    assert out.startswith("comparing unlike runs (--allow-different): engine fiveup-reference ")
    assert out.splitlines()[1].startswith("NEW FAILURES (")
    assert "doc.scoring.penalty-3  pass -> fail: /value: expected 5, got 0" in out
    assert out.rstrip().splitlines()[-1].endswith("unchanged")
    code, out, _ = run("compare", str(bad), str(good), "--allow-different")
    assert code == 0 and out.splitlines()[1].startswith("fixed (")
    code, out, _ = run("compare", str(good), str(good), "--format", "json")
    assert code == 0 and json.loads(out)["new_failures"] == []


def _renamed(report: Path, target: Path, **changes: object) -> Path:
    """``report`` with its engine's name, suite or corpus digest changed."""
    data = json.loads(report.read_text(encoding="utf-8"))
    if "name" in changes:
        data["engine"]["name"] = changes["name"]
    if "suite" in changes:
        data["suite"] = changes["suite"]
    if "digest" in changes:
        data["corpus"]["digest"] = changes["digest"]
    target.write_text(json.dumps(data), encoding="utf-8")
    return target


def test_compare_refuses_reports_of_another_engine_suite_or_corpus(tmp_path: Path) -> None:
    good = _report(tmp_path, "good.json", ["-k", "credit-1"])
    for change, words in (
        ({"name": "other-engine"}, "engine fiveup-reference against other-engine"),
        ({"suite": "0.9.0"}, "suite version "),
        ({"digest": "0000"}, "corpus "),
    ):
        other = _renamed(good, tmp_path / "other.json", **change)
        code, out, err = run("compare", str(good), str(other))
        assert code == 2 and out == "", change
        assert f"{good} and {other} are not runs of alike things (" in err, change
        assert words in err and "--allow-different" in err and len(err.splitlines()) == 1
        assert "Traceback" not in err
        code, out, _ = run("compare", str(good), str(other), "--allow-different")
        assert code == 0 and out.startswith("comparing unlike runs (--allow-different): ")
        code, out, _ = run(
            "compare", str(good), str(other), "--allow-different", "--format", "json"
        )
        assert code == 0 and json.loads(out)["unlike"] == [err.split("(", 1)[1].split(")")[0]]


def test_compare_refuses_a_new_run_that_left_out_cases_of_the_corpus(tmp_path: Path) -> None:
    good = _report(tmp_path, "good.json", [])
    bad = _report(tmp_path, "bad.json", ["--engine", WRONG])
    bad_named = _renamed(good, tmp_path / "old.json", name=f"mutant-{WRONG.split(':')[1]}")
    selected = _report(tmp_path, "selected.json", ["--engine", WRONG, "-k", "scoring"])
    code, out, _ = run("compare", str(bad_named), str(bad))
    assert code == 1 and "NEW FAILURES (" in out  # the whole corpus: its failures are named
    code, out, err = run("compare", str(bad_named), str(selected))
    assert code == 2 and out == ""  # its absences would have hidden the failures
    assert "cases: the new run has no result for " in err and "--allow-different" in err
    code, out, _ = run("compare", str(bad_named), str(selected), "--allow-different")
    assert code in (0, 1) and out.startswith("comparing unlike runs (--allow-different): cases")


def test_compare_of_a_new_version_of_the_same_engine_speaks_as_certify(tmp_path: Path) -> None:
    bad = _report(tmp_path, "bad.json", ["--engine", WRONG, "-k", "penalty"])
    good = _renamed(
        _report(tmp_path, "good.json", ["-k", "penalty"]),
        tmp_path / "good.json",
        name="mutant-pen2_remainder_three_rounds_down",
    )
    data = json.loads(bad.read_text(encoding="utf-8"))
    failing = [c for c in data["cases"] if c["status"] == "fail"]
    failing[0]["differences"] = [
        {"path": "/value", "expected": 5, "actual": "<missing>", "note": "", "rule": "PEN-2"}
    ]
    for other in failing[1:]:  # one new failure, the others as they were (each case is kept)
        other.update(status="pass", verdict="passed", differences=[], message="")
    bad.write_text(json.dumps(data), encoding="utf-8")
    code, out, _ = run("compare", str(good), str(bad))
    assert code == 1
    assert out.startswith("NEW FAILURES (1):\n")
    assert f"{failing[0]['id']}  pass -> fail: /value: expected 5, got nothing\n" in out
    last = out.rstrip().splitlines()[-1]
    assert last.startswith("1 new failure, 0 fixed, 0 failing differently, ")
    assert "<missing>" not in out


def test_compare_refuses_what_is_not_a_report(tmp_path: Path) -> None:
    junk = tmp_path / "junk.json"
    junk.write_text('{"cases": "no"}', encoding="utf-8")
    code, _, err = run("compare", str(junk), str(junk))
    assert code == 2 and "not a report of 'fiveup certify --format json'" in err
    code, _, err = run("compare", str(tmp_path / "missing.json"), str(junk))
    assert code == 2 and "cannot read" in err


GOOD_CASES: list[dict[str, object]] = [
    {"id": "doc.scoring.credit-15", "status": "pass"},
    {"id": "doc.scoring.credit-16", "status": "fail", "differences": [{"path": "/value"}]},
]


@pytest.mark.parametrize(
    ("edit", "words"),
    [
        ({"id": "doc.scoring.credit-15"}, "case 2: doc.scoring.credit-15 is listed twice"),
        ({"id": "Not An Id"}, "case 2: 'Not An Id' is not a case ID"),
        ({"id": "doc.x\n"}, "is not a case ID"),
        ({"id": "x" * 10_000}, "case 2: '" + "x" * 60 + "' is not a case ID"),
        ({"id": "doc." + "x" * 200}, "case 2: 'doc." + "x" * 56 + "' is not a case ID"),
        ({"status": "passed"}, "case 2 (doc.scoring.credit-16): no status 'passed'"),
        ({"differences": "none"}, "'differences' is not a list of differences"),
        ({"differences": [1]}, "'differences' is not a list of differences"),
        ({"message": 5}, "'message' is not text"),
    ],
)
def test_compare_refuses_a_report_whose_cases_no_run_of_certify_gives(
    tmp_path: Path, edit: dict[str, object], words: str
) -> None:
    good, bad = tmp_path / "good.json", tmp_path / "bad.json"
    good.write_text(json.dumps({"cases": GOOD_CASES}), encoding="utf-8")
    bad.write_text(json.dumps({"cases": [GOOD_CASES[0], {**GOOD_CASES[1], **edit}]}), "utf-8")
    assert run("compare", str(good), str(good))[0] == 0
    code, out, err = run("compare", str(good), str(bad))
    assert (code, out) == (2, "")
    assert err.startswith(f"fiveup compare: error: {bad}: not a report of 'fiveup certify"), err
    assert words in err and len(err) < 300, err


def test_show_names_the_decisions_a_case_depends_on() -> None:
    code, out, _ = run("show", "rule.match.tie-break-round-leaves-everyone-below")
    assert code == 0
    assert "\ndepends on the decisions of: " in out
    line = next(x for x in out.splitlines() if x.startswith("depends on the decisions of: "))
    assert "OQ-6" in line.split(": ", 1)[1].split(", ")
    code, out, _ = run("show", "doc.scoring.credit-15")
    assert code == 0 and "depends on the decisions of" not in out


def test_list_refuses_a_selection_that_matches_no_case_as_certify_does() -> None:
    for words in (["-k", "no-such-case"], ["-k", "layout", "--decision", "OQ-6"]):
        code, out, err = run("list", *words)
        assert (code, out) == (2, "")
        assert err == f"fiveup list: error: {' '.join(words)}: no case matches the selection\n"
    code, _, err = run("certify", "-k", "no-such-case")
    said = "fiveup certify: error: -k no-such-case: no case matches the selection\n"
    assert (code, err) == (2, said)
    code, _, err = run("list", "-k", "x" * 5000)
    assert code == 2 and len(err) < 200


def test_compare_prints_a_report_s_words_escaped_and_clipped(tmp_path: Path) -> None:
    good, bad = tmp_path / "good.json", tmp_path / "bad.json"
    good.write_text(json.dumps({"cases": GOOD_CASES[:1]}), encoding="utf-8")
    hostile = [
        {
            "id": "doc.scoring.credit-15",
            "status": "fail",
            "message": "\x1b[2J\x9b31m" + "y" * 9_000,
        },
        {
            "id": "doc.scoring.credit-16",
            "status": "fail",
            "differences": [
                {"path": "/v\x1b[31m", "expected": "\x07", "actual": "x" * 10_000, "note": "\r"}
            ],
        },
    ]
    bad.write_text(json.dumps({"cases": hostile}), encoding="utf-8")
    code, out, _ = run("compare", str(good), str(bad))
    assert code == 1
    assert "doc.scoring.credit-15  pass -> fail: \\x1b[2J\\x9b31myyy" in out, out
    assert "y... (8508 more characters not shown)" in out, out
    assert "absent -> fail: /v\\x1b[31m: expected \\x07, got xxx" in out, out
    assert all(line.isprintable() and len(line) < 700 for line in out.splitlines()), out


def test_compare_of_unlike_runs_prints_the_reports_names_escaped_and_as_json(
    tmp_path: Path,
) -> None:
    good = tmp_path / "good.json"
    good.write_text(json.dumps({"cases": GOOD_CASES[:1], "suite": "1"}), encoding="utf-8")
    for name, suite, shown in (
        ("\x1b[2J\ud800", "1", "engine an unknown engine against \\x1b[2J\\ud800"),
        (None, {"a": [True, None]}, 'suite version 1 against {"a": [true, null]}'),
    ):
        other = tmp_path / "other.json"
        data = {"cases": GOOD_CASES[:1], "suite": suite, "engine": {"name": name}}
        other.write_text(json.dumps(data), encoding="utf-8")
        code, out, err = run("compare", str(good), str(other), "--allow-different")
        assert code == 0 and err == "", err  # the lone surrogate crashed the write, ESC went raw
        assert out.splitlines()[0] == f"comparing unlike runs (--allow-different): {shown}"


def test_list_and_show_escape_what_a_title_or_description_may_hold_unprintable(
    tmp_path: Path,
) -> None:
    path = tmp_path / "bidi.yaml"
    path.write_text(
        'cases:\n  - id: t.scoring.bidi\n    title: "pay \u202e51 tiderc\u202c now"\n'
        '    description: "first\\u2066 line\\nsecond \u200b line"\n    rules: [SCR-2]\n'
        '    provenance: {source: derived, note: "te\u202est"}\n    level: scoring\n'
        "    given: {function: credit, input: 15}\n    expect: {value: 15}\n",
        encoding="utf-8",
    )
    for args in (["list"], ["show", "t.scoring.bidi"]):
        code, out, err = run(*args, "--fixtures", str(path))
        assert code == 0, err
        assert "pay \\u202e51 tiderc\\u202c now" in out, out
        assert all(line.isprintable() for line in out.splitlines()), out
    assert "  first\\u2066 line\n  second \\u200b line\n" in out, out
    assert "note: te\\u202est" in out, out  # PyYAML writes U+202E as it is


@pytest.mark.parametrize("command", ["certify", "list", "mutants"])
def test_an_empty_k_is_refused_not_read_as_every_case(command: str) -> None:
    code, out, err = run(command, "-k", "")  # -k "$PATTERN" with PATTERN unset
    assert (code, out) == (2, "") and "-k is empty" in err


def test_certify_names_the_option_of_a_selection_or_baseline_it_refuses(tmp_path: Path) -> None:
    assert "error: --case 'x': no such case in the corpus" in run("certify", "--case", "x")[2]
    said = run("certify", "--expected-failures", str(tmp_path / "none.yaml"))[2]
    assert said.startswith(f"fiveup certify: error: --expected-failures {tmp_path}/none.yaml: ")
