"""``fiveup render``: a case's table, or an engine's, described in the documents' words."""

from __future__ import annotations

import io
import json
import os
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from fiveup.cli import main
from fiveup.cli.render import MAX_OBSERVATION_BYTES
from fiveup.contract.engine import JSON, Level
from fiveup.harness.corpus import bundled_fixture_dir, load_corpus
from fiveup.harness.levels import LEVELS
from fiveup.reference.engine import ReferenceEngine
from fiveup.render.svg import layout_svg
from fiveup.render.text import Lang, describe

ITALIAN_1_2 = (
    "Contributi conteggiati: 2 + 3 = 5. Accredito della posa: 5 punti grezzi (1 punto "
    "visualizzato). Tessere: [1|4], [1|1], [4|4], [3|4], [1|2]. Spinner: [1|1], [4|4]. "
    "Collegamenti: [1|4] (estremità di valore minore) \u2013 [1|1] (lato lineare A); [1|4] "
    "(estremità di valore maggiore) \u2013 [4|4] (lato lineare A); [4|4] (lato lineare B) \u2013 "
    "[3|4] (estremità di valore maggiore); [1|1] (lato lineare B) \u2013 [1|2] (estremità di "
    "valore minore). Punti di collegamento disponibili: [1|1] (ramo A, 1); [1|1] (ramo B, 1); "
    "[1|2] (estremità di valore maggiore, 2); [3|4] (estremità di valore minore, 3); [4|4] "
    "(ramo A, 4); [4|4] (ramo B, 4). Contributi conteggiati: [1|2]: 2; [3|4]: 3."
)
"""The description line of "Posata: [1|2]" in 000_96af858cdc3e1333.txt."""

OPENING_1_4 = (
    "Counted contributions: 4 + 1 = 5. Credit of the placement: 5 raw points (1 displayed "
    "point). Tiles: [1|4]. Spinners: none. Connections: none. Available connection points: "
    "[1|4] (higher end, 4); [1|4] (lower end, 1). Counted contributions: [1|4]: 4; [1|4]: 1.\n"
)


def run(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(args), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_render_prints_a_layout_case_in_english_by_default() -> None:
    assert run("render", "doc.layout.sum-to-points-1-4") == (0, OPENING_1_4, "")


def test_render_lang_it_prints_the_italian_documents_line() -> None:
    assert run("render", "doc.layout.branches-1-2", "--lang", "it") == (0, ITALIAN_1_2 + "\n", "")


@pytest.mark.parametrize(
    ("lang", "start"),
    [
        ("fi", "Pisteytykseen lasketut arvot: 4 + 1 = 5. Asetuspisteet: 5 raakapistettä"),
        ("de", "Gewertete Beiträge: 4 + 1 = 5. Gutschrift für das Anlegen: 5 Rohpunkte"),
    ],
)
def test_render_lang_fi_and_de(lang: str, start: str) -> None:
    code, out, _ = run("render", "doc.layout.sum-to-points-1-4", "--lang", lang)
    assert code == 0 and out.startswith(start) and out.count("\n") == 1


def test_render_a_round_case_describes_its_expected_state_layout_and_last_credit() -> None:
    code, out, _ = run("render", "rule.round.two-players.out-after-drawing")
    assert code == 0
    assert out == (
        "Sum of counted ends: 10. Credit of the placement: 10 raw points (2 displayed points). "
        "Available connection points: [0|5] (lower end, 0); [1|3] (higher end, 3); "
        "[2|4] (higher end, 4); [3|6] (lower end, 3).\n"
    )


def test_render_all_prints_every_case_with_a_table_each_after_its_id() -> None:
    code, out, err = run("render", "--all", "--lang", "de")
    assert code == 0 and err == ""
    blocks = out.split("\n\n")
    with_table = [
        c.id
        for c in load_corpus().cases
        if isinstance(LEVELS[c.level].layout_of(dict(c.expect)), dict)
    ]
    assert [b.split("\n")[0] for b in blocks] == with_table
    assert all(len(b.rstrip("\n").split("\n")) == 2 for b in blocks)
    assert "doc.layout.sum-to-points-1-4\nGewertete Beiträge: 4 + 1 = 5. " in out
    assert not any(
        c.level in (Level.SCORING, Level.MATCH) for c in load_corpus().cases if c.id in with_table
    )


def test_render_reads_the_cases_of_fixtures() -> None:
    path = bundled_fixture_dir() / "layout" / "worked-examples.yaml"
    code, out, _ = run("render", "doc.layout.sum-to-points-1-4", "--fixtures", str(path))
    assert (code, out) == (0, OPENING_1_4)
    code, _, err = run(
        "render", "rule.round.two-players.out-after-drawing", "--fixtures", str(path)
    )
    assert code == 2 and "no case 'rule.round.two-players.out-after-drawing'" in err


def test_an_unknown_case_is_exit_2_with_a_suggestion() -> None:
    code, out, err = run("render", "doc.layout.branches-1-22")
    assert (code, out) == (2, "")
    assert err.startswith("fiveup render: error: no case 'doc.layout.branches-1-22' in the corpus")
    assert "did you mean doc.layout.branches-1-2" in err


def test_a_case_without_a_layout_is_exit_2_saying_so() -> None:
    code, out, err = run("render", "doc.scoring.credit-15")
    assert (code, out) == (2, "")
    assert "case doc.scoring.credit-15 has no layout to render: a scoring case has no table" in err
    code, out, err = run("render", "rule.round.illegal.opener-draws")
    assert (code, out) == (2, "")
    assert "opener-draws has no layout to render: its expectation gives no table" in err
    assert "(expect.state.layout)" in err


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        ([], "name what to render: a CASE_ID, --all, or --observation FILE"),
        (["doc.layout.branches-1-2", "--all"], "not allowed with argument"),
        (["--lang", "sv", "doc.layout.branches-1-2"], "invalid choice: 'sv'"),
        (["--all", "--observation", "x.json"], "not allowed with argument"),
    ],
)
def test_a_mistaken_command_line_is_exit_2(argv: list[str], words: str) -> None:
    code, out, err = run("render", *argv)
    assert (code, out) == (2, "")
    assert err.startswith("fiveup render: error: ") and words in err and "Traceback" not in err


# --------------------------------------------------------------------------- --observation


def write(tmp_path: Path, value: JSON, name: str = "obs.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(value), encoding="utf-8")
    return path


def test_render_observation_of_the_layout_level_uses_its_last_step_credit(tmp_path: Path) -> None:
    observation = ReferenceEngine().run("layout", {"placements": ["[1|4]"]})
    path = write(tmp_path, observation)
    assert run("render", "--observation", str(path)) == (0, OPENING_1_4, "")


def test_render_observation_of_the_round_level_and_a_layout_alone(tmp_path: Path) -> None:
    case = load_corpus().by_id()["rule.round.two-players.out-after-drawing"]
    observation = ReferenceEngine().run("round", case.request())
    code, out, _ = run("render", "--observation", str(write(tmp_path, observation)))
    assert code == 0
    assert out.startswith("Counted contributions: 0 + 3 + 4 + 3 = 10. Credit of the placement: 10 ")
    assert "Tiles: [1|4], [4|6], [1|3], [6|6], [2|6], [5|6], [0|5], [3|6], [2|4]." in out
    alone = write(tmp_path, observation["state"]["layout"], "layout.json")
    code, bare, _ = run("render", "--observation", str(alone), "--lang", "en")
    assert code == 0 and bare == out.replace(
        " Credit of the placement: 10 raw points (2 displayed points).", ""
    )


def test_render_observation_describes_wrong_content_that_fits_the_schema(tmp_path: Path) -> None:
    layout: dict[str, JSON] = {
        "tiles": [],
        "spinners": ["[6|6]"],
        "connections": [["[1|4]:low", "[1|1]:low"]],
        "points": {"[5|5]:branch-b": 9},
        "contributions": [["[4|1]", 4]],
        "sum": 7,
    }
    code, out, _ = run("render", "--observation", str(write(tmp_path, layout)))
    assert (code, out) == (
        0,
        "Counted contributions: 4 = 7. Tiles: none. Spinners: [6|6]. Connections: [1|4] "
        "(lower end) \u2013 [1|1] (lower end). Available connection points: [5|5] (branch B, 9). "
        "Counted contributions: [4|1]: 4.\n",
    )


def hostile(tmp_path: Path) -> dict[str, tuple[Path, str]]:
    """Files that are not an observation, each with the words its error must hold."""
    files = {
        "missing": (tmp_path / "missing.json", "cannot read: No such file or directory"),
        "folder": (tmp_path, "is a folder, not a file"),
        "too large": (
            tmp_path / "big.json",
            "file too large: 1048577 bytes, the limit is 1048576 bytes",
        ),
        "not utf-8": (tmp_path / "latin.json", "not UTF-8 text"),
        "not json": (tmp_path / "text.json", "not JSON: Expecting value"),
        "nan": (tmp_path / "nan.json", "not JSON: NaN is not a JSON number"),
        "twice": (tmp_path / "twice.json", 'not JSON: the name "sum" appears twice'),
        "deep": (tmp_path / "deep.json", "the JSON nests too deeply"),
        "list": (tmp_path / "list.json", "not a JSON object"),
        "match": (tmp_path / "match.json", "neither a layout"),
        "bad layout": (tmp_path / "bad.json", "not a layout: does not follow"),
        "bad round": (tmp_path / "round.json", "not an observation of the round level"),
        "no events": (tmp_path / "state.json", "not an observation of the round level: "),
    }
    (tmp_path / "big.json").write_bytes(b" " * (MAX_OBSERVATION_BYTES + 1))
    (tmp_path / "latin.json").write_bytes(b'{"sum": "\xe9"}')
    (tmp_path / "text.json").write_text("tiles: [1|4]\n")
    (tmp_path / "nan.json").write_text('{"sum": NaN}')
    (tmp_path / "twice.json").write_text('{"sum": 1, "sum": 2}')
    (tmp_path / "deep.json").write_text("[" * 100_000 + "]" * 100_000)
    (tmp_path / "list.json").write_text("[]")
    (tmp_path / "match.json").write_text('{"rounds": [], "over": false}')
    (tmp_path / "bad.json").write_text('{"tiles": "[1|4]\\n"}')
    (tmp_path / "round.json").write_text('{"events": [], "state": {}, "error": null}')
    (tmp_path / "state.json").write_text('{"state": {}, "error": null}')  # it said: a layout
    return files


def test_render_observation_refuses_hostile_files_naming_them(tmp_path: Path) -> None:
    for kind, (path, words) in hostile(tmp_path).items():
        code, out, err = run("render", "--observation", str(path))
        assert (code, out) == (2, ""), kind
        assert err.startswith(f"fiveup render: error: --observation {path}: "), (kind, err)
        assert words in err and "Traceback" not in err, (kind, err)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_render_observation_refuses_a_named_pipe_without_waiting(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    code, _, err = run("render", "--observation", str(fifo))
    assert code == 2 and "not a regular file" in err


def test_render_observation_with_fixtures_is_exit_2(tmp_path: Path) -> None:
    path = write(tmp_path, {"sum": 5})
    code, _, err = run("render", "--observation", str(path), "--fixtures", str(tmp_path))
    assert code == 2 and "--fixtures has no use with --observation" in err


def test_render_spec_writes_the_site_into_the_out_folder(tmp_path: Path) -> None:
    code, out, err = run("render", "spec", "--out", str(tmp_path / "site"))
    assert code == 0, err
    index = tmp_path / "site" / "index.html"
    assert out == f"wrote {len(list((tmp_path / 'site').rglob('*.*')))} files; open {index}\n"
    assert "CNT-3" in index.read_text(encoding="utf-8")
    assert (tmp_path / "site" / "rules" / "CNT-3.html").is_file()


def test_render_spec_replaces_an_earlier_site_whole_and_no_folder_of_other_files(
    tmp_path: Path,
) -> None:
    site = tmp_path / "site"
    assert run("render", "spec", "--out", str(site))[0] == 0
    (site / "stale.html").write_text("a page of an older site", encoding="utf-8")
    assert run("render", "spec", "--out", str(site))[0] == 0  # an earlier site: replaced whole
    assert not (site / "stale.html").exists() and (site / "index.html").is_file()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site"]  # nothing left beside it
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("mine", encoding="utf-8")
    code, out, err = run("render", "spec", "--out", str(mine))
    assert (code, out) == (2, "")
    assert f"--out {mine}: holds files that are not a site fiveup wrote" in err
    assert [p.name for p in mine.iterdir()] == ["notes.txt"]


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["render", "spec"], "render spec needs --out DIR"),
        (["render", "doc.layout.branches-1-2", "--out", "x"], "--out has a use only with spec"),
        (["render", "spec", "--out", "x", "--fixtures", "fixtures"], "--fixtures has no use"),
        (["render", "spec", "--out", "x", "--svg"], "--svg and --output have no use with spec"),
    ],
)
def test_render_spec_mistakes_exit_2(args: list[str], words: str) -> None:
    code, out, err = run(*args)
    assert code == 2 and out == ""
    assert words in err and "Traceback" not in err


def test_render_spec_onto_a_file_exits_2_and_leaves_it(tmp_path: Path) -> None:
    target = tmp_path / "taken"
    target.write_text("mine")
    code, _, err = run("render", "spec", "--out", str(target))
    assert code == 2 and f"--out {target}: not a folder" in err
    assert target.read_text() == "mine"


# --- --svg: the diagram (fiveup.render.svg) -------------------------------------------------

SVG_NS = "{http://www.w3.org/2000/svg}"


def test_render_svg_writes_the_case_diagram_titled_and_described() -> None:
    code, out, err = run("render", "doc.layout.branches-1-2", "--svg", "--lang", "it")
    assert (code, err) == (0, "")
    case = load_corpus().by_id()["doc.layout.branches-1-2"]
    root = ET.fromstring(out.encode("utf-8"))
    assert root.findtext(f"{SVG_NS}title") == f"{case.id}: {case.title}"
    assert root.findtext(f"{SVG_NS}desc") == ITALIAN_1_2
    layout = case.expect["layout"]
    desc = describe(layout, Lang.IT, credit=5)
    title = f"{case.id}: {case.title}"
    assert out == layout_svg(layout, title=title, desc=desc, credit=5, lang=Lang.IT)
    assert "Accredito della posa: 5 punti grezzi (1 punto visualizzato)." in out
    assert "Numero pieno: contributo conteggiato" in out
    assert "Credit" not in out and "Filled number" not in out


def test_render_svg_output_writes_the_file_and_nothing_to_stdout(tmp_path: Path) -> None:
    target = tmp_path / "one.svg"
    code, out, err = run("render", "doc.layout.sum-to-points-1-4", "--svg", "--output", str(target))
    assert (code, out, err) == (0, "", "")
    assert (
        target.read_text(encoding="utf-8")
        == run("render", "doc.layout.sum-to-points-1-4", "--svg")[1]
    )
    assert [p.name for p in tmp_path.iterdir()] == ["one.svg"]  # no temporary file left


def test_render_svg_of_an_observation_is_titled_by_its_file(tmp_path: Path) -> None:
    source = tmp_path / "observed.json"
    source.write_text(
        json.dumps(
            {
                "tiles": ["[1|4]"],
                "spinners": [],
                "connections": [],
                "points": {"[1|4]:low": 1, "[1|4]:high": 4},
                "contributions": [["[1|4]", 1], ["[1|4]", 4]],
                "sum": 5,
            }
        )
    )
    code, out, err = run("render", "--observation", str(source), "--svg")
    assert (code, err) == (0, "")
    assert f">{source}</title>" in out


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["render", "--all", "--svg"], "--svg draws one layout"),
        (["render", "doc.layout.branches-1-2", "--output", "x.svg"], "--output has a use only"),
        (
            ["render", "doc.layout.branches-1-2", "--svg", "--output", "/no/such/x.svg"],
            "no such folder",
        ),
    ],
)
def test_render_svg_mistakes_exit_2(args: list[str], words: str) -> None:
    code, out, err = run(*args)
    assert code == 2 and out == ""
    assert words in err and "Traceback" not in err


def test_render_svg_output_onto_a_folder_exits_2_and_writes_nothing(tmp_path: Path) -> None:
    code, out, err = run("render", "doc.layout.branches-1-2", "--svg", "--output", str(tmp_path))
    assert code == 2 and out == "" and "is a folder" in err
    assert list(tmp_path.iterdir()) == []


def test_render_spec_draws_a_partial_table_as_the_reference_lays_it_out(tmp_path: Path) -> None:
    code, _, err = run("render", "spec", "--out", str(tmp_path))
    assert (code, err) == (0, "")
    page = (tmp_path / "rules" / "LAY-4.html").read_text(encoding="utf-8")
    block = page[page.index('id="case-rule.layout.lay-4.occupied-end-refused"') :]
    block = block[: block.index("</article>")]
    assert "the diagram draws the whole table its given builds" in block
    assert "Connections: [1|4] (higher end) \u2013 [4|5] (lower end)." in block
    one_tile = page[page.index('id="case-rule.layout.lay-4.tile-not-on-table-refused"') :]
    one_tile = one_tile[: one_tile.index("</article>")]
    assert "the diagram draws the whole table its given builds" in one_tile
    assert "Connections: none." in one_tile


def test_render_svg_output_onto_a_fifo_exits_2_and_leaves_the_fifo(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    code, out, err = run("render", "doc.layout.branches-1-2", "--svg", "--output", str(fifo))
    assert code == 2 and out == "" and "is not a regular file" in err
    assert fifo.is_fifo() and sorted(tmp_path.iterdir()) == [fifo]


def test_render_svg_output_that_cannot_be_written_names_it_and_leaves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(**_: object) -> tuple[int, str]:
        raise PermissionError(13, "Permission denied", str(tmp_path / ".x.svg.abc.tmp"))

    monkeypatch.setattr("fiveup.harness.files.tempfile.mkstemp", refuse)
    target = tmp_path / "x.svg"
    code, out, err = run("render", "doc.layout.branches-1-2", "--svg", "--output", str(target))
    assert (code, out) == (2, "")
    assert f"--output {target}: cannot be written: Permission denied" in err
    assert ".tmp" not in err and list(tmp_path.iterdir()) == []


def test_render_spec_into_a_missing_folder_exits_2_and_makes_none(tmp_path: Path) -> None:
    code, out, err = run("render", "spec", "--out", str(tmp_path / "typo" / "site"))
    assert code == 2 and out == ""
    assert f"--out {tmp_path}/typo/site: no such folder {tmp_path}/typo" in err
    assert list(tmp_path.iterdir()) == []


def test_render_refuses_to_draw_over_the_observation_it_reads(tmp_path: Path) -> None:
    path = write(tmp_path, ReferenceEngine().run("layout", {"placements": ["[1|4]"]}))
    before = path.read_bytes()
    for output in (str(path), f"{tmp_path}/./{path.name}"):
        code, out, err = run("render", "--observation", str(path), "--svg", "--output", output)
        assert (code, out) == (2, "") and "is the --observation file this run reads" in err
    assert path.read_bytes() == before
