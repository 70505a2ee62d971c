"""The mutant catalogue and ``fiveup mutants``: every mutant is killed by the bundled corpus.

The bundled corpus is measured once for the module (``fiveup mutants --format json``) by the
tests marked ``campaign`` (``pytest -m campaign``, which ``.ci/run`` runs); the other tests run
the command on small corpora or on a few mutants, in-process.
"""

from __future__ import annotations

import io
import json
import os
import re
import resource
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from privacy import private_uses

import fiveup.cli.app as app
from fiveup.cli import main
from fiveup.cli import mutants as mutants_command
from fiveup.errors import UsageError
from fiveup.harness.corpus import load_corpus
from fiveup.harness.engines import load_engine
from fiveup.harness.spec_index import spec_rules
from fiveup.mutants import CATALOGUE, Mutant, measure, mutant_named
from fiveup.mutants import engines as mutant_engines
from fiveup.mutants.catalogue import ACTION_ORDER, PLACEMENT_ORDER
from fiveup.reference import STANDARD, ReferenceEngine
from fiveup.reference.rules import ACTION_REFUSALS, PLACEMENT_REFUSALS

ROOT = Path(__file__).resolve().parent.parent
CATALOGUE_SOURCE = ROOT / "fiveup" / "mutants" / "catalogue.py"
SUMMARY = re.compile(r"^(\d+) mutants, (\d+) killed, (\d+) survived$")
ROW_KEYS = {"mutant", "rule", "description", "killed_by", "survived"}


def run(*args: str) -> tuple[int, str, str]:
    """``fiveup mutants ARGS`` in-process (registered for the test if the app does not list it)."""
    commands = app.COMMANDS
    if mutants_command not in commands:
        commands = (*commands, mutants_command)
    out, err = io.StringIO(), io.StringIO()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(app, "COMMANDS", commands)
        code = main(["mutants", *args], stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def rows_of(out: str) -> dict[str, dict[str, Any]]:
    rows = json.loads(out)
    assert isinstance(rows, list)
    return {row["mutant"]: row for row in rows}


@pytest.fixture(scope="module")
def bundled() -> Iterator[tuple[int, dict[str, dict[str, Any]], str]]:
    """The bundled corpus measured against the whole catalogue: exit code, rows, stderr."""
    code, out, err = run("--format", "json")
    yield code, rows_of(out), err


# --- the catalogue ---------------------------------------------------------------------------


def test_the_catalogue_has_at_least_45_mutants_to_kill_each_named_once() -> None:
    names = [mutant.name for mutant in CATALOGUE]
    assert len(names) == len(set(names))
    assert sum(mutant.required for mutant in CATALOGUE) >= 45


def test_every_mutant_names_a_checkable_rule_and_describes_itself_in_one_line() -> None:
    checkable = {rule.id for rule in spec_rules().values() if rule.checkable}
    for mutant in CATALOGUE:
        assert mutant.rule in checkable, mutant.name
        assert mutant.description and "\n" not in mutant.description, mutant.name
        prefix = "order_" if mutant.name.startswith("order_") else mutant.rule.lower()
        assert mutant.name.startswith(prefix.replace("-", "")), mutant.name


def test_every_mutant_replaces_some_rule_and_plays_it_in_process() -> None:
    for mutant in CATALOGUE:
        assert mutant.rules != STANDARD and mutant.replaced, mutant.name
        engine = mutant.engine()
        assert isinstance(engine, ReferenceEngine) and engine.rules is mutant.rules
        assert engine.info()["name"] == f"mutant-{mutant.name}"


def test_every_pair_of_both_refusal_orders_near_or_far_is_swapped_once() -> None:
    assert [rule for rule, _, _ in ACTION_ORDER] == [r.rule for r in ACTION_REFUSALS]
    assert [rule for rule, _, _ in PLACEMENT_ORDER] == [r.rule for r in PLACEMENT_REFUSALS]
    swaps = [m for m in CATALOGUE if m.name.startswith("order_")]
    expected = []
    for order, refusals, field in (
        (ACTION_ORDER, ACTION_REFUSALS, "action_refusals"),
        (PLACEMENT_ORDER, PLACEMENT_REFUSALS, "placement_refusals"),
    ):
        for first in range(len(order)):
            for second in range(first + 1, len(order)):
                swapped = list(refusals)
                swapped[first], swapped[second] = swapped[second], swapped[first]
                expected.append((field, tuple(swapped)))
    assert len(expected) == 9 * 8 // 2 + 7 * 6 // 2
    assert [(m.replaced[0], getattr(m.rules, m.replaced[0])) for m in swaps] == expected
    assert {m.rule for m in swaps} == {"TRN-4"}


def test_only_refusal_swaps_are_equivalent_and_each_says_why() -> None:
    equivalents = [m for m in CATALOGUE if not m.required]
    assert equivalents and all(m.name.startswith("order_") for m in equivalents)
    for mutant in equivalents:
        assert f"unobservable, {mutant.equivalent}" in mutant.description


def test_mutant_named_finds_a_mutant_and_suggests_a_close_name() -> None:
    assert mutant_named("pts2_target_300").rule == "PTS-2"
    with pytest.raises(ValueError, match=r"did you mean .*pts2_target_300"):
        mutant_named("pts2_targt_300")


def test_the_catalogue_builds_on_the_public_seam_only() -> None:
    source = CATALOGUE_SOURCE.read_text(encoding="utf-8")
    assert private_uses(source) == []
    assert "replace(s, " in source


def test_a_mutant_is_a_python_engine_by_module_and_name() -> None:
    """``--engine fiveup.mutants.engines:NAME`` loads the catalogue's mutant NAME in-process."""
    for name in ("pen2_remainder_three_rounds_down", "pts2_target_300"):
        engine = load_engine(f"fiveup.mutants.engines:{name}")
        assert isinstance(engine, ReferenceEngine) and engine.rules is mutant_named(name).rules
        assert engine is getattr(mutant_engines, name)  # built once, the same afterwards
        assert engine.run("scoring", {"function": "penalty", "input": 3}) == {
            "value": 0 if name.startswith("pen2") else 5
        }
    assert {m.name for m in CATALOGUE} <= set(dir(mutant_engines))
    with pytest.raises(UsageError, match=r"^--engine fiveup.mutants.engines:pts2_targt_300: "):
        load_engine("fiveup.mutants.engines:pts2_targt_300")
    with pytest.raises(AttributeError, match=r"did you mean .*pts2_target_300"):
        mutant_engines.pts2_targt_300  # noqa: B018


def serve(*args: str, stdin: str = "") -> tuple[int, list[Any], str]:
    """``fiveup engine ARGS`` in-process on ``stdin``: exit code, replies, stderr."""
    out, err = io.StringIO(), io.StringIO()
    code = main(["engine", *args], stdout=out, stderr=err, stdin=io.StringIO(stdin))
    return code, [json.loads(line) for line in out.getvalue().splitlines()], err.getvalue()


def test_engine_mutant_serves_a_mutant_over_the_process_protocol() -> None:
    messages = [
        {"cmd": "start", "protocol": 1},
        {"cmd": "run", "seq": 1, "level": "scoring", "given": {"function": "penalty", "input": 3}},
        {"cmd": "stop"},
    ]
    stdin = "".join(json.dumps(message) + "\n" for message in messages)
    code, replies, err = serve("--mutant", "pen2_remainder_three_rounds_down", stdin=stdin)
    assert code == 0, err
    assert replies[0]["ready"] is True
    assert replies[0]["engine"]["name"] == "mutant-pen2_remainder_three_rounds_down"
    assert replies[1:] == [{"seq": 1, "observation": {"value": 0}}, {"stopped": True}]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--mutant", "pen2_remainder_three_round_down"], "; did you mean pen2_remainder_three"),
        (["--mutant", "no-such-mutant"], " in the catalogue (see fiveup mutants --list)"),
        (["--mutant", "pts2_target_300", "--engine", "reference"], "not allowed with"),
        (["--mutant", "x" * 5000], "--mutant 'xxxxxxxxxx"),
    ],
)
def test_engine_mutant_with_an_unknown_name_exits_2_naming_the_option(
    args: list[str], message: str
) -> None:
    code, replies, err = serve(*args)
    assert (code, replies) == (2, [])
    assert err.startswith("fiveup engine: error: ") and "--mutant" in err and message in err
    assert "Traceback" not in err and len(err) < 400  # a long name is not echoed whole


# --- the bundled corpus kills every mutant ---------------------------------------------------


@pytest.mark.campaign
def test_every_mutant_is_killed_by_the_bundled_corpus(
    bundled: tuple[int, dict[str, dict[str, Any]], str],
) -> None:
    code, rows, err = bundled
    survivors = sorted(
        name for name, row in rows.items() if row["survived"] and row["equivalent"] is None
    )
    assert survivors == []
    assert code == 0, err
    assert err == ""


@pytest.mark.campaign
def test_equivalent_mutants_are_indeed_never_killed(
    bundled: tuple[int, dict[str, dict[str, Any]], str],
) -> None:
    _, rows, _ = bundled
    equivalent = {m.name for m in CATALOGUE if not m.required}
    assert {name for name, row in rows.items() if row["equivalent"]} == equivalent
    assert all(rows[name]["survived"] and rows[name]["killed_by"] == [] for name in equivalent)


@pytest.mark.campaign
def test_json_rows_have_the_documented_shape(
    bundled: tuple[int, dict[str, dict[str, Any]], str],
) -> None:
    _, rows, _ = bundled
    assert list(rows) == [m.name for m in CATALOGUE]
    ids = {case.id for case in load_corpus().cases}
    for mutant in CATALOGUE:
        row = rows[mutant.name]
        assert set(row) >= ROW_KEYS, mutant.name
        assert (row["rule"], row["description"]) == (mutant.rule, mutant.description)
        assert row["survived"] is (row["killed_by"] == [])
        assert set(row["killed_by"]) <= ids and len(set(row["killed_by"])) == len(row["killed_by"])
        assert row["replaces"] == list(mutant.replaced)


@pytest.mark.campaign
def test_the_cases_of_a_mutants_rule_come_first_among_its_killers(
    bundled: tuple[int, dict[str, dict[str, Any]], str],
) -> None:
    _, rows, _ = bundled
    cases = load_corpus().by_id()
    killers = rows["cnt1_sums_connection_points"]["killed_by"]
    assert cases[killers[0]].primary_rule == "CNT-1"
    ranks = [
        0 if cases[k].primary_rule == "CNT-1" else 1 + ("CNT-1" not in cases[k].rules)
        for k in killers
    ]
    assert ranks == sorted(ranks)


@pytest.mark.campaign
def test_the_hand_derived_case_kills_the_target_of_300(
    bundled: tuple[int, dict[str, dict[str, Any]], str],
) -> None:
    _, rows, _ = bundled
    case_id = "rule.match.pts-2.three-hundred-is-short-of-the-target"
    killed_by = rows["pts2_target_300"]["killed_by"]
    assert case_id in killed_by and len(killed_by) >= 2  # a boundary is pinned by two cases
    case = load_corpus().by_id()[case_id]
    assert case.primary_rule == "PTS-2" and case.provenance["source"] == "derived"


# --- the command -----------------------------------------------------------------------------


def test_a_weak_corpus_leaves_mutants_alive_and_exits_1() -> None:
    code, out, err = run("--fixtures", str(ROOT / "fixtures" / "scoring.yaml"))
    assert code == 1, err
    lines = out.rstrip().splitlines()
    summary = SUMMARY.match(lines[-1])
    assert summary is not None, lines[-1]
    total, killed, survived = (int(n) for n in summary.groups())
    assert total == sum(m.required for m in CATALOGUE) == killed + survived
    assert 0 < killed < total
    assert "MUTANT(S) SURVIVED" in out
    rows: dict[str, str] = {}
    for line in lines:
        rows.setdefault(line.split(" ")[0], line)
    assert " SURVIVED " in rows["cnt1_sums_connection_points"]
    assert "!!! NO CASE KILLS IT" in rows["cnt1_sums_connection_points"]
    assert " killed " in rows["scr2_multiples_of_ten"]
    assert " equivalent " in rows["order_end1_before_trn3"]


THIRD_PARTY = """\
cases:
  - id: acme.layout.opening-one-four
    title: The opening [1|4] scores 5
    rules: [SCR-1, SCR-2]
    provenance: {source: derived, note: "Acme's own case."}
    level: layout
    given: {placements: ["[1|4]"]}
    expect:
      steps: [{sum: 5, credit: 5, displayed: 1}]
"""

BROKEN = """\
cases:
  - id: acme.scoring.wrong-credit
    title: A case whose expectation is wrong
    rules: [SCR-2]
    provenance: {source: derived, note: "Wrong on purpose."}
    level: scoring
    given: {function: credit, input: 15}
    expect: {value: 10}
"""


def test_fixtures_measures_a_third_partys_own_files(tmp_path: Path) -> None:
    (tmp_path / "acme.yaml").write_text(THIRD_PARTY, encoding="utf-8")
    code, out, err = run("--fixtures", str(tmp_path), "--format", "json")
    assert code == 1, err
    rows = rows_of(out)
    killed = {name for name, row in rows.items() if not row["survived"]}
    assert {"scr1_opening_not_scored", "scr2_multiples_of_ten", "pts1_displayed_is_raw"} <= killed
    assert "trn1_counterclockwise" not in killed
    assert all(row["killed_by"] in ([], ["acme.layout.opening-one-four"]) for row in rows.values())


def test_a_case_the_reference_fails_is_reported_not_counted(tmp_path: Path) -> None:
    (tmp_path / "broken.yaml").write_text(BROKEN, encoding="utf-8")
    code, out, err = run(
        "--fixtures", str(tmp_path / "broken.yaml"), "--mutant", "mat5_score_floored_at_zero"
    )
    assert code == 1
    assert (
        "fail against the reference engine itself and are not counted: acme.scoring.wrong-credit"
        in err
    )
    assert out.rstrip().endswith("1 mutants, 0 killed, 1 survived")


def test_some_mutants_and_some_cases_by_name_and_keyword() -> None:
    code, out, err = run(
        "-k", "tally", "--mutant", "tal2_strokes_only", "--mutant", "order_end1_before_trn3"
    )
    assert code == 0, err
    assert "cases of the bundled corpus (-k tally)" in out
    assert out.rstrip().endswith("1 mutants, 1 killed, 0 survived")
    assert "1 equivalent mutants not counted" in out
    code, out, _ = run("-k", "tally", "--mutant", "tal2_strokes_only", "--format", "json")
    (row,) = json.loads(out)
    assert row["mutant"] == "tal2_strokes_only" and row["killed_by"]
    assert all("tally" in case for case in row["killed_by"])


def test_jobs_gives_the_same_report_as_one_process() -> None:
    some = [
        "-k",
        "tally or credit-15",
        "--mutant",
        "tal2_strokes_only",
        "--mutant",
        "cnt1_sums_connection_points",
    ]
    some += ["--mutant", "scr2_multiples_of_ten", "--mutant", "order_end1_before_trn3"]
    outputs = {}
    for fmt in ("json", "text"):
        alone = run(*some, "--format", fmt)
        shared = run(*some, "--format", fmt, "--jobs", "2")
        if fmt == "text":  # the time taken differs, nothing else
            alone, shared = (
                (code, re.sub(r" in [0-9.]+ s$", "", out, flags=re.M), err)
                for code, out, err in (alone, shared)
            )
        assert shared == alone
        outputs[fmt] = shared[1]
    rows = rows_of(outputs["json"])
    assert set(rows) == {
        "cnt1_sums_connection_points", "scr2_multiples_of_ten", "tal2_strokes_only",
        "order_end1_before_trn3",
    }  # fmt: skip
    assert rows["tal2_strokes_only"]["killed_by"] and rows["scr2_multiples_of_ten"]["killed_by"]


def test_measure_in_jobs_takes_only_the_catalogues_mutants() -> None:
    corpus = load_corpus()
    own = Mutant("own", "SCR-2", "a caller's own", mutant_named("scr2_multiples_of_ten").rules)
    with pytest.raises(ValueError, match="own: only the catalogue's mutants run in several jobs"):
        measure(corpus, corpus.cases[:1], [own], jobs=2)
    with pytest.raises(ValueError, match="jobs must be at least 1, not 0"):
        measure(corpus, corpus.cases[:1], [own], jobs=0)


def test_list_shows_the_catalogue_without_running_it() -> None:
    code, out, _ = run("--list")
    assert code == 0
    lines = out.rstrip().splitlines()
    assert len(lines) == len(CATALOGUE) + 1
    required = sum(m.required for m in CATALOGUE)
    assert lines[-1] == f"{len(CATALOGUE)} mutants, {required} to be killed"
    code, out, _ = run("--list", "--format", "json")
    assert [row["mutant"] for row in json.loads(out)] == [m.name for m in CATALOGUE]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--fixtures", "/no/such/place"], "no such file or folder"),
        (
            ["--mutant", "pts2_targt_300"],
            "--mutant 'pts2_targt_300': no mutant of that name in the catalogue; did you",
        ),
        (["-k", "no-case-has-this-word"], "no case matches"),
        (["--format", "xml"], "invalid choice"),
        (["--jobs", "0"], "--jobs: 0 is out of range: from 1 to "),
        (["--jobs", "100000"], "--jobs: 100000 is out of range: from 1 to "),
        (["--jobs", "two"], "not a whole number: 'two'"),
    ],
)
def test_usage_mistakes_exit_2(args: list[str], message: str) -> None:
    code, out, err = run(*args)
    assert code == 2, out + err
    assert err.startswith("fiveup mutants: error: ") and message in err


def test_a_folder_without_fixtures_and_a_broken_fixture_exit_2(tmp_path: Path) -> None:
    code, _, err = run("--fixtures", str(tmp_path))
    assert code == 2 and "no *.yaml fixture files" in err
    (tmp_path / "bad.yaml").write_text("cases: [{id: x}]\n", encoding="utf-8")
    code, _, err = run("--fixtures", str(tmp_path))
    assert code == 2 and "broken fixtures" in err


@pytest.mark.skipif(sys.platform == "win32", reason="process groups are POSIX")
def test_two_quick_ctrl_c_end_mutants_jobs_at_once() -> None:
    with subprocess.Popen(
        [sys.executable, "-m", "fiveup", "mutants", "--jobs", "2"],
        start_new_session=True,  # its own group, which a terminal's Ctrl-C reaches whole
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    ) as run:
        time.sleep(3)  # the workers have their mutants
        os.killpg(run.pid, signal.SIGINT)
        time.sleep(0.05)
        os.killpg(run.pid, signal.SIGINT)  # the second lands while the pool shuts down
        try:
            _, err = run.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(run.pid, signal.SIGKILL)
            run.wait()
            pytest.fail("mutants --jobs 2 hung after two Ctrl-C")
    assert run.returncode == 130, err
    assert err.strip().splitlines()[-1] == "fiveup mutants: interrupted"


def _address_space(kib: int) -> Callable[[], None]:
    def limited() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (kib << 10, kib << 10))

    return limited


@pytest.mark.skipif(sys.platform == "win32", reason="RLIMIT_AS is POSIX")
def test_mutants_jobs_whose_pool_cannot_start_a_thread_says_so_and_ends() -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "fiveup",
            "mutants",
            "--jobs",
            "2",
            "--mutant",
            "cnt1_sums_connection_points",
        ],
        capture_output=True,
        text=True,
        preexec_fn=_address_space(60_000),  # ulimit -v 60000: no room for a thread's stack
        timeout=120,  # it waited for ever
        check=False,
    )
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert done.stderr.rstrip().splitlines()[-1].startswith("fiveup mutants: error: ")
