"""``fiveup tally``: a score as the documents' paper tally."""

from __future__ import annotations

import io

import pytest

from fiveup.cli import main
from fiveup.cli.tally import MAX_SCORE, tally_text


def test_the_tally_of_the_documents_numbers() -> None:
    assert tally_text(5) == "|"  # "Un tratto registra 5 punti grezzi"
    assert tally_text(50) == "xXx"  # "un simbolo da 50 punti grezzi"
    assert tally_text(115) == "xXx xXx |||"
    assert tally_text(0) == "(no mark)"


def test_the_command_prints_raw_displayed_and_the_marks() -> None:
    out, err = io.StringIO(), io.StringIO()
    assert main(["tally", "305"], out, err) == 0
    assert (
        out.getvalue()
        == "305 raw points (61 displayed): 6 x 50 + 1 x 5\nxXx xXx xXx xXx xXx xXx |\n"
    )


@pytest.mark.parametrize(
    ("score", "words"),
    [
        ("-5", "0 or more"),
        ("7", "multiple of 5"),
        ("x", "not a whole number"),
        ("", "not a whole number"),
        (str(MAX_SCORE + 5), "too large"),
        (str(10**12), "too large"),  # once a MemoryError
        ("1" + "0" * 5000, "has more than 30 digits"),  # past Python's digit limit
        ("1e3", "not a whole number"),
    ],
)
def test_a_score_the_tally_cannot_record_exits_2(score: str, words: str) -> None:
    out, err = io.StringIO(), io.StringIO()
    assert main(["tally", score], out, err) == 2
    assert words in err.getvalue()
    assert "Traceback" not in err.getvalue() and len(err.getvalue()) < 2000
    assert out.getvalue() == ""


def test_the_largest_score_is_drawn_on_one_line() -> None:
    out = io.StringIO()
    assert main(["tally", str(MAX_SCORE)], out, io.StringIO()) == 0
    assert out.getvalue().splitlines()[1] == tally_text(MAX_SCORE)
