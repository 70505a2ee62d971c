"""``fiveup.render.svg``: a layout as a standalone, deterministic, accessible SVG document."""

from __future__ import annotations

import itertools
import json
import os
import re
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from test_render_geometry import CORPUS, CROWDED, JSONISH, LAYOUTISH, observed

from fiveup import strategies as fs
from fiveup.contract.engine import JSON
from fiveup.harness.corpus import load_corpus
from fiveup.reference.engine import layout_observation
from fiveup.render import geometry
from fiveup.render.svg import layout_svg

SVG = "{http://www.w3.org/2000/svg}"
GOLDEN = Path(__file__).parent / "render" / "doc.layout.branches-1-3.svg"
REGENERATE = "FIVEUP_REGENERATE_GOLDEN"
SETTINGS = fs.suite_settings(max_examples=60, deadline=None, database=None)

CHAIN = ["[1|4]", "[1|1]@[1|4]:low", "[4|4]@[1|4]:high", "[3|4]@[4|4]:line-b"]
CHAIN += ["[1|2]@[1|1]:line-b"]


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg.encode("utf-8"))
    assert root.tag == f"{SVG}svg"
    return root


def view_box(root: ET.Element) -> tuple[int, int, int, int]:
    x, y, w, h = (int(v) for v in root.attrib["viewBox"].split())
    return x, y, w, h


def tile_rects(root: ET.Element) -> list[tuple[str, int, int, int, int]]:
    """Each tile's text and rectangle (x, y, width, height) as drawn."""
    found: list[tuple[str, int, int, int, int]] = []
    for group in root.iter(f"{SVG}g"):
        if "tile" in group.attrib.get("class", "").split():
            rect = group.find(f"{SVG}rect")
            assert rect is not None
            x, y, w, h = (int(rect.attrib[k]) for k in ("x", "y", "width", "height"))
            found.append((group.attrib["data-tile"], x, y, w, h))
    return found


def worked_example() -> tuple[Mapping[str, JSON], str, str, int]:
    case = load_corpus().by_id()["doc.layout.branches-1-3"]
    credit = case.expect["steps"][-1]["credit"]
    return case.expect["layout"], case.id, case.title, credit


def test_render_svg_the_golden_worked_example() -> None:
    """The diagram of doc.layout.branches-1-3 (Posata: [1|3]) is the committed one.

    After a deliberate change of the drawing, regenerate it with
    ``FIVEUP_REGENERATE_GOLDEN=1 python -m pytest tests/test_render_svg.py`` and review the diff
    (and the picture) before committing it.
    """
    layout, case_id, title, credit = worked_example()
    svg = layout_svg(layout, title=case_id, desc=title, credit=credit)
    if os.environ.get(REGENERATE):
        GOLDEN.parent.mkdir(exist_ok=True)
        GOLDEN.write_text(svg, encoding="utf-8", newline="\n")
    assert svg == GOLDEN.read_text(encoding="utf-8")


def test_render_svg_draws_the_worked_example_as_the_documents_do() -> None:
    layout, case_id, title, credit = worked_example()
    root = parse(layout_svg(layout, title=case_id, desc=title, credit=credit))
    rects = tile_rects(root)
    assert sorted(t for t, *_ in rects) == sorted(layout["tiles"])
    spinners = sorted(
        g.attrib["data-tile"]
        for g in root.iter(f"{SVG}g")
        if "spinner" in g.attrib.get("class", "").split()
    )
    assert spinners == sorted(layout["spinners"])
    counted = [g for g in root.iter(f"{SVG}g") if g.attrib.get("class") == "counted"]
    numbers = sorted(
        int(g.findtext(f"{SVG}text") or "") for g in counted if "data-point" in g.attrib
    )
    assert numbers == sorted(v for _, v in layout["contributions"])  # 0, 2, 3, 3
    hollow = {
        c.attrib["data-point"]
        for c in root.iter(f"{SVG}circle")
        if c.attrib.get("class") == "point" and "data-point" in c.attrib
    }
    counted_points = {g.attrib["data-point"] for g in counted if "data-point" in g.attrib}
    assert hollow == set(layout["points"]) - counted_points
    assert hollow == {"[4|4]:branch-a", "[4|4]:branch-b", "[5|5]:branch-a", "[5|5]:branch-b"}
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert "Counted contributions: 0 + 2 + 3 + 3 = 8." in texts
    assert "Credit of the placement: 0 raw points (0 displayed points)." in texts
    assert "Filled number: counted contribution" in texts
    assert "Hollow dot: legal connection point, not counted here" in texts
    assert "Orange outline: spinner" in texts


def test_render_svg_has_an_accessible_name_and_description() -> None:
    svg = layout_svg(observed(CHAIN), title="Posata: <[1|2]> & co", desc='2 + 3 = 5 "ok"')
    root = parse(svg)
    assert root.attrib["role"] == "img"
    title_id, desc_id = root.attrib["aria-labelledby"].split()
    title, desc = root.find(f"{SVG}title"), root.find(f"{SVG}desc")
    assert title is not None and desc is not None
    assert (title.attrib["id"], desc.attrib["id"]) == (title_id, desc_id)
    assert title.text == "Posata: <[1|2]> & co"
    assert desc.text == '2 + 3 = 5 "ok"'
    assert list(root)[:2] == [title, desc]


def test_render_svg_ids_differ_between_diagrams_of_one_page() -> None:
    one = parse(layout_svg(observed(CHAIN), title="a", desc="d"))
    two = parse(layout_svg(observed(CHAIN[:2]), title="a", desc="d"))
    assert one.attrib["aria-labelledby"] != two.attrib["aria-labelledby"]


def test_render_svg_text_xml_forbids_is_replaced() -> None:
    root = parse(layout_svg({"tiles": ["\x00\x1b"]}, title="a\x00b\ud800", desc="\x08"))
    title = root.find(f"{SVG}title")
    assert title is not None and title.text == "a\ufffdb\ufffd"


@pytest.mark.parametrize(
    ("credit", "words"),
    [
        (5, "Credit of the placement: 5 raw points (1 displayed point)."),
        (15, "Credit of the placement: 15 raw points (3 displayed points)."),
        (7, "Credit of the placement: 7 raw points (1.4 displayed points)."),
        (-5, "Credit of the placement: -5 raw points (-1 displayed point)."),
    ],
)
def test_render_svg_writes_the_credit_raw_and_displayed(credit: int, words: str) -> None:
    texts = [
        t.text
        for t in parse(layout_svg(observed(CHAIN), title="t", desc="d", credit=credit)).iter(
            f"{SVG}text"
        )
    ]
    assert words in texts


def test_render_svg_without_a_credit_writes_none() -> None:
    svg = layout_svg(observed(CHAIN), title="t", desc="d")
    assert "Credit" not in svg
    assert re.search(r"<text[^>]*>Counted contributions: [0-9 +]* = 5\.</text>", svg), svg


def test_render_svg_a_credit_that_is_not_a_number_is_noted() -> None:
    bad: Any = "five"
    svg = layout_svg(observed(CHAIN), title="t", desc="d", credit=bad)
    assert "- credit: 'five' is not a whole number" in svg


def test_render_svg_is_deterministic_across_runs_orders_and_processes() -> None:
    layout = observed([*CHAIN, "[1|5]@[1|1]:branch-a"])
    first = layout_svg(layout, title="t", desc="d", credit=10)
    shuffled = dict(reversed(list(layout.items())))
    shuffled["points"] = dict(reversed(list(layout["points"].items())))
    shuffled["contributions"] = list(reversed(layout["contributions"]))
    assert layout_svg(shuffled, title="t", desc="d", credit=10) == first
    assert layout_svg(layout, title="t", desc="d", credit=10) == first
    script = (
        "import json, sys\n"
        "from fiveup.render.svg import layout_svg\n"
        "layout = json.loads(sys.argv[1])\n"
        "sys.stdout.write(layout_svg(layout, title='t', desc='d', credit=10))\n"
    )
    for seed in ("0", "12345"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        done = subprocess.run(
            [sys.executable, "-c", script, json.dumps(shuffled)],
            capture_output=True,
            text=True,
            encoding="utf-8",
            env=env,
            check=True,
        )
        assert done.stdout == first


def test_render_svg_the_order_in_which_layouts_are_drawn_changes_nothing() -> None:
    layouts = [layout for _, layout in CORPUS]
    forward = [layout_svg(layout, title="t", desc="d") for layout in layouts]
    backward = [layout_svg(layout, title="t", desc="d") for layout in reversed(layouts)]
    assert forward == backward[::-1]


def test_render_svg_needs_nothing_outside_itself() -> None:
    layout, case_id, title, credit = worked_example()
    svg = layout_svg(layout, title=case_id, desc=title, credit=credit)
    assert svg.count("http") == 1  # the SVG namespace, which is a name, not a resource
    for word in ("href", "url(", "@import", "@font-face", "<image", "<script", "<foreignObject"):
        assert word not in svg
    fonts = {t.attrib["font-family"] for t in parse(svg).iter(f"{SVG}text")}
    assert fonts == {"sans-serif"}


def assert_inside_view_box(root: ET.Element) -> None:
    """Every shape and the start of every text lie inside the view box."""
    x0, y0, w, h = view_box(root)
    for element in root.iter():
        tag = element.tag.removeprefix(SVG)
        a = element.attrib
        xs: list[float]
        ys: list[float]
        if tag == "rect":
            xs = [int(a["x"]), int(a["x"]) + int(a["width"])]
            ys = [int(a["y"]), int(a["y"]) + int(a["height"])]
        elif tag == "circle":
            r = float(a["r"])
            xs = [float(a["cx"]) - r, float(a["cx"]) + r]
            ys = [float(a["cy"]) - r, float(a["cy"]) + r]
        elif tag == "line":
            xs, ys = [int(a["x1"]), int(a["x2"])], [int(a["y1"]), int(a["y2"])]
        elif tag == "text":
            width = 8 * len(element.text or "") if a.get("text-anchor") != "middle" else 0
            xs, ys = [int(a["x"]), int(a["x"]) + width], [int(a["y"]) - 12, int(a["y"])]
        else:
            continue
        assert x0 <= min(xs) and max(xs) <= x0 + w, (tag, a)
        assert y0 <= min(ys) and max(ys) <= y0 + h, (tag, a)


@pytest.mark.parametrize(("where", "layout"), CORPUS, ids=[where for where, _ in CORPUS])
def test_render_svg_every_corpus_layout_is_valid_contained_and_without_overlaps(
    where: str, layout: Mapping[str, JSON]
) -> None:
    root = parse(layout_svg(layout, title=where, desc=where))
    assert_inside_view_box(root)
    rects = tile_rects(root)
    for (ta, xa, ya, wa, ha), (tb, xb, yb, wb, hb) in itertools.combinations(rects, 2):
        apart = xa + wa <= xb or xb + wb <= xa or ya + ha <= yb or yb + hb <= ya
        assert apart, (ta, tb)


@SETTINGS
@given(fs.reachable_layouts())
def test_render_svg_every_reachable_layout_is_valid_and_contained(
    reached: fs.ReachedLayout,
) -> None:
    observation = layout_observation(reached.layout)
    root = parse(layout_svg(observation, title="t", desc="d", credit=observation["sum"]))
    assert_inside_view_box(root)
    assert len(tile_rects(root)) == len(observation["tiles"])
    assert root.find(f".//{SVG}g[@class='notes']") is None


@SETTINGS
@given(LAYOUTISH | JSONISH, JSONISH)
def test_render_svg_never_raises_on_any_json(layout: Any, credit: Any) -> None:
    root = parse(layout_svg(layout, title="t", desc="d", credit=credit))
    assert_inside_view_box(root)


@pytest.mark.parametrize(
    ("layout", "words"),
    [
        (
            {"tiles": ["[1|4]"], "connections": [["[1|4]:low", "[1|1]:line-a"]]},
            "[1|1] is not among the tiles",
        ),
        ({"tiles": ["[1|4]", "[1|4]"]}, "[1|4] is listed twice"),
        ({"tiles": ["[1|4]"], "points": {"[2|2]:line-b": 2}}, "[2|2]:line-b is on no tile"),
        ({"tiles": ["[1|4]"], "why": None}, "unknown key 'why'"),
        ([1, 2], "not an object"),
    ],
)
def test_render_svg_shows_a_note_for_what_is_not_drawn(layout: Any, words: str) -> None:
    svg = layout_svg(layout, title="t", desc="d")
    notes = parse(svg).find(f".//{SVG}g[@class='notes']")
    assert notes is not None
    shown = " ".join(t.text or "" for t in notes.iter(f"{SVG}text"))
    assert words in shown


def test_render_svg_a_tile_drawn_apart_has_a_dashed_line_and_a_note(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(geometry, "SEARCH_BUDGET", 0)
    root = parse(layout_svg(observed(CROWDED), title="t", desc="d"))
    assert root.findall(f".//{SVG}line[@class='apart']")
    assert "is drawn apart from" in " ".join(t.text or "" for t in root.iter(f"{SVG}text"))
    assert_inside_view_box(root)


def test_render_svg_numbers_too_long_to_write_are_named_not_written() -> None:
    huge = 10**5000  # str() of it raises: Python refuses to write more than 4300 digits
    layout = {"tiles": ["[1|4]"], "points": {"[1|4]:low": huge}, "sum": huge}
    layout["contributions"] = [["[1|4]", huge], ["[1|4]", -huge], ["[1|4]", 4]]
    root = parse(layout_svg(layout, title="t", desc="d", credit=-huge))
    texts = [t.text or "" for t in root.iter(f"{SVG}text")]
    assert "Counted contributions: an integer of 16610 bits + 4 + an integer of 16610 bits" in (
        " ".join(texts)
    )
    assert "Credit of the placement: an integer of 16610 bits raw points" in " ".join(texts)
    assert max(len(t) for t in texts) <= 110


def test_render_svg_huge_input_is_drawn_in_bounded_time() -> None:
    many = 200_000
    layout = {
        "tiles": ["[1|4]", "[1|1]"] * many,
        "connections": [["[1|4]:low", "[1|1]:line-a"]] * many,
        "points": {f"[{n % 7}|6]:low{n}": n for n in range(many)},
        "contributions": [["[1|4]", 4]] * many,
        "spinners": ["[1|1]"] * many,
        "sum": 10**100,
    }
    start = time.process_time()  # CPU time: a busy machine stretches the wall clock, not this
    svg = layout_svg(layout, title="t" * many, desc="d", credit=10**50)
    assert time.process_time() - start < 10
    root = parse(svg)
    assert len(tile_rects(root)) == 2
    assert len(svg) < 2_000_000


# --------------------------------------------------------------------------- languages

SEEDS = Path(__file__).resolve().parents[1].parent / "shared" / "seeds"
"""The rule documents, at ``../shared/seeds`` from the project root."""

LEGENDS = {
    "it": (
        "Il contorno arancione indica uno spinner",
        "Numero pieno: contributo conteggiato",
        "Punto vuoto: posa lecita, qui non conteggiata",
    ),
    "fi": (
        "Oranssi reunus merkitsee spinneriä",
        "Täytetty numero: pisteytykseen laskettu arvo",
        "Tyhjä piste: laillinen jatkokohta, jota ei tässä lasketa",
    ),
    "de": (
        "Der orange Umriss kennzeichnet einen Spinner",
        "Ausgefüllte Zahl: gewerteter Beitrag",
        "Hohler Punkt: legales Anlegen, hier nicht gewertet",
    ),
    "en": (
        "Orange outline: spinner",
        "Filled number: counted contribution",
        "Hollow dot: legal connection point, not counted here",
    ),
}
# The worked example's summary line as each document writes it (000_ l. 59, 001_ l. 66,
# 003_ l. 59: "Posata: [1|3]", "Asetettu [1|3]", "Angelegt: [1|3]"), one sentence a line.
CAPTIONS = {
    "it": (
        "Contributi conteggiati: 0 + 2 + 3 + 3 = 8.",
        "Accredito della posa: 0 punti grezzi (0 punti visualizzati).",
    ),
    "fi": (
        "Pisteytykseen lasketut arvot: 0 + 2 + 3 + 3 = 8.",
        "Asetuspisteet: 0 raakapistettä (0 näyttöpistettä).",
    ),
    "de": (
        "Gewertete Beiträge: 0 + 2 + 3 + 3 = 8.",
        "Gutschrift für das Anlegen: 0 Rohpunkte (0 Anzeigepunkte).",
    ),
    "en": (
        "Counted contributions: 0 + 2 + 3 + 3 = 8.",
        "Credit of the placement: 0 raw points (0 displayed points).",
    ),
}


def svg_texts(svg: str) -> list[str]:
    return [t.text or "" for t in parse(svg).iter(f"{SVG}text")]


@pytest.mark.parametrize("lang", list(LEGENDS))
def test_render_svg_legend_and_captions_are_in_the_language_asked_for(lang: str) -> None:
    layout, case_id, title, credit = worked_example()
    texts = svg_texts(layout_svg(layout, title=case_id, desc=title, credit=credit, lang=lang))
    for line in (*LEGENDS[lang], *CAPTIONS[lang]):
        assert line in texts, (lang, line)
    others = {line for other, lines in LEGENDS.items() if other != lang for line in lines}
    assert not others & set(texts)


@pytest.mark.parametrize("lang", ["it", "fi", "de"])
def test_render_svg_legend_and_captions_are_the_documents_own_words(lang: str) -> None:
    if not SEEDS.is_dir() or not any(SEEDS.glob("*.txt")):
        pytest.skip(f"the rule documents are not at {SEEDS} (../shared/seeds)")
    prefix = {"it": "000_", "fi": "001_", "de": "003_"}[lang]
    (document,) = SEEDS.glob(f"{prefix}*.txt")
    text = document.read_text(encoding="utf-8")
    for line in (*LEGENDS[lang], *CAPTIONS[lang]):
        assert line in text, (document.name, line)


def test_render_svg_headings_of_an_empty_table_and_its_notes_follow_the_language() -> None:
    texts = svg_texts(layout_svg({"tiles": ["[9|9]"]}, title="t", desc="d", lang="de"))
    assert "Kein Stein gezeichnet." in texts
    assert "Endsumme: nicht angegeben." in texts
    assert "Hinweise: was sich nicht wie angegeben zeichnen ließ" in texts
    texts = svg_texts(layout_svg({"tiles": ["[9|9]"]}, title="t", desc="d"))
    assert "No tile is drawn." in texts and "Sum of counted ends: not given." in texts


def test_render_svg_an_unknown_language_is_refused() -> None:
    with pytest.raises(ValueError, match="no language 'xx'"):
        layout_svg(observed(CHAIN), title="t", desc="d", lang="xx")


def test_render_svg_the_golden_worked_example_in_italian() -> None:
    """As the English golden, in Italian (regenerated the same way)."""
    layout, case_id, title, credit = worked_example()
    svg = layout_svg(layout, title=case_id, desc=title, credit=credit, lang="it")
    golden = GOLDEN.with_suffix(".it.svg")
    if os.environ.get(REGENERATE):
        golden.write_text(svg, encoding="utf-8", newline="\n")
    assert svg == golden.read_text(encoding="utf-8")
