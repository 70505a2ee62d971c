"""Writing a file whole or not at all, the one way every output of the suite is written.

A report, a badge, a baseline, a fuzz fixture and a page of the site go to a fresh temporary file
in the target's folder (created exclusively, so a symbolic link or a FIFO planted under a
predictable name is neither written through nor waited on) that is then renamed over the
target: a reader sees the old file or the new one, never half of it, and a link of the target's
name is replaced, not followed.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from collections.abc import Sequence
from pathlib import Path

__all__ = ["umask", "write_together", "write_whole"]


def write_whole(target: Path, data: str | bytes) -> None:
    """Write ``data`` (text as UTF-8) to ``target`` through a temporary file and a rename.

    A file written again keeps its permissions and, where the process may, its owner (a
    private report stays private); a symbolic link is replaced, as the module says.
    """
    write_together([(target, data)])


def write_together(files: Sequence[tuple[Path, str | bytes]]) -> None:
    """:func:`write_whole` of several files, all or none.

    Each is renamed into place only once every one of them is written: a full disk at the last
    leaves the first as they were. When a rename fails (a folder made at an output's name
    meanwhile) or the run is interrupted among the renames, the files already renamed are put
    back as they were: each old file is kept under a hard link until every rename is done, and
    a file that was not there is removed again. An OSError names the file that could not be
    written as its ``filename``.
    """
    staged: list[tuple[str, Path]] = []
    kept: list[tuple[Path, str | None]] = []
    """Each target renamed over so far, and its old file as :func:`_kept` kept it."""
    try:
        for target, data in files:
            try:
                staged.append((_staged(target, data), target))
            except OSError as exc:
                raise OSError(exc.errno, exc.strerror or str(exc), str(target)) from None
        for tmp, target in staged:  # last, and rarely failing: one that does names its file
            # listed before the rename: an interruption just after it returns puts it back too
            # (putting back a file not yet renamed over leaves it as it is)
            kept.append((target, _kept(target)))
            try:
                os.replace(tmp, target)
            except OSError as exc:
                _forget(kept.pop()[1])
                raise OSError(exc.errno, exc.strerror or str(exc), str(target)) from None
        done, kept = kept, []  # all in place: an interruption now puts nothing back
        for _, old in done:
            _forget(old)
    except BaseException:
        for target, old in reversed(kept):
            _restore(target, old)
        raise
    finally:
        for tmp, _ in staged:
            Path(tmp).unlink(missing_ok=True)


MAX_COPIED = 64 << 20
"""The largest old file copied to be put back where no hard link can keep it, in bytes."""


def _kept(target: Path) -> str | None:
    """The path of the old file at ``target``, kept beside it to be put back if need be.

    None when there was none, and ``""`` when it cannot be kept (it is replaced all the same,
    as before). Kept under a hard link; where the file system (or a protected link) refuses
    one, a regular file is copied instead. A folder is not kept: the rename over it fails.
    """
    try:
        before = os.lstat(target)
    except FileNotFoundError:
        return None
    except OSError:
        return ""
    if stat.S_ISDIR(before.st_mode):
        return ""
    directory = target.parent if str(target.parent) else Path(".")
    name = str(directory / f".{target.name}.{os.urandom(6).hex()}.old")
    try:
        os.link(target, name, follow_symlinks=False)
        return name
    except OSError:
        pass
    if not stat.S_ISREG(before.st_mode) or before.st_size > MAX_COPIED:
        return ""
    try:
        return _staged(target, target.read_bytes())
    except OSError:
        return ""


def _forget(old: str | None) -> None:
    """Remove an old file kept by :func:`_kept`, once it is no longer to be put back."""
    if old:
        with contextlib.suppress(OSError):
            os.unlink(old)


def _restore(target: Path, old: str | None) -> None:
    """Put back what ``target`` was before it was renamed over (or remove it: it was not there)."""
    with contextlib.suppress(OSError):
        if old is None:
            os.unlink(target)
        elif old:
            os.replace(old, target)


def _staged(target: Path, data: str | bytes) -> str:
    """A temporary file beside ``target`` holding ``data``, with the mode ``target`` will have."""
    directory = target.parent if str(target.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data.encode("utf-8") if isinstance(data, str) else data)
        try:
            before = os.stat(target, follow_symlinks=False)
        except FileNotFoundError:  # mkstemp makes 0600; a new output is an ordinary file
            os.chmod(tmp, 0o666 & ~umask())
        else:
            kept = before.st_mode if stat.S_ISREG(before.st_mode) else 0o666 & ~umask()
            os.chmod(tmp, stat.S_IMODE(kept) & 0o777)  # not a setuid bit, nor the sticky one
            if before.st_uid != os.geteuid() or before.st_gid != os.getegid():
                with contextlib.suppress(OSError):  # only root may give a file away
                    os.chown(tmp, before.st_uid, before.st_gid)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return tmp


def umask() -> int:
    """The process's umask (reading it means setting it: it is set back at once)."""
    mask = os.umask(0)
    os.umask(mask)
    return mask
