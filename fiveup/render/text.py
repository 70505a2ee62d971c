"""A layout described in words, as the documents describe their worked positions.

Each worked position of the rule documents (``../shared/seeds/``) has a label ("Posata: [1|2]",
"Asetettu [1|2]", "Angelegt: [1|2]"), a short summary line, and a description line that repeats
the summary and goes on with the tiles, spinners, connections, available connection points and
counted contributions. :func:`summary` and :func:`describe` write those two lines from the JSON
layout of a fixture's expectation or of an engine's observation, in Italian, Finnish and German
exactly as the documents do, and in English in the words of spec/terms.md.

The order is the documents': tiles and connections in placement order (as given), spinners and
available points sorted by their text, contributions by tile with the higher value first (so
the opening ``[1|4]`` reads "4 + 1", as in the documents; OQ-12 makes the order informative).
A layout is described as it is: a key that is absent (a partial expectation) leaves its
sentence out, and values that are not what the schema asks for are shown as they are, so a
malformed observation never stops the description.
"""

from __future__ import annotations

import enum
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from fiveup.contract.engine import JSON
from fiveup.contract.notation import Slot

__all__ = ["LANGS", "Lang", "as_lang", "describe", "summary", "summary_sentences"]


class Lang(enum.Enum):
    """A language of the descriptions: the documents' three, and English."""

    IT = "it"
    FI = "fi"
    DE = "de"
    EN = "en"


LANGS: Final[tuple[Lang, ...]] = tuple(Lang)
"""Every language, in the order of the documents (Italian, Finnish, German), then English."""

RAW_PER_DISPLAYED: Final = 5
"""Raw points per displayed point (PTS-1)."""


@dataclass(frozen=True, slots=True)
class _Words:
    """What one language calls the parts of a description."""

    contributions: str
    credit: str
    raw: tuple[str, str]
    """Raw points after the number 1, and after any other number."""
    displayed: tuple[str, str]
    tiles: str
    spinners: str
    connections: str
    points: str
    sum_alone: str
    """The sum when the contributions are not given."""
    none: str
    none_tiles: str
    slots: Mapping[str, str]
    decimal: str


_WORDS: Final[Mapping[Lang, _Words]] = {
    Lang.IT: _Words(
        contributions="Contributi conteggiati",
        credit="Accredito della posa",
        raw=("punto grezzo", "punti grezzi"),
        displayed=("punto visualizzato", "punti visualizzati"),
        tiles="Tessere",
        spinners="Spinner",
        connections="Collegamenti",
        points="Punti di collegamento disponibili",
        sum_alone="Somma delle estremità",
        none="nessuno",
        none_tiles="nessuna",
        slots={
            Slot.LOW.value: "estremità di valore minore",
            Slot.HIGH.value: "estremità di valore maggiore",
            Slot.LINE_A.value: "lato lineare A",
            Slot.LINE_B.value: "lato lineare B",
            Slot.BRANCH_A.value: "ramo A",
            Slot.BRANCH_B.value: "ramo B",
        },
        decimal=",",
    ),
    Lang.FI: _Words(
        contributions="Pisteytykseen lasketut arvot",
        credit="Asetuspisteet",
        raw=("raakapiste", "raakapistettä"),
        displayed=("näyttöpiste", "näyttöpistettä"),
        tiles="Laatat",
        spinners="Spinnerit",
        connections="Liitokset",
        points="Lailliset jatkokohdat",
        sum_alone="Päiden summa",
        none="ei yhtään",
        none_tiles="ei yhtään",
        slots={
            Slot.LOW.value: "pienempi pää",
            Slot.HIGH.value: "suurempi pää",
            Slot.LINE_A.value: "linja A",
            Slot.LINE_B.value: "linja B",
            Slot.BRANCH_A.value: "haara A",
            Slot.BRANCH_B.value: "haara B",
        },
        decimal=",",
    ),
    Lang.DE: _Words(
        contributions="Gewertete Beiträge",
        credit="Gutschrift für das Anlegen",
        raw=("Rohpunkt", "Rohpunkte"),
        displayed=("Anzeigepunkt", "Anzeigepunkte"),
        tiles="Steine",
        spinners="Spinner",
        connections="Verbindungen",
        points="Freie Anlegestellen",
        sum_alone="Endsumme",
        none="keine",
        none_tiles="keine",
        slots={
            Slot.LOW.value: "Ende mit kleinerer Augenzahl",
            Slot.HIGH.value: "Ende mit größerer Augenzahl",
            Slot.LINE_A.value: "Linienseite A",
            Slot.LINE_B.value: "Linienseite B",
            Slot.BRANCH_A.value: "Seitenarm A",
            Slot.BRANCH_B.value: "Seitenarm B",
        },
        decimal=",",
    ),
    Lang.EN: _Words(
        contributions="Counted contributions",
        credit="Credit of the placement",
        raw=("raw point", "raw points"),
        displayed=("displayed point", "displayed points"),
        tiles="Tiles",
        spinners="Spinners",
        connections="Connections",
        points="Available connection points",
        sum_alone="Sum of counted ends",
        none="none",
        none_tiles="none",
        slots={
            Slot.LOW.value: "lower end",
            Slot.HIGH.value: "higher end",
            Slot.LINE_A.value: "line side A",
            Slot.LINE_B.value: "line side B",
            Slot.BRANCH_A.value: "branch A",
            Slot.BRANCH_B.value: "branch B",
        },
        decimal=".",
    ),
}

_DASH: Final = " \u2013 "
"""Between the two points of a connection (an en dash, as in the documents)."""
_ABSENT: Final = object()


def as_lang(lang: Lang | str) -> Lang:
    """A language given as a :class:`Lang` or its code ("it"); ValueError for another."""
    if isinstance(lang, Lang):
        return lang
    try:
        return Lang(str(lang).lower())
    except ValueError:
        choices = ", ".join(lg.value for lg in LANGS)
        raise ValueError(f"no language {lang!r}; there are {choices}") from None


def _printable(text: str) -> str:
    """``text`` on one line: a character that is not printable is escaped as ``repr`` does."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def _show(value: object) -> str:
    """A value as the description writes it: text as it is, anything else as JSON."""
    if isinstance(value, str):
        return _printable(value)
    if isinstance(value, int) and not isinstance(value, bool):
        try:
            return str(value)
        except ValueError:  # more digits than Python converts (sys.set_int_max_str_digits)
            return f"an integer of {value.bit_length()} bits"
    try:
        return _printable(json.dumps(value, ensure_ascii=False, sort_keys=True, default=repr))
    except (RecursionError, TypeError, ValueError):
        return _printable(type(value).__name__)


def _get(layout: object, key: str) -> object:
    if not isinstance(layout, Mapping):
        return _ABSENT
    value = layout.get(key, _ABSENT)
    return _ABSENT if value is None else value


def _entries(value: object) -> list[object]:
    """A list value as its entries; any other value as the one entry it is."""
    return list(value) if isinstance(value, list | tuple) else [value]


def _pair(value: object) -> tuple[object, object] | None:
    if isinstance(value, list | tuple) and len(value) == 2:
        return value[0], value[1]
    return None


def _point(point: object, words: _Words) -> tuple[str, str | None]:
    """The tile of a point and the words for its slot (None for a slot of no known name)."""
    text = _show(point)
    tile, colon, slot = text.rpartition(":")
    if colon and slot in words.slots:
        return tile, words.slots[slot]
    return text, None


def _side(point: object, words: _Words) -> str:
    tile, place = _point(point, words)
    return f"{tile} ({place})" if place is not None else tile


def _connection(entry: object, words: _Words) -> str:
    pair = _pair(entry)
    if pair is None:
        return _DASH.join(_side(p, words) for p in _entries(entry))
    return f"{_side(pair[0], words)}{_DASH}{_side(pair[1], words)}"


def _available(point: object, value: object, words: _Words) -> str:
    tile, place = _point(point, words)
    shown = [place] if place is not None else []
    shown += [] if value is _ABSENT else [_show(value)]
    return f"{tile} ({', '.join(shown)})" if shown else tile


def _points(value: object, words: _Words) -> list[str]:
    if isinstance(value, Mapping):
        items = sorted(((_show(k), k, v) for k, v in value.items()), key=lambda i: i[0])
        return [_available(k, v, words) for _, k, v in items]
    return sorted((_available(p, _ABSENT, words) for p in _entries(value)), key=lambda s: s)


def _contributions(value: object) -> list[tuple[str, str]]:
    """Each contribution as (tile, value) texts: by tile, the higher value first."""
    rows: list[tuple[tuple[str, int, int, str], str, str]] = []
    for entry in _entries(value):
        pair = _pair(entry)
        tile, amount = (_show(pair[0]), pair[1]) if pair else (_show(entry), _ABSENT)
        number = isinstance(amount, int) and not isinstance(amount, bool)
        shown = "?" if amount is _ABSENT else _show(amount)
        key = (tile, 0 if number else 1, -amount if isinstance(amount, int) else 0, shown)
        rows.append((key, tile, shown))
    rows.sort(key=lambda r: r[0])
    return [(tile, shown) for _, tile, shown in rows]


def _listed(label: str, items: list[str], none: str, sep: str = ", ") -> str:
    return f"{label}: {sep.join(items) if items else none}."


def _amount(number: str, singular: bool, names: tuple[str, str]) -> str:
    return f"{number} {names[0] if singular else names[1]}"


def _credit(credit: int, words: _Words) -> str:
    tenths = 10 * credit // RAW_PER_DISPLAYED  # exact: a fifth has one decimal
    whole, tenth = divmod(abs(tenths), 10)
    sign = "-" if tenths < 0 else ""
    displayed = f"{sign}{_show(whole)}" + (f"{words.decimal}{tenth}" if tenth else "")
    return (
        f"{words.credit}: {_amount(_show(credit), abs(credit) == 1, words.raw)} "
        f"({_amount(displayed, tenths in (10, -10), words.displayed)})."
    )


def _summary_sentences(layout: Mapping[str, JSON], words: _Words, credit: int | None) -> list[str]:
    sentences = []
    contributions, total = _get(layout, "contributions"), _get(layout, "sum")
    if contributions is not _ABSENT:
        values = [shown for _, shown in _contributions(contributions)]
        added = " + ".join(values) if values else words.none
        equals = "" if total is _ABSENT else f" = {_show(total)}"
        sentences.append(f"{words.contributions}: {added}{equals}.")
    elif total is not _ABSENT:
        sentences.append(f"{words.sum_alone}: {_show(total)}.")
    if credit is not None:
        sentences.append(_credit(credit, words))
    return sentences


def summary_sentences(
    layout: Mapping[str, JSON], lang: Lang | str, *, credit: int | None = None
) -> list[str]:
    """The sentences of :func:`summary`, one by one (a diagram writes each on its own line)."""
    return _summary_sentences(layout, _WORDS[as_lang(lang)], credit)


def summary(layout: Mapping[str, JSON], lang: Lang | str, *, credit: int | None = None) -> str:
    """The short summary line of a layout: its contributions and their sum, and the credit.

    ``credit`` is the raw credit of the placement that led to the layout; without it the
    sentence on the credit is left out. Raises ValueError for an unknown ``lang``.
    """
    return " ".join(summary_sentences(layout, lang, credit=credit))


def describe(layout: Mapping[str, JSON], lang: Lang | str, *, credit: int | None = None) -> str:
    """The full description line of a layout, as the documents write it after the summary.

    The summary (:func:`summary`), then the tiles, spinners, connections, available connection
    points with their values and counted contributions, each sentence only when its key is in
    ``layout``. Raises ValueError for an unknown ``lang``; never for the layout's content.
    """
    words = _WORDS[as_lang(lang)]
    sentences = _summary_sentences(layout, words, credit)
    tiles = _get(layout, "tiles")
    if tiles is not _ABSENT:
        sentences.append(
            _listed(words.tiles, [_show(t) for t in _entries(tiles)], words.none_tiles)
        )
    spinners = _get(layout, "spinners")
    if spinners is not _ABSENT:
        shown = sorted(_show(s) for s in _entries(spinners))
        sentences.append(_listed(words.spinners, shown, words.none))
    connections = _get(layout, "connections")
    if connections is not _ABSENT:
        joined = [_connection(c, words) for c in _entries(connections)]
        sentences.append(_listed(words.connections, joined, words.none, "; "))
    points = _get(layout, "points")
    if points is not _ABSENT:
        sentences.append(_listed(words.points, _points(points, words), words.none, "; "))
    contributions = _get(layout, "contributions")
    if contributions is not _ABSENT:
        counted = [f"{tile}: {shown}" for tile, shown in _contributions(contributions)]
        sentences.append(_listed(words.contributions, counted, words.none, "; "))
    return " ".join(sentences)
