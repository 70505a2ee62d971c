"""The protocol's typed messages (fiveup.contract.messages): each round-trips and is checked.

Every class gives the JSON its schema of spec/schemas/protocol/ describes, reads it back equal,
and refuses, with the schema's words, what does not follow it; the quick path for replies
agrees with the schema on every reply it lets through.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fiveup.contract.engine import JSON
from fiveup.contract.messages import (
    COMPACT,
    Errored,
    MessageError,
    Observed,
    Ready,
    Run,
    Start,
    Stop,
    Stopped,
    Unsupported,
    clip,
    decode,
    reply_from_json,
    values_over,
)
from fiveup.contract.schemas import message_problem

GIVEN = {"function": "credit", "input": 15}

MESSAGES = [
    (Start(1), "start"),
    (Ready(1, "an engine", "0.1", ("scoring", "layout")), "ready"),
    (Run(7, "scoring", GIVEN), "run"),
    (Observed(7, {"value": 15}), "reply"),
    (Errored(7, "it broke"), "reply"),
    (Unsupported(7, "not this one"), "reply"),
    (Stop(), "stop"),
    (Stopped(), "stopped"),
]


@pytest.mark.parametrize(
    ("message", "schema"), MESSAGES, ids=[type(m).__name__ for m, _ in MESSAGES]
)
def test_each_message_follows_its_schema_and_round_trips(message: object, schema: str) -> None:
    data = message.to_json()  # type: ignore[attr-defined]
    assert message_problem(schema, data) is None
    assert type(message).from_json(data) == message  # type: ignore[attr-defined]


def test_the_lines_are_the_ones_the_protocol_documents() -> None:
    assert COMPACT.encode(Start(1).to_json()) == '{"cmd":"start","protocol":1}'
    assert COMPACT.encode(Stop().to_json()) == '{"cmd":"stop"}'
    assert COMPACT.encode(Stopped().to_json()) == '{"stopped":true}'
    assert COMPACT.encode(Run(3, "scoring", GIVEN).to_json()) == (
        '{"cmd":"run","seq":3,"level":"scoring","given":{"function":"credit","input":15}}'
    )
    assert COMPACT.encode(Ready(1, "e", "1", ("round",)).to_json()) == (
        '{"ready":true,"protocol":1,"engine":{"name":"e","version":"1","levels":["round"]}}'
    )


def test_ready_carries_features_only_when_there_are_some() -> None:
    plain = Ready(1, "e", "1", ("round",))
    assert "features" not in plain.to_json()["engine"]
    featured = Ready(1, "e", "1", ("round",), ("round.example",))
    assert featured.to_json()["engine"]["features"] == ["round.example"]
    assert plain.info() == {"name": "e", "version": "1", "protocol": 1, "levels": ["round"]}
    assert Ready.from_info(plain.info()) == plain


BAD: list[tuple[type, JSON, str]] = [
    (Start, {"cmd": "start"}, "protocol"),
    (Ready, {"ready": True, "protocol": 1}, "engine"),
    (Ready, [], "object"),
    (Run, {"cmd": "run", "seq": -1, "level": "scoring", "given": {}}, "$.seq"),
    (Stop, {"cmd": "halt"}, "stop"),
    (Stopped, {"stopped": False}, "true was expected"),
    (Observed, {"seq": 1, "errored": "x"}, "not a reply of the kind Observed"),
]


@pytest.mark.parametrize(("cls", "data", "words"), BAD, ids=lambda v: str(v)[:30])
def test_a_message_that_does_not_follow_its_schema_is_refused_in_its_words(
    cls: type, data: JSON, words: str
) -> None:
    with pytest.raises(MessageError) as caught:
        cls.from_json(data)  # type: ignore[attr-defined]
    assert words in caught.value.problem


REPLIES: list[JSON] = [
    {"seq": 1, "observation": {}},
    {"seq": 0, "errored": ""},
    {"seq": 2, "unsupported": "no"},
    {"seq": True, "observation": {}},
    {"seq": -1, "errored": "x"},
    {"seq": 1.0, "errored": "x"},
    {"seq": 1, "observation": []},
    {"seq": 1, "errored": "x", "extra": 1},
    {"seq": 1, "errored": "x", "unsupported": "y"},
    {"seq": 1},
    {"observation": {}},
    [],
    None,
]


@pytest.mark.parametrize("data", REPLIES, ids=repr)
def test_reading_a_reply_agrees_with_the_schema(data: JSON) -> None:
    problem = message_problem("reply", data)
    try:
        reply = reply_from_json(data)
    except MessageError as exc:
        assert problem is not None and exc.problem == problem
    else:
        assert problem is None and reply.to_json() == data


def test_clip_keeps_short_text_and_marks_the_cut() -> None:
    assert clip("short", 10) == "short"
    assert clip("x" * 20, 10) == "x" * 7 + "..."


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ('{"seq": 1, "seq": 2}', 'the name "seq" appears twice'),
        ('{"a": [{"b": 1, "b": 1}]}', 'the name "b" appears twice'),
        ('{"value": NaN}', "NaN is not a JSON number"),
        ("[Infinity]", "Infinity is not a JSON number"),
        ('{"x": -Infinity}', "-Infinity is not a JSON number"),
        ('{"seq": 1', "Expecting"),
        ('{"value": 1e999}', "1e999 is past the largest number"),
        ('\ufeff{"value": 1}', "starts with a byte order mark"),  # Python read infinity
        ('{"seq": 1.0000000000000001}', "is not a whole number, but too close to one"),
        ('{"protocol": 0.99999999999999999999}', "is not a whole number"),
        ("", "it is empty"),  # Python's "Expecting value: line 1 column 1 (char 0)"
        (" \t\r\n", "it holds nothing but blanks"),
        ('{"value": -1E400}', "-1E400 is past the largest number"),
        ("[" + "9" * 5000 + "]", "a whole number of 5,000 digits: at most 4,300 are read"),
        ('{"s\u202e": 1, "s\u202e": 2}', 'the name "s\\\\u202e" appears twice'),
    ],
)
def test_decode_refuses_what_readers_would_read_differently(line: str, said: str) -> None:
    with pytest.raises(ValueError, match=said):
        decode(line)


@pytest.mark.parametrize(
    ("line", "value"),
    [("1.0", 1.0), ("1e1", 10.0), ("-0.0", 0.0), ("2.5", 2.5), ("1e300", 1e300), ("5E+0", 5.0)],
)
def test_decode_reads_whole_numbers_written_with_a_point_or_an_exponent(
    line: str, value: float
) -> None:
    assert decode(line) == value


def test_decode_reads_what_compact_writes() -> None:
    message = Observed(3, {"value": 15, "events": [{"seat": 0}, {"seat": 1}]}).to_json()
    assert decode(COMPACT.encode(message)) == message


def _values(value: JSON) -> int:
    if isinstance(value, dict):
        return 1 + sum(1 + _values(v) for v in value.values())
    if isinstance(value, list):
        return 1 + sum(_values(v) for v in value)
    return 1


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(alphabet='ab"\\[]{},: \n'),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.text(alphabet='a"\\[]{},:', max_size=3), inner, max_size=4)
    ),
    max_leaves=30,
)


@given(_JSON, st.booleans())
def test_values_over_counts_the_values_a_decoding_builds_never_fewer(
    value: JSON, spaced: bool
) -> None:
    count = _values(value)
    text = (json.dumps(value, indent=1) if spaced else COMPACT.encode(value)).encode()
    assert values_over(text, count - 1)  # never fewer: a report within the limit is within it
    if not spaced:
        assert not values_over(text, count)  # and exactly: strings' commas are not values
