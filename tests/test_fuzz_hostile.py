"""``fiveup fuzz`` and ``fiveup bench-fuzz`` attacked through their options, as a hostile user does.

Every bad value is one line naming the option, exit 2, no traceback, nothing written; ``--out``
is never written through a symbolic link and never waits on a FIFO.
"""

from __future__ import annotations

import io
import os
import sys
from pathlib import Path

import pytest

from fiveup.cli import main

ROOT = Path(__file__).resolve().parent.parent
WRONG = "fiveup.mutants.engines:pen2_remainder_three_rounds_down"


@pytest.fixture(autouse=True)
def _at_the_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)


def fiveup(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(args), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


HUGE = str(10**30)

FUZZ_ATTACKS = [
    ("--rounds", HUGE),
    ("--rounds", "0"),
    ("--rounds", "-5"),
    ("--rounds", "2.5"),
    ("--rounds", "x"),
    ("--rounds", ""),
    ("--rounds", "\u0663"),  # an Arabic-Indic three: a digit to int(), not to the option
    ("--seed", HUGE),
    ("--seed", "1e3"),
    ("--seed", ""),
    ("--seed", "9" * 5000),
    ("--keep", "-1"),
    ("--keep", HUGE),
    ("--keep", "one"),
    ("--jobs", "0"),
    ("--jobs", "-1"),
    ("--jobs", "24000"),
    ("--jobs", HUGE),
    ("--jobs", "1.5"),
    ("--timeout", "0"),
    ("--timeout", "-1"),
    ("--timeout", "nan"),
    ("--timeout", "inf"),
    ("--timeout", "1e300"),
    ("--timeout", "soon"),
    ("--shard", "3/2"),
    ("--shard", "0/0"),
    ("--shard", "-1/2"),
    ("--shard", "0/" + HUGE),
    ("--shard", "\u00b2/3"),  # a superscript two
    ("--shard", "1"),
    ("--shard", ""),
    ("--players", "5"),
    ("--players", HUGE),
    ("--players", "two"),
    ("--level", "perft"),
    ("--format", "xml"),
]


@pytest.mark.parametrize(("option", "value"), FUZZ_ATTACKS)
def test_fuzz_refuses_a_bad_value_naming_the_option(option: str, value: str) -> None:
    code, out, err = fiveup("fuzz", "--engine", "reference", "--rounds", "5", option, value)
    assert code == 2 and out == ""
    assert err.startswith("fiveup fuzz: error: ") and option in err.splitlines()[0]
    assert "Traceback" not in err


BENCH_ATTACKS = [
    ("--rounds", HUGE),
    ("--rounds", "0"),
    ("--rounds", "-1"),
    ("--rounds", "1.0"),
    ("--cases", HUGE),
    ("--cases", "0"),
    ("--cases", ""),
    ("--seed", HUGE),
    ("--seed", "x"),
    ("--format", "yaml"),
]


@pytest.mark.parametrize(("option", "value"), BENCH_ATTACKS)
def test_bench_fuzz_refuses_a_bad_value_naming_the_option(option: str, value: str) -> None:
    code, out, err = fiveup("bench-fuzz", option, value)
    assert code == 2 and out == ""
    assert err.startswith("fiveup bench-fuzz: error: ") and option in err.splitlines()[0]


@pytest.mark.parametrize("option", ["--engine-cmd", "--baseline-cmd"])
def test_an_empty_command_is_refused(option: str) -> None:
    args = ["fuzz", option, "  "] if option == "--engine-cmd" else ["fuzz", "--engine", "reference"]
    if option == "--baseline-cmd":
        args += [option, " "]
    code, _, err = fiveup(*args)
    assert code == 2 and f"{option} is empty" in err


def _campaign(out: Path) -> tuple[int, str, str]:
    return fiveup("fuzz", "--engine", WRONG, "--rounds", "40", "--seed", "3", "--out", str(out))


def test_out_naming_a_file_is_refused_naming_the_option(tmp_path: Path) -> None:
    target = tmp_path / "found"
    target.write_text("mine\n", encoding="utf-8")
    code, out, err = _campaign(target)
    assert code == 2 and out == ""
    assert "--out" in err and "is a file" in err and "File exists" not in err
    assert target.read_text(encoding="utf-8") == "mine\n"


def test_out_as_a_symbolic_link_is_refused_and_nothing_is_written_through(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    planted = tmp_path / "found"
    planted.symlink_to(elsewhere)
    code, _, err = _campaign(planted)
    assert code == 2 and "--out" in err and "symbolic link" in err
    assert list(elsewhere.iterdir()) == []


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
def test_out_as_a_fifo_is_refused_without_waiting(tmp_path: Path) -> None:
    fifo = tmp_path / "found"
    os.mkfifo(fifo)
    code, _, err = _campaign(fifo)
    assert code == 2 and "--out" in err and "not a folder" in err


def test_out_under_a_file_says_which_option_cannot_be_written(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("", encoding="utf-8")
    code, _, err = _campaign(tmp_path / "file" / "found")
    assert code == 2 and err.startswith("fiveup fuzz: error: --out ")
    assert "file is a file, not a folder" in err


def test_out_in_a_missing_folder_is_refused_as_certify_refuses_it(tmp_path: Path) -> None:
    code, _, err = _campaign(tmp_path / "typo" / "found")
    assert code == 2 and f"--out {tmp_path}/typo/found: no such folder {tmp_path}/typo" in err
    assert list(tmp_path.iterdir()) == []


def test_out_is_made_only_when_a_divergence_is_written(tmp_path: Path) -> None:
    code, _, err = fiveup(
        "fuzz", "--engine-cmd", "false", "--rounds", "2", "--out", str(tmp_path / "new")
    )
    assert code == 2 and "engine" in err
    assert list(tmp_path.iterdir()) == []  # refused: no folder left behind
    assert _campaign(tmp_path / "new")[0] == 1 and any((tmp_path / "new").glob("*.yaml"))


def test_planted_links_and_fifos_inside_out_are_replaced_not_followed(tmp_path: Path) -> None:
    out = tmp_path / "found"
    code, text, err = _campaign(out)
    assert code == 1, err
    written = sorted(out.glob("*.yaml"))
    assert written
    victim = tmp_path / "victim"
    victim.write_text("precious\n", encoding="utf-8")
    for path in written:
        path.unlink()
    written[0].symlink_to(victim)  # a link of the next fixture's very name
    (out / f"{written[0].stem}.yaml.tmp").symlink_to(victim)  # the old predictable temp name
    code, again, err = _campaign(out)
    assert code == 1 and again.splitlines()[:-1] == text.splitlines()[:-1]
    assert victim.read_text(encoding="utf-8") == "precious\n"
    assert not written[0].is_symlink() and "cases:" in written[0].read_text(encoding="utf-8")


def test_merge_of_unreadable_or_foreign_files_exits_2_naming_the_file(tmp_path: Path) -> None:
    junk = tmp_path / "junk.json"
    junk.write_text("{not json", encoding="utf-8")
    other = tmp_path / "other.json"
    other.write_text('{"cases": 3}', encoding="utf-8")
    utf16 = tmp_path / "utf16.json"
    utf16.write_text('{"cases": 3}', encoding="utf-16")
    for path, words in (
        (junk, "not JSON"),
        (utf16, "not UTF-8 text: invalid start byte at byte 0"),
        (other, "not a fuzz report"),
        (tmp_path, "is a folder"),
        (tmp_path / "absent.json", "cannot read"),
    ):
        code, out, err = fiveup("fuzz", "--merge", str(path))
        assert code == 2 and out == "", err
        assert f"--merge {path}" in err and words in err, err
    code, _, err = fiveup("fuzz", "--merge", str(junk), "--engine", "reference")
    assert code == 2 and "--merge plays nothing: drop --engine" in err


@pytest.mark.parametrize(
    ("engine", "baseline", "said"),
    [
        (("--engine-cmd", "true"), (), "error: engine crashed: the engine exited with code 0"),
        (
            ("--engine", "reference"),
            ("--baseline-cmd", "true"),
            "error: the baseline (--baseline-cmd) failed: engine crashed: the engine exited",
        ),
        (
            ("--engine", "reference"),
            ("--baseline-cmd", f"{sys.executable} tests/engines/crash_mid_run.py"),
            "error: the baseline (--baseline-cmd) failed: engine crashed: ",
        ),
    ],
    ids=["engine-at-start", "baseline-at-start", "baseline-mid-campaign"],
)
def test_a_failing_baseline_is_told_apart_from_the_engine_under_test(
    engine: tuple[str, ...], baseline: tuple[str, ...], said: str
) -> None:
    code, _, err = fiveup("fuzz", *engine, *baseline, "--level", "scoring", "--rounds", "20")
    assert code == 2 and said in err, err
    assert ("baseline" in err) is bool(baseline), err


def _below(pid: int) -> set[int]:
    """The processes below ``pid`` now, from /proc."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parents[int(entry.name)] = int(
                    (entry / "stat").read_text().rsplit(")", 1)[1].split()[1]
                )
            except (OSError, IndexError, ValueError):
                continue
    found: set[int] = set()
    frontier = {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc and PR_SET_PDEATHSIG")
@pytest.mark.parametrize(
    "command",
    [
        ["fuzz", "--engine-cmd", f"{sys.executable} -m fiveup engine", "--rounds", "1000000"],
        ["mutants", "--jobs", "2"],
    ],
    ids=["fuzz", "mutants"],
)
def test_jobs_workers_and_their_engines_die_with_a_harness_killed_outright(
    command: list[str], tmp_path: Path
) -> None:
    import subprocess
    import time

    argv = [sys.executable, "-m", "fiveup", *command]
    if command[0] == "fuzz":
        argv += ["--jobs", "2"]
    env = {**os.environ, "TMPDIR": str(tmp_path)}  # what a harness killed outright leaves
    with subprocess.Popen(
        argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env
    ) as harness:
        deadline = time.monotonic() + 60
        below: set[int] = set()
        while len(below) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
            below = _below(harness.pid)
        assert len(below) >= 2, "the workers started"
        time.sleep(0.5)  # mid-run: the workers have their tasks, fuzz's their engines
        below = _below(harness.pid)
        harness.kill()  # kill -9: no handler, no clean-up of the harness runs
        harness.wait()
        deadline = time.monotonic() + 20
        while any(map(_alive, below)) and time.monotonic() < deadline:
            time.sleep(0.1)
        left = [pid for pid in below if _alive(pid)]
        for pid in left:
            os.kill(pid, 9)
        assert not left, f"{len(left)} of {len(below)} processes outlived the harness"


_GROUP_SIGNALS = [
    pytest.param(name, marks=() if name == "SIGHUP" else pytest.mark.campaign, id=name)
    for name in ("SIGHUP", "SIGINT", "SIGTERM")
]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc and process groups")
@pytest.mark.parametrize("signal_name", _GROUP_SIGNALS)
@pytest.mark.parametrize(
    "command",
    [
        ["fuzz", "--engine", "reference", "--rounds", "1000000", "--jobs", "2"],
        ["mutants", "--jobs", "2"],
    ],
    ids=["fuzz", "mutants"],
)
def test_a_signal_to_the_whole_group_of_a_jobs_run_ends_it_in_one_line(
    command: list[str], signal_name: str
) -> None:
    import signal
    import subprocess
    import time

    signum = getattr(signal, signal_name)
    with subprocess.Popen(
        [sys.executable, "-m", "fiveup", *command],
        start_new_session=True,  # a terminal's group: its workers and helpers get it too
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    ) as run:
        deadline = time.monotonic() + 60
        while len(_below(run.pid)) < 3 and time.monotonic() < deadline:
            time.sleep(0.05)  # the tracker and two workers
        os.killpg(run.pid, signum)
        try:
            _, err = run.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(run.pid, signal.SIGKILL)
            run.wait()
            pytest.fail(f"{command[0]} --jobs 2 hung after {signal_name}")
    said = "interrupted" if signum == signal.SIGINT else f"terminated by {signal_name}"
    assert (run.returncode, err) == (128 + signum, f"fiveup {command[0]}: {said}\n")
