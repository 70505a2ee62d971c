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
    leaves the first as they were. An OSError names the file that could not be written as its
    ``filename``.
    """
    staged: list[tuple[str, Path]] = []
    try:
        for target, data in files:
            try:
                staged.append((_staged(target, data), target))
            except OSError as exc:
                raise OSError(exc.errno, exc.strerror or str(exc), str(target)) from None
        for tmp, target in staged:  # last, and rarely failing: one that does names its file
            try:
                os.replace(tmp, target)
            except OSError as exc:
                raise OSError(exc.errno, exc.strerror or str(exc), str(target)) from None
    finally:
        for tmp, _ in staged:
            Path(tmp).unlink(missing_ok=True)


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
