"""The wheel works on its own: built, installed in a fresh environment, run outside the repo."""

from __future__ import annotations

import os
import site
import subprocess
import sys
import sysconfig
import venv
import zipfile
from pathlib import Path

import pytest

# A long campaign (the wheel built and installed in a fresh environment): `pytest -m campaign`
# runs it.
pytestmark = pytest.mark.campaign

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    # A copy of the tracked tree, so that a stray build/ or egg-info in the checkout cannot
    # leak into the wheel and hide a missing package-data entry.
    src = tmp_path_factory.mktemp("src")
    files = (
        subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True)
        .stdout.decode()
        .split("\0")
    )
    for name in filter(None, files):
        source = ROOT / name
        target = src / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if source.is_symlink():
            target.symlink_to(os.readlink(source))
        elif source.is_file():
            target.write_bytes(source.read_bytes())
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(out),
            str(src),
        ],
        check=True,
        capture_output=True,
    )
    (built,) = out.glob("fiveup_conformance-*.whl")
    return built


def test_the_wheel_holds_the_spec_fixtures_and_schemas_under_one_namespace(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    top = {n.split("/")[0] for n in names if not n.split("/")[0].endswith(".dist-info")}
    assert top == {"fiveup"}, top
    for needed in (
        "fiveup/spec/rules.md",
        "fiveup/spec/protocol.md",
        "fiveup/spec/schemas/fixture.schema.json",
        "fiveup/reference/engine.py",
        "fiveup/harness/runner.py",
        "fiveup/py.typed",
    ):
        assert needed in names, needed
    assert any(n.startswith("fiveup/fixtures/") and n.endswith(".yaml") for n in names)
    assert any(n.startswith("fiveup/spec/schemas/protocol/") for n in names)


def test_the_installed_wheel_validates_and_certifies_outside_the_repository(
    wheel: Path, tmp_path: Path
) -> None:
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=False)
    bindir = env_dir / "bin"
    env_site = Path(
        subprocess.run(
            [bindir / "python", "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    )
    # The wheel is unpacked by hand (what pip does, minus the network); its dependencies come
    # from this interpreter's site-packages through a .pth, which adds the folder but not the
    # editable-install hooks inside it, so only the wheel's fiveup can be imported.
    zipfile.ZipFile(wheel).extractall(env_site)
    deps = {sysconfig.get_paths()["purelib"], *site.getsitepackages()}
    (env_site / "deps.pth").write_text("\n".join(sorted(deps)) + "\n")
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}

    def fiveup(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [bindir / "python", "-m", "fiveup", *args],
            cwd=outside,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )

    where = subprocess.run(
        [bindir / "python", "-c", "import fiveup; print(fiveup.__file__)"],
        cwd=outside,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    assert where.stdout.startswith(str(env_site)), where.stdout
    validated = fiveup("validate")
    assert validated.returncode == 0, validated.stdout + validated.stderr
    assert "(100%)" in validated.stdout
    certified = fiveup("certify")
    assert certified.returncode == 0, certified.stdout + certified.stderr
    conclusion = "CONFORMS at levels scoring, layout, round, match, moves"
    assert certified.stdout.rstrip().endswith(conclusion)
