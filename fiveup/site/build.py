"""The spec site: static XHTML pages that need no network, written by :func:`write_site`.

``index.html`` lists every rule of ``spec/rules.md`` by section with a one-line summary; each
rule has its page ``rules/<ID>.html`` with its text, the sentences of the three documents that
state it (``spec/traceability.yaml``), the open questions it decides and every case that checks
it, each with its diagram and description. ``worked-examples.html`` draws the documents' worked
positions in English, and ``worked-examples.it.html``, ``.fi.html`` and ``.de.html`` in the
documents' languages (headings, diagrams and descriptions; a link on each page leads to the
others), ``open-questions.html`` lists under each
decision the rules it affects and the cases that depend on it, and the other spec files become
pages of their own. The fixture files are copied beside the pages, so a case links to its file.

The pages are built from the bundled spec and corpus only, in a fixed order, with the style sheet
and the diagrams inline: the same suite writes the same bytes.
"""

from __future__ import annotations

import html
import json
import os
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache
from pathlib import Path
from typing import Final

from fiveup import SUITE_VERSION
from fiveup.contract.engine import JSON
from fiveup.errors import UsageError
from fiveup.harness.corpus import Case, Corpus, bundled_fixture_dir, load_corpus
from fiveup.harness.files import write_whole
from fiveup.harness.levels import LEVELS
from fiveup.harness.spec_index import (
    Question,
    Rule,
    Section,
    spec_register,
    spec_rules,
    spec_sections,
    spec_text,
)
from fiveup.harness.text import printable
from fiveup.harness.traceability import LANGUAGES, Trace, TraceKind, load
from fiveup.render.svg import layout_svg
from fiveup.render.text import Lang, describe

from .markdown import Links, inline, render

__all__ = [
    "PAGES",
    "WORKED_EXAMPLES",
    "WORKED_EXAMPLE_PAGES",
    "Draw",
    "Site",
    "Table",
    "case_anchor",
    "draw",
    "fixture_name",
    "layout_of",
    "pages",
    "write_site",
]

Draw = Callable[[Mapping[str, JSON], str, str, int | None, Lang], str]
"""Draws a layout as an SVG document: ``(layout, title, description, credit, language)``."""
Table = Callable[[Case], JSON]
"""The table an engine builds from a case's ``given`` (its observation's layout), drawn where
the case expects only part of the table (no connections) and a whole table reads better."""

WORKED_EXAMPLES: Final = "fixtures/layout/worked-examples.yaml"
"""The corpus file of the documents' worked layout positions."""
WORKED_EXAMPLE_PAGES: Final = {
    Lang.EN: "worked-examples.html",
    Lang.IT: "worked-examples.it.html",
    Lang.FI: "worked-examples.fi.html",
    Lang.DE: "worked-examples.de.html",
}
"""The page of the worked examples in each language."""
PAGES: Final = {
    "open-questions.md": "open-questions.html",
    "terms.md": "terms.html",
    "protocol.md": "protocol.html",
    "fixtures.md": "fixture-format.html",
}
"""The spec files that become pages of their own, and the page of each."""
_LANG_NAMES: Final = {"it": "Italiano", "fi": "Suomi", "de": "Deutsch", "en": "English"}

_STYLE: Final = """
body{font-family:system-ui,sans-serif;margin:1.5em auto;max-width:64em;padding:0 1em;color:#222;
line-height:1.45}
nav{font-size:.9em;border-bottom:1px solid #ccc;padding-bottom:.4em;margin-bottom:1em}
nav a{margin-right:1em}
h1{font-size:1.6em}h2{font-size:1.25em;margin-top:1.8em;border-bottom:1px solid #ddd}
h3{font-size:1.05em;margin:0 0 .3em}
table{border-collapse:collapse;margin:.6em 0}
th,td{border:1px solid #ccc;padding:.2em .5em;text-align:left;vertical-align:top}
td.n{text-align:right}
code{font-family:ui-monospace,monospace;font-size:.92em}
pre{background:#f6f6f6;padding:.5em;overflow:auto}
.rule-text{font-size:1.1em;background:#f4f7fb;border-left:4px solid #4a78b5;padding:.5em .8em}
.kind{display:inline-block;border-radius:3px;padding:0 .4em;font-size:.85em;color:#fff}
.kind.restates{background:#3c7d3c}.kind.decision{background:#a0522d}
.kind.both{background:#6a5acd}.kind.conduct{background:#777}
article.case{border:1px solid #ccc;border-radius:4px;padding:.6em .8em;margin:1em 0}
.meta{font-size:.9em;color:#444}
figure{margin:.5em 0;overflow:auto}figure svg{max-width:100%;height:auto}
figcaption{font-size:.92em;color:#333;margin-top:.3em}
dl.langs dt{font-weight:bold;margin-top:.3em}dl.langs dd{margin-left:1em}
.none{color:#777;font-style:italic}
"""


_DRAWN: dict[tuple[str, str, str, int | None, Lang], str] = {}
_DRAWN_AT_MOST: Final = 4096
"""Diagrams remembered at most (a few MB): the site draws each case's table once per build."""


def draw(
    layout: Mapping[str, JSON], title: str, desc: str, credit: int | None, lang: Lang = Lang.EN
) -> str:
    """The diagram of a layout (:func:`fiveup.render.svg.layout_svg`), its words in ``lang``.

    The same drawing asked for again in the process (the site built again, for another report's
    copy of the spec) is the one drawn the first time: the drawing depends on nothing else.
    """
    try:
        key = (json.dumps(layout), str(title), str(desc), credit, lang)
    except (TypeError, ValueError):  # not plain JSON: drawn, not remembered
        return layout_svg(layout, title=title, desc=desc, credit=credit, lang=lang)
    svg = _DRAWN.get(key)
    if svg is None:
        svg = layout_svg(layout, title=title, desc=desc, credit=credit, lang=lang)
        if len(_DRAWN) >= _DRAWN_AT_MOST:
            _DRAWN.clear()
        _DRAWN[key] = svg
    return svg


def case_anchor(case_id: str) -> str:
    """The anchor of a case on a page: ``case-`` and its ID."""
    return "case-" + "".join(c if c.isalnum() or c in "-_." else "_" for c in case_id)


def layout_of(case: Case) -> tuple[Mapping[str, JSON], int | None] | None:
    """The layout a case expects and the credit of the placement that led to it, or None."""
    return LEVELS[case.level].table_of(dict(case.expect))


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _summary(rule: Rule, limit: int = 150) -> str:
    """The rule's first sentence as plain text, cut at a word when it is long."""
    text = re.sub(r"\*\(conduct\)\*\s*", "", rule.text)
    text = re.sub(r"[`*]", "", re.sub(r"\[([^\]]+)\]\([^)]*\)", r"\1", text))
    first = re.split(r"(?<=\.)\s+(?=[A-Z(])", text, maxsplit=1)[0]
    if len(first) <= limit:
        return first
    return first[:limit].rsplit(" ", 1)[0] + " ..."


@dataclass
class Site:
    """What the pages are built from, and the links between rules, cases and questions."""

    corpus: Corpus
    rules: Mapping[str, Rule]
    sections: Mapping[str, Section]
    traces: Mapping[str, Trace]
    draw: Draw | None
    table: Table | None = None
    questions: tuple[Question, ...] = ()
    cases_of_rule: dict[str, list[Case]] = field(default_factory=dict)
    cases_of_question: dict[str, list[Case]] = field(default_factory=dict)
    rules_of_question: dict[str, list[str]] = field(default_factory=dict)
    questions_of_rule: dict[str, list[str]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.questions = spec_register().questions
        known = set(self.rules)
        self.cases_of_rule = {rule: [] for rule in self.rules}
        for case in self.corpus.cases:
            for rule in dict.fromkeys(case.rules):
                self.cases_of_rule.setdefault(rule, []).append(case)
            for question in case.decisions:
                self.cases_of_question.setdefault(question, []).append(case)
        order = list(self.rules)
        for entry in self.questions:
            named = {r for r in entry.rules if r in known}
            named |= {r for r, t in self.traces.items() if entry.id in t.decisions}
            self.rules_of_question[entry.id] = sorted(named, key=order.index)
        for question, rules in self.rules_of_question.items():
            for rule in rules:
                self.questions_of_rule.setdefault(rule, []).append(question)

    # ------------------------------------------------------------------ links

    def rule_href(self, rule: str, depth: int) -> str:
        """The page of a rule, from a page ``depth`` folders down."""
        return f"{'../' * depth}rules/{rule}.html"

    def case_href(self, case: Case, depth: int) -> str:
        """Where a case is told in full: on the page of its primary rule."""
        return f"{self.rule_href(case.primary_rule, depth)}#{case_anchor(case.id)}"

    def question_href(self, question: str, depth: int) -> str:
        """The entry of an open question."""
        return f"{'../' * depth}open-questions.html#{question}"

    def links(self, depth: int) -> Links:
        """How the Markdown of a page ``depth`` folders down links to the rest of the site."""
        up = "../" * depth
        questions = {q.id for q in self.questions}

        def link_id(ident: str) -> str | None:
            if ident in self.rules:
                return self.rule_href(ident, depth)
            if ident in questions:
                return self.question_href(ident, depth)
            return None

        def resolve(url: str) -> str | None:
            if url.startswith(("http://", "https://")):
                return url
            name, _, fragment = url.partition("#")
            name = name.removeprefix("./")
            if name in ("rules.md", "README.md"):
                return f"{up}index.html"
            if name not in PAGES and name:
                return None
            page = f"{up}{PAGES[name]}" if name else ""
            wanted = fragment.upper()
            if wanted in questions:
                return f"{page or up + 'open-questions.html'}#{wanted}"
            return page or None

        return Links(resolve, link_id)


# --------------------------------------------------------------------------- page parts


def _document(title: str, body: str, depth: int, lang: Lang = Lang.EN) -> str:
    up = "../" * depth
    nav = (
        f'<nav><a href="{up}index.html">Rule index</a>'
        f'<a href="{up}worked-examples.html">Worked examples</a>'
        f'<a href="{up}open-questions.html">Open questions</a>'
        f'<a href="{up}terms.html">Terms</a><a href="{up}protocol.html">Protocol</a>'
        f'<a href="{up}fixture-format.html">Fixture format</a></nav>'
    )
    return (
        "<!DOCTYPE html>\n"
        f'<html xmlns="http://www.w3.org/1999/xhtml" lang="{lang.value}" xml:lang="{lang.value}">'
        '<head><meta charset="utf-8"/>\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1"/>\n'
        f"<title>{_e(title)}</title><style>{_STYLE}</style></head>\n"
        f"<body>{nav}\n{body}\n"
        f'<footer><p class="meta">Five Up conformance suite {_e(SUITE_VERSION)}</p></footer>'
        "</body></html>\n"
    )


def _svg(
    site: Site,
    layout: Mapping[str, JSON],
    title: str,
    desc: str,
    credit: int | None,
    lang: Lang = Lang.EN,
) -> str:
    if site.draw is None:
        return ""
    svg = site.draw(layout, title, desc, credit, lang)
    return svg.split("?>", 1)[1].lstrip() if svg.startswith("<?xml") else svg


def _diagram(site: Site, case: Case) -> str:
    found = layout_of(case)
    if found is None:
        return ""
    layout, credit = found
    note = ""
    if "connections" not in layout and site.table is not None:
        whole = site.table(case)
        if isinstance(whole, dict) and isinstance(whole.get("connections"), list):
            note = (
                f'<p class="meta">The case checks only {_e(", ".join(sorted(layout)))} of the '
                "table; the diagram draws the whole table its given builds, as the bundled "
                "reference engine lays it out.</p>"
            )
            layout = whole
    desc = describe(layout, Lang.EN, credit=credit)
    svg = _svg(site, layout, case.id, desc, credit)
    return f'<figure class="diagram">{svg}<figcaption>{_e(desc)}</figcaption>{note}</figure>'


def _id_links(site: Site, ids: Sequence[str], depth: int) -> str:
    links = site.links(depth)
    return ", ".join(f'<a href="{_e(links.link_id(i) or "")}">{_e(i)}</a>' for i in ids)


def _given(case: Case) -> str:
    script = LEVELS[case.level].script
    steps = case.given.get(script) if script else None
    if isinstance(steps, list) and all(isinstance(s, str) for s in steps):
        shown = " ".join(str(s) for s in steps)
        return f'<p class="meta">{_e(script)}: <code>{_e(shown)}</code></p>'
    return ""


def _case_block(site: Site, case: Case, depth: int) -> str:
    up = "../" * depth
    decisions = case.decisions
    meta = [
        f"level <b>{_e(case.level.value)}</b>",
        f"rules {_id_links(site, case.rules, depth)}",
        f'fixture <a href="{up}{_e(fixture_name(case.file))}">{_e(fixture_name(case.file))}</a>'
        f" line {case.line}",
    ]
    if decisions:
        meta.append(f"depends on {_id_links(site, decisions, depth)}")
    description = (
        f"<p>{inline(case.description, site.links(depth))}</p>" if case.description else ""
    )
    return (
        f'<article class="case" id="{case_anchor(case.id)}">'
        f"<h3><code>{_e(case.id)}</code></h3><p>{_e(case.title)}</p>"
        f'<p class="meta">{"; ".join(meta)}</p>{description}{_given(case)}'
        f"{_diagram(site, case)}</article>"
    )


def _trace_table(site: Site, rule: Rule, depth: int) -> str:
    trace = site.traces.get(rule.id)
    if trace is None:
        return '<p class="none">No entry in the traceability table.</p>'
    kind = trace.kind.value
    words = {
        TraceKind.RESTATES: "restates the documents",
        TraceKind.DECISION: "the suite's decision",
        TraceKind.BOTH: "restates the documents and adds a decision",
    }[trace.kind]
    rows = []
    for lang in LANGUAGES:
        sentences = trace.sentences.get(lang, ())
        cell = (
            "".join(f'<p lang="{lang}">{_e(s)}</p>' for s in sentences)
            if sentences
            else '<span class="none">no sentence</span>'
        )
        rows.append(f"<tr><th>{_e(_LANG_NAMES[lang])}</th><td>{cell}</td></tr>")
    decided = (
        f"<p>Decides {_id_links(site, trace.decisions, depth)}.</p>" if trace.decisions else ""
    )
    note = f"<p>{inline(trace.note, site.links(depth))}</p>" if trace.note else ""
    return (
        f'<p><span class="kind {kind}" id="kind">{_e(kind)}</span> {_e(words)}</p>{decided}'
        f'<table class="traceability"><thead><tr><th>document</th><th>sentences</th></tr>'
        f"</thead><tbody>{''.join(rows)}</tbody></table>{note}"
    )


# --------------------------------------------------------------------------- pages


def _index(site: Site) -> str:
    checkable = [r for r in site.rules.values() if r.checkable]
    parts = [
        "<h1>Five Up: the spec</h1>",
        f"<p>Suite version {_e(SUITE_VERSION)}: {len(site.rules)} rules ({len(checkable)} "
        f"checked by the fixtures), {len(site.corpus.cases)} cases, {len(site.questions)} open "
        "questions.</p>",
        '<p>See also: <a href="worked-examples.html">the worked examples</a>, '
        '<a href="open-questions.html">the open questions</a>, '
        '<a href="terms.html">terms and notation</a>, <a href="protocol.html">the protocol</a>, '
        '<a href="fixture-format.html">the fixture format</a>.</p>',
        '<p class="count-meaning" id="count-meaning">A rule\'s <b>cases</b> are the cases that '
        "name it in their rules: a case checks several rules, so it is counted under each. A "
        "certification report counts each case once, under one rule: the rule its first "
        "difference falls under (a case without a difference, under its primary rule), so its "
        "per-rule counts are not these.</p>",
    ]
    for prefix, section in site.sections.items():
        rules = [r for r in site.rules.values() if r.section == prefix]
        parts.append(f'<h2 id="{_e(prefix)}">{_e(prefix)}: {_e(section.title)}</h2>')
        parts.append(
            '<table class="rules"><thead><tr><th>rule</th><th>summary</th><th>cases</th>'
            "<th>documents</th></tr></thead><tbody>"
        )
        for rule in rules:
            cases = site.cases_of_rule.get(rule.id, [])
            trace = site.traces.get(rule.id)
            kind = trace.kind.value if trace else ""
            badge = f'<span class="kind {kind}">{kind}</span>' if kind else ""
            if not rule.checkable:
                badge += ' <span class="kind conduct">conduct</span>'
            count = (
                f'<a href="rules/{rule.id}.html#cases">{len(cases)}</a>'
                if cases
                else '<span class="none">0</span>'
            )
            parts.append(
                f'<tr id="rule-{rule.id}"><td><a href="rules/{rule.id}.html">{rule.id}</a></td>'
                f'<td>{_e(_summary(rule))}</td><td class="n">{count}</td><td>{badge}</td></tr>'
            )
        parts.append("</tbody></table>")
    return _document(f"Five Up spec {SUITE_VERSION}: rule index", "\n".join(parts), 0)


def _rule_page(site: Site, rule: Rule, before: str | None, after: str | None) -> str:
    links = site.links(1)
    cases = site.cases_of_rule.get(rule.id, [])
    conduct = (
        '<p><span class="kind conduct">conduct</span> governs the table and cannot be observed '
        "through an engine: no case checks it.</p>"
        if not rule.checkable
        else ""
    )
    questions = site.questions_of_rule.get(rule.id, [])
    asked = (
        f"<p>Open questions: {_id_links(site, questions, 1)}.</p>"
        if questions
        else '<p class="none">No open question names this rule.</p>'
    )
    steps = []
    if before:
        steps.append(f'<a href="{before}.html" rel="prev">previous: {before}</a>')
    if after:
        steps.append(f'<a href="{after}.html" rel="next">next: {after}</a>')
    body = [
        f'<p class="meta"><a href="../index.html#{rule.section}">{_e(rule.section)}: '
        f"{_e(rule.title)}</a> {' '.join(steps)}</p>",
        f'<h1 id="{rule.id}">{rule.id}</h1>',
        f'<p class="rule-text">{inline(rule.text, links)}</p>',
        conduct,
        '<h2 id="documents">In the documents</h2>',
        _trace_table(site, rule, 1),
        asked,
        f'<h2 id="cases">Cases that check it ({len(cases)})</h2>',
        *(_case_block(site, case, 1) for case in cases),
    ]
    if not cases:
        body.append('<p class="none">No case checks this rule.</p>')
    return _document(f"{rule.id}: {_summary(rule, 80)}", "\n".join(body), 1)


@dataclass(frozen=True, slots=True)
class _ExampleWords:
    """The words of the worked examples' page in one language."""

    heading: str
    intro: str
    """With ``{n}`` for the number of positions and ``{file}`` for the fixture file's link."""
    label: str
    """A position's heading before its tile, when the documents give none in this language."""
    rules: str
    other: str
    """Before the links to the page in the other languages."""


_EXAMPLE_WORDS: Final[Mapping[Lang, _ExampleWords]] = {
    Lang.EN: _ExampleWords(
        heading="The documents' worked examples",
        intro="{n} positions of the rule documents, transcribed in {file}, each drawn and "
        "described in the words of the spec.",
        label="Placed:",
        rules="rules",
        other="In other languages:",
    ),
    Lang.IT: _ExampleWords(
        heading="Gli esempi svolti dei documenti",
        intro="{n} posizioni del documento italiano, trascritte in {file}, ciascuna disegnata e "
        "descritta con le parole del documento.",
        label="Posata:",
        rules="regole",
        other="In altre lingue:",
    ),
    Lang.FI: _ExampleWords(
        heading="Asiakirjojen esimerkit",
        intro="{n} suomenkielisen asiakirjan asetusta, kirjattu tiedostoon {file}, kukin "
        "piirrettynä ja kuvattuna asiakirjan sanoin.",
        label="Asetettu",
        rules="säännöt",
        other="Muilla kielillä:",
    ),
    Lang.DE: _ExampleWords(
        heading="Die Beispiele der Dokumente",
        intro="{n} Stellungen des deutschen Dokuments, übertragen in {file}, jede gezeichnet und "
        "mit den Worten des Dokuments beschrieben.",
        label="Angelegt:",
        rules="Regeln",
        other="In anderen Sprachen:",
    ),
}


def _position_heading(case: Case, lang: Lang) -> tuple[str, Lang]:
    """A worked position's heading as the document of ``lang`` writes it ("Posata: [1|3]").

    The fixture's provenance joins the three documents' labels with " / "; English, which has no
    document, puts its own word before the same tile. A position no document labels is headed
    by its case's title, in English (the second item says in which language the heading is).
    """
    example = case.provenance.get("example")
    labels = example.split(" / ") if isinstance(example, str) else []
    prefix = _EXAMPLE_WORDS[lang].label
    for label in labels:
        if lang is Lang.EN or label.startswith(prefix + " "):
            return f"{prefix} {label.rsplit(' ', 1)[-1]}", lang
    return case.title, Lang.EN


def _language_switch(lang: Lang) -> str:
    links = [
        f"<strong>{_e(_LANG_NAMES[other.value])}</strong>"
        if other is lang
        else f'<a href="{page}" hreflang="{other.value}" lang="{other.value}">'
        f"{_e(_LANG_NAMES[other.value])}</a>"
        for other, page in WORKED_EXAMPLE_PAGES.items()
    ]
    return f'<p class="langs-switch">{_e(_EXAMPLE_WORDS[lang].other)} {" · ".join(links)}</p>'


def _worked_examples(site: Site, lang: Lang) -> str:
    words = _EXAMPLE_WORDS[lang]
    cases = [c for c in site.corpus.cases if fixture_name(c.file) == WORKED_EXAMPLES]
    file = f'<a href="{_e(WORKED_EXAMPLES)}"><code>{_e(WORKED_EXAMPLES)}</code></a>'
    body = [
        _language_switch(lang),
        f"<h1>{_e(words.heading)}</h1>",
        f"<p>{_e(words.intro).format(n=len(cases), file=file)}</p>",
    ]
    for case in cases:
        found = layout_of(case)
        figure = ""
        if found is not None:
            layout, credit = found
            desc = describe(layout, lang, credit=credit)
            svg = _svg(site, layout, case.id, desc, credit, lang)
            figure = f'<figure class="diagram">{svg}<figcaption>{_e(desc)}</figcaption></figure>'
        heading, heading_lang = _position_heading(case, lang)
        body.append(
            f'<article class="case" id="{case_anchor(case.id)}">'
            f'<h2 lang="{heading_lang.value}">{_e(heading)}</h2>'
            f'<p class="meta"><a href="{_e(site.case_href(case, 0))}"><code>{_e(case.id)}</code>'
            f'</a> <span lang="en">{_e(case.title)}</span> · {_e(words.rules)} '
            f"{_id_links(site, case.rules, 0)}</p>{figure}</article>"
        )
    return _document(f"Five Up spec: {words.heading}", "\n".join(body), 0, lang)


def _questions_page(site: Site) -> str:
    links = site.links(0)
    register = spec_register()
    body = [render(register.head, links)]
    for entry in site.questions:
        question = entry.id
        body.append(render(entry.text, links))
        rules = site.rules_of_question.get(question, [])
        cases = site.cases_of_question.get(question, [])
        body.append(
            f"<p><b>Rules affected:</b> {_id_links(site, rules, 0)}.</p>"
            if rules
            else '<p class="none">No rule names this question.</p>'
        )
        if cases:
            items = "".join(
                f'<li><a href="{_e(site.case_href(c, 0))}"><code>{_e(c.id)}</code></a> '
                f"{_e(c.title)}</li>"
                for c in cases
            )
            body.append(
                f"<p><b>Cases that depend on this decision ({len(cases)}):</b></p>"
                f'<ul class="dependent" id="cases-{question}">{items}</ul>'
            )
        else:
            body.append('<p class="none">No case depends on this decision.</p>')
    body.append(render(register.tail, links))
    return _document("Five Up spec: open questions", "\n".join(body), 0)


def _spec_page(site: Site, name: str) -> str:
    text = spec_text(name)
    title = text.splitlines()[0].lstrip("# ").strip() if text else name
    return _document(f"Five Up spec: {title}", render(text, site.links(0)), 0)


def pages(site: Site) -> dict[str, str]:
    """Every page of the site by its path under the site's folder."""
    out = {"index.html": _index(site)}
    for lang, page in WORKED_EXAMPLE_PAGES.items():
        out[page] = _worked_examples(site, lang)
    out["open-questions.html"] = _questions_page(site)
    for name, page in PAGES.items():
        if name != "open-questions.md":
            out[page] = _spec_page(site, name)
    ids = list(site.rules)
    for i, rule_id in enumerate(ids):
        before = ids[i - 1] if i else None
        after = ids[i + 1] if i + 1 < len(ids) else None
        out[f"rules/{rule_id}.html"] = _rule_page(site, site.rules[rule_id], before, after)
    return out


@cache
def _bundled_root() -> Path:
    """The bundled corpus's folder, resolved once: every case block of the site names its file."""
    return bundled_fixture_dir()


def fixture_name(file: str) -> str:
    """Where a fixture file sits in the site: ``fixtures/`` and its path in the corpus folder.

    A case names its file relative to the working folder when it is inside it (for messages);
    the site names it the same way from wherever it is built.
    """
    return _fixture_name(file, os.getcwd())


@lru_cache(maxsize=4096)
def _fixture_name(file: str, cwd: str) -> str:
    """:func:`fixture_name` of ``file`` seen from ``cwd``: every case block asks it, twice."""
    path = Path(os.path.normpath(os.path.join(cwd, file)))  # os.path.abspath, from ``cwd``
    root = _bundled_root()
    inside = path.relative_to(root).as_posix() if path.is_relative_to(root) else path.name
    return f"fixtures/{inside}"


def _fixture_sources(corpus: Corpus) -> dict[str, Path]:
    found = {fixture_name(name): Path(os.path.abspath(name)) for name in corpus.files}
    return {name: path for name, path in sorted(found.items()) if path.is_file()}


def _write_whole(target: Path, data: bytes) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    write_whole(target, data)


def write_site(
    out: Path,
    *,
    draw: Draw | None = draw,
    corpus: Corpus | None = None,
    table: Table | None = None,
) -> list[Path]:
    """Write the site into the folder ``out`` (made if missing); the files written, in order.

    ``table`` gives the whole table of a case whose expectation holds only part of it; without
    it such a case draws what it expects.

    Every page is built before the first is written, and each is written whole into a file of
    its own (a temporary file renamed): a failure leaves no half-made page, and a link, a FIFO or
    a device of the page's name already in ``out`` is replaced, never written through.
    """
    if out.exists() and not out.is_dir():
        raise UsageError(f"--out {printable(str(out))}: not a folder")
    site = Site(corpus or load_corpus(), spec_rules(), spec_sections(), load(), draw, table)
    built = pages(site)
    sources = _fixture_sources(site.corpus)
    written: list[Path] = []
    try:
        for name, text in built.items():
            target = out / name
            _write_whole(target, text.encode("utf-8"))
            written.append(target)
        for name, source in sources.items():
            target = out / name
            _write_whole(target, source.read_bytes())
            written.append(target)
    except OSError as exc:
        raise UsageError(
            f"--out {printable(str(out))}: cannot write: {exc.strerror or exc}"
        ) from None
    return written
