"""The reference engine of Five Up: the executable form of the spec, pure Python.

Modules, from the bottom up (the notation comes from :mod:`fiveup.contract`):

* ``scoring``: credit, displayed points, penalties and the paper tally (SCR, PTS, PEN, TAL);
* ``rules``: every rule as one typed object, :class:`Rules`, the seam for variants; the spinner
  rule (``open_slots``), the counted ends (``contributions``) and the refusal order live here;
* ``layout``: the table, with tables derived from the rules (LAY, SPN, CNT);
* ``round``: one round from the deal to going out or a block (SET, TRN, DRW, END, PEN);
* ``match``: rounds in sequence, openers and the target (OPN, MAT);
* ``perft``: move counts from a round position, on the round's own legal moves (``moves``);
* ``engine``: the protocol front end (``ReferenceEngine``);
* ``bench``: the speed of random rounds and matches (``fiveup bench``).
"""

if __name__ != "fiveup.reference":  # pragma: no cover - only a bare import from the checkout root
    raise ImportError(
        f"import fiveup.reference, not {__name__}: the top-level folder reference/ is installed as "
        "fiveup.reference, and a second name would make a second copy of every module"
    )

from .engine import ReferenceEngine
from .rules import STANDARD, Rules

__all__ = ["STANDARD", "ReferenceEngine", "Rules"]
