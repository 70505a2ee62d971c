"""Reading the reports that ``fiveup compare`` and ``fiveup fuzz --merge`` take, within memory.

A report may be 64 MiB, but what decoding it costs is set by its values, not its size: a file of
``[],`` builds a list of ~70 bytes for every 3 bytes. Each file here is given to ``fiveup`` in
a fresh interpreter (so the measure is its own), whose peak resident memory is read from
``/proc/self/status``, never a time.
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from fiveup.cli.fuzz import MERGE_MAX_BYTES
from fiveup.errors import UsageError
from fiveup.harness.regressions import REPORT_MAX_BYTES, REPORT_MAX_VALUES, read_report

MEASURE = """
import io, json, resource, sys
from pathlib import Path
from fiveup.cli import main
err = io.StringIO()
code = main(sys.argv[1:], stdout=io.StringIO(), stderr=err)
# VmHWM is this process's own peak since exec; ru_maxrss would carry the pytest worker's
status = Path("/proc/self/status")
if status.exists():
    line = next(x for x in status.read_text().splitlines() if x.startswith("VmHWM:"))
    peak = int(line.split()[1]) * 1024
else:
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
print(json.dumps({"code": code, "err": err.getvalue(), "peak": peak}))
"""

_CEILING = 2 << 30
"""The address space the measured process may take: a regression fails, never swaps."""


def _ceiling() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (_CEILING, _CEILING))


def measure(*args: str) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-c", MEASURE, *args],
        capture_output=True,
        text=True,
        timeout=600,  # only stops a hang
        preexec_fn=_ceiling,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    measured: dict[str, object] = json.loads(done.stdout)
    return measured


MB = 1 << 20


def test_a_64_mib_report_of_tiny_values_is_refused_before_it_is_built(tmp_path: Path) -> None:
    tiny = tmp_path / "tiny.json"
    count = (REPORT_MAX_BYTES - 100) // 3
    tiny.write_text('{"cases": [], "x": [' + "[]," * count + "[]]}")
    assert tiny.stat().st_size <= REPORT_MAX_BYTES
    measured = measure("compare", str(tiny), str(tiny))
    assert measured["code"] == 2
    assert measured["err"] == (
        f"fiveup compare: error: {tiny}: not read: more than {REPORT_MAX_VALUES:,} JSON "
        "values (compare reads no more: a certify run of the corpus has far fewer, one with "
        "--fresh 1000 of a failing engine may have more)\n"
    )
    assert isinstance(measured["peak"], int) and measured["peak"] < 300 * MB, measured["peak"]


def test_two_reports_at_both_limits_are_compared_within_600_mb(tmp_path: Path) -> None:
    full = tmp_path / "full.json"
    nest = "[[[[[[[[[[]]]]]]]]]]"  # 10 lists for 11 openers: the most memory per value
    body = ",".join([nest] * ((REPORT_MAX_VALUES - 100) // 11))
    text = '{"cases": [], "x": [' + body + '], "s": "'
    full.write_text(text + "a" * (REPORT_MAX_BYTES - len(text) - 10) + '"}')
    assert REPORT_MAX_BYTES - 100 < full.stat().st_size <= REPORT_MAX_BYTES
    measured = measure("compare", str(full), str(full))
    assert measured["code"] == 0, measured["err"]
    assert isinstance(measured["peak"], int) and measured["peak"] < 600 * MB, measured["peak"]


def test_merged_reports_are_refused_past_64_mib_together(tmp_path: Path) -> None:
    paths = []
    for number in range(MERGE_MAX_BYTES // (1 << 20) + 1):
        path = tmp_path / f"shard{number:03}.json"
        path.write_text('{"s": "' + "a" * ((1 << 20) - 20) + '"}')
        paths.append(str(path))
    measured = measure("fuzz", "--merge", *paths)
    assert measured["code"] == 2
    assert measured["err"] == (
        f"fiveup fuzz: error: --merge {paths[-1]}: not read: the reports up to this one hold "
        "more than 64 MiB together\n"
    )
    assert isinstance(measured["peak"], int) and measured["peak"] < 200 * MB, measured["peak"]


def test_merged_reports_are_refused_past_2_million_values_together(tmp_path: Path) -> None:
    paths = []
    for number in range(8):
        path = tmp_path / f"shard{number}.json"
        path.write_text('{"x": [' + ",".join(["[]"] * 349_000) + "]}")
        paths.append(str(path))
    measured = measure("fuzz", "--merge", *paths)
    assert measured["code"] == 2
    assert measured["err"] == (
        f"fiveup fuzz: error: --merge {paths[5]}: not read: the reports up to this one hold "
        f"more than {REPORT_MAX_VALUES:,} JSON values together\n"
    )
    assert isinstance(measured["peak"], int) and measured["peak"] < 300 * MB, measured["peak"]


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ('{"cases": [], "x": [' + "0," * REPORT_MAX_VALUES + "0]}", "more than 2,000,000"),
        ('{"cases": []} []', "not JSON: Extra data"),
        ('{"cases": [], "cases": []}', 'not JSON: the name "cases" appears twice'),
        ('{"cases": [], "x": NaN}', "not JSON: NaN is not a JSON number"),
        ('{"cases": [], "protocol": 1e999}', "not JSON: 1e999 is past the largest number"),
        ('{"cases": [], "x": ' + "9" * 10**5 + "}", "not JSON: a whole number of 100,000 digits"),
        ("[" * 100_000, "not read: the JSON nests too deeply"),
        ("", "not JSON: it is empty"),
        (" \n", "not JSON: it holds nothing but blanks"),
    ],
)
def test_a_report_that_is_no_report_is_refused_naming_the_file(
    tmp_path: Path, text: str, problem: str
) -> None:
    path = tmp_path / "report.json"
    path.write_text(text)
    with pytest.raises(UsageError) as caught:
        read_report(path)
    assert str(caught.value).startswith(f"{path}: ") and problem in str(caught.value)


def test_commas_inside_strings_are_not_counted_as_values(tmp_path: Path) -> None:
    path = tmp_path / "report.json"
    words = ",:[{" * (REPORT_MAX_VALUES // 2)
    path.write_text(json.dumps({"cases": [], "note": words}))
    assert read_report(path)["note"] == words


def test_millions_of_strings_are_told_apart_from_values_without_a_copy_of_the_text(
    tmp_path: Path,
) -> None:
    report = tmp_path / "report.json"
    count = REPORT_MAX_VALUES * 3 // 4  # two openers each at a glance, one value in truth
    report.write_text('{"cases": [], "x": [' + '"[1|4]",' * count + '"[0|0]"]}')
    measured = measure("compare", str(report), str(report))
    assert measured["code"] == 0, measured["err"]
    assert isinstance(measured["peak"], int) and measured["peak"] < 400 * MB, measured["peak"]
