"""Every conclusion of a run, with a small engine each: the exact verdict line and exit code.

Each engine is certified through the command line (``fiveup.cli.main``, in-process) and through
the pytest plugin; both must say the same thing (spec/README.md, "Conformance").
"""

from __future__ import annotations

import io
import json
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest

from fiveup import SUITE_VERSION
from fiveup.cli import main
from fiveup.harness.corpus import load_corpus

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable
ENGINES = "tests.engines.verdicts"
CASES = load_corpus().cases
N = len(CASES)
AT = Counter(case.level.value for case in CASES)
OPTIONAL = sum(case.optional for case in CASES)


def certify(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(["certify", *args], stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def last_line(text: str) -> str:
    return text.rstrip().splitlines()[-1]


COUNTS = "passed, {} failed, 0 errors, {} unsupported, {} expected failures, 0 unexpectedly passing"


@pytest.fixture(autouse=True)
def _at_the_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)


_REPORTS: dict[str, tuple[int, str, str]] = {}


def json_report(engine: str) -> tuple[int, str, str]:
    """``certify --engine ENGINE --format json --fresh 0``: the same every time, so made once."""
    if engine not in _REPORTS:
        _REPORTS[engine] = certify(
            "--engine", f"{ENGINES}:{engine}", "--format", "json", "--fresh", "0"
        )
    return _REPORTS[engine]


Written = Callable[[str], tuple[int, str, Path]]


@pytest.fixture(scope="module")
def written_baseline(tmp_path_factory: pytest.TempPathFactory) -> Written:
    """The run of an engine that writes its baseline, once per engine: code, output, the file.

    The tests that read the file take it as written; one that changes it changes a copy.
    """
    runs: dict[str, tuple[int, str, Path]] = {}

    def written(engine: str) -> tuple[int, str, Path]:
        if engine not in runs:
            baseline = tmp_path_factory.mktemp(engine) / "known.yaml"
            code, out, _ = certify(
                "--engine", f"{ENGINES}:{engine}", "--write-expected-failures", str(baseline)
            )
            runs[engine] = (code, out, baseline)
        return runs[engine]

    return written


def test_an_engine_that_declines_every_case_checked_nothing() -> None:
    code, out, _ = certify("--engine", f"{ENGINES}:DeclinesAll", "--fresh", "0")
    assert code == 1
    declined = sum(1 for c in CASES if c.level.value != "moves" and not c.optional)
    assert last_line(out) == (
        f"0 passed, 0 failed, 0 errors, {N - declined} unsupported, {declined} declined, "
        "0 expected failures, 0 unexpectedly passing: NOTHING CHECKED: the engine declined "
        "every selected case (not claimed: moves)"
    )


def test_an_engine_of_one_scoring_function_does_not_conform() -> None:
    code, out, _ = certify("--engine", f"{ENGINES}:CreditOnly")
    assert code == 1
    assert last_line(out).endswith(
        ": DOES NOT CONFORM at level scoring (not claimed: layout, round, match, moves); "
        "declined: scoring (displayed, penalty, side_penalty, tally)"
    )
    assert "declined cases of a claimed feature, which fail the run:" in out


def test_two_of_four_levels_conform_at_those_levels() -> None:
    code, out, _ = certify("--engine", f"{ENGINES}:TwoLevels", "--seed", "5")
    assert code == 0
    assert last_line(out) == (
        f"{AT['scoring'] + AT['layout']} passed, 0 failed, 0 errors, "
        f"{AT['round'] + AT['match'] + AT['moves']} unsupported, 0 expected failures, "
        "0 unexpectedly passing; of 10 fresh cases, 10 passed, 0 failed, 0 errors: "
        "CONFORMS at levels scoring, layout "
        "(not claimed: round, match, moves)"
    )


def test_an_optional_feature_may_be_declined() -> None:
    code, out, _ = certify("--engine", f"{ENGINES}:NoTally", "--seed", "1")  # one fresh tally
    assert code == 0
    left = OPTIONAL + AT["moves"]  # the tally cases declined, the moves level not claimed
    assert last_line(out) == (
        f"{N - left} passed, 0 failed, 0 errors, {left} unsupported, 0 expected failures, "
        "0 unexpectedly passing; of 20 fresh cases, 19 passed, 0 failed, 0 errors, "
        "1 unsupported: CONFORMS at levels scoring, layout, round, match "
        "(not claimed: moves); declined: scoring (tally)"
    )


def test_an_optional_feature_claimed_and_declined_is_named_and_not_called_conforming(
    tmp_path: Path,
) -> None:
    badge = tmp_path / "badge.json"
    code, out, _ = certify("--engine", f"{ENGINES}:CreditAndTallyNoTally", "--badge", str(badge))
    assert code == 0  # declining an optional feature is harmless (spec/README.md)
    assert last_line(out).endswith(
        ": CONFORMS at scoring (credit, tally); not claimed: scoring (displayed, penalty, "
        "side_penalty), layout, round, match, moves; declined: scoring (tally)"
    )
    written = json.loads(badge.read_text(encoding="utf-8"))
    assert written["message"] == "conforms: scoring (credit, tally); declined: scoring (tally)"


def test_failures_then_a_baseline_of_them_then_no_new_failures(
    written_baseline: Written,
) -> None:
    code, out, baseline = written_baseline("FailsSome")
    assert code == 1
    assert last_line(out).endswith(
        ": DOES NOT CONFORM at levels scoring, layout, round, match, moves"
    )
    failed = int(last_line(out).split(" passed, ")[1].split()[0])
    assert failed > 3
    listed = baseline.read_text(encoding="utf-8")
    fresh = listed.count("\nfresh.")  # the fresh cases that failed are listed too
    assert listed.count("{status: fail, ") == failed + fresh and "expected 5, got 0" in listed
    assert "\nfresh_seed: " in listed
    failed += fresh
    code, out, _ = certify("--engine", f"{ENGINES}:FailsSome", "--expected-failures", str(baseline))
    assert code == 0
    assert last_line(out).endswith(
        f": NO NEW FAILURES against a baseline of {failed} known failures ({failed} seen), "
        "at levels scoring, layout, round, match, moves"
    )
    assert "CONFORMS" not in last_line(out).replace("NO NEW FAILURES", "")
    assert out.count("\n  doc.") + out.count("\n  rule.") >= failed - fresh  # one line each


def test_a_wrong_engine_fails_under_the_broken_rule_alone() -> None:
    code, out, _ = certify(
        "--engine-cmd",
        f"{PY} -m fiveup engine --mutant scr2_credit_rounded_sum",
        "--format",
        "json",
        "--engine-memory",
        "512",
    )
    assert code == 1
    report = json.loads(out)
    failing = {rule: row for rule, row in report["by"]["rule"].items() if row["failed"]}
    assert list(failing) == ["SCR-2"]
    assert failing["SCR-2"]["failed"] == report["summary"]["failed"] > 50
    case = next(c for c in report["cases"] if c["status"] == "fail")
    assert case["request"] is not None and case["observation"] is not None
    assert case["rerun"].startswith("fiveup certify --engine-cmd ")
    assert " --engine-memory 512 " in case["rerun"]  # the same limit again
    assert case["differences"][0]["rule"] == "SCR-2"


def test_an_engine_that_cannot_start_is_told_once_with_a_hint() -> None:
    code, out, err = certify("--engine-cmd", f"{PY} -c 'raise SystemExit(3)'")
    assert code == 1, err
    assert out.count("exited with code 3") == 1
    assert "hint: the engine exited before it was ready: run the command by hand" in out
    assert last_line(out).endswith(
        "NOTHING CHECKED: the engine did not start or did not complete the handshake"
    )
    assert len(out.splitlines()) < 15


def test_an_engine_with_a_banner_breaks_the_handshake_and_gets_a_hint() -> None:
    banner = "print('Welcome to my engine!', flush=True)"
    code, out, _ = certify("--engine-cmd", f'{PY} -c "{banner}"')
    assert code == 1
    assert "output is not JSON: the ready message is not JSON" in out
    assert "hint: the engine wrote something that is not JSON on stdout: a banner" in out


def test_a_command_that_cannot_be_executed_is_the_users_mistake() -> None:
    code, out, err = certify("--engine-cmd", "nosuchcommand-fiveup --x")
    assert code == 2 and out == ""
    assert err.startswith("fiveup certify: error: --engine-cmd: cannot run nosuchcommand-fiveup")


def test_a_crash_at_the_first_start_is_retried(tmp_path: Path) -> None:
    marker = tmp_path / "started-once"
    script = tmp_path / "flaky.py"
    script.write_text(
        "import pathlib, runpy, sys\n"
        f"marker = pathlib.Path({str(marker)!r})\n"
        "if not marker.exists():\n"
        "    marker.touch()\n"
        "    sys.exit(1)\n"
        "sys.argv = ['fiveup', 'engine']\n"
        "runpy.run_module('fiveup', run_name='__main__')\n",
        encoding="utf-8",
    )
    code, out, _ = certify("--engine-cmd", f"{PY} {script}", "-k", "credit")
    assert code == 0, out
    assert "CONFORMS at levels scoring, layout, round, match, moves" in last_line(out)


def test_a_selection_says_so_and_writes_no_badge(tmp_path: Path) -> None:
    badge = tmp_path / "badge.json"
    out, err = io.StringIO(), io.StringIO()
    code = main(["certify", "-k", "credit", "--badge", str(badge)], stdout=out, stderr=err)
    assert code == 0
    assert last_line(out.getvalue()).endswith(
        "CONFORMS at levels scoring, layout, round, match, moves, on a selection "
        f"(-k credit: 50 of {N} cases)"
    )
    assert not badge.exists() and "no badge written" in err.getvalue()


def test_the_badge_of_the_whole_corpus(tmp_path: Path) -> None:
    badge = tmp_path / "badge.json"
    code, _, _ = certify("--badge", str(badge))
    assert code == 0
    assert json.loads(badge.read_text(encoding="utf-8")) == {
        "schemaVersion": 1,
        "label": f"Five Up {SUITE_VERSION}",
        "message": "conforms: scoring, layout, round, match, moves",
        "color": "brightgreen",
    }
    code, _, _ = certify("--engine", f"{ENGINES}:CreditOnly", "--badge", str(badge))
    assert code == 1
    assert json.loads(badge.read_text(encoding="utf-8"))["color"] == "red"


def test_every_report_format_carries_the_same_conclusion(tmp_path: Path) -> None:
    lines = {}
    for fmt in ("text", "json", "junit"):
        target = tmp_path / f"report.{fmt}"
        code, _, _ = certify(
            "--engine", f"{ENGINES}:TwoLevels", "--format", fmt, "--output", str(target)
        )
        assert code == 0
        lines[fmt] = target.read_text(encoding="utf-8")
    line = "CONFORMS at levels scoring, layout (not claimed: round, match, moves)"
    assert last_line(lines["text"]).endswith(line)
    assert json.loads(lines["json"])["conclusion"]["line"] == line
    assert f'name="conclusion_line" value="{line}"' in lines["junit"]


PLUGIN_CASES = [
    (
        f"--fiveup-engine={ENGINES}:DeclinesAll",
        "NOTHING CHECKED: the engine declined every selected case",
        1,
    ),
    (
        f"--fiveup-engine={ENGINES}:TwoLevels",
        "CONFORMS at levels scoring, layout (not claimed: round, match, moves)",
        0,
    ),
    (
        f"--fiveup-engine={ENGINES}:CreditOnly",
        "DOES NOT CONFORM at level scoring (not claimed: layout, round, match, moves)",
        1,
    ),
]


_PLUGIN_RUNS: dict[str, pytest.RunResult] = {}


def plugin_run(pytester: pytest.Pytester, option: str) -> pytest.RunResult:
    """The plugin's run of the whole corpus with one engine option; each option runs once."""
    if option not in _PLUGIN_RUNS:
        pytester.syspathinsert(ROOT)
        _PLUGIN_RUNS[option] = pytester.runpytest(option, "-q", "-p", "no:cacheprovider")
    return _PLUGIN_RUNS[option]


@pytest.mark.parametrize(
    ("option", "line", "code"), PLUGIN_CASES, ids=["declines", "two-levels", "credit-only"]
)
def test_the_pytest_plugin_says_the_same(
    pytester: pytest.Pytester, option: str, line: str, code: int
) -> None:
    result = plugin_run(pytester, option)
    assert f"fiveup: {line}" in result.stdout.str()
    assert result.ret == code


def test_the_pytest_plugin_reports_an_engine_that_cannot_start_once(
    pytester: pytest.Pytester,
) -> None:
    result = pytester.runpytest(f"--fiveup-engine-cmd={PY} -c 'raise SystemExit(3)'", "-q")
    text = result.stdout.str()
    errors = text.split("short test summary info")[0]
    assert errors.count("exited with code 3") == 1
    assert "ERROR collecting" in text or "error" in text.lower()
    assert (
        "fiveup: NOTHING CHECKED: the engine did not start or did not complete the handshake"
        in text
    )
    assert result.ret != 0


def test_the_pytest_plugin_with_a_baseline_has_no_new_failures(
    pytester: pytest.Pytester, written_baseline: Written
) -> None:
    _, _, baseline = written_baseline("FailsSome")
    pytester.syspathinsert(ROOT)
    result = pytester.runpytest(
        f"--fiveup-engine={ENGINES}:FailsSome", f"--fiveup-expected-failures={baseline}", "-q"
    )
    assert "fiveup: NO NEW FAILURES against a baseline of " in result.stdout.str()
    assert result.ret == 0
    assert "xfailed" in result.parseoutcomes()


def test_the_pytest_plugin_gives_the_handshake_hint_once(pytester: pytest.Pytester) -> None:
    banner = "print('Welcome!', flush=True)"
    result = pytester.runpytest(f'--fiveup-engine-cmd={PY} -c "{banner}"', "-q")
    errors = result.stdout.str().split("short test summary info")[0]
    assert errors.count("hint: the engine wrote something that is not JSON on stdout") == 1
    assert result.ret != 0


TALLY_DECISION = sum("OQ-18" in case.decisions for case in CASES)


def test_without_a_decision_the_verdict_names_what_was_left_out(tmp_path: Path) -> None:
    lines = {}
    for fmt in ("text", "json", "junit"):
        target = tmp_path / f"report.{fmt}"
        code, _, _ = certify(
            "--engine", f"{ENGINES}:TwoLevels", "--without-decision", "OQ-18",
            "--format", fmt, "--output", str(target),
        )  # fmt: skip
        assert code == 0
        lines[fmt] = target.read_text(encoding="utf-8")
    assert TALLY_DECISION == 6
    tail = (
        f", on a selection (--without-decision OQ-18: {N - 6} of {N} cases), "
        "without decision OQ-18 (6 cases left out)"
    )
    line = last_line(lines["text"]).split(": ", 1)[1]
    assert line.startswith("CONFORMS at levels scoring, layout") and line.endswith(tail)
    report = json.loads(lines["json"])
    assert report["conclusion"]["line"] == line
    assert report["conclusion"]["without_decisions"] == {
        "decisions": ["OQ-18"],
        "cases_left_out": 6,
        "fresh_levels_left_out": [],
    }
    assert not [case for case in report["cases"] if "OQ-18" in case["decisions"]]
    assert len(report["cases"]) == N - 6
    assert '<property name="without_decisions" value="OQ-18" />' in lines["junit"]


def test_without_a_decision_no_fresh_case_of_its_levels_is_played() -> None:
    code, out, _ = certify(
        "--engine", f"{ENGINES}:TwoLevels", "--without-decision", "OQ-18", "--format", "json",
        "--fresh", "2", "--seed", "7",
    )  # fmt: skip
    assert code == 0
    report = json.loads(out)
    assert {case["level"] for case in report["fresh"]["cases"]} == {"layout"}
    assert report["conclusion"]["without_decisions"]["fresh_levels_left_out"] == ["scoring"]
    assert report["conclusion"]["line"].endswith(
        "without decision OQ-18 (6 cases left out; no fresh case of level scoring)"
    )


def test_without_every_decision_of_the_selection_nothing_is_left_to_run() -> None:
    code, _, err = certify("-k", "tally-305", "--without-decision", "OQ-18")
    assert code == 2
    assert "every selected case depends on OQ-18: none is left to run" in err


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("OQ-66", "--without-decision OQ-66: not an open question of spec/open-questions.md; "
         "did you mean OQ-6 or"),
        ("oq-18", "did you mean OQ-18 or"),
        ("OQ-13", "--without-decision OQ-13: every case follows it alike, so no case lists it"),
    ],
)  # fmt: skip
def test_an_unknown_or_untagged_decision_is_a_usage_error(name: str, words: str) -> None:
    code, out, err = certify("--without-decision", name)
    assert code == 2 and not out
    assert words in err and "Traceback" not in err


def test_the_pytest_plugin_names_the_decision_left_out(pytester: pytest.Pytester) -> None:
    pytester.syspathinsert(ROOT)
    engine = f"--fiveup-engine={ENGINES}:TwoLevels"
    listed = pytester.runpytest(engine, "--fiveup-without-decision=OQ-18", "--collect-only", "-q")
    items = [line for line in listed.outlines if line.startswith("fiveup::")]
    assert "fiveup::rule.scoring.tally-45" in items
    assert "fiveup::rule.scoring.tally-305" not in items and len(items) == N - 6
    chosen = pytester.runpytest(engine, "--collect-only", "-q", "-k", "OQ-18")
    tallies = [line for line in chosen.outlines if line.startswith("fiveup::")]
    assert len(tallies) == 6 and "fiveup::rule.scoring.tally-305" in tallies
    result = pytester.runpytest(
        engine, "--fiveup-without-decision=OQ-18", "-q", "-p", "no:cacheprovider", "-k", "tally"
    )
    assert "without decision OQ-18 (6 cases left out)" in result.stdout.str()
    assert result.ret == 0
    bad = pytester.runpytest(engine, "--fiveup-without-decision=OQ-0")
    assert bad.ret == pytest.ExitCode.USAGE_ERROR
    assert "--fiveup-without-decision OQ-0: not an open question" in bad.stderr.str()


CREDIT_AND_LAYOUT = (
    "scoring (credit), layout; not claimed: scoring (displayed, penalty, side_penalty, tally), "
    "round, match, moves"
)


def test_an_engine_claiming_credit_and_layout_conforms_at_exactly_those(tmp_path: Path) -> None:
    lines = {}
    for fmt in ("text", "json", "junit"):
        target = tmp_path / f"report.{fmt}"
        code, _, _ = certify(
            "--engine", f"{ENGINES}:AllFives", "--format", fmt, "--output", str(target)
        )
        assert code == 0
        lines[fmt] = target.read_text(encoding="utf-8")
    line = f"CONFORMS at {CREDIT_AND_LAYOUT}"
    assert last_line(lines["text"]).endswith(f": {line}")
    conclusion = json.loads(lines["json"])["conclusion"]
    assert conclusion["line"] == line
    assert conclusion["claimed"] == ["scoring (credit)", "layout"]
    assert conclusion["features"] == ["scoring.credit", "layout.layout"]
    assert conclusion["not_claimed"][0] == "scoring (displayed, penalty, side_penalty, tally)"
    assert f'name="conclusion_line" value="{line}"' in lines["junit"]
    badge = tmp_path / "badge.json"
    certify("--engine", f"{ENGINES}:AllFives", "--badge", str(badge))
    assert json.loads(badge.read_text(encoding="utf-8"))["message"] == (
        "conforms: scoring (credit), layout"
    )


def test_a_feature_alone_may_be_claimed() -> None:
    code, out, _ = certify("--engine", f"{ENGINES}:CreditFeatureOnly")
    assert code == 0
    assert last_line(out).endswith(
        ": CONFORMS at scoring (credit); not claimed: scoring (displayed, penalty, "
        "side_penalty, tally), layout, round, match, moves"
    )


@pytest.mark.parametrize("engine", ["AllFivesWrongLayout", "CreditOnly", "FailsSome"])
def test_the_baseline_a_run_writes_gives_the_same_run_no_new_failures(
    engine: str, tmp_path: Path, written_baseline: Written
) -> None:
    badge = tmp_path / "badge.json"
    code, out, baseline = written_baseline(engine)
    assert code == 1 and ": DOES NOT CONFORM at " in last_line(out)
    code, out, _ = certify(
        "--engine", f"{ENGINES}:{engine}", "--expected-failures", str(baseline),
        "--badge", str(badge),
    )  # fmt: skip
    assert code == 0, out
    assert ": NO NEW FAILURES against a baseline of " in last_line(out)
    shown = json.loads(badge.read_text(encoding="utf-8"))
    assert shown["color"] == "yellow" and "known failures" in shown["message"]


def test_a_declined_case_of_a_claimed_feature_has_a_verdict_of_its_own() -> None:
    code, out, _ = json_report("CreditOnly")
    assert code == 1
    verdicts = Counter(case["verdict"] for case in json.loads(out)["cases"])
    declined = sum(
        1 for c in CASES if c.level.value == "scoring" and c.given["function"] != "credit"
        and not c.optional
    )  # fmt: skip
    assert verdicts["declined"] == declined == 42
    assert verdicts["unsupported"] == N - AT["scoring"] + OPTIONAL


def test_a_baseline_entry_that_fails_in_another_way_is_changed(
    tmp_path: Path, written_baseline: Written
) -> None:
    baseline = tmp_path / "known.yaml"
    text = written_baseline("FailsSome")[2].read_text(encoding="utf-8")
    first = next(ln for ln in text.splitlines() if "{status: fail," in ln)
    baseline.write_text(text.replace(first, first.replace("status: fail", "status: error")))
    code, out, _ = certify(
        "--engine", f"{ENGINES}:FailsSome", "--expected-failures", str(baseline), "--format",
        "json",
    )  # fmt: skip
    assert code == 1
    report = json.loads(out)
    changed = [c["id"] for c in report["cases"] if c["verdict"] == "changed"]
    assert changed == [first.split(":")[0]]
    assert report["conclusion"]["verdict"] == "DOES NOT CONFORM"


def test_a_baseline_of_1_0_still_loads_and_absorbs_its_failures(tmp_path: Path) -> None:
    baseline = tmp_path / "known.yaml"
    _, out, _ = json_report("FailsSome")
    failing = [c["id"] for c in json.loads(out)["cases"] if c["verdict"] == "failed"]
    baseline.write_text("".join(f"{case_id}: rounds 3 down\n" for case_id in failing))
    code, out, _ = certify(
        "--engine", f"{ENGINES}:FailsSome", "--expected-failures", str(baseline), "--fresh", "0"
    )
    assert code == 0
    assert f"NO NEW FAILURES against a baseline of {len(failing)} known failures" in out


ALIKE = ["CreditOnly", "AllFives", "AllFivesWrongLayout", "NoTally"]


@pytest.mark.parametrize("engine", ALIKE)
def test_the_pytest_plugin_counts_as_certify_does(pytester: pytest.Pytester, engine: str) -> None:
    _, out, _ = json_report(engine)
    report = json.loads(out)
    verdicts = Counter(case["verdict"] for case in report["cases"])
    bad = sum(verdicts[v] for v in ("failed", "errored", "declined", "xpassed", "changed"))
    result = plugin_run(pytester, f"--fiveup-engine={ENGINES}:{engine}")
    outcomes = result.parseoutcomes()
    assert outcomes.get("failed", 0) == bad
    assert outcomes.get("passed", 0) == verdicts["passed"]
    assert outcomes.get("skipped", 0) == verdicts["unsupported"]
    lines = result.stdout.str().rstrip().splitlines()
    assert lines[-1] == f"fiveup: {report['conclusion']['line']}"
    rerun = f"rerun: fiveup certify --engine {ENGINES}:{engine} --case "
    # One rerun per failing case; with CI set, pytest's short summary repeats each failure whole.
    assert len({line for line in lines if line.startswith(rerun)}) == bad
