"""The README's commands work as written (with the reference standing in for "node engine.js").

The everyday run gives each command of the block to the command line in-process (a pipe feeds one
command's output to the next one's input; ``--engine-cmd`` still starts the engine over the
process protocol); the ``campaign`` run gives the same lines to a shell, each ``fiveup`` a
process of its own.
"""

from __future__ import annotations

import io
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from fiveup.cli import main

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


def _said(line: str) -> tuple[int, str, str]:
    """A line of ``fiveup`` commands (a pipe between them), run in-process: code, output, errors."""
    given: str | None = None
    code, out, err = 0, "", ""
    for part in line.split(" | "):
        words = shlex.split(part)
        assert words[0] == "fiveup", part
        stdout, stderr = io.StringIO(), io.StringIO()
        stdin = io.StringIO(given) if given is not None else None
        code = main(words[1:], stdout=stdout, stderr=stderr, stdin=stdin)
        given, out, err = stdout.getvalue(), stdout.getvalue(), err + stderr.getvalue()
        if code != 0:
            break
    return code, out, err


def test_every_command_of_the_block_runs_in_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    said: dict[str, str] = {}
    for command in COMMANDS:
        line = command.replace('"node engine.js"', shlex.quote(STAND_IN))
        code, out, err = _said(line)
        assert code == 0, f"{line}\n{out}\n{err}"
        assert out or command.endswith(".svg"), line  # every command says something
        said[command] = out
    assert (tmp_path / "badge.json").exists() and (tmp_path / "known.yaml").exists()
    assert (tmp_path / "table.svg").read_text(encoding="utf-8").lstrip().startswith("<")
    assert re.search(r"0 new failures", said["fiveup compare before.json after.json"])
    answer = said["fiveup show doc.scoring.credit-15 --request | fiveup engine"]
    assert answer.startswith("{") and '"value"' in answer


@pytest.mark.campaign
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
