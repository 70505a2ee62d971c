"""A shields.io endpoint badge of a run's conclusion (``certify --badge FILE``).

The file follows the endpoint schema of shields.io (``schemaVersion``, ``label``, ``message``,
``color``): host it anywhere and point ``https://img.shields.io/endpoint?url=...`` at it. A badge
speaks for the whole corpus, so a run on a selection writes none.
"""

from __future__ import annotations

import json

from fiveup import SUITE_VERSION
from fiveup.contract.engine import JSON

from .certify import Conclusion, Counts, Run

__all__ = ["badge", "badge_json"]

_COLORS = {
    Conclusion.CONFORMS: "brightgreen",
    Conclusion.NO_NEW_FAILURES: "yellow",
    Conclusion.DOES_NOT_CONFORM: "red",
    Conclusion.NOTHING_CHECKED: "lightgrey",
}


def badge(run: Run) -> dict[str, JSON]:
    """The endpoint badge of ``run``: the conclusion and what it speaks for."""
    conclusion = run.conclusion
    claimed = ", ".join(run.claims.claimed)
    if run.declined_features:  # claimed but not shown: the badge must not read as conforming
        claimed += f"; declined: {', '.join(run.declined_features)}"
    counts = Counts.of([*run.outcomes, *run.fresh])
    if conclusion is Conclusion.CONFORMS:
        message = f"conforms: {claimed}"
    elif conclusion is Conclusion.NO_NEW_FAILURES:
        message = f"{counts.xfailed} known failures: {claimed}"
    elif conclusion is Conclusion.DOES_NOT_CONFORM:
        failing = sum(1 for o in (*run.outcomes, *run.fresh) if o.verdict.bad)
        message = f"does not conform: {failing} failing"
    else:
        message = "nothing checked"
    return {
        "schemaVersion": 1,
        "label": f"Five Up {SUITE_VERSION}",
        "message": message,
        "color": _COLORS[conclusion],
    }


def badge_json(run: Run) -> str:
    """The badge as the text of its file."""
    return json.dumps(badge(run), indent=2) + "\n"
