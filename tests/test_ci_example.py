"""examples/ci/certify.sh, the README's CI recipe, works as written against real engines.

The jobs that certify engines over the process protocol (the reference's first job and the next,
a wrong engine's baseline, a new failure) are a long campaign, marked ``campaign``: ``pytest -m
campaign`` runs them, and so does .ci/run. The everyday run checks that the README shows the
script as it is and that a broken set-up exits 2.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "examples" / "ci" / "certify.sh"
REFERENCE = f"{sys.executable} -m fiveup engine"
WRONG = f"{sys.executable} -m fiveup engine --mutant pen2_remainder_three_rounds_down"


def ci(folder: Path, engine: str, **env: str) -> subprocess.CompletedProcess[str]:
    """The script run in ``folder`` as a CI job would run it, with ``fiveup`` on its PATH."""
    path = f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"
    return subprocess.run(
        ["sh", str(SCRIPT)],
        cwd=folder,
        env={**os.environ, "PATH": path, "ENGINE_CMD": engine, **env},
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )


def test_ci_example_the_readme_shows_the_script_as_it_is() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert SCRIPT.read_text(encoding="utf-8") in readme


@pytest.fixture(scope="module")
def reference_first_run(
    tmp_path_factory: pytest.TempPathFactory,
) -> tuple[Path, subprocess.CompletedProcess[str]]:
    """The reference's first job in a fresh folder (it writes the baseline), shared unchanged."""
    folder = tmp_path_factory.mktemp("reference-first-run")
    return folder, ci(folder, REFERENCE)


def after_reference_first_run(
    shared: tuple[Path, subprocess.CompletedProcess[str]], tmp_path: Path
) -> tuple[Path, subprocess.CompletedProcess[str]]:
    """A copy of the folder the reference's first job left, for a test to go on in."""
    folder, first = shared
    copy = tmp_path / "job"
    shutil.copytree(folder, copy)
    return copy, first


@pytest.mark.campaign
def test_ci_example_the_reference_is_green_and_the_ratchet_compares_runs(
    reference_first_run: tuple[Path, subprocess.CompletedProcess[str]], tmp_path: Path
) -> None:
    folder, first = after_reference_first_run(reference_first_run, tmp_path)
    assert first.returncode == 0, first.stdout + first.stderr
    assert "wrote the baseline fiveup-known.yaml" in first.stdout
    assert (folder / "fiveup-report.json").exists()
    (folder / "fiveup-report.json").rename(folder / "previous.json")
    again = ci(folder, REFERENCE, PREVIOUS="previous.json")
    assert again.returncode == 0, again.stdout + again.stderr
    assert "wrote the baseline" not in again.stdout
    assert again.stdout.rstrip().splitlines()[-1].startswith("0 new failures, 0 fixed, ")


@pytest.mark.campaign
def test_ci_example_a_wrong_engine_is_gated_on_its_own_baseline(tmp_path: Path) -> None:
    first = ci(tmp_path, WRONG)
    assert first.returncode == 0, first.stdout + first.stderr
    assert ": NO NEW FAILURES against a baseline of " in first.stdout
    known = (tmp_path / "fiveup-known.yaml").read_text(encoding="utf-8")
    assert "doc.scoring.penalty-3" in known


@pytest.mark.campaign
def test_ci_example_a_new_failure_fails_the_job(
    reference_first_run: tuple[Path, subprocess.CompletedProcess[str]], tmp_path: Path
) -> None:
    folder, first = after_reference_first_run(reference_first_run, tmp_path)
    assert first.returncode == 0  # a baseline with nothing in it
    worse = ci(folder, WRONG)
    assert worse.returncode == 1
    assert ": DOES NOT CONFORM at " in worse.stdout


def test_ci_example_a_broken_set_up_exits_2_saying_why(tmp_path: Path) -> None:
    missing = ci(tmp_path, f"{tmp_path / 'no-such-engine'}")
    assert missing.returncode == 2 and "Traceback" not in missing.stderr
    unset = ci(tmp_path, "", ENGINE_CMD="")
    assert unset.returncode != 0 and "ENGINE_CMD" in unset.stderr
