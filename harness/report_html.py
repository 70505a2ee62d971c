"""The certification report as one self-contained HTML page (``certify --format html``).

The page says what the text report says - the engine, the suite and corpus, the conclusion in
the same words, the tables by level, section and rule, and every case that did not pass with
its differences, request and rerun command - and draws the expected and the engine's layout of
every failing case that has one side by side, the worked examples first. It leads to the spec:
each failing rule and difference has its rule's text beside it and, given the spec site
(``site``: a URL or a relative path, ``certify --site`` or the copy certify writes beside the
report), a link to the rule's page and each case a link to its fixture file. Declined cases
that fail the run are summed up at the top. It needs no network: the style sheet and the
diagrams are inline, and there is no script.

Everything that comes from the engine is untrusted (its name, messages, stderr, observations):
it is escaped, stripped of characters XML cannot hold, and bounded in size. The page is XHTML
as well as HTML (every element closed, only XML's entities), so tools can parse it as XML.
"""

from __future__ import annotations

import html
import json
import os
import shlex
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from fiveup import PROTOCOL_VERSION, SUITE_VERSION
from fiveup.contract.engine import JSON
from fiveup.render.svg import layout_svg
from fiveup.render.text import Lang, describe
from fiveup.site.build import fixture_name

from .certify import Conclusion, Outcome, Run, Verdict
from .corpus import bundled_fixture_dir
from .levels import LEVELS
from .report import (
    RULE_COUNTS,
    ReportModel,
    TallyWriter,
    known_reason,
    layout_text,
    report_model,
    rerun_command,
    score_tallies,
)
from .spec_index import spec_rules, spec_sections
from .text import cut, printable

__all__ = ["MAX_DETAILED", "MAX_RULE_TEXT", "Diagram", "draw_layout", "html_report"]

Diagram = Callable[[JSON, str, int | None], str]
"""Draws a layout as an SVG document: ``(layout, title, credit)``; it must not raise."""

MAX_DETAILED = 200
"""How many cases not passed are told in full; the rest are listed by ID and rule."""
MAX_DIFFERENCES = 30
"""How many differences of one case are listed; the rest are counted."""
MAX_TEXT = 4000
"""The longest text (a message, a request) shown whole; longer ones are cut, saying so."""
MAX_TILES = 28
"""A layout with more tiles than a set holds is not drawn (an engine may send any list)."""
MAX_SVG = 200_000
"""A diagram longer than this many characters is left out."""
MAX_RULE_TEXT = 600
"""The longest rule text shown beside a difference; the rule's page has it whole."""

_SHOWN = (Verdict.FAILED, Verdict.ERRORED, Verdict.XPASSED)
_VERDICT_CLASS = {
    Conclusion.CONFORMS: "ok",
    Conclusion.NO_NEW_FAILURES: "known",
    Conclusion.DOES_NOT_CONFORM: "bad",
    Conclusion.NOTHING_CHECKED: "none",
}

_STYLE = """
body{font-family:system-ui,sans-serif;margin:1.5em auto;max-width:72em;padding:0 1em;color:#222}
h1{font-size:1.5em}h2{font-size:1.2em;margin-top:1.6em;border-bottom:1px solid #ccc}
h3{font-size:1.05em;margin:0 0 .3em}
.verdict{font-size:1.2em;font-weight:bold;padding:.6em .8em;border-radius:4px}
.verdict.ok{background:#e3f4e1;color:#1d5e1a}.verdict.known{background:#fff4d6;color:#6b5000}
.verdict.bad{background:#fbe3e1;color:#8a1c12}.verdict.none{background:#eee;color:#444}
dl.identity{display:grid;grid-template-columns:max-content auto;gap:.2em 1em}
dl.identity dt{font-weight:bold}dl.identity dd{margin:0}
ul.counts{list-style:none;padding:0;display:flex;flex-wrap:wrap;gap:1.2em}
ul.counts b{font-size:1.3em}
table{border-collapse:collapse;margin:.5em 0}
th,td{border:1px solid #ccc;padding:.15em .5em;text-align:right}
th:first-child,td:first-child,td.name{text-align:left}
table.differences td:nth-child(4){white-space:nowrap}
tr.bad td{background:#fbe3e1}tr.known td{background:#fff4d6}
article.case{border:1px solid #ccc;border-radius:4px;padding:.6em .8em;margin:1em 0}
article.case.failed,article.case.errored{border-left:6px solid #c0392b}
article.case.xpassed{border-left:6px solid #d4a000}
.diagrams{display:flex;flex-wrap:wrap;gap:1em}
.diagrams figure{margin:0;border:1px solid #ddd;padding:.4em;flex:1 1 0;min-width:18em;
overflow:auto}
.diagrams figcaption{font-weight:bold;margin-bottom:.3em}
.diagrams svg{max-width:100%;height:auto}
pre,code{font-family:ui-monospace,monospace;font-size:.9em}
pre{background:#f6f6f6;padding:.4em;overflow:auto;white-space:pre-wrap;word-break:break-all}
td.json{text-align:left;font-family:ui-monospace,monospace;word-break:break-all}
.note{color:#555;font-style:italic}
.rule-text{background:#f4f7fb;border-left:4px solid #4a78b5;padding:.3em .6em;margin:.3em 0}
#declines{border:2px solid #c0392b;border-radius:4px;padding:.3em .8em}
"""


def draw_layout(layout: JSON, title: str, credit: int | None) -> str:
    """A layout as an SVG document, its English description as the accessible text."""
    table = layout if isinstance(layout, dict) else {}
    desc = describe(table, Lang.EN, credit=credit)
    return layout_svg(table, title=title, desc=desc, credit=credit)


def _clean(text: str) -> str:
    """``text`` escaped for HTML, every character XML cannot hold written as an escape."""
    lines = (printable(line.replace("\t", "    ")) for line in text.split("\n"))
    return html.escape("\n".join(lines), quote=True)


def _cut(text: str, limit: int = MAX_TEXT) -> str:
    if len(text) <= limit:
        return text
    return f"{text[:limit]}\n... ({len(text) - limit} more characters not shown)"


def _json(value: JSON, indent: int | None = None) -> str:
    try:
        return json.dumps(value, ensure_ascii=False, indent=indent)
    except (TypeError, ValueError):  # pragma: no cover - observations are parsed JSON
        return repr(value)


def _anchor(case_id: str) -> str:
    return "case-" + "".join(c if c.isalnum() or c in "-_." else "_" for c in case_id)


@dataclass
class _Page:
    """The page being written, and how many diagrams it still may draw."""

    run: Run
    model: ReportModel
    engine_args: list[str]
    tally: TallyWriter | None
    diagram: Diagram | None
    site: str | None
    parts: list[str]

    def add(self, *chunks: str) -> None:
        self.parts.extend(chunks)

    def rule(self, rule: str) -> str:
        """A rule's ID, linked to its page when there is a site."""
        if self.site is None or rule not in spec_rules():
            return f"<b>{_clean(rule)}</b>"
        href = f"{self.site}/rules/{rule}.html#{rule}"
        return f'<a class="rule" href="{_clean(href)}"><b>{_clean(rule)}</b></a>'

    def rule_text(self, rule: str, limit: int | None = None) -> str:
        """What the rule says (the spec's text), or empty for a rule the spec does not have."""
        found = spec_rules().get(rule)
        if found is None:
            return ""
        text = found.text if limit is None else _cut(found.text, limit)
        return f'<p class="rule-text">{self.rule(rule)}: {_clean(text)}</p>'

    def fixture(self, file: str, line: int) -> str:
        """A case's fixture file and line, linked to the site's copy of the file."""
        shown = f"<code>{_clean(f'{file}:{line}')}</code>"
        # The site holds the bundled fixtures only: a --fixtures file or a fresh case has none.
        if self.site is None or not Path(os.path.abspath(file)).is_relative_to(
            bundled_fixture_dir()
        ):
            return shown
        href = f"{self.site}/{fixture_name(file)}"
        return f'<a class="fixture" href="{_clean(href)}">{shown}</a>'


def _identity(page: _Page) -> None:
    run = page.run
    info = run.engine
    rows: list[tuple[str, str]] = []
    if info:
        rows += [
            ("engine", f"{info['name']} {info['version']}"),
            ("engine protocol", str(info["protocol"])),
            ("levels declared", ", ".join(info["levels"]) or "none"),
        ]
        if info.get("features"):
            rows.append(("features declared", ", ".join(info["features"])))
    else:
        rows.append(("engine", "unknown engine (it did not complete the handshake)"))
    rows.append(("engine options", shlex.join(page.engine_args) or "(the reference engine)"))
    if run.handshake_error:
        rows.append(("engine failed", _cut(run.handshake_error)))
    if run.hint:
        rows.append(("hint", run.hint))
    rows += [
        ("suite", f"Five Up conformance suite {SUITE_VERSION} (protocol {PROTOCOL_VERSION})"),
        (
            "corpus",
            f"{run.corpus.digest} ({len(run.corpus.cases)} cases in {len(run.corpus.files)} files)",
        ),
        ("selected", str(len(run.outcomes) if run.selected < 0 else run.selected)),
    ]
    if run.selection:
        rows.append(("selection", run.selection))
    if run.fresh_seed is not None:
        rows.append(("fresh cases seed", str(run.fresh_seed)))
    page.add('<dl class="identity" id="identity">')
    for name, value in rows:
        page.add(f"<dt>{_clean(name)}</dt><dd>{_clean(value)}</dd>")
    page.add("</dl>")


def _counts(page: _Page) -> None:
    c = page.model.counts
    items = (
        ("passed", c.passed),
        ("failed", c.failed),
        ("errors", c.errored),
        ("unsupported", c.unsupported),
        ("expected failures", c.xfailed),
        ("unexpectedly passing", c.xpassed),
        *((("declined", c.declined),) if c.declined else ()),
        *((("failing in another way", c.changed),) if c.changed else ()),
    )
    page.add('<ul class="counts" id="counts">')
    page.add(*(f'<li class="count"><b>{n}</b> {name}</li>' for name, n in items))
    fresh = page.run.fresh
    if fresh:  # counted apart, as in the summary line; a fresh failure fails the run too
        bad = sum(o.verdict.bad for o in fresh)
        page.add(f'<li class="count fresh"><b>{bad}</b> of {len(fresh)} fresh cases failing</li>')
    page.add("</ul>")


def _row_class(counts: Counter[Verdict]) -> str:
    if any(n for verdict, n in counts.items() if verdict.bad):
        return ' class="bad"'
    return ' class="known"' if counts[Verdict.XFAILED] else ""


def _tables(page: _Page) -> None:
    if not page.run.outcomes:
        return
    model = page.model
    sections = {prefix: section.title for prefix, section in spec_sections().items()}
    for name, title in (("level", "By level"), ("section", "By section"), ("rule", "By rule")):
        page.add(f'<section id="by-{name}"><h2>{title}</h2><table class="by-{name}">')
        head = "".join(f"<th>{column}</th>" for column, _ in model.columns)
        extra = "<th>title</th>" if name == "section" else ""
        page.add(f"<thead><tr><th>{name}</th>{head}{extra}</tr></thead><tbody>")
        for group, counts in model.tables[name]:
            cells = "".join(
                f"<td>{sum(counts.values()) if verdict is None else counts[verdict]}</td>"
                for _, verdict in model.columns
            )
            label = f'<td class="name">{_clean(sections.get(group, ""))}</td>' if extra else ""
            ident = f' id="{name}-{_clean(group)}"'
            page.add(
                f'<tr{ident}{_row_class(counts)}><td class="name">{_clean(group)}</td>'
                f"{cells}{label}</tr>"
            )
        page.add("</tbody></table>")
        if name == "rule":
            page.add(f'<p class="note" id="rule-counts">{_clean(RULE_COUNTS)}.</p>')
        page.add("</section>")


def _figure(page: _Page, caption: str, layout: JSON, credit: int | None) -> str:
    head = f"<figure><figcaption>{_clean(caption)}</figcaption>"
    if layout is None:
        return f'{head}<p class="note">no layout</p></figure>'
    tiles = layout.get("tiles") if isinstance(layout, dict) else None
    if isinstance(tiles, list) and len(tiles) > MAX_TILES:
        note = f"not drawn: {len(tiles)} tiles, more than a set holds"
        return f'{head}<p class="note">{note}</p></figure>'
    text = layout_text(layout)
    svg = page.diagram(layout, caption, credit) if page.diagram else ""
    if svg.startswith("<?xml"):
        svg = svg.split("?>", 1)[1].lstrip()
    if len(svg) > MAX_SVG:
        svg = f'<p class="note">not drawn: the diagram would be {len(svg)} characters long</p>'
    shown = f"<p><code>{_clean(text)}</code></p>" if text else ""
    return f"{head}{svg}{shown}</figure>"


def _diagrams(page: _Page, o: Outcome) -> None:
    case = o.result.case
    spec = LEVELS[case.level]
    if spec.layout_at is None:
        return
    expected = spec.layout_of(dict(case.expect))
    actual = spec.layout_of(o.result.observation)
    if expected is None and actual is None:
        return
    page.add(
        '<div class="diagrams">',
        _figure(page, "expected", expected, spec.credit_of(dict(case.expect))),
        _figure(page, "the engine's", actual, spec.credit_of(o.result.observation)),
        "</div>",
    )


def _differences(page: _Page, o: Outcome) -> None:
    diffs = o.result.differences
    if not diffs:
        return
    page.add(
        '<table class="differences"><thead><tr><th>where</th><th>expected</th><th>actual</th>'
        "<th>rule</th><th>note</th></tr></thead><tbody>"
    )
    for d in diffs[:MAX_DIFFERENCES]:
        marks = score_tallies(d, page.tally) if page.tally else ""
        note = d.note + (f" (as tallies: {marks})" if marks else "")
        page.add(
            f'<tr><td class="json">{_clean(d.path or "/")}</td>'
            f'<td class="json">{_clean(_cut(_json(d.expected), 400))}</td>'
            f'<td class="json">{_clean(_cut(_json(d.actual), 400))}</td>'
            f'<td class="name">{page.rule(d.rule) if d.rule else ""}</td>'
            f'<td class="name">{_clean(note)}</td></tr>'
        )
    page.add("</tbody></table>")
    for rule in dict.fromkeys(d.rule for d in diffs[:MAX_DIFFERENCES] if d.rule):
        if rule != o.result.rule:
            page.add(page.rule_text(rule, MAX_RULE_TEXT))
    if len(diffs) > MAX_DIFFERENCES:
        more = len(diffs) - MAX_DIFFERENCES
        page.add(f'<p class="note">and {more} more differences not listed</p>')


def _case(page: _Page, o: Outcome, args: list[str]) -> None:
    case = o.result.case
    kind = o.verdict.name.lower()
    page.add(
        f'<article class="case {kind}" id="{_anchor(case.id)}">',
        f"<h3>{_clean(o.verdict.value.upper())}: <code>{_clean(case.id)}</code></h3>",
        f"<p>{_clean(case.title)}</p>",
        f"<p>rule {page.rule(o.result.rule)} (case rules: {_clean(', '.join(case.rules))});"
        f" level {_clean(case.level.value)}; {page.fixture(case.file, case.line)}</p>",
        page.rule_text(o.result.rule),
    )
    if o.verdict is Verdict.XPASSED:
        page.add(
            f"<p>listed as an expected failure ({_clean(o.reason)}) but it passes now: remove "
            "it from the list</p>"
        )
    if o.result.message and not o.result.differences:
        page.add(f'<pre class="message">{_clean(_cut(o.result.message))}</pre>')
    _differences(page, o)
    _diagrams(page, o)
    if o.result.request is not None:
        request = _cut(_json(o.result.request, 1))
        page.add(
            f'<details><summary>request</summary><pre class="request">{_clean(request)}</pre>'
            "</details>"
        )
    page.add(f'<p>rerun: <code class="rerun">{_clean(rerun_command(args, case.id))}</code></p>')
    page.add("</article>")


def _not_passed(page: _Page) -> None:
    shown = [o for o in page.run.outcomes if o.verdict in _SHOWN]
    if not shown:
        return
    # The worked examples first: they are the documents' own positions.
    shown.sort(key=lambda o: not o.result.case.id.startswith("doc."))
    page.add(f'<section id="not-passed"><h2>Cases not passed ({len(shown)})</h2>')
    notes = []
    if len(shown) > MAX_DETAILED:
        notes.append(f"the first {MAX_DETAILED} cases are told in full, the rest listed below")
    page.add(*(f'<p class="note cap">{_clean(note)}.</p>' for note in notes))
    for o in shown[:MAX_DETAILED]:
        _case(page, o, page.engine_args)
    _rest(page, shown[MAX_DETAILED:])
    page.add("</section>")


def _rest(page: _Page, rest: Sequence[Outcome]) -> None:
    """The cases past :data:`MAX_DETAILED`, one line each, with the anchor a link to it finds."""
    if not rest:
        return
    page.add('<ul class="rest">')
    page.add(
        *(
            f'<li id="{_anchor(o.result.case.id)}"><code>{_clean(o.result.case.id)}</code> '
            f"{_clean(o.verdict.value)} ({_clean(o.result.rule)})</li>"
            for o in rest
        )
    )
    page.add("</ul>")


def _listed(page: _Page, ident: str, title: str, items: Iterable[str]) -> None:
    rows = list(items)
    if rows:
        page.add(f'<section id="{ident}"><h2>{_clean(title)} ({len(rows)})</h2><ul>')
        page.add(*(f"<li>{row}</li>" for row in rows))
        page.add("</ul></section>")


def _others(page: _Page) -> None:
    run = page.run
    _listed(
        page,
        "expected-failures",
        "Expected failures, listed in the baseline",
        (
            f"<code>{_clean(o.result.case.id)}</code>: {_clean(known_reason(o))}"
            for o in page.model.known
        ),
    )
    failing = {id(o) for o in page.model.declined}
    _listed(
        page,
        "unsupported",
        "Declined cases",
        (
            f"<code>{_clean(o.result.case.id)}</code>: {_clean(_cut(o.result.message, 300))}"
            + (" <b>(a claimed feature: fails the run)</b>" if id(o) in failing else "")
            for o in run.outcomes
            if o.verdict in (Verdict.UNSUPPORTED, Verdict.DECLINED)
        ),
    )


def _fresh(page: _Page) -> None:
    run = page.run
    if not run.fresh:
        return
    bad = [o for o in run.fresh if o.verdict.bad]
    passed = sum(o.verdict is Verdict.PASSED for o in run.fresh)
    page.add(
        '<section id="fresh"><h2>Fresh cases</h2>',
        f"<p>seed {run.fresh_seed}, expected as the reference plays them: {passed} passed, "
        f"{len(bad)} failed or errored of {len(run.fresh)}</p>",
    )
    if len(bad) > MAX_DETAILED:
        page.add(
            f'<p class="note cap">the first {MAX_DETAILED} cases are told in full, the rest '
            "listed below.</p>"
        )
    for o in bad[:MAX_DETAILED]:
        _case(page, o, page.engine_args)
    _rest(page, bad[MAX_DETAILED:])
    page.add("</section>")


def _declines(page: _Page) -> None:
    """The declined cases that fail the run, summed up by reason, above everything else."""
    failing = page.model.declined
    if not failing:
        return
    reasons = Counter(o.result.message for o in failing)
    levels = Counter(o.result.case.level.value for o in failing)
    by_level = ", ".join(f"{n} of {level}" for level, n in levels.items())
    page.add(
        '<section id="declines"><h2>Declined cases that fail the run</h2>',
        f"<p><b>{len(failing)}</b> declined case{'s' if len(failing) != 1 else ''} of a declared "
        f"level ({_clean(by_level)}): an engine that claims a level answers all of its cases. "
        'Each is listed under <a href="#unsupported">Declined cases</a>.</p><ul>',
        *(
            f"<li>{n} case{'s' if n != 1 else ''}: <code>{_clean(_cut(reason, 300))}</code></li>"
            for reason, n in sorted(reasons.items(), key=lambda item: -item[1])
        ),
        "</ul></section>",
    )


def _failing_rules(page: _Page) -> None:
    """Each rule a case not passed is counted under, with its text, its page and its cases."""
    by_rule: dict[str, list[Outcome]] = {}
    for o in page.run.outcomes:
        if o.verdict in _SHOWN:
            by_rule.setdefault(o.result.rule, []).append(o)
    if not by_rule:
        return
    order = {rule: i for i, rule in enumerate(spec_rules())}
    page.add(f'<section id="failing-rules"><h2>Failing rules ({len(by_rule)})</h2>')
    for rule in sorted(by_rule, key=lambda r: order.get(r, len(order))):
        cases = by_rule[rule]
        links = ", ".join(
            f'<a href="#{_anchor(o.result.case.id)}">{_clean(o.result.case.id)}</a>'
            for o in cases[:10]
        )
        more = f" and {len(cases) - 10} more" if len(cases) > 10 else ""
        text = page.rule_text(rule) or f"<p>{page.rule(rule)}</p>"
        page.add(
            f'<div class="failing-rule" id="failing-{_clean(rule)}">{text}',
            f"<p>{len(cases)} case{'s' if len(cases) != 1 else ''}: {links}{more}</p></div>",
        )
    page.add("</section>")


def html_report(
    run: Run,
    engine_args: list[str],
    *,
    tally: TallyWriter | None = None,
    diagram: Diagram | None = draw_layout,
    site: str | None = None,
) -> str:
    """The report as one HTML page; ``diagram`` draws layouts, ``tally`` writes scores.

    ``site`` is where the spec site is (a URL or a path relative to the page): rules link to
    their pages there, cases to their fixture files.
    """
    name = f"{run.engine['name']} {run.engine['version']}" if run.engine else "unknown engine"
    model = report_model(run)
    page = _Page(run, model, engine_args, tally, diagram, site.rstrip("/") if site else None, [])
    page.add(
        "<!DOCTYPE html>",
        '<html xmlns="http://www.w3.org/1999/xhtml" lang="en"><head><meta charset="utf-8"/>',
        '<meta name="viewport" content="width=device-width, initial-scale=1"/>',
        # a second line of defence behind the escaping: no script, no fetch, whatever the page
        # holds of an engine's words
        '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
        "style-src 'unsafe-inline'; img-src 'self' data:\"/>",
        # the verdict first: an engine's name of any length cannot push it out of a tab
        f"<title>{_clean(f'{model.conclusion.value}: {cut(name, 80)} (Five Up conformance)')}"
        "</title>",
        f"<style>{_STYLE}</style></head><body>",
        "<h1>Five Up conformance report</h1>",
        f'<p class="verdict {_VERDICT_CLASS[model.conclusion]}" id="verdict">{_clean(model.line)}'
        "</p>",
    )
    _declines(page)
    _failing_rules(page)
    _identity(page)
    _counts(page)
    _tables(page)
    _not_passed(page)
    _others(page)
    _fresh(page)
    page.add("</body></html>")
    return "\n".join(page.parts) + "\n"
