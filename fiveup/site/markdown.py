"""The little Markdown the spec is written in, as well-formed XHTML.

Headings, paragraphs, lists (one level of nesting), tables, block quotes and fenced code; inline
code, bold, italic and links. That is all ``spec/*.md`` uses. Every character of the source is
escaped; a link goes where ``resolve`` says (or stays text), and rule and open-question IDs in
running text become links through ``link_id``, so the pages of the site point at each other.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from dataclasses import dataclass

from fiveup.harness.spec_index import QUESTION_ID, RULE_ID

__all__ = ["Links", "inline", "render", "slug"]

_ID_RE = re.compile(rf"\b({QUESTION_ID}|{RULE_ID})\b")
_INLINE_RE = re.compile(
    r"(?P<code>`+)(?P<code_text>.+?)(?P=code)"
    r"|\[(?P<link_text>[^\]]+)\]\((?P<url>[^)\s]+)\)"
    r"|\*\*(?P<bold>.+?)\*\*"
    r"|(?<![\w*])\*(?P<em>[^*\s](?:[^*]*[^*\s])?)\*(?![\w*])"
)
_LIST_RE = re.compile(r"^(?P<indent> *)(?:[-*]|(?P<num>\d+)\.) (?P<text>.*)$")
_HEADING_RE = re.compile(r"^(#{1,6})\s+(.*?)\s*#*$")
_TABLE_SEP_RE = re.compile(r"^\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?$")


@dataclass(frozen=True, slots=True)
class Links:
    """Where links go from one page.

    ``resolve`` maps a Markdown link target to an href (None: no link), and ``link_id`` a rule
    or open-question ID to an href (None: plain text).
    """

    resolve: Callable[[str], str | None]
    link_id: Callable[[str], str | None]


def slug(text: str) -> str:
    """An anchor for a heading: lower case, words joined by hyphens."""
    words = re.findall(r"[\w]+", text.lower())
    return "-".join(words) or "section"


def _escape(text: str) -> str:
    return html.escape(text, quote=True)


def _plain(text: str, links: Links) -> str:
    out: list[str] = []
    last = 0
    for m in _ID_RE.finditer(text):
        href = links.link_id(m[1])
        if href is None:
            continue
        out += [_escape(text[last : m.start()]), f'<a href="{_escape(href)}">{m[1]}</a>']
        last = m.end()
    out.append(_escape(text[last:]))
    return "".join(out)


def inline(text: str, links: Links, *, linking: bool = True) -> str:
    """One line (or paragraph) of inline Markdown as XHTML; no links inside links."""
    out: list[str] = []
    last = 0
    plain = (lambda t: _plain(t, links)) if linking else _escape
    for m in _INLINE_RE.finditer(text):
        out.append(plain(text[last : m.start()]))
        last = m.end()
        if m["code"]:
            out.append(f"<code>{_escape(m['code_text'].strip())}</code>")
        elif m["url"]:
            shown = inline(m["link_text"], links, linking=False)
            href = links.resolve(m["url"])
            out.append(f'<a href="{_escape(href)}">{shown}</a>' if href else shown)
        elif m["bold"]:
            out.append(f"<strong>{inline(m['bold'], links, linking=linking)}</strong>")
        else:
            out.append(f"<em>{inline(m['em'], links, linking=linking)}</em>")
    out.append(plain(text[last:]))
    return "".join(out)


def _cells(line: str) -> list[str]:
    """The cells of a table row; a ``|`` inside a code span is no border (``[1|4]``)."""
    body = line.strip()
    body = body[1:] if body.startswith("|") else body
    body = body[:-1] if body.endswith("|") else body
    cells, current, ticks = [], "", 0
    for i, char in enumerate(body):
        if char == "`":
            ticks ^= 1
        if char == "|" and not ticks and (i == 0 or body[i - 1] != "\\"):
            cells.append(current.strip())
            current = ""
        else:
            current += char
    return [*cells, current.strip()]


class _Blocks:
    """The block structure of one Markdown text, written out as it is read."""

    def __init__(self, text: str, links: Links, shift: int) -> None:
        self.lines = text.splitlines()
        self.links = links
        self.shift = shift
        self.out: list[str] = []
        self.ids: set[str] = set()
        self.i = 0

    def _line(self) -> str:
        return self.lines[self.i]

    def _unique(self, base: str) -> str:
        ident, n = base, 1
        while ident in self.ids:
            n += 1
            ident = f"{base}-{n}"
        self.ids.add(ident)
        return ident

    def run(self) -> str:
        while self.i < len(self.lines):
            line = self._line()
            if not line.strip():
                self.i += 1
            elif line.startswith("```"):
                self._fence()
            elif m := _HEADING_RE.match(line):
                self._heading(len(m[1]), m[2])
            elif line.startswith("|") and self._is_table():
                self._table()
            elif line.startswith(">"):
                self._quote()
            elif _LIST_RE.match(line):
                self._list()
            else:
                self._paragraph()
        return "\n".join(self.out)

    def _fence(self) -> None:
        self.i += 1
        body: list[str] = []
        while self.i < len(self.lines) and not self._line().startswith("```"):
            body.append(self._line())
            self.i += 1
        self.i += 1
        self.out.append(f"<pre><code>{_escape(chr(10).join(body))}</code></pre>")

    def _heading(self, level: int, text: str) -> None:
        self.i += 1
        shown = min(6, level + self.shift)
        m = re.match(rf"^({QUESTION_ID}|[A-Z]{{3}}):", text)
        ident = self._unique(m[1] if m else slug(text))
        title = inline(text, self.links, linking=False)  # the heading of OQ-6 links not to itself
        self.out.append(f'<h{shown} id="{ident}">{title}</h{shown}>')

    def _is_table(self) -> bool:
        return self.i + 1 < len(self.lines) and bool(_TABLE_SEP_RE.match(self.lines[self.i + 1]))

    def _table(self) -> None:
        head = _cells(self._line())
        self.i += 2
        rows: list[list[str]] = []
        while self.i < len(self.lines) and self._line().startswith("|"):
            rows.append(_cells(self._line()))
            self.i += 1
        cells = "".join(f"<th>{inline(c, self.links)}</th>" for c in head)
        self.out.append(f"<table><thead><tr>{cells}</tr></thead><tbody>")
        for row in rows:
            row = (row + [""] * len(head))[: max(len(head), len(row))]
            self.out.append(
                "<tr>" + "".join(f"<td>{inline(c, self.links)}</td>" for c in row) + "</tr>"
            )
        self.out.append("</tbody></table>")

    def _quote(self) -> None:
        body: list[str] = []
        while self.i < len(self.lines) and self._line().startswith(">"):
            body.append(self._line()[1:].removeprefix(" "))
            self.i += 1
        inner = _Blocks("\n".join(body), self.links, self.shift)
        inner.ids = self.ids
        self.out.append(f"<blockquote>{inner.run()}</blockquote>")

    def _paragraph(self) -> None:
        body: list[str] = []
        while self.i < len(self.lines):
            line = self._line()
            starts_block = (
                line.startswith(("```", ">", "#"))
                or _LIST_RE.match(line)
                or (line.startswith("|") and self._is_table())
            )
            if not line.strip() or (body and starts_block):
                break
            body.append(line.strip())
            self.i += 1
        self.out.append(f"<p>{inline(' '.join(body), self.links)}</p>")

    def _items(self, indent: int) -> list[tuple[str, list[str]]]:
        """The items of a list at ``indent``: each its text and the nested item lines."""
        items: list[tuple[str, list[str]]] = []
        while self.i < len(self.lines):
            line = self._line()
            m = _LIST_RE.match(line)
            if m and len(m["indent"]) == indent:
                items.append((m["text"].strip(), []))
            elif m and len(m["indent"]) > indent and items:
                items[-1][1].append(line[indent + 2 :])
            elif line.strip() and line.startswith(" ") and items:
                text, nested = items[-1]
                if nested:
                    nested.append(line[indent + 2 :])
                else:
                    items[-1] = (f"{text} {line.strip()}", nested)
            else:
                break
            self.i += 1
        return items

    def _list(self) -> None:
        first = _LIST_RE.match(self._line())
        assert first is not None
        tag = "ol" if first["num"] else "ul"
        self.out.append(f"<{tag}>")
        for text, nested in self._items(len(first["indent"])):
            inner = ""
            if nested:
                sub = _Blocks("\n".join(nested), self.links, self.shift)
                sub.ids = self.ids
                inner = sub.run()
            self.out.append(f"<li>{inline(text, self.links)}{inner}</li>")
        self.out.append(f"</{tag}>")


def render(text: str, links: Links, *, shift: int = 0) -> str:
    """A Markdown text as XHTML; headings move down ``shift`` levels and get anchors.

    A heading that starts with an open-question ID (``## OQ-6: ...``) or a section prefix
    (``## CNT: ...``) gets that as its anchor; any other its :func:`slug`.
    """
    return _Blocks(text, links, shift).run()
