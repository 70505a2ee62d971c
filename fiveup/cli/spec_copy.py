"""Where the HTML report's rule links lead: ``certify --site URL``, or a copy of the site.

Without ``--site``, ``certify --format html --output report.html`` writes the spec site into
``report-spec/`` beside the page (the same pages as ``fiveup render spec``) and links to it by a
relative path, so the report leads to every rule's text with nothing from the network.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

from fiveup.contract.engine import DEFAULT_ENGINE, JSON, Engine
from fiveup.errors import FiveUpError, UsageError
from fiveup.harness.certify import load_engine
from fiveup.harness.corpus import Case
from fiveup.harness.files import umask
from fiveup.harness.levels import LEVELS
from fiveup.harness.text import printable
from fiveup.site.build import write_site

__all__ = [
    "SITE_MARK",
    "StagedSite",
    "check_site",
    "spec_copy_folder",
    "stage_site",
    "stage_spec_copy",
    "tables_of",
    "write_site_whole",
    "write_spec_copy",
]

_URL = re.compile(r"^https?://[A-Za-z0-9.-]+(:\d+)?(/[\x21-\x7e]*)?$")
_RELATIVE = re.compile(r"^(?![/\\])(?!.*//)(?![A-Za-z][A-Za-z0-9+.-]*:)[\x21-\x7e]+$")


def check_site(value: str) -> str:
    """``--site``: an http(s) URL or a relative path, else UsageError naming the option."""
    if len(value) <= 2000 and (_URL.match(value) or _RELATIVE.match(value)):
        return value.rstrip("/") or value
    raise UsageError(
        f"--site {printable(value[:200])}: not an http(s) URL or a relative path "
        "(the folder or address of the spec site, as fiveup render spec writes it)"
    )


def tables_of(engine: Engine) -> Callable[[Case], JSON]:
    """The table ``engine`` builds from a case's given (for diagrams only), None if it cannot."""

    def table(case: Case) -> JSON:
        try:
            observation = engine.run(case.level.value, case.request())
        except FiveUpError:
            return None
        return LEVELS[case.level].layout_of(observation)

    return table


def spec_copy_folder(output: Path) -> Path:
    """The folder the copy of the site goes into: ``report-spec`` beside ``report.html``."""
    return output.with_name(f"{output.stem}-spec")


def write_spec_copy(output: Path) -> str:
    """Write the site beside ``output`` whole, replacing an earlier copy; its relative link."""
    staged = stage_spec_copy(output)
    staged.commit()
    return staged.target.name


def check_spec_copy_place(output: Path) -> None:
    """UsageError unless the spec's copy may go beside ``output``.

    Into a new or empty folder, or over an earlier copy (a site fiveup wrote); never over a
    folder of other files, which the copy would replace whole.
    """
    target = spec_copy_folder(output)
    if target.is_symlink() or (target.exists() and not target.is_dir()):
        raise UsageError(f"--output: {printable(str(target))} is in the way of the spec's copy")
    if _holds_other_files(target, "--output"):
        raise UsageError(
            f"--output: {printable(str(target))} holds files that are not a copy of the "
            "spec fiveup wrote, and the report's copy of the spec goes there, replacing "
            "the folder whole: move them, or name another --output"
        )


def _holds_other_files(target: Path, option: str) -> bool:
    """Whether ``target`` is a folder of files that are no site fiveup wrote (:func:`_a_site`)."""
    if not target.is_dir() or _a_site(target):
        return False
    try:
        return next(target.iterdir(), None) is not None
    except OSError as exc:
        raise UsageError(f"{option} {printable(str(target))}: {exc.strerror}") from None


def stage_spec_copy(output: Path) -> StagedSite:
    """The site for beside ``output``, built and not yet in place (:meth:`StagedSite.commit`)."""
    check_spec_copy_place(output)
    target = spec_copy_folder(output)
    what = f"the spec's copy {printable(str(target))}"
    return stage_site(target, "--output", what, only_a_site=True)


SITE_MARK = ".fiveup-site"
"""The file that marks a folder as a site fiveup wrote, which a new one may replace whole."""


def write_site_whole(target: Path, option: str, what: str, *, only_a_site: bool = False) -> int:
    """Build the spec site into a new folder and rename it to ``target``; the files written.

    A reader never finds half a site, and a failed build leaves the old one. With
    ``only_a_site``, ``target`` must be missing, empty or a site fiveup wrote
    (:func:`_a_site`): a folder of other files (``/``, a home, the package's own ``spec/``)
    is refused, never replaced.
    """
    staged = stage_site(target, option, what, only_a_site=only_a_site)
    staged.commit()
    return staged.files


class StagedSite:
    """A site built in a new folder beside its ``target``, not yet in place.

    :meth:`commit` renames it into place (an earlier site there is removed); :meth:`discard`
    removes it.
    """

    def __init__(self, target: Path, fresh: Path, files: int, option: str, what: str) -> None:
        """The site built in ``fresh`` for ``target``, of ``files`` files."""
        self.target, self.fresh, self.files = target, fresh, files
        self._option, self._what = option, what

    def commit(self) -> None:
        """Put the site in place of ``target``; UsageError naming the option if it cannot be.

        Two renames: the earlier site aside, the new one in its place. Whatever stops between
        them (a rename that fails, Ctrl-C, SIGTERM) puts the earlier site back, and the new
        one is removed; once both are done, the earlier one is.
        """
        parent = self.fresh.parent
        old: Path | None = None
        moved = False
        try:
            if self.target.exists():
                old = Path(tempfile.mkdtemp(prefix=f".{self.target.name}.old.", dir=parent))
                moved = True  # before: an interruption as the rename returns puts it back
                os.replace(self.target, old / "spec")
            os.replace(self.fresh, self.target)
        except BaseException as exc:
            if moved and old is not None and (old / "spec").exists():
                with contextlib.suppress(OSError):
                    os.replace(old / "spec", self.target)
            if old is not None:
                shutil.rmtree(old, ignore_errors=True)
            self.discard()
            if not isinstance(exc, OSError):
                raise
            said = f"{self._option}: cannot write {self._what}: {exc.strerror or exc}"
            raise UsageError(said) from None
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)

    def discard(self) -> None:
        """Remove the built site (it was never put in place, or is now)."""
        if self.fresh.exists():
            shutil.rmtree(self.fresh, ignore_errors=True)


def stage_site(target: Path, option: str, what: str, *, only_a_site: bool = False) -> StagedSite:
    """The spec site for ``target``, built beside it (see :func:`write_site_whole`)."""
    if only_a_site and _holds_other_files(target, option):
        raise UsageError(
            f"{option} {printable(str(target))}: holds files that are not a site fiveup "
            "wrote: name a new or empty folder (or an earlier site), it is replaced whole"
        )
    parent = target.parent if str(target.parent) else Path(".")
    try:
        fresh = Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=parent))
    except OSError as exc:
        raise UsageError(
            f"{option}: cannot write beside {printable(str(target))}: {exc.strerror or exc}"
        ) from None
    try:
        # the reference's whole tables, as render spec draws them
        written = write_site(fresh, table=tables_of(load_engine(DEFAULT_ENGINE)))
        (fresh / SITE_MARK).write_text("written by fiveup: replaced whole by the next site\n")
        os.chmod(fresh, 0o777 & ~umask())
    except BaseException as exc:  # Ctrl-C too: no half-built site is left beside the target
        shutil.rmtree(fresh, ignore_errors=True)
        if not isinstance(exc, (UsageError, OSError)):
            raise
        why = (
            str(exc).rpartition(": ")[2]  # write_site's own, named after the folder being built
            if isinstance(exc, UsageError)
            else exc.strerror or str(exc)
        )
        raise UsageError(f"{option}: cannot write {what}: {why}") from None
    return StagedSite(target, fresh, len(written) + 1, option, what)  # and the mark


def _a_site(folder: Path) -> bool:
    """A site fiveup wrote: it holds :data:`SITE_MARK`, or the two pages every site has.

    A site written before the mark was has the pages only.
    """
    return (folder / SITE_MARK).is_file() or all(
        (folder / page).is_file() for page in ("index.html", "fixture-format.html")
    )
