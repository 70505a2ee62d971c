"""``--sandbox``: an engine process run under bubblewrap, where it cannot reach the answers.

:class:`Sandbox` turns an engine's command into a ``bwrap`` command line: the engine gets its
own PID, IPC, UTS, cgroup and network namespaces (it sees only its own processes, has no
network but a loopback of its own, so no abstract UNIX socket of the host either, and cannot
signal the harness), no capabilities, a fresh ``/proc`` and ``/dev``, and a read-only view of
only what it needs: the system's folders (:data:`SYSTEM_DIRS`), the engine's working directory,
the folder of each file its command names, its Python virtual environment and installation, and
the suite's own code. ``/tmp``, ``/var/tmp`` and ``/run`` are private ``tmpfs`` (a writable
scratch space that dies with the engine); the rest of the host (home folders, ``/var``,
``/mnt``, and so the sockets other programs listen on there) is not there at all. In what is
there the corpus is hidden: the bundled corpus folder (and the ``.git`` of the checkout it
lives in), every ``--fixtures`` path and every report the run writes are covered by an empty
``tmpfs`` or by ``/dev/null``. bwrap is run
with ``--die-with-parent``, so the sandbox dies with the harness even if the harness is killed.

The harness's own Python code stays visible (read-only), so ``python -m fiveup engine`` still
runs inside. See ``spec/protocol.md``, "Security", for what is and is not guaranteed.
"""

from __future__ import annotations

import importlib.util
import os
import shlex
import shutil
import subprocess
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from fiveup.errors import UsageError

from .sources import read_bounded
from .text import quoted

__all__ = [
    "IN_PROCESS_REFUSAL",
    "NAMESPACES",
    "PRIVATE_DIRS",
    "SYSTEM_DIRS",
    "Sandbox",
    "bwrap_program",
]

NAMESPACES: tuple[str, ...] = (
    "--unshare-pid",
    "--unshare-ipc",
    "--unshare-uts",
    "--unshare-net",
    "--unshare-cgroup-try",
)
"""The namespaces the engine gets of its own."""

PRIVATE_DIRS: tuple[str, ...] = ("/tmp", "/var/tmp", "/run")
"""Folders replaced by an empty, private tmpfs inside the sandbox."""

SYSTEM_DIRS: tuple[str, ...] = (
    "/usr",
    "/bin",
    "/sbin",
    "/lib",
    "/lib32",
    "/lib64",
    "/libx32",
    "/etc",
    "/opt",
)
"""The host's folders of programs, libraries and their settings, bound read-only (a link at
the top, such as ``/bin -> usr/bin``, is made again as the same link). Nothing else of the host
is there but what the command needs (see :meth:`Sandbox.command`): no home folders, no
``/var``, no ``/mnt``, no other program's sockets."""

INSTALL_HINT = (
    "install the package bubblewrap (Debian, Ubuntu: apt-get install bubblewrap; "
    "Fedora: dnf install bubblewrap; Arch: pacman -S bubblewrap; Alpine: apk add bubblewrap)"
)

IN_PROCESS_REFUSAL = (
    "--sandbox can only contain an engine run as a process (--engine-cmd): an in-process "
    "Python engine (--engine, or the default reference) runs inside the harness itself, with "
    "the harness's memory, files and rights, so it cannot be contained. Serve it over the "
    "protocol instead: --engine-cmd 'python -m fiveup engine --engine NAME' --sandbox"
)

_PROBE_SECONDS = 30.0


def bwrap_program() -> str:
    """The ``bwrap`` program to run; UsageError, naming what to install, when there is none."""
    if not sys.platform.startswith("linux"):
        raise UsageError(
            "--sandbox needs Linux: it runs the engine under bubblewrap (bwrap), which is built "
            "on Linux namespaces"
        )
    found = shutil.which("bwrap")
    if found is None:
        raise UsageError(
            f"--sandbox needs bubblewrap (the bwrap program), which is not on PATH: {INSTALL_HINT}"
        )
    return found


def _inside(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


def _absolute(path: str | os.PathLike[str], cwd: Path) -> Path:
    return Path(os.path.normpath(cwd / Path(path)))


@dataclass(frozen=True, slots=True)
class Sandbox:
    """How to run an engine under bubblewrap; ``hide`` names more paths to hide.

    The bundled corpus is always hidden; ``hide`` adds the run's own files (its ``--fixtures``,
    its expected failures, the reports it will write). A path that does not exist is skipped:
    the filesystem is read-only, so the engine cannot create it.
    """

    hide: tuple[Path, ...] = ()

    def hidden(self) -> list[Path]:
        """Every existing path the engine must not see, resolved, without repetition."""
        # Imported here: `fiveup engine` imports this module and needs no corpus reader (YAML).
        from .corpus import bundled_fixture_dir

        corpus = bundled_fixture_dir()
        found = [corpus, *self.hide]
        checkout = _checkout(corpus)
        if checkout is not None:
            found += _git_folders(checkout / ".git")  # its history holds every answer too
        return list(dict.fromkeys(p.resolve() for p in found if p.exists()))

    def command(
        self,
        argv: Sequence[str],
        cwd: str | os.PathLike[str] | None = None,
        *,
        bwrap: str | None = None,
    ) -> list[str]:
        """The bwrap command line that runs ``argv`` in ``cwd`` (default: this one) sandboxed.

        UsageError when a hidden path holds the working directory or the engine's program.
        """
        here = Path(cwd if cwd is not None else os.getcwd()).resolve()
        hidden = self.hidden()
        _refuse_clash(hidden, here, _program(argv, here))
        words = [bwrap or bwrap_program(), "--die-with-parent", "--new-session", *NAMESPACES]
        words += ["--hostname", "fiveup-sandbox", "--cap-drop", "ALL"]
        words += _system()
        words += ["--dev", "/dev", "--proc", "/proc"]
        private = [Path(d) for d in PRIVATE_DIRS]
        for folder in private:
            words += ["--tmpfs", str(folder)]
        system = [Path(d) for d in SYSTEM_DIRS]
        named = [*_named(argv, here), *_suite_code(), *_pythons()]
        beside = [_beside(p, private) for p in named]
        exact = _venv_installation(argv, here)  # files of the host: bound alone, not their folder
        for path in _outermost(
            p for p in [*beside, *exact] if not any(_inside(p, d) for d in system)
        ):
            words += ["--ro-bind", str(path), str(path)]
        for path in hidden:  # last: a path bound back above is hidden again
            words += _hiding(path)
        return [*words, "--chdir", str(here), "--", *argv]

    def check(self, argv: Sequence[str], cwd: str | os.PathLike[str] | None = None) -> list[str]:
        """The sandboxed command line, once bwrap has shown it can build this very sandbox.

        The sandbox is built once with ``true`` in place of the engine. UsageError when bwrap
        is missing, cannot create namespaces here, or fails on these mounts, or when the
        engine's program cannot be found.
        """
        here = Path(cwd if cwd is not None else os.getcwd())
        _check_program(argv, here)
        bwrap = bwrap_program()
        wrapped = self.command(argv, here, bwrap=bwrap)
        probe = [*wrapped[: len(wrapped) - len(argv)], shutil.which("true") or "true"]
        try:
            done = subprocess.run(
                probe,
                stdin=subprocess.DEVNULL,
                capture_output=True,
                timeout=_PROBE_SECONDS,
                check=False,
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise UsageError(f"--sandbox: cannot run {bwrap}: {exc}") from None
        if done.returncode != 0:
            said = done.stderr.decode("utf-8", "replace").strip() or f"exit {done.returncode}"
            raise UsageError(
                f"--sandbox: bubblewrap cannot build the sandbox here ({said}). It needs "
                "unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1; on "
                "Ubuntu 24.04 also kernel.apparmor_restrict_unprivileged_userns=0), or a "
                f"setuid bwrap, or a container that allows namespaces; else {INSTALL_HINT}"
            )
        return wrapped


def _check_program(argv: Sequence[str], cwd: Path) -> None:
    """UsageError unless ``argv[0]`` names a program (bwrap would only say so on stderr)."""
    program = argv[0]
    if os.sep in program:
        found = _absolute(program, cwd)
        ok = found.is_file() and os.access(found, os.X_OK)
    else:
        ok = shutil.which(program) is not None
    if not ok:
        raise UsageError(f"--engine-cmd: cannot run {shlex.join(argv)}: no such program")


def _checkout(corpus: Path) -> Path | None:
    """The source checkout the bundled corpus lives in (an editable install), if any."""
    for folder in corpus.parents:
        if folder.name in ("site-packages", "dist-packages"):
            return None  # an installed copy: a .git above belongs to someone else
        if (folder / ".git").exists():
            return folder
    return None


def _git_folders(dot_git: Path) -> list[Path]:
    """``.git``, and where a worktree's ``.git`` file points: its folder and the shared one."""
    if not dot_git.is_file():
        return [dot_git]
    try:
        pointer = dot_git.read_text(encoding="utf-8", errors="replace").strip()
    except OSError:
        return [dot_git]
    if not pointer.startswith("gitdir:"):
        return [dot_git]
    folder = (dot_git.parent / pointer.removeprefix("gitdir:").strip()).resolve()
    found = [dot_git, folder]
    try:
        common = (folder / "commondir").read_text(encoding="utf-8", errors="replace").strip()
        found.append((folder / common).resolve())
    except OSError:
        pass
    return found


def _program(argv: Sequence[str], cwd: Path) -> Path | None:
    """The engine's program as a path, when it can be found."""
    found = shutil.which(argv[0]) if os.sep not in argv[0] else str(_absolute(argv[0], cwd))
    return Path(found).resolve() if found else None


def _refuse_clash(hidden: Iterable[Path], cwd: Path, program: Path | None) -> None:
    for path in hidden:
        for needed, what in ((cwd, "working directory"), (program, "program")):
            if needed is not None and _inside(needed, path):
                raise UsageError(
                    f"--sandbox hides {path}, which holds the engine's {what} {needed}: keep "
                    "the fixtures and the reports apart from the engine, or start from elsewhere"
                )


def _named(argv: Sequence[str], cwd: Path) -> list[Path]:
    """The working directory and every existing file the command names.

    Each is absolute, and resolved as well when a link leads elsewhere; a program in a Python
    virtual environment brings the whole environment along.
    """
    named: list[Path] = [cwd]
    program = shutil.which(argv[0]) if os.sep not in argv[0] else argv[0]
    venv = _venv_of(argv, cwd)
    if venv is not None:
        named.append(venv)
    for word in [program or argv[0], *argv[1:]]:
        path = _absolute(word, cwd)
        try:
            if not path.exists():
                continue
        except OSError:  # a word too long to be a file name
            continue
        named += [path, path.resolve()]
    return list(dict.fromkeys(named))


_CODE_PACKAGES = ("fiveup", "fiveup.contract", "fiveup.reference", "fiveup.harness", "fiveup.spec")


def _suite_code() -> list[Path]:
    """The folders of the suite's own code, so that ``python -m fiveup engine`` runs inside.

    Only code: the corpus (``fiveup.fixtures``) stays hidden, since hidden paths are added last.
    """
    found: list[Path] = []
    for name in _CODE_PACKAGES:
        spec = importlib.util.find_spec(name)
        for location in (spec.submodule_search_locations or []) if spec else []:
            found += [Path(location), Path(location).resolve()]
    return found


def _system() -> list[str]:
    """The bwrap words that bind :data:`SYSTEM_DIRS` read-only, or make their links again."""
    words: list[str] = []
    for name in SYSTEM_DIRS:
        folder = Path(name)
        if folder.is_symlink():
            words += ["--symlink", os.readlink(folder), name]
        elif folder.is_dir():
            words += ["--ro-bind", name, name]
    return words


def _pythons() -> list[Path]:
    """The harness's Python installation (``python -m fiveup engine`` runs inside with it)."""
    found = {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix}
    return [Path(p) for p in sorted(found) if p]


def _venv_of(argv: Sequence[str], cwd: Path) -> Path | None:
    """The Python virtual environment the engine's program lies in (``venv/bin/program``)."""
    program = shutil.which(argv[0]) if os.sep not in argv[0] else argv[0]
    if program is None:
        return None
    venv = _absolute(program, cwd).parent.parent
    return venv if (venv / "pyvenv.cfg").is_file() else None


def _venv_installation(argv: Sequence[str], cwd: Path) -> list[Path]:
    """What the engine's virtual environment runs on, if it lies in one (:func:`_venv_home`)."""
    venv = _venv_of(argv, cwd)
    return [] if venv is None else _venv_home(venv)


MAX_VENV_CONFIG = 64 << 10
"""The largest ``pyvenv.cfg`` read, in bytes (Python writes a few hundred)."""
_MAX_LIB_ENTRIES = 1000


def _venv_home(venv: Path) -> list[Path]:
    """The parts of the installation a virtual environment's ``home`` line names that it runs on.

    ``home`` is the folder of the interpreter the environment was made from; what is bound is
    the ``python*`` programs there and their installation's ``lib`` (the standard library), and
    only when that ``lib`` holds one: the file lies in the engine's own folder, so its author
    must not choose what of the host the sandbox shows (``home = /anything`` named the whole
    host when the parent of ``home`` was bound).
    """
    path = venv / "pyvenv.cfg"
    config = read_bounded(path, MAX_VENV_CONFIG)
    if isinstance(config, str):
        raise UsageError(
            f"--sandbox: {quoted(str(path))}, the engine's virtual environment, {config}"
        )
    for line in config.decode("utf-8", "replace").splitlines():
        key, _, value = line.partition("=")
        if key.strip() == "home" and value.strip():
            home = Path(value.strip())
            if not home.is_absolute() or os.path.normpath(home) != str(home):
                return []
            lib = home.parent / "lib"
            interpreters = _interpreters(home)
            return [*interpreters, lib] if interpreters and _holds_stdlib(lib) else []
    return []


def _interpreters(home: Path) -> list[Path]:
    """The ``python*`` programs in ``home`` (a virtual environment's ``python`` links to one).

    The files alone are bound, not their folder: ``home`` could be any folder of the host.
    """
    found: list[Path] = []
    try:
        with os.scandir(home) as entries:
            for count, entry in enumerate(entries):
                if count >= _MAX_LIB_ENTRIES:
                    break
                if entry.name.startswith("python") and entry.is_file():
                    found.append(Path(entry.path))
    except OSError:
        return []
    return sorted(found)


def _holds_stdlib(lib: Path) -> bool:
    """Whether ``lib`` holds a Python standard library: a ``python3.*/os.py``.

    Looked up among at most :data:`_MAX_LIB_ENTRIES` of its entries.
    """
    try:
        with os.scandir(lib) as entries:
            for count, entry in enumerate(entries):
                if count >= _MAX_LIB_ENTRIES:
                    return False
                if entry.name.startswith("python3") and os.path.isfile(
                    os.path.join(entry.path, "os.py")
                ):
                    return True
    except OSError:
        return False
    return False


def _beside(path: Path, private: Sequence[Path]) -> Path:
    """What to bind back for a named path: a file's whole folder, unless it is a private one.

    A script imports what lies beside it (``_hostile.py`` beside an engine script). A file
    straight inside a private folder, or at the top, comes alone.
    """
    if path.is_dir():
        return path
    return path if path.parent in private or path.parent == Path("/") else path.parent


def _hiding(path: Path) -> list[str]:
    """The bwrap words that cover ``path``: an empty tmpfs on a folder, /dev/null on a file."""
    if path.is_dir():
        return ["--tmpfs", str(path)]
    return ["--ro-bind", os.devnull, str(path)]


def _outermost(paths: Iterable[Path]) -> list[Path]:
    """``paths`` without those inside another of them, outermost first."""
    kept: list[Path] = []
    for path in sorted(set(paths), key=lambda p: len(p.parts)):
        if not any(_inside(path, outer) for outer in kept):
            kept.append(path)
    return kept
