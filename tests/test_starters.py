"""The starter engines of examples/starters: each certifies, as it is and with the credit filled in.

A starter whose toolchain is not on the machine is skipped by name. Rust and Java are built from a
copy in the test's tmp dir, never in the source tree; those builds are marked ``campaign``.
"""

from __future__ import annotations

import io
import json
import re
import shlex
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from fiveup.cli import main

ROOT = Path(__file__).resolve().parent.parent
STARTERS = ROOT / "examples" / "starters"

# What a starter filled in with the credit concludes (spec/README.md, "Conformance"). The test
# checks that the conclusion starts with it, so the "; not claimed: ..." that follows may change.
CREDIT_CONCLUSION = "CONFORMS at scoring (credit)"
NOTHING_CHECKED = "NOTHING CHECKED"


def harness_claims_features() -> bool:
    """Whether the handshake of this harness takes feature claims and an empty list of levels."""
    schema = json.loads((ROOT / "spec" / "schemas" / "protocol" / "ready.json").read_text())
    engine = schema["properties"]["engine"]
    levels_may_be_empty = engine["properties"]["levels"].get("minItems", 0) == 0
    return "features" in engine["properties"] and levels_may_be_empty


@dataclass(frozen=True)
class Starter:
    """One starter: where it is, what it needs, how it is built and how the credit is filled in."""

    name: str
    source: str  # the file holding play, FEATURES and LEVELS
    tools: tuple[str, ...]
    play_line: str  # the code goes right after this line
    features: tuple[str, str]  # the FEATURES line as shipped, and as the README says to set it
    levels: tuple[str, str]  # the LEVELS line as shipped, and declaring scoring
    build: Callable[[Path, Path], list[str]]  # (copied folder, tmp dir) -> the engine's command
    campaign: bool = False

    @property
    def folder(self) -> Path:
        """The starter's folder in the source tree."""
        return STARTERS / self.name

    def missing(self) -> str | None:
        """The first tool this starter needs that is not on PATH."""
        return next((tool for tool in self.tools if shutil.which(tool) is None), None)


def build_rust(folder: Path, tmp: Path) -> list[str]:
    subprocess.run(
        ["cargo", "build", "--release", "--offline", "--locked", "--quiet"],
        cwd=folder,
        check=True,
        timeout=300,
        capture_output=True,
    )
    return [str(folder / "target" / "release" / "fiveup-starter")]


def build_java(folder: Path, tmp: Path) -> list[str]:
    classes = tmp / "classes"
    subprocess.run(
        ["javac", "-d", str(classes), str(folder / "Engine.java")],
        check=True,
        timeout=300,
        capture_output=True,
    )
    return ["java", "-Xshare:auto", "-XX:TieredStopAtLevel=1", "-cp", str(classes), "Engine"]


STARTER_LIST = [
    Starter(
        name="python",
        source="engine.py",
        tools=(),
        play_line=(
            '    """The observation of one case (spec/protocol.md, per level), '
            'or None to decline it."""'
        ),
        features=("FEATURES: list[str] = []", 'FEATURES: list[str] = ["scoring.credit"]'),
        levels=("LEVELS: list[str] = []", 'LEVELS: list[str] = ["scoring"]'),
        build=lambda folder, tmp: [sys.executable, str(folder / "engine.py")],
    ),
    Starter(
        name="javascript",
        source="engine.js",
        tools=("node",),
        play_line="function play(level, given) {",
        features=("const FEATURES = [];", 'const FEATURES = ["scoring.credit"];'),
        levels=("const LEVELS = [];", 'const LEVELS = ["scoring"];'),
        build=lambda folder, tmp: ["node", str(folder / "engine.js")],
    ),
    Starter(
        name="rust",
        source="src/main.rs",
        tools=("cargo",),
        play_line="fn play(level: &str, given: &Json) -> Option<Json> {",
        features=(
            "const FEATURES: &[&str] = &[];",
            'const FEATURES: &[&str] = &["scoring.credit"];',
        ),
        levels=("const LEVELS: &[&str] = &[];", 'const LEVELS: &[&str] = &["scoring"];'),
        build=build_rust,
        campaign=True,
    ),
    Starter(
        name="java",
        source="Engine.java",
        tools=("javac", "java"),
        play_line="    static Map<String, Object> play(String level, Map<?, ?> given) {",
        features=("FEATURES = List.of();", 'FEATURES = List.of("scoring.credit");'),
        levels=("LEVELS = List.of();", 'LEVELS = List.of("scoring");'),
        build=build_java,
        campaign=True,
    ),
]


def starter_params() -> list[object]:
    params: list[object] = []
    for starter in STARTER_LIST:
        marks = [pytest.mark.campaign] if starter.campaign else []
        missing = starter.missing()
        if missing is not None:
            reason = f"the {starter.name} starter needs {missing}, which is not on PATH"
            marks.append(pytest.mark.skip(reason=reason))
        params.append(pytest.param(starter, id=starter.name, marks=marks))
    return params


def readme_code(starter: Starter) -> str:
    """The lines the starter's README says to put at the top of ``play``."""
    readme = (starter.folder / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```\w+\n(.*?)```", readme, flags=re.DOTALL)
    credit: list[str] = [block for block in blocks if "SCR-2" in block]
    assert len(credit) == 1, f"{starter.name}/README.md has no single block with the credit"
    return credit[0]


def replace_once(text: str, old: str, new: str) -> str:
    assert text.count(old) == 1, f"{old!r} is not in the starter exactly once"
    return text.replace(old, new)


def filled_in(starter: Starter, copy: Path) -> None:
    """Apply the README's recipe to a copy: claim the credit and implement it."""
    path = copy / starter.source
    text = path.read_text(encoding="utf-8")
    text = replace_once(
        text, starter.play_line + "\n", starter.play_line + "\n" + readme_code(starter)
    )
    text = replace_once(text, *starter.features)
    if not harness_claims_features():
        # A harness from before feature claims refuses `levels: []`: declare the whole level.
        text = replace_once(text, *starter.levels)
    path.write_text(text, encoding="utf-8")


def certify(command: list[str], *options: str) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    engine_cmd = shlex.join(command)
    code = main(["certify", "--engine-cmd", engine_cmd, "--timeout", "30", *options], out, err)
    return code, out.getvalue() + err.getvalue()


def conclusion_of(output: str) -> str:
    """The conclusion: the last line of the text report, after the counts."""
    last = output.rstrip().splitlines()[-1]
    return last.split(": ", 1)[1]


def copy_of(starter: Starter, tmp_path: Path) -> Path:
    copy = tmp_path / starter.name
    shutil.copytree(starter.folder, copy, ignore=shutil.ignore_patterns("target", "README.md"))
    shutil.copy(starter.folder / "README.md", copy / "README.md")
    return copy


@pytest.mark.parametrize("starter", starter_params())
def test_starter_as_shipped_checks_nothing(starter: Starter, tmp_path: Path) -> None:
    command = starter.build(copy_of(starter, tmp_path), tmp_path)
    code, output = certify(command)
    assert code == 1, output
    assert conclusion_of(output).startswith(NOTHING_CHECKED), output
    if harness_claims_features():
        assert "wrong shape" not in output, output  # the handshake itself is right


@pytest.mark.parametrize("starter", starter_params())
def test_starter_filled_in_with_the_credit_conforms_at_scoring_credit(
    starter: Starter, tmp_path: Path
) -> None:
    copy = copy_of(starter, tmp_path)
    filled_in(starter, copy)
    command = starter.build(copy, tmp_path)
    if harness_claims_features():
        code, output = certify(command)
        assert conclusion_of(output).startswith(CREDIT_CONCLUSION), output
    else:
        code, output = certify(command, "-k", "scoring and credit")
        assert conclusion_of(output).startswith("CONFORMS at level scoring"), output
    assert code == 0, output
    counts = output.rstrip().splitlines()[-1]
    assert ", 0 failed, 0 errors," in counts and not counts.startswith("0 passed"), output


@pytest.mark.parametrize("starter", STARTER_LIST, ids=[s.name for s in STARTER_LIST])
def test_starter_readme_says_how_to_claim_the_credit(starter: Starter) -> None:
    readme = (starter.folder / "README.md").read_text(encoding="utf-8")
    assert starter.features[1] in readme
    assert NOTHING_CHECKED in readme and CREDIT_CONCLUSION in readme
    source = (starter.folder / starter.source).read_text(encoding="utf-8")
    assert source.count(starter.play_line + "\n") == 1
    assert source.count(starter.features[0]) == 1


def test_every_starter_folder_is_tested() -> None:
    folders = {path.name for path in STARTERS.iterdir() if path.is_dir()}
    assert folders == {starter.name for starter in STARTER_LIST}


def test_the_python_starter_declines_a_case_and_stops() -> None:
    requests = [
        {"cmd": "start", "protocol": 1},
        {"cmd": "run", "seq": 4, "level": "scoring", "given": {"function": "credit", "input": 15}},
        {"cmd": "stop"},
    ]
    result = subprocess.run(
        [sys.executable, str(STARTERS / "python" / "engine.py")],
        input="not json\n" + "".join(json.dumps(r) + "\n" for r in requests),
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    replies = [json.loads(line) for line in result.stdout.splitlines()]
    assert replies[0]["engine"]["levels"] == [] and replies[0]["engine"]["features"] == []
    assert replies[1] == {"seq": 4, "unsupported": "not implemented yet"}
    assert replies[2] == {"stopped": True}
    assert "not JSON" in result.stderr
