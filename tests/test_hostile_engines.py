"""Hostile engines: each misbehaves in its own way, and certify must survive all of them.

Every engine in ``tests/engines/hostile/`` is certified with and without ``--sandbox``. Each
run checks the exit code, the reason the report gives, that no process of the engine is left
once certify returns (every process it starts carries a marker unique to the test, in its
command line or its environment, and /proc is searched for it), and that the report is intact
afterwards. Under the sandbox, an engine that reads the answers from disk finds nothing.
"""

from __future__ import annotations

import io
import itertools
import json
import os
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from xml.etree import ElementTree

import pytest

from fiveup.cli import main
from fiveup.harness import engines
from fiveup.harness.corpus import bundled_fixture_dir
from fiveup.harness.process import ProcessEngine
from fiveup.harness.sandbox import NAMESPACES, PRIVATE_DIRS, Sandbox

ROOT = Path(__file__).resolve().parent.parent
HOSTILE = ROOT / "tests" / "engines" / "hostile"
PYTHON = sys.executable

FEW = ("-k", "tally")
"""Ten quick cases an honest engine passes."""
ONE = ("--case", "doc.scoring.tally-5")
TWO = (*ONE, "--case", "doc.scoring.tally-50")


def _sandbox_works() -> bool:
    if not sys.platform.startswith("linux") or shutil.which("bwrap") is None:
        return False
    probe = ["bwrap", "--unshare-pid", "--unshare-net", "--ro-bind", "/", "/", "--", "true"]
    return subprocess.run(probe, capture_output=True, check=False).returncode == 0


SANDBOX = _sandbox_works()
needs_sandbox = pytest.mark.skipif(not SANDBOX, reason="bubblewrap cannot run here")
MODES = [
    pytest.param(False, id="plain"),
    pytest.param(True, id="sandbox", marks=needs_sandbox),
]

pytestmark = pytest.mark.skipif(
    not os.path.exists("/proc/self/stat"), reason="the descendants are tracked through /proc"
)


@dataclass(frozen=True)
class Outcome:
    """What certify concludes: its exit code, and words of the engine's reason in the report."""

    exit_code: int
    reason: str = ""


@dataclass(frozen=True)
class Hostile:
    """One hostile engine and what certify makes of it, without and with the sandbox."""

    script: str
    plain: Outcome
    boxed: Outcome | tuple[Outcome, ...]
    """With the sandbox; several when it depends on the system, one of them must happen."""
    select: tuple[str, ...] = FEW
    args: tuple[str, ...] = ()
    """Extra engine arguments: ``{report}``, ``{fixtures}``, ``{port}`` or ``{target}``."""
    timeout: float = 10.0
    certify: tuple[str, ...] = ()
    """Extra options of ``fiveup certify``."""
    subprocess: bool = False
    """Certify in a process of its own: the engine goes for its parent."""

    def outcomes(self, sandbox: bool) -> tuple[Outcome, ...]:
        outcome = self.boxed if sandbox else self.plain
        return outcome if isinstance(outcome, tuple) else (outcome,)


class _PatientStart(ProcessEngine):
    """certify's engine with the handshake bounded generously: ``--timeout 1`` is meant for the
    case a hostile engine hangs on, not for a start that a loaded machine makes slow."""

    def __init__(self, command: str | list[str], **options: object) -> None:
        super().__init__(command, start_timeout=START_TIMEOUT, **options)  # type: ignore[arg-type]


START_TIMEOUT = 60.0
"""The handshake's bound in these tests: it stops a hang only, so a busy machine never trips it."""


@pytest.fixture(autouse=True)
def _patient_start(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every certify run in-process here starts its engine with :class:`_PatientStart`."""
    monkeypatch.setattr(engines, "ProcessEngine", _PatientStart)


CONFORMS = Outcome(0)
NOT_JSON = Outcome(1, "output is not JSON")

ENGINES = [
    Hostile("honest", CONFORMS, CONFORMS),
    Hostile("setsid_child", CONFORMS, CONFORMS),
    Hostile("double_fork_daemon", CONFORMS, CONFORMS),
    Hostile("delayed_rewrite", CONFORMS, CONFORMS, args=("{report}",)),
    # Its parent in the sandbox is bwrap's init, whose stdout is the engine's own: when /proc
    # lets it write there (as root it does), it wrote on its own output.
    Hostile("parent_stdout", CONFORMS, (NOT_JSON, CONFORMS), subprocess=True),
    Hostile("kill_parent", Outcome(128 + signal.SIGTERM), CONFORMS, subprocess=True),
    # its parent under fuzz --jobs is a worker: test_fuzz_jobs_survives_an_engine_that_signals...
    Hostile("signal_parent", Outcome(128 + signal.SIGTERM), CONFORMS, subprocess=True),
    Hostile("read_corpus", CONFORMS, Outcome(1, "no answers to copy")),
    Hostile("read_fixtures_arg", CONFORMS, Outcome(1, "no answers to copy"), args=("{fixtures}",)),
    Hostile("peek_report", CONFORMS, Outcome(1, "is out of sight"), args=("{report}",)),
    Hostile("phone_home", CONFORMS, Outcome(1, "no network"), args=("{port}",)),
    Hostile("unix_sockets", CONFORMS, Outcome(1, "no socket"), args=("{socket}", "{abstract}")),
    Hostile("busy_fork", CONFORMS, CONFORMS),
    Hostile("stderr_torrent", CONFORMS, CONFORMS),
    Hostile(
        "close_stdout",
        Outcome(1, "closed its stdout but did not exit"),
        Outcome(1, "engine timed out"),  # bwrap's own processes hold the pipe open
        ONE,
        timeout=1.0,
    ),
    Hostile(
        "close_stdin",
        Outcome(1, "closed its stdin but did not exit"),
        (Outcome(1, "closed its stdin but did not exit"), Outcome(1, "engine timed out")),
        TWO,
        timeout=1.0,
    ),
    Hostile(
        "deaf_sleeper",
        Outcome(1, "engine timed out"),
        Outcome(1, "engine timed out"),
        ONE,
        timeout=1.0,
    ),
    Hostile("ignore_stop", CONFORMS, CONFORMS, ONE),
    Hostile("process_tree", CONFORMS, CONFORMS),
    Hostile("scrubbed_orphan", CONFORMS, CONFORMS),
    Hostile("forged_token", CONFORMS, CONFORMS),
    Hostile("zombie_leader", CONFORMS, CONFORMS),
    Hostile("forge_lines", Outcome(1, "engine crashed"), Outcome(1, "engine crashed")),
    Hostile("wrong_unless_boxed", Outcome(1, "1 difference(s)"), CONFORMS),
    Hostile("renamed_child", CONFORMS, CONFORMS),
    Hostile("crash_leaving_child", Outcome(1, "engine crashed"), Outcome(1, "engine crashed"), TWO),
    Hostile(
        "hang_with_children",
        Outcome(1, "engine timed out"),
        Outcome(1, "engine timed out"),
        ONE,
        timeout=1.0,
    ),
    Hostile("garbage_bytes", NOT_JSON, NOT_JSON, ONE),
    Hostile("stdout_torrent", Outcome(1, "line too long"), Outcome(1, "line too long"), ONE),
    Hostile("seq_liar", Outcome(1, "wrong seq"), Outcome(1, "wrong seq"), ONE),
    Hostile("chatter", Outcome(1, "nobody asked for"), Outcome(1, "nobody asked for"), TWO),
    Hostile(
        "double_reply",
        Outcome(1, "after its last reply and before stop"),
        Outcome(1, "after its last reply and before stop"),
        ONE,
    ),
    Hostile(
        "protocol_99",
        Outcome(1, "protocol version mismatch"),
        Outcome(1, "protocol version mismatch"),
        ONE,
    ),
    Hostile("cut_off", Outcome(1, "reply cut off"), Outcome(1, "reply cut off"), ONE),
    Hostile("self_segv", Outcome(1, "engine crashed"), Outcome(1, "engine crashed"), ONE),
    Hostile("writes_file", CONFORMS, CONFORMS, ONE, args=("{target}",)),
    Hostile(
        "shifty_claims",
        Outcome(1, "started again as other-engine 1 claiming scoring, not as shifty_claims"),
        Outcome(1, "engine crashed"),  # its marker cannot be written: every start is the first
        TWO,
        args=("{target}",),
    ),
    Hostile(
        "bad_observation",
        Outcome(1, "observation of the wrong shape"),
        Outcome(1, "observation of the wrong shape"),
        ONE,
    ),
    # Under the sandbox the engine's PID namespace dies with the process certify started.
    Hostile("handoff", CONFORMS, Outcome(1, "engine crashed"), ONE),
    Hostile(
        "child_holds_stdout",
        Outcome(1, "engine crashed"),
        Outcome(1, "engine crashed"),
        ONE,
        timeout=1.0,
    ),
    Hostile("poison_text", Outcome(1, "alert(1)"), Outcome(1, "alert(1)"), FEW),
    # Its child and then itself fail to allocate past the harness's limit, and crash.
    Hostile(
        "memory_hog",
        Outcome(1, "MemoryError"),
        Outcome(1, "MemoryError"),
        ONE,
        certify=("--engine-memory", "128"),
    ),
]
BY_NAME = {h.script: h for h in ENGINES}


# --------------------------------------------------------------------------- helpers


def _left_behind(marker: str) -> list[str]:
    """Every live process whose command line or environment carries ``marker``."""
    needle = marker.encode()
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            stat = (entry / "stat").read_bytes()
            fields = stat[stat.rfind(b")") + 2 :].split()
            if fields[0] == b"Z" and int(fields[17]) <= 1:
                continue  # dead; its parent reaps it
            # A first thread that ended leaves the process's state Z and its cmdline empty
            # while another runs on: read the command line and environment of that one.
            where = entry
            if fields[0] == b"Z":
                where = next(t for t in (entry / "task").iterdir() if t.name != entry.name)
            cmdline = (where / "cmdline").read_bytes()
            environ = (where / "environ").read_bytes()
        except (OSError, StopIteration):
            continue
        if needle in cmdline or needle in environ:
            words = cmdline.replace(b"\0", b" ").decode(errors="replace")
            found.append(f"{entry.name}: {words}")
    return found


def _none_left(marker: str, patience: float = 0.0) -> None:
    deadline = time.monotonic() + patience
    while (left := _left_behind(marker)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert left == [], f"processes left behind: {left}"


@dataclass
class Result:
    exit_code: int
    stdout: str
    stderr: str
    report: dict[str, object] | None
    report_text: str


def _reasons(report: dict[str, object]) -> str:
    cases = report["cases"]
    assert isinstance(cases, list)
    texts = [str(report["handshake_error"] or "")]
    texts += [str(case["message"]) for case in cases]
    return "\n".join(texts)


@pytest.fixture
def listener() -> Iterator[socket.socket]:
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(5)
        server.settimeout(0.5)
        yield server


def _certify(
    hostile: Hostile,
    sandbox: bool,
    tmp_path: Path,
    marker: str,
    port: int = 0,
    sockets: tuple[str, str] = ("", ""),
) -> Result:
    report = tmp_path / "report.json"
    places = {
        "socket": sockets[0].encode().hex(),
        "abstract": sockets[1].encode().hex(),
        "report": str(report),
        "fixtures": str(tmp_path / "corpus"),
        "port": str(port),
        "target": str(tmp_path / "scribbled.txt"),
    }
    engine = [PYTHON, str(HOSTILE / f"{hostile.script}.py"), marker]
    engine += [arg.format(**places) for arg in hostile.args]
    argv = ["certify", "--engine-cmd", shlex.join(engine), *hostile.select]
    argv += ["--format", "json", "--output", str(report), "--timeout", str(hostile.timeout)]
    argv += hostile.certify
    # A copy of the scoring cases only: loading them is ten times quicker than the corpus.
    (tmp_path / "corpus").mkdir()
    shutil.copy(bundled_fixture_dir() / "scoring.yaml", tmp_path / "corpus")
    argv += ["--fixtures", str(tmp_path / "corpus")]
    if sandbox:
        argv.append("--sandbox")
    if hostile.subprocess:
        done = subprocess.run(
            [PYTHON, "-m", "fiveup", *argv],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        code, out, err = done.returncode, done.stdout, done.stderr
    else:
        stdout, stderr = io.StringIO(), io.StringIO()
        code = main(argv, stdout=stdout, stderr=stderr)
        out, err = stdout.getvalue(), stderr.getvalue()
    text = report.read_text() if report.exists() else ""
    parsed = json.loads(text) if text.startswith("{") else None
    return Result(code, out, err, parsed, text)


def _run(
    name: str,
    sandbox: bool,
    tmp_path: Path,
    port: int = 0,
    marker: str = "",
    sockets: tuple[str, str] = ("", ""),
) -> Result:
    """Certify the hostile engine ``name`` and check what every run must show."""
    hostile = BY_NAME[name]
    marker = marker or f"hostile-{uuid.uuid4().hex}"
    result = _certify(hostile, sandbox, tmp_path, marker, port, sockets)
    expected = {o.exit_code: o for o in hostile.outcomes(sandbox)}.get(result.exit_code)
    assert expected is not None, (result.exit_code, result.stdout, result.stderr)
    ended = expected.exit_code < 0 or expected.exit_code > 128  # by a signal: no report
    if not ended:
        assert result.report is not None, result.stderr
        assert expected.reason in _reasons(result.report)
        assert result.report["conforms"] is (expected.exit_code == 0)
    if expected.exit_code == 0:
        engine = result.report["engine"] if result.report else None
        assert isinstance(engine, dict) and engine["name"] == hostile.script
    _none_left(marker, patience=30.0 if ended else 0.0)  # a wait, not a bound
    if result.report is not None:  # still the report certify wrote
        assert (tmp_path / "report.json").read_text() == result.report_text
    return result


# --------------------------------------------------------------------------- every engine

SPECIAL = {
    "delayed_rewrite",
    "parent_stdout",
    "kill_parent",
    "signal_parent",
    "peek_report",
    "phone_home",
    "unix_sockets",
    "writes_file",
    "poison_text",
    "forge_lines",
}


@pytest.mark.parametrize("sandbox", MODES)
@pytest.mark.parametrize("name", [h.script for h in ENGINES if h.script not in SPECIAL])
def test_a_hostile_engine_is_reported_and_leaves_nothing_behind(
    name: str, sandbox: bool, tmp_path: Path
) -> None:
    _run(name, sandbox, tmp_path)


@pytest.mark.parametrize("form", ["text", "json", "html", "junit"])
def test_poisoned_names_and_messages_reach_no_report_raw(form: str, tmp_path: Path) -> None:
    report = tmp_path / f"report.{form}"
    engine = shlex.join([PYTHON, str(HOSTILE / "poison_text.py"), f"hostile-{uuid.uuid4().hex}"])
    (tmp_path / "corpus").mkdir()
    shutil.copy(bundled_fixture_dir() / "scoring.yaml", tmp_path / "corpus")
    argv = ["certify", "--engine-cmd", engine, *FEW, "--fixtures", str(tmp_path / "corpus")]
    stdout, stderr = io.StringIO(), io.StringIO()
    assert main([*argv, "--format", form, "--output", str(report)], stdout, stderr) == 1
    text = report.read_text(encoding="utf-8")  # no lone surrogate: it is UTF-8
    assert "Traceback" not in stderr.getvalue()
    assert len(text) < 120_000  # the engine sent over 100,000 characters per text
    if form == "text":
        assert all(c.isprintable() or c == "\n" for c in text)
        assert "more characters not shown" in text and "\\x1b[31m" in text
    if form == "html" or form == "junit":
        ElementTree.fromstring(text)
        assert "<script" not in text
    assert BY_NAME["poison_text"].plain.reason in text


def test_an_engines_line_breaks_cannot_forge_a_line_of_the_text_report(tmp_path: Path) -> None:
    marker = f"hostile-{uuid.uuid4().hex}"
    engine = shlex.join([PYTHON, str(HOSTILE / "forge_lines.py"), marker])
    (tmp_path / "corpus").mkdir()
    shutil.copy(bundled_fixture_dir() / "scoring.yaml", tmp_path / "corpus")
    argv = ["certify", "--engine-cmd", engine, "--fixtures", str(tmp_path / "corpus")]
    stdout, stderr = io.StringIO(), io.StringIO()
    assert main([*argv, "-k", "credit"], stdout, stderr) == 1
    text = stdout.getvalue()
    forged = [line for line in text.splitlines() if "evil.example" in line or "226 passed" in line]
    assert len(forged) >= 3, text  # the errored reply, the unsupported one and the stderr tail
    for line in forged:  # one escaped line, or a line quoted as the engine's
        assert "\\n" in line or line.lstrip().startswith("| "), line
    _none_left(marker)


def test_there_are_at_least_25_kinds_of_hostile_engine() -> None:
    scripts = {p.stem for p in HOSTILE.glob("*.py") if not p.name.startswith("_")}
    assert scripts == set(BY_NAME)
    assert len(scripts - {"honest"}) >= 25


@pytest.mark.parametrize("sandbox", MODES)
def test_a_child_that_rewrites_the_report_later_is_dead_before_it_can(
    sandbox: bool, tmp_path: Path
) -> None:
    result = _run("delayed_rewrite", sandbox, tmp_path)
    time.sleep(1.5)  # the child would have written after 1 s
    text = (tmp_path / "report.json").read_text()
    assert text == result.report_text
    assert "PWNED" not in text


@pytest.mark.parametrize("sandbox", MODES)
def test_writing_into_the_harness_stdout(sandbox: bool, tmp_path: Path) -> None:
    result = _run("parent_stdout", sandbox, tmp_path)
    # Without the sandbox nothing stops it (spec/protocol.md, "Security"); the report is intact.
    assert ("INJECTED" in result.stdout + result.stderr) is not sandbox


@pytest.mark.parametrize("sandbox", MODES)
def test_an_engine_that_kills_its_parent(sandbox: bool, tmp_path: Path) -> None:
    result = _run("kill_parent", sandbox, tmp_path)
    if not sandbox:
        assert result.report is None  # no report at all rather than a wrong one
        assert "fiveup certify: terminated by SIGTERM" in result.stderr
        assert "Traceback" not in result.stderr


@pytest.mark.parametrize("sandbox", MODES)
def test_an_old_report_is_out_of_the_engines_reach(sandbox: bool, tmp_path: Path) -> None:
    (tmp_path / "report.json").write_text("the answers of an earlier run\n")
    _run("peek_report", sandbox, tmp_path)


@pytest.mark.parametrize("sandbox", MODES)
def test_the_network(sandbox: bool, tmp_path: Path, listener: socket.socket) -> None:
    marker = f"hostile-{uuid.uuid4().hex}"
    _run("phone_home", sandbox, tmp_path, listener.getsockname()[1], marker)
    try:
        connection, _ = listener.accept()
        with connection:
            heard = connection.recv(100).decode()
    except TimeoutError:
        heard = ""
    assert heard == ("" if sandbox else marker)


@pytest.fixture
def unix_listeners() -> Iterator[tuple[socket.socket, socket.socket, str, str]]:
    """A UNIX socket listening on a path outside /tmp and the checkout, and an abstract one.

    The path is in a new folder of the home folder, where programs keep their sockets (an
    agent's, a desktop's); /tmp is private in the sandbox already, so it would prove nothing.
    """
    try:
        folder = Path(tempfile.mkdtemp(prefix="fiveup-sock-", dir=Path.home()))
    except OSError:
        pytest.skip("the home folder is not writable here")
    path, abstract = str(folder / "s"), f"fiveup-test-{uuid.uuid4().hex}"
    on_path = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    on_name = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        for sock, address in ((on_path, path), (on_name, "\0" + abstract)):
            sock.bind(address)
            sock.listen(1)
            sock.settimeout(0.5)
        yield on_path, on_name, path, abstract
    finally:
        on_path.close()
        on_name.close()
        shutil.rmtree(folder, ignore_errors=True)


def _heard(listener: socket.socket) -> str:
    try:
        connection, _ = listener.accept()
    except TimeoutError:
        return ""
    with connection:
        return connection.recv(100).decode()


@pytest.mark.parametrize("sandbox", MODES)
def test_no_unix_socket_of_the_host_path_or_abstract_in_the_sandbox(
    sandbox: bool,
    tmp_path: Path,
    unix_listeners: tuple[socket.socket, socket.socket, str, str],
) -> None:
    on_path, on_name, path, abstract = unix_listeners
    marker = f"hostile-{uuid.uuid4().hex}"
    _run("unix_sockets", sandbox, tmp_path, marker=marker, sockets=(path, abstract))
    assert _heard(on_path) == ("" if sandbox else marker)
    assert _heard(on_name) == ("" if sandbox else marker)


@pytest.mark.parametrize("sandbox", MODES)
def test_the_filesystem_is_read_only_in_the_sandbox(sandbox: bool, tmp_path: Path) -> None:
    _run("writes_file", sandbox, tmp_path)
    assert (tmp_path / "scribbled.txt").exists() is not sandbox


# --------------------------------------------------------------------------- the sandbox


@needs_sandbox
def test_the_reference_served_in_the_sandbox_conforms(tmp_path: Path) -> None:
    out = io.StringIO()
    report = tmp_path / "report.json"
    command = f"{PYTHON} -m fiveup engine"
    argv = ["certify", "--engine-cmd", command, "--sandbox", "--format", "json"]
    code = main([*argv, "--output", str(report)], stdout=out, stderr=io.StringIO())
    assert code == 0, out.getvalue()
    assert json.loads(report.read_text())["conclusion"]["verdict"] == "CONFORMS"


@needs_sandbox
def test_an_engine_in_its_own_folder_runs_in_the_sandbox(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("honest.py", "_hostile.py"):
        shutil.copy(HOSTILE / name, tmp_path / name)
    monkeypatch.chdir(tmp_path)
    out = io.StringIO()
    argv = ["certify", "--engine-cmd", f"{PYTHON} honest.py x", "--sandbox", *FEW]
    assert main(argv, stdout=out, stderr=io.StringIO()) == 0, out.getvalue()
    assert "rerun" not in out.getvalue()


@needs_sandbox
def test_an_engine_named_by_its_path_finds_what_lies_beside_it_in_the_sandbox(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "elsewhere"  # under /tmp, which the sandbox makes private
    folder.mkdir()
    for name in ("honest.py", "_hostile.py"):
        shutil.copy(HOSTILE / name, folder / name)
    out = io.StringIO()
    argv = ["certify", "--engine-cmd", f"{PYTHON} {folder / 'honest.py'} x", "--sandbox", *FEW]
    assert main(argv, stdout=out, stderr=io.StringIO()) == 0, out.getvalue()


@needs_sandbox
def test_a_pyvenv_cfg_beside_the_engine_does_not_widen_the_sandbox(tmp_path: Path) -> None:
    secret = tmp_path / "secret"
    secret.mkdir()
    (secret / "key.txt").write_text("TOPSECRET", encoding="utf-8")
    engine = tmp_path / "evil" / "bin" / "engine"
    engine.parent.mkdir(parents=True)
    engine.write_text(f'#!/bin/sh\necho "LEAKED: $(cat {secret}/key.txt)" >&2\nexit 3\n')
    engine.chmod(0o755)
    (tmp_path / "evil" / "pyvenv.cfg").write_text("home = /anything\n", encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    argv = ["certify", "--engine-cmd", str(engine), "--sandbox", *ONE]
    assert main(argv, stdout=out, stderr=err) == 1
    said = out.getvalue() + err.getvalue()
    assert "LEAKED" in said  # the engine ran, and said what it could read
    assert "TOPSECRET" not in said


@pytest.mark.parametrize("engine", [["--engine", "reference"], []])
def test_an_in_process_engine_cannot_be_sandboxed(engine: list[str]) -> None:
    err = io.StringIO()
    code = main(["certify", *engine, "--sandbox", *ONE], stdout=io.StringIO(), stderr=err)
    assert code == 2
    assert "in-process Python engine" in err.getvalue()
    assert "cannot be contained" in err.getvalue()


def test_a_missing_bubblewrap_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    if not sys.platform.startswith("linux"):
        pytest.skip("bubblewrap is for Linux")
    monkeypatch.setenv("PATH", str(tmp_path))
    err = io.StringIO()
    argv = ["certify", "--engine-cmd", f"{PYTHON} {HOSTILE / 'honest.py'} x", "--sandbox", *ONE]
    assert main(argv, stdout=io.StringIO(), stderr=err) == 2
    assert "install the package bubblewrap" in err.getvalue()


def test_a_bubblewrap_that_cannot_build_namespaces_is_explained(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if not sys.platform.startswith("linux"):
        pytest.skip("bubblewrap is for Linux")
    fake = tmp_path / "bwrap"
    fake.write_text("#!/bin/sh\necho 'bwrap: No permissions to create new namespace' >&2\nexit 1\n")
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")
    err = io.StringIO()
    argv = ["certify", "--engine-cmd", f"{PYTHON} {HOSTILE / 'honest.py'} x", "--sandbox", *ONE]
    assert main(argv, stdout=io.StringIO(), stderr=err) == 2
    assert "No permissions to create new namespace" in err.getvalue()
    assert "bubblewrap" in err.getvalue() and "namespaces" in err.getvalue()


def test_the_bwrap_command_line(tmp_path: Path) -> None:
    (tmp_path / "corpus").mkdir()
    old = tmp_path / "old-report.json"
    old.write_text("{}")
    sandbox = Sandbox(hide=(tmp_path / "corpus", old, tmp_path / "not-yet.json"))
    argv = [PYTHON, "engine.py"]
    words = sandbox.command(argv, tmp_path, bwrap="bwrap")
    assert words[0] == "bwrap"
    assert words[-3:] == ["--", *argv]
    assert {"--die-with-parent", "--new-session", *NAMESPACES} <= set(words)
    pairs = list(itertools.pairwise(words))
    assert ("--cap-drop", "ALL") in pairs
    assert ("--chdir", str(tmp_path.resolve())) in pairs
    assert ("--tmpfs", str(bundled_fixture_dir())) in pairs
    assert ("--tmpfs", str((tmp_path / "corpus").resolve())) in pairs
    assert ("/dev/null", str(old.resolve())) in pairs
    assert str(tmp_path / "not-yet.json") not in words
    binds = {words[i + 1] for i, word in enumerate(words) if word == "--ro-bind"}
    assert "/" not in binds and "/usr" in binds  # the system, not the whole host
    assert str(tmp_path.resolve()) in binds  # the working directory
    assert not {"/home", "/root", "/var", "/mnt", "/run", "/tmp"} & binds
    assert {("--tmpfs", d) for d in PRIVATE_DIRS} <= set(pairs)


@needs_sandbox
def test_a_hidden_folder_that_holds_the_engine_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shutil.copy(bundled_fixture_dir() / "scoring.yaml", tmp_path)
    monkeypatch.chdir(tmp_path)
    err = io.StringIO()
    argv = ["certify", "--engine-cmd", f"{PYTHON} -m fiveup engine", "--sandbox"]
    argv += ["--fixtures", str(tmp_path), *ONE]
    assert main(argv, stdout=io.StringIO(), stderr=err) == 2
    assert "working directory" in err.getvalue()


@needs_sandbox
def test_the_pytest_plugin_sandboxes_too(pytester: pytest.Pytester) -> None:
    engine = f"{PYTHON} {HOSTILE / 'read_corpus.py'} pytester"
    plain = pytester.runpytest(
        "-p", "no:cacheprovider", f"--fiveup-engine-cmd={engine}", "-k", "tally"
    )
    plain.assert_outcomes(passed=10)
    boxed = pytester.runpytest(
        "-p", "no:cacheprovider", f"--fiveup-engine-cmd={engine}", "--fiveup-sandbox", "-k", "tally"
    )
    boxed.assert_outcomes(failed=10)
    refused = pytester.runpytest("--fiveup-engine=reference", "--fiveup-sandbox")
    assert "cannot be contained" in refused.stderr.str()


@needs_sandbox
def test_fuzz_with_sandbox_runs_the_engine_boxed_and_without_it_plain() -> None:
    engine = f"{PYTHON} {HOSTILE / 'wrong_unless_boxed.py'} fuzz-sandbox"
    runs = {}
    for boxed in (True, False):
        out, err = io.StringIO(), io.StringIO()
        args = ["fuzz", "--engine-cmd", engine, "--level", "scoring", "--rounds", "20"]
        code = main([*args, "--format", "json", *(["--sandbox"] if boxed else [])], out, err)
        runs[boxed] = (code, len(json.loads(out.getvalue())["divergences"]), err.getvalue())
    assert runs[True][:2] == (0, 0), runs[True]
    assert runs[False][0] == 1 and runs[False][1] > 0, runs[False]


@pytest.mark.parametrize("signame", ["KILL", "TERM", "STOP"])
def test_fuzz_jobs_survives_an_engine_that_signals_its_worker(signame: str) -> None:
    marker = f"hostile-{uuid.uuid4().hex}"
    engine = shlex.join([PYTHON, str(HOSTILE / "signal_parent.py"), marker, signame])
    argv = ["-m", "fiveup", "fuzz", "--engine-cmd", engine, "--level", "scoring"]
    argv += ["--rounds", "40", "--jobs", "2", "--timeout", "5"]
    done = subprocess.run(
        [PYTHON, *argv], cwd=ROOT, capture_output=True, text=True, timeout=120, check=False
    )
    assert "Traceback" not in done.stderr, done.stderr
    if signame == "STOP":  # the stopped worker is continued: the campaign ends as it should
        assert done.returncode == 0 and "40 cases" in done.stdout, done.stderr
        assert "resource_tracker" not in done.stderr, done.stderr
    else:
        assert done.returncode == 2, done.stderr
        assert "a worker of --jobs ended before its part of the campaign did" in done.stderr
    _none_left(marker)
