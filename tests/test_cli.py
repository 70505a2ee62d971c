"""The command line, run in-process with its streams passed in."""

from __future__ import annotations

import io
import json
import os
import resource
import shlex
import shutil
import stat
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml

from fiveup import SUITE_VERSION
from fiveup.cli import main
from fiveup.harness.corpus import load_corpus

ENGINE_CMD = f"{sys.executable} -m fiveup engine"
WRONG_PEN2 = "fiveup.mutants.engines:pen2_remainder_three_rounds_down"
"""A wrong engine in process, for the tests of what a report shows: how the engine is reached
changes nothing there, and a process started for each run cost more than the run."""
ROOT = Path(__file__).resolve().parent.parent


def run(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(args), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_certify_with_no_arguments_certifies_the_reference_engine() -> None:
    code, out, err = run("certify")
    assert code == 0, out + err
    assert "engine: fiveup-reference" in out
    assert f"Five Up conformance suite {SUITE_VERSION}" in out
    assert out.rstrip().endswith(
        "0 failed, 0 errors, 0 unsupported, 0 expected failures, 0 unexpectedly passing; "
        "of 25 fresh cases, 25 passed, 0 failed, 0 errors: "
        "CONFORMS at levels scoring, layout, round, match, moves"
    )


def test_certify_through_the_process_protocol() -> None:
    code, out, err = run("certify", "--engine-cmd", ENGINE_CMD)
    assert code == 0, out + err
    assert ": CONFORMS" in out


def test_selection_by_keyword_and_by_case() -> None:
    code, out, _ = run("certify", "-k", "SPN-2 and layout")
    assert code == 0
    selected = int(out.split("selected ")[1].split()[0])
    assert 0 < selected < 100
    code, out, _ = run("certify", "--case", "doc.layout.branches-1-2")
    assert code == 0 and "selected 1\n" in out


def test_json_and_junit_reports_written_whole_to_a_file(tmp_path: Path) -> None:
    target = tmp_path / "report.json"
    code, out, _ = run("certify", "--format", "json", "--output", str(target), "-k", "scoring")
    assert code == 0
    doc = json.loads(target.read_text())
    assert doc["conforms"] is True and doc["engine"]["name"] == "fiveup-reference"
    assert out.strip().endswith(
        ": CONFORMS at levels scoring, layout, round, match, moves, "
        f"on a selection (-k scoring: 70 of {len(load_corpus().cases)} cases)"
    )
    assert not list(tmp_path.glob(".*.tmp"))
    target = tmp_path / "report.xml"
    assert run("certify", "--format", "junit", "--output", str(target), "-k", "scoring")[0] == 0
    assert ET.parse(target).getroot().get("failures") == "0"


def test_an_html_report_is_written_whole_to_a_file_and_the_summary_printed(
    tmp_path: Path,
) -> None:
    target = tmp_path / "report.html"
    args = ("certify", "--engine", WRONG_PEN2, "--format", "html", "--output", str(target))
    code, out, _ = run(*args, "-k", "penalty or PEN-2", "--tally")
    assert code == 1
    page = target.read_text(encoding="utf-8")
    assert out.count("\n") == 1 and ": DOES NOT CONFORM at levels" in out
    assert out.split(": ", 1)[1].strip() in page
    assert "as tallies: expected" in page
    assert not list(tmp_path.glob(".*.tmp"))


def test_tally_shows_differing_scores_in_the_text_report_as_tallies() -> None:
    args = (
        "certify",
        "--engine",
        WRONG_PEN2,
        "--case",
        "rule.match.partnerships-tied-then-decided",
    )
    code, out, _ = run(*args, "--tally")
    assert code == 1
    assert "  /scores: expected [360, 330], got [305, 315]\n" in out
    assert (
        "    as tallies: expected [xXx xXx xXx xXx xXx xXx xXx || / xXx xXx xXx xXx xXx xXx "
        "||||||], got [xXx xXx xXx xXx xXx xXx | / xXx xXx xXx xXx xXx xXx |||]\n"
    ) in out
    assert "as tallies" not in run(*args)[1]


def test_an_expected_failure_that_passes_fails_the_run(tmp_path: Path) -> None:
    xfail = tmp_path / "xfail.yaml"
    xfail.write_text("doc.layout.branches-1-2: we thought it failed\n")
    code, out, _ = run(
        "certify", "--case", "doc.layout.branches-1-2", "--expected-failures", str(xfail)
    )
    assert code == 1
    assert "UNEXPECTEDLY PASSED: doc.layout.branches-1-2" in out
    assert "remove it from the list" in out


def test_an_engine_that_cannot_start_is_said_once_with_exit_1() -> None:
    code, out, _ = run(
        "certify",
        "--engine-cmd",
        f"{sys.executable} -c 'raise SystemExit(3)'",
        "-k",
        "scoring",
        "--timeout",
        "5",
    )
    assert code == 1
    assert out.rstrip().endswith(
        "NOTHING CHECKED: the engine did not start or did not complete the handshake, "
        f"on a selection (-k scoring: 70 of {len(load_corpus().cases)} cases)"
    )
    assert out.count("exited with code 3") == 1, out
    assert "selected 70" in out and "FAILED" not in out and "ERRORED" not in out


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["certify", "--engine", "nope"], "no engine of that name"),
        (
            ["certify", "--case", "no.such.case"],
            "--case 'no.such.case': no such case in the corpus",
        ),
        (["certify", "-k", "(unclosed"], "is never closed"),
        (["certify", "-k", "zzzz-nothing"], "no case matches"),
        (["certify", "--timeout", "0"], "--timeout: 0 is out of range: at least 0.05"),
        (["certify", "--format", "pdf"], "invalid choice: 'pdf'"),
        (["certify", "--engine", "reference", "--engine-cmd", "x"], "not allowed with argument"),
        (["certify", "--fixtures", "/no/such/dir"], "no such file or folder"),
        (["certify", "--expected-failures", "/no/such/file.yaml"], "cannot read"),
        (["certify", "--output", "/no/such/dir/report.txt"], "no such folder"),
        (["frobnicate"], "invalid choice: 'frobnicate'"),
        (["certify", "--engine-cmd", "  "], "--engine-cmd is empty"),
        (["certify", "--output", "."], "is a folder; name the file to write"),
        (
            ["certify", "--engine-memory", "100", "-k", "credit-15"],
            "--engine-memory bounds an engine run as a process (--engine-cmd)",
        ),
        (["validate", "--format", "xml"], "invalid choice: 'xml'"),
        (["certify", "--format", "html"], "--format html needs --output FILE"),
    ],
)
def test_user_mistakes_exit_2_with_a_message_and_no_traceback(args: list[str], words: str) -> None:
    code, out, err = run(*args)
    assert code == 2, out + err
    assert words in err
    assert "Traceback" not in out + err


def test_broken_fixtures_given_to_certify_exit_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("cases: [{id: x}]\n")
    code, _, err = run("certify", "--fixtures", str(bad))
    assert code == 2
    assert f"{bad}:1: /cases/0: schema:" in err


def test_no_command_prints_help_on_stderr_and_exits_2() -> None:
    code, out, err = run()
    assert code == 2 and out == "" and "certify" in err and "validate" in err


def test_version_and_help_exit_0() -> None:
    code, out, _ = run("--version")
    assert code == 0 and SUITE_VERSION in out
    code, out, _ = run("certify", "--help")
    assert code == 0 and "--expected-failures" in out


def test_engine_serves_the_protocol_on_the_given_streams() -> None:
    stdin = io.StringIO(
        '{"cmd": "start", "protocol": 1}\n'
        '{"cmd": "run", "seq": 1, "level": "scoring", '
        '"given": {"function": "credit", "input": 15}}\n'
        '{"cmd": "stop"}\n'
    )
    out, err = io.StringIO(), io.StringIO()
    assert main(["engine"], stdout=out, stderr=err, stdin=stdin) == 0
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert lines[0]["ready"] is True and lines[0]["engine"]["name"] == "fiveup-reference"
    assert lines[1] == {"seq": 1, "observation": {"value": 15}}
    assert lines[2] == {"stopped": True}


def test_bench_is_wired() -> None:
    code, out, err = run("bench", "--rounds", "20", "--matches", "1", "--format", "json")
    assert code == 0, err
    assert json.loads(out)


def test_bench_harness_prints_both_figures_side_by_side() -> None:
    code, out, err = run("bench-harness", "--repeat", "1")
    assert code == 0, err
    assert "in-process" in out and "process protocol" in out and "ratio" in out
    assert "engine under test" not in out


def test_bench_harness_times_an_engine_under_test_beside_the_reference() -> None:
    code, out, err = run(
        "bench-harness", "--repeat", "1", "--engine-cmd", f"{sys.executable} -m fiveup engine"
    )
    assert code == 0, err
    lines = out.splitlines()
    assert lines[1].startswith("in-process") and lines[2].startswith("process protocol")
    assert lines[4].startswith("engine under test") and lines[5].startswith("ratio to in-process")


def test_every_subcommand_reports_a_mistake_the_same_way() -> None:
    for command in ("validate", "certify", "engine", "bench", "bench-harness"):
        code, _, err = run(command, "--no-such-option")
        assert code == 2, command
        first, usage = err.splitlines()[:2]
        assert first == f"fiveup {command}: error: unrecognized arguments: --no-such-option"
        assert usage.startswith(f"usage: fiveup {command} "), usage


@pytest.mark.parametrize(
    "engine",
    [
        ["--engine", "examples.adapters.python.minimal_engine:MinimalEngine"],
        ["--engine-cmd", "node examples/adapters/node/engine.js"],
    ],
    ids=["python", "node"],
)
def test_the_readme_adapter_examples_certify_the_scoring_level(
    engine: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    if engine[0] == "--engine-cmd" and shutil.which("node") is None:
        pytest.skip("node is not installed")
    monkeypatch.chdir(ROOT)
    code, out, err = run("certify", *engine)
    assert code == 0, out + err
    assert out.rstrip().endswith(
        "unexpectedly passing; of 5 fresh cases, 5 passed, 0 failed, 0 errors: "
        "CONFORMS at level scoring (not claimed: layout, round, match, moves)"
    )
    assert "70 passed, 0 failed" in out


@pytest.mark.parametrize(
    "command",
    [["certify"], ["list"], ["list", "--format", "json"], ["show", "x"], ["render", "x"],
     ["mutants"]],
    ids=lambda command: "-".join(command),
)  # fmt: skip
def test_every_command_refuses_fixture_folders_without_fixtures_alike(
    tmp_path: Path, command: list[str]
) -> None:
    code, out, err = run(*command, "--fixtures", str(tmp_path))
    assert (code, out) == (2, "")
    assert (
        err == f"fiveup {command[0]}: error: --fixtures {tmp_path}: no *.yaml fixture files there\n"
    )


@pytest.mark.parametrize("command", [["list"], ["show", "x"], ["render", "x"], ["mutants"]])
def test_every_command_names_a_fixtures_path_that_does_not_exist(
    tmp_path: Path, command: list[str]
) -> None:
    missing = tmp_path / "missing"
    code, out, err = run(*command, "--fixtures", str(missing))
    assert (code, out) == (2, "")
    assert err == f"fiveup {command[0]}: error: --fixtures {missing}: no such file or folder\n"


def test_an_empty_expected_failures_file_means_none(tmp_path: Path) -> None:
    xfail = tmp_path / "xfail.yaml"
    xfail.write_text("# nothing fails yet\n")
    code, out, err = run("certify", "-k", "scoring", "--expected-failures", str(xfail))
    assert code == 0, out + err


def test_a_report_file_is_an_ordinary_file(tmp_path: Path) -> None:
    target = tmp_path / "r.json"
    assert run("certify", "-k", "credit-15", "--format", "json", "--output", str(target))[0] == 0
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(target.stat().st_mode) == 0o666 & ~umask


def test_a_mistyped_option_gets_a_suggestion() -> None:
    code, _, err = run("certify", "--engin", "reference")
    assert code == 2
    assert err.splitlines()[0] == (
        "fiveup certify: error: unrecognized arguments: --engin reference "
        "(did you mean: --engin -> --engine?)"
    )


@pytest.mark.parametrize(
    ("argv", "hint"),
    [
        (["fuzz", "--round", "5"], "--round -> --rounds"),
        (["certify", "--fixture", "x"], "--fixture -> --fixtures"),
        (["certify", "--engine-command", "x"], "--engine-command -> --engine-cmd"),
        (["certify", "--time-out=5"], "--time-out=5 -> --timeout"),
        (["list", "--level", "round"], None),  # not --help: every option shares the dashes
        (["fuzz", "--cases", "5"], None),  # not --players
    ],
)
def test_a_suggestion_is_given_only_for_a_close_name(argv: list[str], hint: str | None) -> None:
    code, _, err = run(*argv)
    first = err.splitlines()[0]
    assert code == 2 and "unrecognized arguments" in first
    assert (f"(did you mean: {hint}?)" in first) if hint else "did you mean" not in first


@pytest.mark.parametrize("command", ["validate", "certify", "list", "mutants"])
def test_a_path_given_on_the_command_line_is_printed_escaped(command: str, tmp_path: Path) -> None:
    forged = tmp_path / "x.yaml\nfixtures/scoring.yaml:1: /: ok\x1b[2K"
    args = [str(forged)] if command == "validate" else ["--fixtures", str(forged)]
    code, out, err = run(command, *args)
    assert code == 2
    assert "\x1b" not in out + err and "\\x1b" in err
    assert not any(line.startswith("fixtures/scoring.yaml:1:") for line in (out + err).splitlines())


def test_the_rerun_command_of_a_run_on_other_fixtures_names_them(tmp_path: Path) -> None:
    wrong = "fiveup.mutants.engines:scr2_credit_rounded_sum"
    code, out, _ = run("certify", "--engine", wrong, "--fixtures", "fixtures/scoring.yaml")
    assert code == 1
    rerun = next(line.strip() for line in out.splitlines() if line.strip().startswith("rerun: "))
    assert "--fixtures fixtures/scoring.yaml --case " in rerun
    code, again, _ = run(*shlex.split(rerun.removeprefix("rerun: fiveup ")))
    assert code == 1 and "1 failed" in again.splitlines()[-1]


@pytest.mark.parametrize("option", ["--output", "--badge", "--write-expected-failures"])
def test_certify_refuses_to_replace_a_fifo_or_a_device_with_a_report(
    option: str, tmp_path: Path
) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    for target in (str(fifo), os.devnull):
        code, out, err = run("certify", "--case", "doc.scoring.tally-5", option, target)
        assert (code, out) == (2, "")
        assert f"{option} {target}: is not a regular file" in err and "Traceback" not in err
    assert fifo.is_fifo() and Path(os.devnull).is_char_device()


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("--output", "--badge"),
        ("--output", "--write-expected-failures"),
        ("--badge", "--write-expected-failures"),
        ("--output", "--expected-failures"),
        ("--badge", "--expected-failures"),
        ("--output", "--fixtures"),
    ],
)
def test_certify_refuses_one_file_named_by_two_of_its_options(
    first: str, second: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    kept = "doc.scoring.tally-5: kept\n"
    (tmp_path / "same.yaml").write_text(kept)
    code, out, err = run("certify", "--case", "x", first, "same.yaml", second, "./same.yaml")
    assert (code, out) == (2, "")
    assert first in err and second in err and "Traceback" not in err
    assert (tmp_path / "same.yaml").read_text() == kept


def test_certify_refreshes_the_baseline_it_reads(tmp_path: Path) -> None:
    baseline = tmp_path / "known.yaml"
    baseline.write_text("doc.scoring.tally-5: was wrong once\n")
    fixtures = str(ROOT / "fixtures" / "scoring.yaml")
    code, _, err = run(
        "certify", "--fixtures", fixtures, "--expected-failures", str(baseline),
        "--write-expected-failures", str(baseline),
    )  # fmt: skip
    assert code == 1 and "Traceback" not in err  # the entry passes again: the run says so
    assert "doc.scoring.tally-5" not in baseline.read_text()


def test_certify_refreshing_a_baseline_keeps_the_reason_of_a_case_that_still_fails(
    tmp_path: Path,
) -> None:
    baseline = tmp_path / "known.yaml"
    engine = (
        f"{shlex.quote(sys.executable)} -m fiveup engine --mutant pen2_remainder_three_rounds_down"
    )
    args = ["certify", "--engine-cmd", engine, "-k", "PEN-2"]
    code, _, err = run(*args, "--write-expected-failures", str(baseline))
    assert code == 1, err
    written = yaml.safe_load(baseline.read_text())
    case_id = next(key for key in written if key != "fresh_seed")
    written[case_id]["reason"] = "ticket 123: rounds 3 down, as the old rule book"
    baseline.write_text(yaml.safe_dump(written))
    again = [*args, "--expected-failures", str(baseline), "--write-expected-failures"]
    code, _, err = run(*again, str(baseline))
    assert code == 0, err
    refreshed = yaml.safe_load(baseline.read_text())
    assert refreshed[case_id]["reason"] == "ticket 123: rounds 3 down, as the old rule book"
    assert refreshed.keys() == written.keys()


def test_certify_writes_no_baseline_when_the_engine_did_not_start(tmp_path: Path) -> None:
    baseline = tmp_path / "known.yaml"
    baseline.write_text("doc.scoring.tally-5: kept\n")
    command = f"{shlex.quote(sys.executable)} -c 'raise SystemExit(3)'"
    code, out, err = run(
        "certify", "--engine-cmd", command, "--write-expected-failures", str(baseline)
    )
    assert code == 1 and "NOTHING CHECKED" in out
    assert f"no baseline written to {baseline}: the engine did not start" in err
    assert baseline.read_text() == "doc.scoring.tally-5: kept\n"


def test_every_listed_subcommand_names_its_module_and_the_module_agrees() -> None:
    import importlib

    from fiveup.cli.app import COMMANDS, Command

    assert all(isinstance(command, Command) for command in COMMANDS)
    for command in COMMANDS:
        assert isinstance(command, Command)
        module = importlib.import_module(f"fiveup.cli.{command.module}")
        assert (module.NAME, module.HELP) == (command.NAME, command.HELP), command


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full on this system")
@pytest.mark.parametrize("words", [["list"], ["show", "doc.scoring.displayed-5"]])
def test_an_output_that_cannot_be_written_is_named_in_one_line(words: list[str]) -> None:
    # one fixture file rather than the corpus: the write at the end is what is tested
    fiveup = [
        sys.executable,
        "-m",
        "fiveup",
        *words,
        "--fixtures",
        str(ROOT / "fixtures" / "scoring.yaml"),
    ]
    with open("/dev/full", "w") as full:
        said = subprocess.run(fiveup, stdout=full, stderr=subprocess.PIPE, text=True, check=False)
    assert said.returncode == 2
    assert said.stderr == f"fiveup {words[0]}: error: writing the output: No space left on device\n"
    with open("/dev/full", "w") as full:
        mute = subprocess.run(fiveup, stdout=full, stderr=full, check=False)
    assert mute.returncode == 2  # stderr full too: no traceback to write, and the same code


@pytest.mark.parametrize(
    ("words", "said"),
    [
        ("tally 5", "fiveup tally: error: writing the output: stdout is closed\n"),
        ("list --fixtures /no/such", "fiveup list: error: --fixtures /no/such: no such file"),
    ],
    ids=["output", "usage-error"],
)
def test_a_command_started_without_stdout_says_so_in_one_line_and_exits_2(
    words: str, said: str
) -> None:
    # started with fd 1 closed, Python sets sys.stdout to None
    done = subprocess.run(
        ["sh", "-c", f'exec "$0" -m fiveup {words} >&-', sys.executable],
        stderr=subprocess.PIPE,
        text=True,
        check=False,
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith(said), done.stderr


def test_an_error_that_stderr_cannot_take_still_exits_2() -> None:
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "fiveup", "certify", "--case", "no.such.case"],
            stdout=subprocess.DEVNULL,
            stderr=full,
            check=False,
        )
    assert done.returncode == 2


def test_an_output_encoding_that_cannot_write_a_character_is_named_not_a_traceback() -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "fiveup",
            "render",
            "rule.layout.lay-1.matching-half-accepted",
            "--lang",
            "fi",
        ],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONIOENCODING": "ascii"},
        check=False,
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr == (
        "fiveup render: error: the text '\\xe4' cannot be written in ascii: "
        "set PYTHONIOENCODING=utf-8, or write to a file\n"
    )


def test_an_interrupt_is_one_line_and_exit_130_not_a_traceback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from fiveup.cli.app import INTERRUPTED

    (tmp_path / "interrupting.py").write_text("raise KeyboardInterrupt\n")  # as Ctrl-C would
    monkeypatch.syspath_prepend(str(tmp_path))
    code, out, err = run("certify", "--engine", "interrupting:Engine")
    assert (code, out, err) == (INTERRUPTED, "", "fiveup certify: interrupted\n")


@pytest.mark.parametrize(
    "option", ["--write-expected-failures", "--output"], ids=["baseline", "report"]
)
def test_certify_writes_no_yaml_file_into_a_fixtures_folder_it_reads(
    tmp_path: Path, option: str
) -> None:
    shutil.copy(ROOT / "fixtures" / "scoring.yaml", tmp_path / "scoring.yaml")
    written = tmp_path / "inside" / "out.yaml"
    written.parent.mkdir()
    code, out, err = run("certify", "--fixtures", str(tmp_path), option, str(written))
    assert (code, out) == (2, ""), err
    assert f"{option} {written}: is inside the --fixtures folder {tmp_path}" in err
    assert not written.exists()
    code, _, err = run("certify", "--fixtures", str(tmp_path), option, str(tmp_path / "r.txt"))
    assert code == 0, err  # not a fixture file: taken
    (tmp_path / "link.yaml").symlink_to(tmp_path.parent / "elsewhere.yaml")
    code, _, err = run("certify", "--fixtures", str(tmp_path), option, str(tmp_path / "link.yaml"))
    assert code == 2 and "is inside the --fixtures folder" in err, err  # the link is replaced


def test_certify_writes_no_spec_copy_of_the_corpus_into_a_fixtures_folder(tmp_path: Path) -> None:
    shutil.copy(ROOT / "fixtures" / "scoring.yaml", tmp_path / "scoring.yaml")
    page = tmp_path / "report.html"
    code, _, err = run(
        "certify", "--fixtures", str(tmp_path), "--format", "html", "--output", str(page)
    )
    assert code == 2, err
    assert f"--output: the spec's copy {tmp_path / 'report-spec'}: is inside the --fixtures" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["scoring.yaml"]
    site = ["--site", "https://example.org/spec"]  # linked, not copied: taken
    assert (
        run(
            "certify", "--fixtures", str(tmp_path), "--format", "html", "--output", str(page), *site
        )[0]
        == 0
    )


def test_certify_reads_back_a_baseline_of_every_fresh_case_erroring_at_length(
    tmp_path: Path,
) -> None:
    engine = tmp_path / "errs.py"
    engine.write_text(
        "import json, sys\n"
        "for line in sys.stdin:\n"
        "    m = json.loads(line)\n"
        "    if m['cmd'] == 'start':\n"
        "        levels = ['scoring', 'layout', 'round', 'match', 'moves']\n"
        "        info = {'name': 'errs', 'version': '1', 'levels': levels}\n"
        "        print(json.dumps({'ready': True, 'protocol': 1, 'engine': info}), flush=True)\n"
        "    elif m['cmd'] == 'run':\n"
        "        print(json.dumps({'seq': m['seq'], 'errored': 'E' * 3000}), flush=True)\n"
        "    else:\n"
        "        print(json.dumps({'stopped': True}), flush=True)\n"
        "        break\n",
        encoding="utf-8",
    )
    baseline = tmp_path / "errs.yaml"
    args = ["certify", "--engine-cmd", f"{shlex.quote(sys.executable)} {engine}", "--fresh", "200"]
    code, _, err = run(*args, "--write-expected-failures", str(baseline))
    assert code == 1, err
    written = yaml.safe_load(baseline.read_text(encoding="utf-8"))
    assert len(written) == 1 + 226 + 5 * 200  # the seed, and every case of the run
    assert max(len(entry["reason"]) for key, entry in written.items() if key != "fresh_seed") < 400
    code, out, err = run(*args, "--expected-failures", str(baseline))
    assert code == 0, err
    assert "NO NEW FAILURES" in out


def _file_size_limit(limit: int) -> Callable[[], None]:
    def limited() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return limited


@pytest.mark.skipif(sys.platform == "win32", reason="RLIMIT_FSIZE is POSIX")
def test_a_report_on_stdout_cut_short_by_a_file_size_limit_is_an_error(tmp_path: Path) -> None:
    report = tmp_path / "report.json"
    with report.open("wb") as out:
        done = subprocess.run(
            [sys.executable, "-m", "fiveup", "certify", "--seed", "1", "--format", "json"],
            stdout=out,
            stderr=subprocess.PIPE,
            text=True,
            preexec_fn=_file_size_limit(8192),  # ulimit -f 8: 8 KB of a 170 KB report
            check=False,
        )
    assert done.returncode == 2, done.stderr  # not 0 with a report cut at 8 KB
    assert done.stderr == "fiveup certify: error: writing the output: File too large\n"


@pytest.mark.skipif(sys.platform == "win32", reason="O_NONBLOCK is POSIX")
def test_a_stdout_left_non_blocking_still_gets_the_whole_report() -> None:
    read, write = os.pipe()
    os.set_blocking(write, False)  # as another program sharing the pipe may leave it
    with subprocess.Popen(
        [sys.executable, "-m", "fiveup", "list"], stdout=write, stderr=subprocess.PIPE
    ) as listing:
        os.close(write)
        chunks = []
        with os.fdopen(read, "rb") as pipe:
            while chunk := pipe.read(4096):  # slowly: the pipe fills, writes would block
                chunks.append(chunk)
                time.sleep(0.001)
        assert listing.wait(60) == 0
        assert listing.stderr is not None and listing.stderr.read() == b""
    lines = b"".join(chunks).decode().splitlines()
    assert len(lines) == len(load_corpus().cases) + 1  # every case and the count


def test_running_out_of_memory_is_the_harness_s_error_not_a_verdict(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import fiveup.cli.tally as tally

    def exhausted(args: object, streams: object) -> int:
        raise MemoryError

    monkeypatch.setattr(tally, "run", exhausted)
    code, out, err = run("tally", "115")
    assert (code, out, err) == (2, "", "fiveup tally: error: out of memory\n")


def _open_files(limit: int) -> Callable[[], None]:
    def limited() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (limit, limit))

    return limited


@pytest.mark.skipif(sys.platform == "win32", reason="RLIMIT_NOFILE is POSIX")
def test_running_out_of_file_descriptors_is_named_as_such() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "fiveup", "fuzz", "--engine", "reference", "--jobs", "2"],
        capture_output=True,
        text=True,
        preexec_fn=_open_files(16),
        timeout=120,
        check=False,
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr == (
        "fiveup fuzz: error: Too many open files: the process may open no more files (ulimit -n)\n"
    )


def test_a_working_directory_removed_under_the_command_is_named_as_such(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    gone = tmp_path / "gone"
    gone.mkdir()
    monkeypatch.chdir(gone)
    gone.rmdir()
    code, _, err = run("certify", "--case", "doc.scoring.tally-5", "--output", "r.json")
    assert code == 2
    assert err == (
        "fiveup certify: error: No such file or directory: the working directory no longer exists\n"
    )
