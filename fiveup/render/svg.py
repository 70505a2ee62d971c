"""A layout as a standalone SVG diagram: the dominoes as they lie on the table.

:func:`layout_svg` draws the tiles placed by :func:`fiveup.render.geometry.arrange` with their
pips, and the documents' legend: a spinner has an orange outline, a counted contribution is a
filled number, a legal connection point that is not counted is a hollow dot. Below the table it
writes the summary line of the layout (:func:`fiveup.render.text.summary`: the counted
contributions and their sum, and the placement's credit, raw and displayed, when it is given),
and a note for everything in the layout that could not be drawn. The legend, the summary and the
headings are in the language asked for: Italian, Finnish and German in the documents' own words,
English in those of spec/terms.md; the notes, which name values of the JSON, are in English.

The output depends only on the layout's content: the same layout gives the same bytes, so
diagrams can be committed and diffed. Coordinates are whole pixels, every list is drawn in a
fixed order, and the element IDs are derived from a hash of the drawing itself.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from fiveup.contract.engine import JSON

from .geometry import HALF, Arrangement, Exit, Marker, PlacedTile, Rect, arrange, brief
from .text import Lang, as_lang, summary_sentences

__all__ = ["layout_svg"]

UNIT: Final = 12
"""Pixels per grid unit: a tile's half is 24 x 24 pixels."""
_MARGIN: Final = 16
_LINE: Final = 18
_FONT: Final = "sans-serif"
_TEXT_SIZE: Final = 13
_CHAR: Final = 8
"""A generous width of one character at ``_TEXT_SIZE``, to size the view box."""
_NOTE_CHARS: Final = 110
"""Notes and caption lines longer than this are cut, so that no value widens the drawing."""

_INK: Final = "#222222"
_TILE_FILL: Final = "#fffdf7"
_SPINNER: Final = "#e67e00"
_MARK: Final = "#1f5fa8"
_NOTE: Final = "#b00020"

# Pip centres inside a half, in pixels from its top left corner, for a tile whose long side
# runs horizontally; a vertical tile uses them transposed.
_PIPS: Final[dict[int, tuple[tuple[int, int], ...]]] = {
    0: (),
    1: ((12, 12),),
    2: ((6, 6), (18, 18)),
    3: ((6, 6), (12, 12), (18, 18)),
    4: ((6, 6), (18, 6), (6, 18), (18, 18)),
    5: ((6, 6), (18, 6), (12, 12), (6, 18), (18, 18)),
    6: ((6, 6), (12, 6), (18, 6), (6, 18), (12, 18), (18, 18)),
}


def _clean(text: str) -> str:
    """``text`` with every character XML 1.0 does not allow replaced by U+FFFD."""
    out = []
    for ch in text:
        code = ord(ch)
        allowed = (
            code in (0x9, 0xA, 0xD)
            or 0x20 <= code <= 0xD7FF
            or 0xE000 <= code <= 0xFFFD
            or 0x10000 <= code <= 0x10FFFF
        )
        out.append(ch if allowed else "\ufffd")
    return "".join(out)


def _escape(text: str) -> str:
    """``text`` cleaned and escaped for XML character data and double-quoted attributes."""
    return (
        _clean(text)
        .replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace('"', "&quot;")
    )


def _displayed(raw: int) -> str:
    """``raw / 5`` written exactly, with one decimal when it is not whole."""
    if abs(raw) >= 10**12:
        return brief(raw)
    sign = "-" if raw < 0 else ""
    tenths = abs(raw) * 2
    whole, rest = divmod(tenths, 10)
    return f"{sign}{whole}" if rest == 0 else f"{sign}{whole}.{rest}"


class _Canvas:
    """The elements of the drawing, in order, with the translation from grid to pixels."""

    def __init__(self, bounds: Rect | None) -> None:
        self.parts: list[str] = []
        self.ox = _MARGIN - (bounds.x0 * UNIT if bounds else 0)
        self.oy = _MARGIN - (bounds.y0 * UNIT if bounds else 0)

    def x(self, u: int) -> int:
        return self.ox + u * UNIT

    def y(self, u: int) -> int:
        return self.oy + u * UNIT

    def add(self, element: str) -> None:
        self.parts.append(element)


def _text(x: int, y: int, text: str, *, size: int = _TEXT_SIZE, fill: str = _INK) -> str:
    return (
        f'<text x="{x}" y="{y}" font-family="{_FONT}" font-size="{size}" fill="{fill}">'
        f"{_escape(text)}</text>"
    )


def _tile(canvas: _Canvas, placed: PlacedTile) -> None:
    r = placed.rect
    x, y = canvas.x(r.x0), canvas.y(r.y0)
    w, h = (r.x1 - r.x0) * UNIT, (r.y1 - r.y0) * UNIT
    stroke, width = (_SPINNER, 3) if placed.spinner else (_INK, 1)
    kind = "tile spinner" if placed.spinner else "tile"
    canvas.add(f'<g class="{kind}" data-tile="{placed.tile.text}">')
    canvas.add(f"<title>{placed.tile.text}</title>")
    canvas.add(
        f'<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="3" fill="{_TILE_FILL}" '
        f'stroke="{stroke}" stroke-width="{width}"/>'
    )
    a, b = placed.halves[0].rect, placed.halves[1].rect
    if a.x1 == b.x0 or b.x1 == a.x0:
        mx = canvas.x(max(a.x0, b.x0))
        canvas.add(f'<line x1="{mx}" y1="{y + 3}" x2="{mx}" y2="{y + h - 3}" stroke="{_INK}"/>')
    else:
        my = canvas.y(max(a.y0, b.y0))
        canvas.add(f'<line x1="{x + 3}" y1="{my}" x2="{x + w - 3}" y2="{my}" stroke="{_INK}"/>')
    horizontal = placed.axis == (1, 0)
    for half in placed.halves:
        hx, hy = canvas.x(half.rect.x0), canvas.y(half.rect.y0)
        for px, py in _PIPS.get(half.value, ()):
            cx, cy = (px, py) if horizontal else (py, px)
            canvas.add(f'<circle cx="{hx + cx}" cy="{hy + cy}" r="2.5" fill="{_INK}"/>')
    canvas.add("</g>")


def _centre(canvas: _Canvas, at: Exit) -> tuple[int, int]:
    """The middle of the square just outside an exit, in pixels."""
    (ax, ay), (dx, dy) = at.anchor, at.direction
    return canvas.x(ax) + dx * HALF * UNIT // 2, canvas.y(ay) + dy * HALF * UNIT // 2


def _filled(cx: int, cy: int, value: int, data: str) -> str:
    label = str(value) if abs(value) < 1000 else "…"
    return (
        f'<g class="counted"{data}><circle cx="{cx}" cy="{cy}" r="9" fill="{_MARK}"/>'
        f'<text x="{cx}" y="{cy + 4}" font-family="{_FONT}" font-size="11" font-weight="bold" '
        f'fill="#ffffff" text-anchor="middle">{_escape(label)}</text></g>'
    )


def _hollow(cx: int, cy: int, data: str) -> str:
    return (
        f'<circle class="point"{data} cx="{cx}" cy="{cy}" r="5" fill="#ffffff" '
        f'stroke="{_MARK}" stroke-width="2"/>'
    )


def _marker(canvas: _Canvas, marker: Marker, placed: Mapping[str, PlacedTile]) -> None:
    slot = f":{marker.slot.value}" if marker.slot is not None else ""
    data = f' data-point="{marker.tile.text}{slot}"'
    if marker.exit is not None:
        cx, cy = _centre(canvas, marker.exit)
    else:
        r = placed[marker.tile.text].rect
        cx, cy = (
            canvas.x(r.x0) + (r.x1 - r.x0) * UNIT // 2,
            canvas.y(r.y0) + (r.y1 - r.y0) * UNIT // 2,
        )
    if marker.counted is None:
        canvas.add(_hollow(cx, cy, data))
    else:
        canvas.add(_filled(cx, cy, marker.counted, data))


@dataclass(frozen=True, slots=True)
class _Words:
    """The words of a diagram in one language."""

    legend: tuple[str, str, str]
    """The spinner's outline, the filled number and the hollow dot."""
    no_sum: str
    """The caption when the layout gives neither contributions nor a sum."""
    no_tile: str
    notes: str


_WORDS: Final[Mapping[Lang, _Words]] = {
    # The legends are the documents' own sentences (../shared/seeds; tests/test_render_svg.py
    # checks them there): the spinner's from the paragraph before the pictures, the two others
    # from the pictures' legend.
    Lang.IT: _Words(
        legend=(
            "Il contorno arancione indica uno spinner",
            "Numero pieno: contributo conteggiato",
            "Punto vuoto: posa lecita, qui non conteggiata",
        ),
        no_sum="Somma delle estremità: non indicata.",
        no_tile="Nessuna tessera disegnata.",
        notes="Note: ciò che non si è potuto disegnare come indicato",
    ),
    Lang.FI: _Words(
        legend=(
            "Oranssi reunus merkitsee spinneriä",
            "Täytetty numero: pisteytykseen laskettu arvo",
            "Tyhjä piste: laillinen jatkokohta, jota ei tässä lasketa",
        ),
        no_sum="Päiden summa: ei annettu.",
        no_tile="Yhtään laattaa ei ole piirretty.",
        notes="Huomiot: mitä ei voitu piirtää annetulla tavalla",
    ),
    Lang.DE: _Words(
        legend=(
            "Der orange Umriss kennzeichnet einen Spinner",
            "Ausgefüllte Zahl: gewerteter Beitrag",
            "Hohler Punkt: legales Anlegen, hier nicht gewertet",
        ),
        no_sum="Endsumme: nicht angegeben.",
        no_tile="Kein Stein gezeichnet.",
        notes="Hinweise: was sich nicht wie angegeben zeichnen ließ",
    ),
    Lang.EN: _Words(
        legend=(
            "Orange outline: spinner",
            "Filled number: counted contribution",
            "Hollow dot: legal connection point, not counted here",
        ),
        no_sum="Sum of counted ends: not given.",
        no_tile="No tile is drawn.",
        notes="Notes: what could not be drawn as given",
    ),
}


def _cut(text: str) -> str:
    return text if len(text) <= _NOTE_CHARS else text[: _NOTE_CHARS - 3] + "..."


def _footer(
    layout: Mapping[str, JSON], arrangement: Arrangement, credit: object, lang: Lang
) -> tuple[list[str], list[str]]:
    """The caption lines under the table (the layout's summary), and the notes."""
    notes = list(arrangement.notes)
    whole = isinstance(credit, int) and not isinstance(credit, bool)
    if credit is not None and not whole:
        notes.append(f"credit: {brief(credit)} is not a whole number")
    lines = summary_sentences(layout, lang, credit=credit if isinstance(credit, int) else None)
    if not any(isinstance(layout, Mapping) and key in layout for key in ("contributions", "sum")):
        lines.insert(0, _WORDS[lang].no_sum)
    return [_cut(line) for line in lines], notes


class _Column:
    """The lines of text under the table, with how wide the widest is."""

    def __init__(self, y: int) -> None:
        self.y = y
        self.parts: list[str] = []
        self.chars = 0

    def line(
        self, text: str, *, size: int = _TEXT_SIZE, fill: str = _INK, x: int = _MARGIN
    ) -> None:
        self.parts.append(_text(x, self.y, text, size=size, fill=fill))
        self.chars = max(self.chars, len(text) + (x - _MARGIN) // _CHAR)
        self.y += _LINE


def _legend(column: _Column, lang: Lang) -> None:
    column.parts.append('<g class="legend">')
    y = column.y
    column.parts.append(
        f'<rect x="{_MARGIN}" y="{y - 11}" width="24" height="12" rx="2" '
        f'fill="{_TILE_FILL}" stroke="{_SPINNER}" stroke-width="3"/>'
    )
    column.parts.append(_filled(_MARGIN + 12, y + _LINE - 5, 3, ""))
    column.parts.append(_hollow(_MARGIN + 12, y + 2 * _LINE - 5, ""))
    for label in _WORDS[lang].legend:
        column.line(label, size=12, x=_MARGIN + 34)
    column.parts.append("</g>")


def _below(
    layout: Mapping[str, JSON], arrangement: Arrangement, credit: object, top: int, lang: Lang
) -> _Column:
    """The summary, the legend and the notes, from ``top`` down."""
    words = _WORDS[lang]
    column = _Column(top + _LINE + 6)
    if arrangement.bounds is None:
        column.line(words.no_tile)
    lines, notes = _footer(layout, arrangement, credit, lang)
    for text in lines:
        column.line(text)
    column.y += 6
    _legend(column, lang)
    if notes:
        column.y += 6
        column.parts.append('<g class="notes">')
        column.line(words.notes, size=12, fill=_NOTE)
        for note in notes:
            column.line(f"- {_cut(note)}", size=12, fill=_NOTE)
        column.parts.append("</g>")
    return column


def _table(arrangement: Arrangement) -> _Canvas:
    """The tiles, the joints drawn apart and the markers."""
    canvas = _Canvas(arrangement.bounds)
    placed = {p.tile.text: p for p in arrangement.tiles}
    for joint in arrangement.joints:
        if not joint.attached:
            x1, y1 = _centre(canvas, joint.start)
            x2, y2 = canvas.x(joint.end[0]), canvas.y(joint.end[1])
            canvas.add(
                f'<line class="apart" x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{_NOTE}" '
                'stroke-width="1.5" stroke-dasharray="4 3"/>'
            )
    for tile in arrangement.tiles:
        _tile(canvas, tile)
    for marker in arrangement.markers:
        _marker(canvas, marker, placed)
    return canvas


def layout_svg(
    layout: Mapping[str, JSON],
    *,
    title: str,
    desc: str,
    credit: int | None = None,
    lang: Lang | str = Lang.EN,
) -> str:
    """A standalone SVG document drawing a JSON layout as the dominoes lie on the table.

    ``layout`` has the keys of a layout object (tiles, spinners, connections, points,
    contributions, sum); ``title`` and ``desc`` become the accessible name and description;
    ``credit``, when given, is the raw credit of the placement, written raw and displayed;
    ``lang`` is the language of the legend and the captions (a :class:`~fiveup.render.text.Lang`
    or its code; ValueError for another). Never raises on any JSON value: what cannot be drawn
    is left out and named in a note.
    """
    language = as_lang(lang)
    arrangement = arrange(layout)
    bounds = arrangement.bounds
    canvas = _table(arrangement)
    width = (bounds.x1 - bounds.x0) * UNIT if bounds else 0
    top = _MARGIN + ((bounds.y1 - bounds.y0) * UNIT if bounds else 0)
    column = _below(layout, arrangement, credit, top, language)
    view_w = max(width, column.chars * _CHAR) + 2 * _MARGIN
    view_h = column.y + _MARGIN - _LINE + 6
    body = "\n".join([*canvas.parts, *column.parts])
    title_text, desc_text = _escape(str(title)), _escape(str(desc))
    digest = hashlib.sha256("\n".join([title_text, desc_text, body]).encode("utf-8"))
    ident = "fiveup-" + digest.hexdigest()[:12]
    return "\n".join(
        [
            '<?xml version="1.0" encoding="UTF-8"?>',
            f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" viewBox="0 0 {view_w} '
            f'{view_h}" width="{view_w}" height="{view_h}" role="img" '
            f'aria-labelledby="{ident}-title {ident}-desc">',
            f'<title id="{ident}-title">{title_text}</title>',
            f'<desc id="{ident}-desc">{desc_text}</desc>',
            f'<rect class="table" x="0" y="0" width="{view_w}" height="{view_h}" fill="#f4f1ea"/>',
            body,
            "</svg>",
            "",
        ]
    )
