"""Reports of a certification run: text for people, JSON and JUnit XML for tools."""

from __future__ import annotations

import json
import re
import shlex
import textwrap
import xml.etree.ElementTree as ET
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from fiveup import PROTOCOL_VERSION, SUITE_VERSION
from fiveup.contract.engine import JSON
from fiveup.contract.schemas import clip

from .certify import Conclusion, Counts, LeftOut, Outcome, Run, Verdict
from .compare import Difference
from .expectations import FRESH_ID
from .levels import LEVELS
from .spec_index import spec_rules, spec_sections
from .text import cut, json_text, printable

_ORDER = tuple(level.value for level in LEVELS)

TallyWriter = Callable[[int], str]
"""Writes a raw score as the documents' paper tally (``fiveup.cli.tally.tally_text``)."""

_SCORES_PATH = re.compile(r"(^|/)scores(/\d+)?$")


MAX_TALLY: Final = 10_000
"""The highest score drawn as a tally (200 fifties); an engine may report any number."""
MAX_TALLIED: Final = 8
"""The most scores of one list drawn as tallies (a side each: four at most)."""


RULE_COUNTS: Final = (
    "by rule: cases whose first difference falls under the rule (without one: its primary rule)"
)
"""What the per-rule counts of every report count (a fixture's ``rules:`` may list many)."""


def tally_of(value: JSON, tally: TallyWriter) -> str:
    """A score (or a list of scores) as tallies; what the tally cannot record stays a number.

    The tally records non-negative multiples of 5 (TAL-1); an engine may report anything.
    """
    if isinstance(value, list):
        shown = [tally_of(item, tally) for item in value[:MAX_TALLIED]]
        if len(value) > MAX_TALLIED:
            shown.append(f"{len(value) - MAX_TALLIED} more")
        return "[" + " / ".join(shown) + "]"
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0 and value % 5 == 0:
        if value > MAX_TALLY:  # 10**12 would be 2 * 10**10 marks
            digits = str(value)
            number = digits if len(digits) <= 40 else f"{digits[:20]}... ({len(digits)} digits)"
            return f"{number} (more marks than a tally shows)"
        return tally(value)
    return value if isinstance(value, str) else json.dumps(value)[:300]


def score_tallies(diff: Difference, tally: TallyWriter) -> str:
    """``expected [...], got [...]`` as tallies for a difference in scores, else empty."""
    if not _SCORES_PATH.search(diff.path):
        return ""
    return f"expected {tally_of(diff.expected, tally)}, got {tally_of(diff.actual, tally)}"


def layout_text(layout: JSON) -> str:
    """A layout observation as its placements in order: ``[1|4] [1|1]@[1|4]:low ...``."""
    if not isinstance(layout, dict):
        return ""
    tiles, links = layout.get("tiles"), layout.get("connections")
    if not isinstance(tiles, list) or not isinstance(links, list) or not tiles:
        return ""
    parts = [str(tiles[0])]
    for tile, link in zip(tiles[1:], links, strict=False):
        point = link[0] if isinstance(link, list) and link else "?"
        parts.append(f"{tile}@{point}")
    return " ".join(parts)


def _observed_layout(outcome: Outcome) -> str:
    result = outcome.result
    return layout_text(LEVELS[result.case.level].layout_of(result.observation))


def plural(n: int, noun: str) -> str:
    """``1 case``, ``2 cases``."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def rerun_command(engine_args: list[str], case_id: str) -> str:
    """The command that reruns one case, the same for every report.

    A corpus case is picked by ``--case``; a fresh case (``fresh.<level>.s<seed>-<index>``) is
    in no corpus, so it is made again: its seed, and enough fresh cases to reach its index.
    """
    fresh = FRESH_ID.match(case_id)
    if fresh is None:
        return shell_join(["fiveup", "certify", *engine_args, "--case", case_id])
    _, seed, index = fresh.groups()
    again = ["--fresh", str(int(index) + 1), "--seed", seed]
    return shell_join(["fiveup", "certify", *engine_args, *again])


def shell_join(words: list[str]) -> str:
    r"""``shlex.join``, but with bash's ``$'...'`` for a word that is not printable UTF-8 text.

    A word with a character that is not printable, or a byte of a file name that is not UTF-8,
    is written ``$'\xff\x1b.yaml'``, so that the command stays one line of printable text that
    runs as it reads: shlex.quote kept an ESC as it was (it reached the terminal) and the byte
    as a lone surrogate, which no UTF-8 report can hold (``--output`` ended in a
    UnicodeEncodeError traceback).
    """
    return " ".join(_shell_word(word) for word in words)


def _shell_word(word: str) -> str:
    if word.isprintable():  # a lone surrogate (an undecodable byte) is not printable either
        return shlex.quote(word)
    # printable's escapes (\xNN for a byte, \x1b, \n, \u200b) are bash's in $'...'
    return "$'" + printable(word.replace("\\", "\\\\").replace("'", "\\'")) + "'"


def _levels(levels: list[str]) -> str:
    return f"level{'s' if len(levels) != 1 else ''} {', '.join(levels)}"


def left_out_text(left_out: LeftOut) -> str:
    """``without decision OQ-6 (1 case left out)``, and the fresh cases not played."""
    decisions = left_out.decisions
    text = f"without decision{'s' if len(decisions) > 1 else ''} {', '.join(decisions)} "
    text += f"({plural(left_out.cases, 'case')} left out"
    if left_out.fresh_levels:
        text += f"; no fresh case of {_levels(list(left_out.fresh_levels))}"
    return text + ")"


def claims_text(run: Run) -> str:
    """What the conclusion speaks for, as spec/README.md ("Conformance") words it.

    ``levels scoring, layout (not claimed: round)``, or, when a level is claimed in part,
    ``scoring (credit), layout; not claimed: scoring (displayed), round``; then the claimed
    features of which cases were declined, ``; declined: scoring (tally)``.
    """
    claims = run.claims
    if run.engine is None:
        return _levels(run.declared_levels)
    declined = run.declined_features
    told = f"; declined: {', '.join(declined)}" if declined else ""
    if not claims.partial:
        text = _levels(run.declared_levels)
        return (
            text
            + (f" (not claimed: {', '.join(run.unclaimed_levels)})" if run.unclaimed_levels else "")
            + told
        )
    return f"{', '.join(claims.claimed)}; not claimed: {', '.join(claims.unclaimed)}{told}"


def conclusion_line(run: Run) -> str:
    """What the run concludes, in the words of spec/README.md ("Conformance")."""
    conclusion = run.conclusion
    counts = Counts.of([*run.outcomes, *run.fresh])
    claims = run.claims
    if conclusion is Conclusion.NOTHING_CHECKED:
        if run.engine is None:
            text = "NOTHING CHECKED: the engine did not start or did not complete the handshake"
        elif not claims.partial and all(
            o.result.case.level.value not in run.declared_levels for o in run.outcomes
        ):
            text = "NOTHING CHECKED: the engine declares none of the selected cases' levels"
        elif all(not claims.claims(o.result.case.level, o.result.case.given) for o in run.outcomes):
            text = "NOTHING CHECKED: the engine claims none of the selected cases' features"
        else:
            text = "NOTHING CHECKED: the engine declined every selected case"
        if run.engine is not None and claims.partial:
            text += f" (claimed: {claims_text(run)})"
        elif run.engine is not None and run.unclaimed_levels:
            text += f" (not claimed: {', '.join(run.unclaimed_levels)})"
    elif conclusion is Conclusion.NO_NEW_FAILURES:
        text = (
            f"NO NEW FAILURES against a baseline of {plural(run.baseline, 'known failure')} "
            f"({counts.xfailed} seen), at {claims_text(run)}"
        )
    else:
        text = f"{conclusion.value} at {claims_text(run)}"
    if run.selection:
        text += f", on a selection ({run.selection})"
    if run.left_out is not None:
        text += f", {left_out_text(run.left_out)}"
    return text


def summary_line(run: Run, model: ReportModel | None = None) -> str:
    """``N passed, N failed, ...`` and the conclusion."""
    c = run.counts
    parts = [
        f"{c.passed} passed",
        f"{c.failed} failed",
        f"{c.errored} errors",
        f"{c.unsupported} unsupported",
        f"{c.xfailed} expected failures",
        f"{c.xpassed} unexpectedly passing",
    ]
    if c.declined:
        parts.insert(4, f"{c.declined} declined")
    if c.changed:
        parts.append(f"{c.changed} failing in another way")
    fresh = f"; of {len(run.fresh)} fresh cases, {_fresh_counts(run)}" if run.fresh else ""
    return f"{', '.join(parts)}{fresh}: {model.line if model else conclusion_line(run)}"


def _header(run: Run) -> list[str]:
    info = run.engine
    who = (
        f"{info['name']} {info['version']} (protocol {info['protocol']}, levels "
        f"{', '.join(info['levels']) or 'none'}"
        + (f"; features {', '.join(info['features'])}" if info.get("features") else "")
        + ")"
        if info
        else "unknown engine"
    )
    out = [
        f"Five Up conformance suite {SUITE_VERSION} (protocol {PROTOCOL_VERSION})",
        f"engine: {who}",
    ]
    if run.handshake_error:
        out.append(f"engine failed: {run.handshake_error}")
        if run.hint:
            out.append(f"hint: {run.hint}")
    out.append(
        f"corpus: {run.corpus.digest} ({len(run.corpus.cases)} cases in "
        f"{len(run.corpus.files)} files); selected "
        f"{len(run.outcomes) if run.selected < 0 else run.selected}"
    )
    return out


_COLUMNS = (
    ("cases", None),
    ("passed", Verdict.PASSED),
    ("failed", Verdict.FAILED),
    ("errors", Verdict.ERRORED),
    ("known", Verdict.XFAILED),
    ("stale", Verdict.XPASSED),
    ("unsupported", Verdict.UNSUPPORTED),
)
"""The columns of the tables: ``known`` are expected failures, ``stale`` baseline entries
that pass."""
_RARE_COLUMNS = (("declined", Verdict.DECLINED), ("changed", Verdict.CHANGED))
"""Columns shown only when a case has their verdict: declined cases of a claimed feature,
and baseline entries that fail in another way."""


def columns(run: Run) -> tuple[tuple[str, Verdict | None], ...]:
    """The columns of ``run``'s tables, in order (the rare ones when a case has them)."""
    seen = {o.verdict for o in run.outcomes}
    return _COLUMNS + tuple((name, v) for name, v in _RARE_COLUMNS if v in seen)


def shown_row(counter: Counter[Verdict]) -> bool:
    """True when a row has a case that neither passed nor is unsupported.

    The default report shows those rows only (``--verbose``: every row).
    """
    return any(n for v, n in counter.items() if v not in (Verdict.PASSED, Verdict.UNSUPPORTED))


def _group(run: Run, key: Callable[[Outcome], str]) -> dict[str, Counter[Verdict]]:
    groups: dict[str, Counter[Verdict]] = defaultdict(Counter)
    for o in run.outcomes:
        groups[key(o)][o.verdict] += 1
    return groups


_GROUP_KEYS: Final[dict[str, Callable[[Outcome], str]]] = {
    "level": lambda o: o.result.case.level.value,
    "section": lambda o: o.result.rule.split("-")[0],
    "rule": lambda o: o.result.rule,
}
"""The tables of a report, and what groups a case in each (a case counts under one rule)."""


@dataclass(frozen=True, slots=True)
class ReportModel:
    """What every report of a run shows, computed once: the writers only render it.

    The text, JSON, JUnit and HTML reports, the badge and the pytest plugin read their
    conclusion, counts, tables and the lists of cases from here, so they cannot drift apart.
    """

    run: Run
    conclusion: Conclusion
    line: str
    """The conclusion in words (:func:`conclusion_line`): the last line of every report."""
    counts: Counts
    """The corpus cases' verdicts."""
    columns: tuple[tuple[str, Verdict | None], ...]
    """The tables' columns: a label and the verdict it counts (None: every case)."""
    tables: dict[str, list[tuple[str, Counter[Verdict]]]]
    """``level``, ``section`` and ``rule``: each group and its verdicts, in spec order."""
    failing: tuple[Outcome, ...]
    """The corpus cases whose verdict counts against the run, but the declined ones."""
    declined: tuple[Outcome, ...]
    """The declined cases of claimed features (they count against the run)."""
    unsupported: tuple[Outcome, ...]
    """The cases not claimed, or of an optional feature and declined (harmless)."""
    known: tuple[Outcome, ...]
    """The expected failures (the baseline's entries seen failing as listed)."""
    fresh_failing: tuple[Outcome, ...]
    """The fresh cases whose verdict counts against the run."""
    fresh_again: tuple[str, ...]
    """The options that play the run's fresh cases again (``--fresh N --seed S``), or ()."""


def report_model(run: Run) -> ReportModel:
    """The model of ``run``'s reports."""
    tables = {name: _sorted_groups(name, _group(run, key)) for name, key in _GROUP_KEYS.items()}
    again: tuple[str, ...] = ()
    if run.fresh:
        per_level = Counter(o.result.case.level for o in run.fresh).most_common(1)[0][1]
        again = ("--fresh", str(per_level), "--seed", str(run.fresh_seed))
    return ReportModel(
        run=run,
        conclusion=run.conclusion,
        line=conclusion_line(run),
        counts=run.counts,
        columns=columns(run),
        tables=tables,
        failing=tuple(
            o for o in run.outcomes if o.verdict.bad and o.verdict is not Verdict.DECLINED
        ),
        declined=tuple(run.declined()),
        unsupported=tuple(o for o in run.outcomes if o.verdict is Verdict.UNSUPPORTED),
        known=tuple(o for o in run.outcomes if o.verdict is Verdict.XFAILED),
        fresh_failing=tuple(o for o in run.fresh if o.verdict.bad),
        fresh_again=again,
    )


def summaries(run: Run) -> dict[str, dict[str, dict[str, int]]]:
    """Counts by level, by spec section and by rule; a case counts under one rule only."""
    return _summaries(report_model(run))


def _summaries(model: ReportModel) -> dict[str, dict[str, dict[str, int]]]:
    return {
        name: {
            group: {
                "cases": sum(counter.values()),
                **{v.name.lower(): counter[v] for v in Verdict},
            }
            for group, counter in rows
        }
        for name, rows in model.tables.items()
    }


def _sorted_groups(
    name: str, groups: dict[str, Counter[Verdict]]
) -> list[tuple[str, Counter[Verdict]]]:
    if name == "level":
        return sorted(groups.items(), key=lambda item: _ORDER.index(item[0]))
    if name == "section":
        section_order = {prefix: i for i, prefix in enumerate(spec_sections())}
        return sorted(groups.items(), key=lambda item: section_order.get(item[0], 99))
    rule_order = {rule: i for i, rule in enumerate(spec_rules())}
    return sorted(groups.items(), key=lambda item: rule_order.get(item[0], len(rule_order)))


def _table(
    title: str,
    groups: list[tuple[str, Counter[Verdict]]],
    names: dict[str, str],
    cols: tuple[tuple[str, Verdict | None], ...] = _COLUMNS,
) -> list[str]:
    widths = [len(column) + 2 for column, _ in cols]
    head = "".join(f"{column:>{w}}" for (column, _), w in zip(cols, widths, strict=True))
    out = [f"{title:<10}{head}"]
    for group, counter in groups:
        cells = [sum(counter.values()), *(counter[v] for _, v in cols[1:] if v is not None)]
        row = "".join(f"{cell:>{w}}" for cell, w in zip(cells, widths, strict=True))
        label = names.get(group, "")
        out.append(f"  {group:<8}{row}  {label}".rstrip())
    return out


def _tallies(model: ReportModel, verbose: bool = True) -> list[str]:
    if not model.run.outcomes:
        return []
    sections = {prefix: section.title for prefix, section in spec_sections().items()}
    cols = model.columns
    out = [""]
    out += _table("by level", model.tables["level"], {}, cols)
    hidden = 0
    for title, name, labels in (("by section", "section", sections), ("by rule", "rule", {})):
        rows = model.tables[name]
        kept = rows if verbose else [(g, c) for g, c in rows if shown_row(c)]
        hidden += len(rows) - len(kept)
        if kept:
            out += _table(title, kept, labels, cols)
            if name == "rule":
                out.append(f"  ({RULE_COUNTS})")
    if hidden:
        out.append(
            f"({plural(hidden, 'row')} of sections and rules where every case passed or was "
            "not claimed not shown: --verbose shows them)"
        )
    return out


MAX_RULE_CHARS: Final = 200
"""The most characters of a rule's text a case's block quotes (spec/rules.md has it whole)."""


def _rule_line(rule: str) -> list[str]:
    """Where the rule a case is counted under stands in the spec, and how it begins."""
    found = spec_rules().get(rule)
    if found is None:
        return []
    head = f"  {rule} (spec/rules.md:{found.line}): "
    text = clip(found.text, MAX_RULE_CHARS)
    return textwrap.wrap(text, 100, initial_indent=head, subsequent_indent="    ")


def _place(file: str, line: int) -> str:
    """``(fixtures/x.yaml:7)``; a case made in the run (``(fresh)``, line 0) by its maker alone."""
    return f"({file}:{line})" if line else file if file.startswith("(") else f"({file})"


def _case_lines(o: Outcome, engine_args: list[str], tally: TallyWriter | None = None) -> list[str]:
    """The block that tells one case that did not pass (scores as tallies with ``tally``)."""
    case = o.result.case
    out = [
        "",
        f"{o.verdict.value.upper()}: {case.id}  {_place(case.file, case.line)}",
        f"  {printable(case.title)}",
        f"  rules: {', '.join(case.rules)}; counted under {o.result.rule}",
        *_rule_line(o.result.rule),
    ]
    listed = f"  listed as an expected failure ({cut(printable(o.reason), 300)}) but it"
    if o.verdict is Verdict.XPASSED:
        out.append(f"{listed} passes now: remove it from the list")
    if o.verdict is Verdict.CHANGED:
        out.append(
            f"{listed} fails in another way now ({o.result.status.value}): write the baseline again"
        )
    if o.result.message and not o.result.differences:
        out += [f"  {line}" for line in o.result.message.splitlines()]  # an engine's stderr too
    for diff in o.result.differences:
        out.append(f"  {printable(diff.text)}")  # an engine's refusal message is its own text
        marks = score_tallies(diff, tally) if tally else ""
        if marks:
            out.append(f"    as tallies: {marks}")
    shown = _observed_layout(o)
    if shown and o.verdict is Verdict.FAILED:
        out.append(f"  engine's layout: {shown}")
    out.append(f"  rerun: {rerun_command(engine_args, case.id)}")
    return out


def _not_passed(model: ReportModel, engine_args: list[str], tally: TallyWriter | None) -> list[str]:
    out: list[str] = []
    first_with: dict[str, str] = {}
    for o in model.failing:
        case = o.result.case
        seen = first_with.get(o.result.message) if not o.result.differences else None
        if seen is not None and o.verdict is Verdict.ERRORED:
            # An engine that fails alike on every case: say it once, then point back.
            out.append(f"{o.verdict.value.upper()}: {case.id}  (the same error as {seen})")
            continue
        if o.result.message and not o.result.differences:
            first_with.setdefault(o.result.message, case.id)
        out.extend(_case_lines(o, engine_args, tally))
    return out


def _expected(model: ReportModel) -> list[str]:
    known = model.known
    if not known:
        return []
    lines = ["", f"expected failures ({len(known)}, listed in the baseline):"]
    return lines + [f"  {o.result.case.id}: {known_reason(o)}" for o in known]


def known_reason(o: Outcome) -> str:
    """An expected failure's reason in the baseline, and how it fails now when that differs.

    A baseline matches a failure by its status only (a case that failed still fails): the
    difference it lists may be an old one, so the one seen now is said beside it.
    """
    result = o.result
    now = result.differences[0].text if result.differences else result.message
    first = now.splitlines()[0] if now.strip() else ""  # as the baseline writes it
    reason = cut(printable(o.reason), 300)
    if not first or first in o.reason:
        return reason
    return f"{reason} (now: {cut(printable(first), 300)})"


def _declined(model: ReportModel) -> list[str]:
    declined, failing = model.unsupported, model.declined
    if not declined and not failing:
        return []
    reasons = Counter(o.result.message for o in declined)
    out = [
        "",
        *(f"unsupported ({n}): {printable(reason)}" for reason, n in sorted(reasons.items())),
    ]
    if failing:
        ids = ", ".join(o.result.case.id for o in failing[:5])
        more = f" and {len(failing) - 5} more" if len(failing) > 5 else ""
        out.append(f"declined cases of a claimed feature, which fail the run: {ids}{more}")
    return out


def fresh_line(run: Run) -> str:
    """How the fresh cases went, or empty when none were played."""
    if not run.fresh:
        return ""
    return (
        f"fresh cases (seed {run.fresh_seed}, expected as the reference plays them): "
        + _fresh_counts(run)
    )


def _fresh_counts(run: Run) -> str:
    """``20 passed, 5 failed, 0 errors`` of the fresh cases, then any other verdict's count."""
    c = Counter(o.verdict for o in run.fresh)
    text = f"{c[Verdict.PASSED]} passed, {c[Verdict.FAILED]} failed, {c[Verdict.ERRORED]} errors"
    for verdict, words in (
        (Verdict.DECLINED, "declined"),
        (Verdict.XFAILED, "expected failures"),
        (Verdict.XPASSED, "unexpectedly passing"),
        (Verdict.CHANGED, "failing in another way"),
        (Verdict.UNSUPPORTED, "unsupported"),
    ):
        if c[verdict]:
            text += f", {c[verdict]} {words}"
    return text


def _fresh(model: ReportModel, engine_args: list[str], tally: TallyWriter | None) -> list[str]:
    run = model.run
    if not run.fresh:
        return []
    out = ["", fresh_line(run)]
    for o in model.fresh_failing:
        out.extend(_case_lines(o, engine_args, tally))
    return out


def text_report(
    run: Run, engine_args: list[str], *, tally: TallyWriter | None = None, verbose: bool = False
) -> str:
    """The human-readable report; with ``tally``, differences in scores also as tallies.

    The tables by section and by rule show the rows with a case not passed (and not merely
    unsupported); ``verbose`` shows every row.
    """
    model = report_model(run)
    out = [
        *_header(run),
        *_tallies(model, verbose),
        *_not_passed(model, engine_args, tally),
        *_expected(model),
        *_declined(model),
        *_fresh(model, engine_args, tally),
        "",
        summary_line(run, model),
    ]
    return "\n".join(out) + "\n"


def conclusion_json(run: Run, model: ReportModel | None = None) -> dict[str, JSON]:
    """The conclusion as JSON: the words, the exit code and what it speaks for."""
    model = model or report_model(run)
    return {
        "verdict": model.conclusion.value,
        "line": model.line,
        "exit_code": model.conclusion.exit_code,
        "levels": run.declared_levels,
        "not_claimed": run.claims.unclaimed if run.engine else [],
        "claimed": run.claims.claimed,
        "features": run.claims.feature_names(),
        "selection": run.selection or None,
        "baseline": run.baseline,
        "without_decisions": _left_out_json(run.left_out),
    }


def _left_out_json(left_out: LeftOut | None) -> JSON:
    if left_out is None:
        return None
    return {
        "decisions": list(left_out.decisions),
        "cases_left_out": left_out.cases,
        "fresh_levels_left_out": list(left_out.fresh_levels),
    }


def _case_json(o: Outcome, engine_args: list[str]) -> dict[str, JSON]:
    case = o.result.case
    row: dict[str, JSON] = {
        "id": case.id,
        "title": case.title,
        "level": case.level.value,
        "rules": list(case.rules),
        "primary_rule": case.primary_rule,
        "rule": o.result.rule,
        "tags": list(case.tags),
        "decisions": list(case.decisions),
        "file": case.file,
        "line": case.line,
        "verdict": o.verdict.name.lower(),
        "status": o.result.status.value,
        "message": o.result.message,
        "expected_failure": o.reason or None,
        "differences": [d.to_json() for d in o.result.differences],
        "seconds": round(o.result.seconds, 6),
    }
    if o.verdict is not Verdict.PASSED:
        row["request"] = o.result.request
        row["observation"] = o.result.observation
        row["rerun"] = rerun_command(engine_args, case.id)
    return row


def json_report(run: Run, engine_args: list[str] | None = None) -> str:
    """The machine-readable report."""
    model = report_model(run)
    args = engine_args or []
    doc: dict[str, JSON] = {
        "suite": SUITE_VERSION,
        "protocol": PROTOCOL_VERSION,
        "corpus": {
            "digest": run.corpus.digest,
            "cases": len(run.corpus.cases),
            "files": list(run.corpus.files),
        },
        "engine": dict(run.engine) if run.engine else None,
        "handshake_error": run.handshake_error or None,
        "hint": run.hint or None,
        "conclusion": conclusion_json(run, model),
        "conforms": model.conclusion is Conclusion.CONFORMS,
        "summary": model.counts.by_verdict(),
        "by": _summaries(model),
        "cases": [_case_json(o, args) for o in run.outcomes],
        "fresh": {
            "seed": run.fresh_seed,
            "summary": Counts.of(run.fresh).by_verdict(),
            "cases": [_case_json(o, args) for o in run.fresh],
        },
    }
    return json_text(doc) + "\n"  # an engine's lone surrogate written so strict readers read it


def junit_report(run: Run) -> str:
    """A JUnit XML report: one testcase per case, classname ``fiveup.<level>``."""
    model = report_model(run)
    everything = (*run.outcomes, *run.fresh)
    counts, no_engine = Counts.of(everything), run.engine is None
    suite = ET.Element(
        "testsuite",
        {
            "name": "fiveup-conformance",
            "tests": str(len(everything) + no_engine),
            "failures": str(counts.failed + counts.xpassed + counts.declined + counts.changed),
            "errors": str(counts.errored + no_engine),
            "skipped": str(counts.unsupported + counts.xfailed),
            "time": f"{sum(o.result.seconds for o in everything):.6f}",
        },
    )
    props = ET.SubElement(suite, "properties")
    for name, value in (
        ("suite", SUITE_VERSION),
        ("corpus", run.corpus.digest),
        ("engine", f"{run.engine['name']} {run.engine['version']}" if run.engine else "unknown"),
        ("conclusion", model.conclusion.value),
        ("conclusion_line", model.line),
        ("without_decisions", ", ".join(run.left_out.decisions) if run.left_out else ""),
        ("engine_failure", run.handshake_error),
    ):
        ET.SubElement(props, "property", {"name": name, "value": value})
    for o in run.outcomes:
        _junit_case(suite, o)
    for o in run.fresh:  # a dashboard that shows testcases must show a fresh failure too
        _junit_case(suite, o, "fiveup.fresh.")
    if no_engine:
        # an engine that cannot start: one error for the run, not one per case
        tc = ET.SubElement(suite, "testcase", {"classname": "fiveup", "name": "engine start"})
        ET.SubElement(tc, "error", {"message": run.handshake_error}).text = run.hint
    ET.indent(suite)
    return ET.tostring(suite, encoding="unicode", xml_declaration=True) + "\n"


def _junit_case(suite: ET.Element, o: Outcome, prefix: str = "fiveup.") -> None:
    case = o.result.case
    tc = ET.SubElement(
        suite,
        "testcase",
        {
            "classname": f"{prefix}{case.level.value}",
            "name": case.id,
            "file": case.file,
            "line": str(case.line),
            "time": f"{o.result.seconds:.6f}",
        },
    )
    # a difference holds the engine's own text (a refusal's message): XML takes no control
    # character nor lone surrogate, so every line is printable, as in the text report
    detail = "\n".join(
        printable(line)
        for line in [o.result.message, *(d.text for d in o.result.differences)]
        for line in line.splitlines()
    ).strip()
    if o.verdict is Verdict.FAILED:
        first = o.result.differences[0].text if o.result.differences else o.result.message
        message = f"{o.result.rule}: {printable(cut(first, 300))}"  # a dashboard's one line
        ET.SubElement(tc, "failure", {"message": message}).text = detail
    elif o.verdict is Verdict.XPASSED:
        ET.SubElement(tc, "failure", {"message": "unexpectedly passing"}).text = o.reason
    elif o.verdict is Verdict.DECLINED:
        message = "declined a case of a claimed feature"
        ET.SubElement(tc, "failure", {"message": message}).text = o.result.message
    elif o.verdict is Verdict.CHANGED:
        message = f"fails in another way than the baseline lists ({o.result.status.value})"
        ET.SubElement(tc, "failure", {"message": message}).text = detail
    elif o.verdict is Verdict.ERRORED:
        ET.SubElement(tc, "error", {"message": o.result.message}).text = detail
    elif o.verdict in (Verdict.UNSUPPORTED, Verdict.XFAILED):
        ET.SubElement(tc, "skipped", {"message": o.reason or o.result.message})
