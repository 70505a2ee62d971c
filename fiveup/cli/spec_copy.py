"""Where the HTML report's rule links lead: ``certify --site URL``, or a copy of the site.

Without ``--site``, ``certify --format html --output report.html`` writes the spec site into
``report-spec/`` beside the page (the same pages as ``fiveup render spec``) and links to it by a
relative path, so the report leads to every rule's text with nothing from the network.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from pathlib import Path

from fiveup.contract.engine import DEFAULT_ENGINE
from fiveup.errors import UsageError
from fiveup.harness.certify import load_engine
from fiveup.harness.text import printable
from fiveup.site.build import write_site

__all__ = ["check_site", "spec_copy_folder", "write_spec_copy"]

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


def spec_copy_folder(output: Path) -> Path:
    """The folder the copy of the site goes into: ``report-spec`` beside ``report.html``."""
    return output.with_name(f"{output.stem}-spec")


def write_spec_copy(output: Path) -> str:
    """Write the site beside ``output`` whole, replacing an earlier copy; its relative link.

    The site is built into a new folder and renamed into place, so a reader never finds half
    a copy, and a failed build leaves the old one.
    """
    from .render import tables_of  # the reference's whole tables, as render spec draws them

    target = spec_copy_folder(output)
    if target.is_symlink() or (target.exists() and not target.is_dir()):
        raise UsageError(f"--output: {printable(str(target))} is in the way of the spec's copy")
    parent = target.parent if str(target.parent) else Path(".")
    try:
        fresh = Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=parent))
    except OSError as exc:
        raise UsageError(f"--output: cannot write beside it: {exc.strerror or exc}") from None
    try:
        write_site(fresh, table=tables_of(load_engine(DEFAULT_ENGINE)))
        os.chmod(fresh, 0o777 & ~_umask())
        old = None
        if target.exists():
            old = Path(tempfile.mkdtemp(prefix=f".{target.name}.old.", dir=parent))
            os.replace(target, old / "spec")
        os.replace(fresh, target)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
    except OSError as exc:
        raise UsageError(
            f"--output: cannot write the spec's copy {printable(str(target))}: "
            f"{exc.strerror or exc}"
        ) from None
    finally:
        if fresh.exists():
            shutil.rmtree(fresh, ignore_errors=True)
    return target.name


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
