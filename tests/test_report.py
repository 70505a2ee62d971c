"""Reports: the text report names every failure with a rerun command; JSON and JUnit parse."""

from __future__ import annotations

import html
import json
import os
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from fiveup.contract.engine import Level
from fiveup.harness.certify import Outcome, Run, Verdict, certify
from fiveup.harness.corpus import Case, Corpus, load_corpus
from fiveup.harness.expectations import baseline_text
from fiveup.harness.report import (
    json_report,
    junit_report,
    known_reason,
    layout_text,
    report_model,
    score_tallies,
    shell_join,
    tally_of,
    text_report,
)
from fiveup.harness.runner import CaseResult, Difference, Status
from fiveup.harness.spec_index import spec_rules, spec_text
from fiveup.mutants import mutant_named


def make_case(case_id: str, level: Level, rules: tuple[str, ...]) -> Case:
    return Case(
        id=case_id,
        title=f"title of {case_id}",
        rules=rules,
        level=level,
        given={},
        expect={},
        provenance={},
        description="",
        file="fixtures/x.yaml",
        line=7,
    )


PASS = Outcome(
    CaseResult(make_case("a.pass", Level.SCORING, ("SCR-2",)), Status.PASS), Verdict.PASSED
)
FAIL = Outcome(
    CaseResult(
        make_case("a.fail", Level.LAYOUT, ("CNT-5", "SPN-2")),
        Status.FAIL,
        (Difference("/layout/sum", 5, 6),),
        "1 difference(s)",
        {"layout": {"tiles": ["[1|4]", "[1|1]"], "connections": [["[1|4]:low", "[1|1]:line-a"]]}},
    ),
    Verdict.FAILED,
)
ERROR = Outcome(
    CaseResult(
        make_case("a.error", Level.ROUND, ("DRW-1",)),
        Status.ERROR,
        message="the engine did not answer within 10 s",
    ),
    Verdict.ERRORED,
)
XPASS = Outcome(
    CaseResult(make_case("a.xpass", Level.SCORING, ("PEN-2",)), Status.PASS),
    Verdict.XPASSED,
    "rounds 3 down",
)
SKIP = Outcome(
    CaseResult(
        make_case("a.skip", Level.MATCH, ("MAT-2",)),
        Status.UNSUPPORTED,
        message="the engine does not declare the level 'match'",
    ),
    Verdict.UNSUPPORTED,
)
ALL = (PASS, FAIL, ERROR, XPASS, SKIP)
INFO = {"name": "eng", "version": "2.1", "protocol": 1, "levels": ["scoring", "layout", "round"]}


def make_run(outcomes: tuple[Outcome, ...] = ALL) -> Run:
    corpus = Corpus(tuple(o.result.case for o in outcomes), "abc123", ("fixtures/x.yaml",))
    return Run(INFO, "", corpus, outcomes)  # type: ignore[arg-type]


def test_text_report_names_engine_corpus_counts_and_each_failure() -> None:
    text = text_report(make_run(), ["--engine", "eng"])
    assert "engine: eng 2.1 (protocol 1, levels scoring, layout, round)" in text
    assert "corpus: abc123 (5 cases in 1 files)" in text
    assert "by level    cases  passed  failed  errors  known  stale  unsupported" in text
    assert "  layout        1       0       1       0      0      0            0" in text
    assert (
        "  CNT           1       0       1       0      0      0            0  connection" in text
    )
    assert "FAILED: a.fail  (fixtures/x.yaml:7)" in text
    assert "  /layout/sum: expected 5, got 6" in text
    assert "  engine's layout: [1|4] [1|1]@[1|4]:low" in text
    assert "  rerun: fiveup certify --engine eng --case a.fail" in text
    assert "ERRORED: a.error" in text and "did not answer within 10 s" in text
    assert "but it passes now" in text
    assert "unsupported (1): the engine does not declare the level 'match'" in text
    assert text.rstrip().endswith(
        "1 passed, 1 failed, 1 errors, 1 unsupported, 0 expected failures, "
        "1 unexpectedly passing: DOES NOT CONFORM at levels scoring, layout, round "
        "(not claimed: match, moves)"
    )


def test_a_case_block_quotes_the_rule_it_is_counted_under_and_where_the_spec_has_it() -> None:
    text = text_report(make_run(), ["--engine", "eng"])
    block = text.split("FAILED: a.fail")[1].split("\n\n")[0].splitlines()
    counted = FAIL.result.rule
    rule = spec_rules()[counted]
    (line,) = [n for n, row in enumerate(block) if row.startswith(f"  {counted} (")]
    assert block[line].startswith(f"  {counted} (spec/rules.md:{rule.line}): {rule.text[:20]}")
    assert spec_text("rules.md").splitlines()[rule.line - 1].startswith(f"**{counted}**")
    assert all(len(row) <= 100 for row in block[line : line + 3])
    assert block[line - 1].startswith("  rules: ") and block[line + 1].startswith("    ")


def test_a_rule_the_spec_does_not_have_gets_no_quote() -> None:
    unknown = Outcome(
        CaseResult(make_case("a.odd", Level.SCORING, ("ZZZ-9",)), Status.FAIL),
        Verdict.FAILED,
    )
    block = text_report(make_run((unknown,)), ["--engine", "eng"]).split("FAILED: a.odd")[1]
    assert "ZZZ-9 (" not in block and "rules: ZZZ-9; counted under ZZZ-9" in block


def test_an_engine_that_claims_no_whole_level_is_said_to_claim_none() -> None:
    info = {**INFO, "levels": [], "features": ["scoring.credit"]}
    run = Run(info, "", make_run().corpus, ALL)  # type: ignore[arg-type]
    assert "engine: eng 2.1 (protocol 1, levels none; features scoring.credit)" in text_report(
        run, ["--engine", "eng"]
    )


def test_every_line_of_a_case_message_is_indented_under_its_case() -> None:
    crashed = Outcome(
        CaseResult(
            make_case("a.crash", Level.ROUND, ("DRW-1",)),
            Status.ERROR,
            message="engine crashed: exit 1\nengine stderr (tail):\n| Traceback\n|   boom",
        ),
        Verdict.ERRORED,
    )
    block = text_report(make_run((crashed,)), ["--engine", "eng"]).split("ERRORED: a.crash")[1]
    rows = block.split("\n\n")[0].splitlines()[1:]
    assert "  engine stderr (tail):" in rows and "  |   boom" in rows
    assert all(row.startswith("  ") for row in rows)


def _with_a_failing_fresh_case() -> Run:
    fresh = Outcome(
        CaseResult(
            make_case("fresh.layout.s3-0", Level.LAYOUT, ("LAY-1",)),
            Status.FAIL,
            (Difference("/steps/12/sum", 10, 12, rule="CNT-3"),),
            "1 difference(s)",
        ),
        Verdict.FAILED,
    )
    run = make_run((PASS,))
    return Run(INFO, "", run.corpus, run.outcomes, fresh=(fresh,), fresh_seed=3)  # type: ignore[arg-type]


def test_a_failing_fresh_case_is_in_every_report_s_counts() -> None:
    run = _with_a_failing_fresh_case()
    line = text_report(run, ["--engine", "eng"]).rstrip().splitlines()[-1]
    assert line.startswith(
        "1 passed, 0 failed, 0 errors, 0 unsupported, 0 expected failures, "
        "0 unexpectedly passing; of 1 fresh cases, 0 passed, 1 failed, 0 errors: DOES NOT CONFORM"
    )
    doc = json.loads(json_report(run))
    assert doc["summary"]["failed"] == 0 and doc["fresh"]["summary"]["failed"] == 1
    suite = ET.fromstring(junit_report(run))
    assert (suite.get("tests"), suite.get("failures")) == ("2", "1")
    (fresh,) = [tc for tc in suite.iter("testcase") if tc.get("name") == "fresh.layout.s3-0"]
    assert fresh.get("classname") == "fiveup.fresh.layout"
    failure = fresh.find("failure")
    assert failure is not None
    assert failure.get("message") == "CNT-3: /steps/12/sum: expected 10, got 12"


def test_text_report_sections_use_spec_titles() -> None:
    text = text_report(make_run(), ["--engine", "eng"], verbose=True)
    sections = text.split("by section")[1].split("by rule")[0]
    line = next(ln for ln in sections.splitlines() if ln.startswith("  MAT "))
    assert line.split()[1:8] == ["1", "0", "0", "0", "0", "0", "1"]
    assert line.endswith("the end of the match")
    assert "\n  (by rule: cases whose first difference falls under the rule " in text


def test_text_report_hides_rows_where_every_case_passed_or_is_unsupported() -> None:
    text = text_report(make_run(), ["--engine", "eng"])
    sections = text.split("by section")[1].split("by rule")[0]
    assert not any(ln.startswith("  MAT ") for ln in sections.splitlines())  # unsupported only
    assert any(ln.startswith("  CNT ") for ln in sections.splitlines())  # a failure
    assert "not shown: --verbose shows them)" in text
    verbose = text_report(make_run(), ["--engine", "eng"], verbose=True)
    assert "--verbose shows them" not in verbose and "\n  MAT " in verbose


def test_a_clean_run_conforms() -> None:
    assert (
        text_report(make_run((PASS,)), [])
        .rstrip()
        .endswith(": CONFORMS at levels scoring, layout, round (not claimed: match, moves)")
    )


def test_json_report() -> None:
    doc = json.loads(json_report(make_run()))
    assert doc["conforms"] is False
    assert doc["engine"]["name"] == "eng" and doc["corpus"]["digest"] == "abc123"
    assert doc["summary"]["failed"] == 1 and doc["summary"]["xpassed"] == 1
    failing = next(c for c in doc["cases"] if c["id"] == "a.fail")
    assert failing["differences"] == [
        {"path": "/layout/sum", "expected": 5, "actual": 6, "note": "", "rule": ""}
    ]
    assert (
        doc["conclusion"]["verdict"] == "DOES NOT CONFORM" and doc["conclusion"]["exit_code"] == 1
    )
    assert doc["by"]["level"]["layout"] == {
        "cases": 1, "passed": 0, "failed": 1, "errored": 0, "unsupported": 0, "xfailed": 0,
        "xpassed": 0, "declined": 0, "changed": 0,
    }  # fmt: skip
    assert failing["request"] is None and failing["rerun"].endswith("--case a.fail")
    assert failing["rules"] == ["CNT-5", "SPN-2"]


def test_junit_report() -> None:
    root = ET.fromstring(junit_report(make_run()))
    assert root.tag == "testsuite"
    assert (root.get("tests"), root.get("failures"), root.get("errors"), root.get("skipped")) == (
        "5",
        "2",
        "1",
        "1",
    )
    cases = {tc.get("name"): tc for tc in root.iter("testcase")}
    assert cases["a.fail"].get("classname") == "fiveup.layout"
    failure = cases["a.fail"].find("failure")
    assert failure is not None and "/layout/sum: expected 5, got 6" in (failure.text or "")
    assert cases["a.error"].find("error") is not None
    assert cases["a.skip"].find("skipped") is not None
    assert cases["a.pass"].find("failure") is None


DECLINED = Outcome(
    CaseResult(make_case("a.declined", Level.ROUND, ("TRN-1",)), Status.UNSUPPORTED, message="no"),
    Verdict.DECLINED,
)
CHANGED = Outcome(
    CaseResult(make_case("a.changed", Level.SCORING, ("PEN-1",)), Status.ERROR, message="boom"),
    Verdict.CHANGED,
    "listed as failing",
)


def test_junit_report_renders_the_report_model() -> None:
    run = make_run((*ALL, DECLINED, CHANGED))
    model = report_model(run)
    root = ET.fromstring(junit_report(run))
    props = {p.get("name"): p.get("value") for p in root.iter("property")}
    assert props["conclusion"] == model.conclusion.value
    assert props["conclusion_line"] == model.line
    failing = len(model.failing) - model.counts.errored + len(model.declined)
    assert (root.get("failures"), root.get("errors"), root.get("skipped")) == (
        str(failing),
        str(model.counts.errored),
        str(model.counts.unsupported + model.counts.xfailed),
    )
    assert failing == 4  # failed, unexpectedly passing, declined, failing in another way
    cases = {tc.get("name"): tc for tc in root.iter("testcase")}
    assert (
        {tc.tag for tc in cases["a.declined"]}
        == {tc.tag for tc in cases["a.changed"]}
        == {"failure"}
    )


def test_json_summary_counts_every_verdict_in_the_verdicts_order() -> None:
    run = make_run((*ALL, DECLINED, CHANGED))
    summary = json.loads(json_report(run))["summary"]
    assert list(summary) == [verdict.name.lower() for verdict in Verdict]
    assert summary == {
        "passed": 1, "failed": 1, "errored": 1, "unsupported": 1, "declined": 1, "xfailed": 0,
        "xpassed": 1, "changed": 1,
    }  # fmt: skip


def test_layout_text_survives_garbage() -> None:
    assert layout_text(None) == ""
    assert layout_text({"tiles": "x"}) == ""
    assert layout_text({"tiles": ["[0|0]"], "connections": []}) == "[0|0]"


def _marks(raw: int) -> str:
    return f"<{raw}>"


def test_tally_of_writes_what_the_tally_records_and_leaves_the_rest_numbers() -> None:
    assert tally_of(305, _marks) == "<305>"
    assert tally_of([305, 0], _marks) == "[<305> / <0>]"
    assert tally_of([-5, 7, True, "x", None], _marks) == "[-5 / 7 / true / x / null]"


def test_tally_of_a_score_too_high_for_marks_stays_a_number() -> None:
    drawn: list[int] = []

    def marks(raw: int) -> str:
        drawn.append(raw)
        return f"<{raw}>"

    assert tally_of(10_000, marks) == "<10000>"
    assert tally_of(10**12, marks) == "1000000000000 (more marks than a tally shows)"
    assert (
        tally_of(10**50, marks)
        == "10000000000000000000... (51 digits) (more marks than a tally shows)"
    )
    assert tally_of(list(range(0, 100, 5)), marks) == (
        "[<0> / <5> / <10> / <15> / <20> / <25> / <30> / <35> / 12 more]"
    )
    assert drawn == [10_000, 0, 5, 10, 15, 20, 25, 30, 35]


def test_score_tallies_only_for_differences_in_scores() -> None:
    assert score_tallies(Difference("/scores", [5, 10], [5, 15]), _marks) == (
        "expected [<5> / <10>], got [<5> / <15>]"
    )
    assert score_tallies(Difference("/rounds/0/state/scores/1", 10, 15), _marks) == (
        "expected <10>, got <15>"
    )
    assert score_tallies(Difference("/layout/sum", 5, 6), _marks) == ""
    assert score_tallies(Difference("/state/scoresheet", 5, 6), _marks) == ""


def test_text_report_with_a_tally_adds_a_line_under_a_difference_in_scores() -> None:
    case = make_case("a.match", Level.MATCH, ("MAT-1",))
    diff = Difference("/scores", [305, 0], [300, 0])
    outcome = Outcome(CaseResult(case, Status.FAIL, (diff,), "1 difference"), Verdict.FAILED)
    run = make_run((outcome,))
    text = text_report(run, [], tally=_marks)
    assert (
        "  /scores: expected [305, 0], got [300, 0]\n"
        "    as tallies: expected [<305> / <0>], got [<300> / <0>]\n" in text
    )
    assert "as tallies" not in text_report(run, [])


def test_a_wrong_move_count_is_reported_with_its_divide_per_first_action() -> None:
    """An engine whose branches open after one line side (SPN-2) miscounts a moves case; the
    report shows, per first action, the expected and the engine's count, to bisect from."""
    corpus = load_corpus()
    case = corpus.by_id()["rule.moves.near-block-four-players-deep"]
    run = certify(mutant_named("spn2_branch_after_one_line_side").engine(), corpus, [case])
    (outcome,) = run.outcomes
    assert outcome.verdict is Verdict.FAILED
    observed = outcome.result.observation["divide"]
    expected = case.expect["divide"]
    text = text_report(run, ["--engine-cmd", "wrong"])
    differing = [a for a in expected if observed[a] != expected[a]]
    assert differing and all(
        f"  /divide/{a}: expected {expected[a]}, got {observed[a]} "
        "(sequences under this first action)" in text
        for a in differing
    )
    extra = [a for a in observed if a not in expected]
    assert extra == [
        "0 play [0|2]@[0|0]:branch-a",
        "0 play [0|2]@[0|0]:branch-b",
        "0 play [0|6]@[0|0]:branch-a",
        "0 play [0|6]@[0|0]:branch-b",
    ]
    assert (
        f"  /divide/0 play [0|2]@[0|0]:branch-a: expected nothing, got {observed[extra[0]]} "
        "(a first action the rules do not allow)" in text
    )
    (row,) = json.loads(json_report(run))["cases"]
    paths = {d["path"]: (d["expected"], d["actual"]) for d in row["differences"]}
    assert all(paths[f"/divide/{a}"] == (expected[a], observed[a]) for a in differing)
    assert row["observation"]["divide"] == observed


def _certify(args: list[str]) -> tuple[int, str]:
    import io

    from fiveup.cli import main

    out = io.StringIO()
    code = main(["certify", *args], stdout=out, stderr=io.StringIO())
    return code, out.getvalue()


def test_fiveup_harness_report_every_report_reruns_a_failing_fresh_case_to_the_same_failure(
    tmp_path: Path,
) -> None:
    import re
    import shlex
    import sys

    wrong = "-m fiveup engine --mutant scr2_credit_rounded_sum"
    first = ["--engine-cmd", f"{sys.executable} {wrong}", "-k", "credit-15", "--seed", "3"]
    code, out = _certify([*first, "--fresh", "5", "--format", "json"])
    assert code == 1
    failing = [c for c in json.loads(out)["fresh"]["cases"] if c["verdict"] == "failed"]
    case = failing[-1]  # the last of its level: a rerun must make every one before it
    reruns = {"json": case["rerun"]}
    _, text = _certify([*first, "--fresh", "5"])
    assert f"FAILED: {case['id']}  (fresh)\n" in text  # made in the run: no file, no line 0
    reruns["text"] = next(
        line.strip().removeprefix("rerun: ")
        for block in text.split("\n\n")
        if block.lstrip().startswith(f"FAILED: {case['id']} ")
        for line in block.splitlines()
        if line.strip().startswith("rerun: ")
    )
    written = tmp_path / "report.html"
    _certify([*first, "--fresh", "5", "--format", "html", "--output", str(written)])
    page = written.read_text(encoding="utf-8")
    article = page[page.index(f'id="case-{case["id"]}"') :]
    found = re.search(r'<code class="rerun">([^<]*)</code>', article)
    assert found is not None
    reruns["html"] = html.unescape(found[1])
    # The three reports give the one command, so one rerun (of the whole corpus) proves it for all.
    assert len(set(reruns.values())) == 1, reruns
    words = shlex.split(reruns["json"])
    assert words[:2] == ["fiveup", "certify"]
    code, again = _certify([*words[2:], "--format", "json"])
    assert code == 1
    same = [c for c in json.loads(again)["fresh"]["cases"] if c["id"] == case["id"]]
    assert [(c["verdict"], c["differences"]) for c in same] == [("failed", case["differences"])]


@pytest.mark.parametrize(
    "word",
    [
        "plain",
        "it's",
        "back\\slash",
        "new\nline",
        "tab\tand\x1besc",
        "\udcff\x7f.yaml",
        "zw\u200bj'\\",
    ],
)
def test_shell_join_words_read_back_by_bash_as_written(word: str) -> None:
    """Every word of a rerun command, printable or not, is one printable word bash reads back."""
    line = shell_join(["printf", "%s", word])
    assert line.isprintable()
    done = subprocess.run(["bash", "-c", line], capture_output=True, check=True)
    assert done.stdout == os.fsencode(word)


def test_an_expected_failure_that_now_fails_elsewhere_says_how_it_fails_now() -> None:
    def known(reason: str, now: Difference) -> Outcome:
        result = CaseResult(make_case("a.known", Level.LAYOUT, ("SPN-1",)), Status.FAIL, (now,))
        return Outcome(result, Verdict.XFAILED, reason)

    listed = Difference("/layout/spinners", ["[2|2]"], []).text  # as a baseline writes it
    same = known(listed, Difference("/layout/spinners", ["[2|2]"], []))
    moved = known(listed, Difference("/steps/0/sum", 4, 2))
    assert known_reason(same) == listed
    assert known_reason(moved) == f"{listed} (now: /steps/0/sum: expected 4, got 2)"
    text = text_report(make_run((moved,)), ["--engine", "eng"])
    assert f"  a.known: {listed} (now: /steps/0/sum: expected 4, got 2)" in text


def test_an_engines_lone_surrogate_reaches_the_json_report_as_text_a_strict_reader_reads() -> None:
    refused = {"at": 1, "rule": "LAY-4", "message": "no point \ud800 here"}
    result = CaseResult(
        make_case("a.lone", Level.LAYOUT, ("LAY-4",)),
        Status.FAIL,
        (Difference("/error/message", "x", refused["message"]),),
        "1 difference(s)",
        {"steps": [], "error": refused},
    )
    doc = json.loads(json_report(make_run((Outcome(result, Verdict.FAILED),))))
    json.dumps(doc, ensure_ascii=False).encode("utf-8")  # UnicodeEncodeError if one is left
    (case,) = doc["cases"]
    assert case["observation"]["error"]["message"] == "no point \\ud800 here"
    assert case["differences"][0]["actual"] == "no point \\ud800 here"


def test_an_engines_text_in_a_difference_reaches_no_report_raw() -> None:
    raw = "bad\x00\x1b[31m\ud800"
    result = CaseResult(
        make_case("a.raw", Level.LAYOUT, ("LAY-4",)),
        Status.FAIL,
        (Difference("/error/message", "x", raw),),
        "1 difference(s)",
    )
    run = make_run((Outcome(result, Verdict.FAILED),))
    text = text_report(run, ["--engine", "eng"])
    assert all(line.isprintable() for line in text.splitlines())
    assert "  /error/message: expected x, got bad\\x00\\x1b[31m\\ud800" in text
    junit = junit_report(run)
    ET.fromstring(junit.split("\n", 1)[1].encode())  # XML takes no NUL nor lone surrogate
    written = baseline_text(run)
    assert all(line.isprintable() for line in written.splitlines())


def test_fiveup_harness_report_a_title_and_a_reason_from_files_cannot_forge_report_lines(
    tmp_path: Path,
) -> None:
    fixture = tmp_path / "case.yaml"
    fixture.write_text(
        "cases:\n"
        "  - id: t.scoring.credit-15\n"
        '    title: "credits\\u202e51 stiderc"\n'
        "    rules: [SCR-2]\n"
        "    provenance: {source: derived, note: test}\n"
        "    level: scoring\n"
        "    given: {function: credit, input: 15}\n"
        "    expect: {value: 16}\n"
    )
    baseline = tmp_path / "known.yaml"
    baseline.write_text('t.scoring.credit-15: "line1\\nFORGED: all passed \\u202e"\n')
    code, text = _certify(["--fixtures", str(fixture), "--expected-failures", str(baseline)])
    assert code == 0, text
    assert "\u202e" not in text and "\nFORGED" not in text, text
    assert "t.scoring.credit-15: line1\\nFORGED: all passed \\u202e (now: " in text, text
    code, text = _certify(["--fixtures", str(fixture)])
    assert code == 1 and "  credits\\u202e51 stiderc\n" in text, text
