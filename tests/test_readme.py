"""The README's commands work as written (with the reference standing in for "node engine.js")."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
SECTION = README.split("### Looking at cases, baselines, regressions and badges")[1]
BLOCK = SECTION.split("```sh\n")[1].split("```")[0]
COMMANDS = [
    line.split("  #")[0].strip() for line in BLOCK.splitlines() if line.startswith("fiveup ")
]
STAND_IN = f"{sys.executable} -m fiveup engine"


def test_the_block_shows_list_show_baseline_compare_and_badge() -> None:
    words = {shlex.split(command.split("|")[0])[1] for command in COMMANDS}
    assert {"list", "show", "certify", "compare"} <= words
    flags = " ".join(COMMANDS)
    for flag in ("--request", "--write-expected-failures", "--expected-failures", "--badge"):
        assert flag in flags


def test_every_command_of_the_block_runs(tmp_path: Path) -> None:
    bindir = str(Path(sys.executable).parent)
    env = {**os.environ, "PATH": f"{bindir}{os.pathsep}{os.environ.get('PATH', '')}"}
    said: dict[str, str] = {}
    for command in COMMANDS:
        line = command.replace('"node engine.js"', shlex.quote(STAND_IN))
        done = subprocess.run(
            line, shell=True, cwd=tmp_path, env=env, capture_output=True, text=True, check=False
        )
        assert done.returncode == 0, f"{line}\n{done.stdout}\n{done.stderr}"
        assert "Traceback" not in done.stderr
        said[command] = done.stdout
    assert (tmp_path / "badge.json").exists() and (tmp_path / "known.yaml").exists()
    assert re.search(r"0 new failures", said["fiveup compare before.json after.json"])


@pytest.mark.parametrize("extra", ["pytest"])
def test_the_pytest_extra_is_declared(extra: str) -> None:
    assert f"\n{extra} = [" in (ROOT / "pyproject.toml").read_text(encoding="utf-8")
