"""The spec's Markdown as XHTML: blocks, inline marks, links where the site says, all escaped."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from fiveup.site.markdown import Links, inline, render, slug

LINKS = Links(
    resolve=lambda url: url.replace(".md", ".html") if url.endswith(".md") else None,
    link_id=lambda ident: f"r/{ident}.html" if ident in ("CNT-1", "OQ-6") else None,
)


def test_fiveup_site_markdown_inline_marks_links_and_ids() -> None:
    text = "A **bold** *it* `[1|4]:low` [terms](terms.md) [seed](../x.txt) CNT-1, CNT-9, OQ-6"
    assert inline(text, LINKS) == (
        'A <strong>bold</strong> <em>it</em> <code>[1|4]:low</code> <a href="terms.html">terms</a>'
        ' seed <a href="r/CNT-1.html">CNT-1</a>, CNT-9, <a href="r/OQ-6.html">OQ-6</a>'
    )


def test_fiveup_site_markdown_everything_is_escaped_and_no_link_nests() -> None:
    assert inline("<b>&amp; side *i*", LINKS) == "&lt;b&gt;&amp;amp; side <em>i</em>"
    assert inline("[CNT-1 rule](terms.md)", LINKS) == '<a href="terms.html">CNT-1 rule</a>'
    assert inline("2 * 3 * 4", LINKS) == "2 * 3 * 4"


def test_fiveup_site_markdown_blocks_are_wellformed() -> None:
    text = (
        "# Title\n\nA paragraph\nover two lines.\n\n## OQ-6: A question\n\n"
        "- one\n  continued\n- two\n  - nested\n\n1. first\n2. second\n\n"
        "| a | b |\n|---|---|\n| `x|y` | 2 |\n\n> quoted\n\n```\n<code> & more\n```\n"
        "## CNT: counting\n\n## Title\n"
    )
    out = render(text, LINKS, shift=1)
    root = ET.fromstring(f"<div>{out}</div>")
    assert [h.get("id") for h in root if h.tag.startswith("h")] == [
        "title", "OQ-6", "CNT", "title-2",
    ]  # fmt: skip
    assert root[0].tag == "h2"
    assert ET.tostring(root[2], encoding="unicode").strip() == '<h3 id="OQ-6">OQ-6: A question</h3>'
    assert "".join(root[1].itertext()) == "A paragraph over two lines."
    items = root.find("ul")
    assert items is not None
    assert [("".join(li.itertext())) for li in items] == ["one continued", "two\nnested\n"]
    assert root.find("ol") is not None and len(root.find("ol") or []) == 2
    cells = root.findall("table/tbody/tr/td")
    assert [ET.tostring(c, encoding="unicode") for c in cells] == [
        "<td><code>x|y</code></td>",
        "<td>2</td>",
    ]
    assert root.find("blockquote/p") is not None
    assert "&lt;code&gt; &amp; more" in out


def test_fiveup_site_markdown_slug() -> None:
    assert slug("`start` and `ready`: the handshake") == "start-and-ready-the-handshake"
    assert slug("!!!") == "section"
