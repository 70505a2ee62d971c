"""What ``--sandbox`` shows an engine (fiveup.harness.sandbox), read off its bwrap command line."""

from __future__ import annotations

from pathlib import Path

import pytest

from fiveup.errors import UsageError
from fiveup.harness.sandbox import MAX_VENV_CONFIG, Sandbox


def _bound(argv: list[str], cwd: Path) -> list[str]:
    """The folders bound read-only (besides the system's), from the command's words."""
    words = Sandbox().command(argv, cwd, bwrap="bwrap")
    return [words[i + 1] for i, word in enumerate(words) if word == "--ro-bind"]


def _engine_in_venv(tmp_path: Path, config: str | bytes) -> Path:
    """An engine program in ``tmp_path/venv/bin`` beside a ``pyvenv.cfg`` of ``config``."""
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    program = venv / "bin" / "engine"
    program.write_text("#!/bin/sh\n", encoding="utf-8")
    program.chmod(0o755)
    cfg = venv / "pyvenv.cfg"
    if isinstance(config, bytes):
        cfg.write_bytes(config)
    else:
        cfg.write_text(config, encoding="utf-8")
    return program


@pytest.mark.parametrize(
    "home",
    ["/anything", "/", "/root/.ssh", "/usr/../root/bin", "relative/bin", "/tmp/../etc/x"],
)
def test_a_venv_home_that_is_no_python_installation_binds_nothing_of_the_host(
    tmp_path: Path, home: str
) -> None:
    program = _engine_in_venv(tmp_path, f"home = {home}\nversion = 3.11.7\n")
    bound = _bound([str(program)], tmp_path)
    assert "/" not in bound  # the whole host, had the parent of /anything been bound
    assert not any(b == home or b == str(Path(home).parent) for b in bound)
    assert any(Path(b) == tmp_path or Path(b) in tmp_path.parents for b in bound)  # the engine's


def test_a_venv_home_folder_beside_no_standard_library_binds_nothing(tmp_path: Path) -> None:
    fake = tmp_path / "secrets"
    (fake / "bin").mkdir(parents=True)
    (fake / "lib" / "notes").mkdir(parents=True)
    (fake / "private.txt").write_text("secret", encoding="utf-8")
    program = _engine_in_venv(tmp_path / "engine", f"home = {fake / 'bin'}\n")
    bound = _bound([str(program)], tmp_path / "engine")
    assert not any(b.startswith(str(fake)) for b in bound)


def test_a_venv_of_a_real_installation_binds_its_interpreters_and_library_only(
    tmp_path: Path,
) -> None:
    prefix = tmp_path / "python"
    (prefix / "bin").mkdir(parents=True)
    (prefix / "lib" / "python3.12").mkdir(parents=True)
    (prefix / "lib" / "python3.12" / "os.py").write_text("", encoding="utf-8")
    (prefix / "bin" / "python3.12").write_text("", encoding="utf-8")
    (prefix / "bin" / "secret.txt").write_text("", encoding="utf-8")
    (prefix / "share" / "secret").mkdir(parents=True)
    program = _engine_in_venv(tmp_path / "engine", f"home = {prefix / 'bin'}\n")
    bound = _bound([str(program)], tmp_path / "engine")
    assert str(prefix / "bin" / "python3.12") in bound
    assert str(prefix / "lib") in bound
    assert str(prefix) not in bound  # not its share/ and whatever else lies there
    assert str(prefix / "bin") not in bound  # nor the rest of the interpreter's folder


@pytest.mark.parametrize(
    "config",
    [b"home = /usr/bin\n" + b"#" * MAX_VENV_CONFIG, None],
    ids=["too-large", "a-folder"],
)
def test_a_venv_config_too_large_or_no_file_is_refused_or_passed_over(
    tmp_path: Path, config: bytes | None
) -> None:
    program = _engine_in_venv(tmp_path, b"")
    cfg = tmp_path / "venv" / "pyvenv.cfg"
    if config is None:
        cfg.unlink()
        cfg.mkdir()  # not a file: not a virtual environment
        assert str(tmp_path / "venv") not in _bound([str(program)], tmp_path)
        return
    cfg.write_bytes(config)
    with pytest.raises(UsageError) as refused:
        _bound([str(program)], tmp_path)
    assert "pyvenv.cfg" in str(refused.value)
    assert "too large" in str(refused.value)
