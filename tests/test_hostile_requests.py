"""Sixty kinds of bad request line to the server (``fiveup engine``): each survived.

After every bad line the server must answer the next, valid, request; a bad line with a valid
``seq`` is answered ``errored`` (never an observation, never a crash), one without a usable seq
is logged on stderr. Most lines go through :func:`serve` in-process; the ones that depend on
raw bytes go through a real ``fiveup engine`` process with the C locale.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from typing import Any

import pytest

from fiveup.harness.server import serve
from fiveup.reference.engine import ReferenceEngine

DECK = [f"[{a}|{b}]" for a in range(7) for b in range(a, 7)]
ROUND = {"players": 2, "deck": DECK, "opener": 0, "scores": [0, 0], "actions": []}
MATCH = {"players": 2, "scores": [0, 0], "rounds": [{"deck": DECK, "opener": 0, "actions": []}]}


def run(given: Any, level: str = "round", seq: int = 1) -> str:
    return json.dumps({"cmd": "run", "seq": seq, "level": level, "given": given})


def with_(base: dict[str, Any], **changes: Any) -> dict[str, Any]:
    return {**base, **changes}


def without(base: dict[str, Any], key: str) -> dict[str, Any]:
    return {k: v for k, v in base.items() if k != key}


ERRORED: dict[str, str] = {
    # the round's given
    "no-players": run(without(ROUND, "players")),
    "no-deck": run(without(ROUND, "deck")),
    "no-opener": run(without(ROUND, "opener")),
    "no-scores": run(without(ROUND, "scores")),
    "no-actions": run(without(ROUND, "actions")),
    "players-5": run(with_(ROUND, players=5)),
    "players-1": run(with_(ROUND, players=1)),
    "players-bool": run(with_(ROUND, players=True)),
    "players-float": run(with_(ROUND, players=2.0)),
    "players-string": run(with_(ROUND, players="2")),
    "deck-27-tiles": run(with_(ROUND, deck=DECK[:27])),
    "deck-repeated-tile": run(with_(ROUND, deck=[*DECK[:27], DECK[0]])),
    "deck-29-tiles": run(with_(ROUND, deck=[*DECK, DECK[0]])),
    "deck-padded-tile": run(with_(ROUND, deck=[" [0|0]", *DECK[1:]])),
    "deck-tile-7": run(with_(ROUND, deck=["[0|7]", *DECK[1:]])),
    "deck-arabic-digit": run(with_(ROUND, deck=["[0|\u0660]", *DECK[1:]])),
    "deck-fullwidth-bracket": run(with_(ROUND, deck=["\uff3b0|0\uff3d", *DECK[1:]])),
    "deck-trailing-newline": run(with_(ROUND, deck=["[0|0]\n", *DECK[1:]])),
    "deck-not-a-list": run(with_(ROUND, deck="[0|0]")),
    "deck-of-numbers": run(with_(ROUND, deck=list(range(28)))),
    "opener-out-of-range": run(with_(ROUND, opener=2)),
    "opener-negative": run(with_(ROUND, opener=-1)),
    "opener-null": run(with_(ROUND, opener=None)),
    "scores-three-for-two": run(with_(ROUND, scores=[0, 0, 0])),
    "scores-strings": run(with_(ROUND, scores=["0", "0"])),
    "scores-floats": run(with_(ROUND, scores=[0.5, 0])),
    "action-doubled-space": run(with_(ROUND, actions=["0  play [0|0]"])),
    "action-padded": run(with_(ROUND, actions=[" 0 play [0|0]"])),
    "action-tab": run(with_(ROUND, actions=["0\tplay [0|0]"])),
    "action-trailing-newline": run(with_(ROUND, actions=["0 play [0|0]\n"])),
    "action-unknown-verb": run(with_(ROUND, actions=["0 fly"])),
    "action-no-seat": run(with_(ROUND, actions=["play [0|0]"])),
    "action-seat-absent": run(with_(ROUND, actions=["5 draw"])),
    "action-arabic-seat": run(with_(ROUND, actions=["\u0660 draw"])),
    "action-bad-slot": run(with_(ROUND, actions=["0 play [0|1]@[0|0]:middle"])),
    "action-slot-of-other-kind": run(with_(ROUND, actions=["0 play [0|1]@[0|2]:line-a"])),
    "action-not-a-string": run(with_(ROUND, actions=[0])),
    "action-upper-case": run(with_(ROUND, actions=["0 DRAW"])),
    # the match's given
    "match-no-rounds": run(without(MATCH, "rounds"), "match"),
    "match-rounds-object": run(with_(MATCH, rounds={}), "match"),
    "match-round-not-object": run(with_(MATCH, rounds=[[]]), "match"),
    "match-round-no-deck": run(with_(MATCH, rounds=[{"actions": []}]), "match"),
    "match-opener-9": run(
        with_(MATCH, rounds=[{"deck": DECK, "opener": 9, "actions": []}]), "match"
    ),
    # scoring and layout
    "scoring-unknown-function": run({"function": "cube", "input": 3}, "scoring"),
    "scoring-negative-credit": run({"function": "credit", "input": -5}, "scoring"),
    "scoring-huge-integer": run({"function": "credit", "input": 10**400}, "scoring"),
    "scoring-sum-above-any-layout": run({"function": "credit", "input": 340}, "scoring"),
    "scoring-pips-above-the-set": run({"function": "penalty", "input": 170}, "scoring"),
    "scoring-list-for-credit": run({"function": "credit", "input": [5]}, "scoring"),
    "layout-placement-padded": run({"placements": ["[1|4] "]}, "layout"),
    "layout-not-a-list": run({"placements": "[1|4]"}, "layout"),
    # the message itself
    "given-is-a-list": json.dumps({"cmd": "run", "seq": 1, "level": "round", "given": []}),
    "given-missing": json.dumps({"cmd": "run", "seq": 1, "level": "round"}),
    "level-missing": json.dumps({"cmd": "run", "seq": 1, "given": ROUND}),
    "unknown-command": json.dumps({"cmd": "dance", "seq": 1}),
    "given-nested-900": run(
        {"function": "credit", "input": json.loads("[" * 900 + "]" * 900)}, "scoring"
    ),
}

LOGGED: dict[str, str] = {
    "not-json": "this is not json",
    "json-array": "[1, 2, 3]",
    "json-number": "42",
    "seq-negative": json.dumps({"cmd": "run", "seq": -1, "level": "round", "given": ROUND}),
    "seq-string": json.dumps({"cmd": "run", "seq": "1", "level": "round", "given": ROUND}),
    "seq-bool": json.dumps({"cmd": "run", "seq": True, "level": "round", "given": ROUND}),
    "nan-literal": '{"cmd": "run", "seq": NaN}',
    "infinity-in-given": '{"cmd": "run", "seq": 1, "level": "scoring", "given": '
    '{"function": "credit", "input": Infinity}}',
    "seq-twice": '{"cmd": "run", "seq": 1, "seq": 2, "level": "scoring", "given": '
    '{"function": "credit", "input": 15}}',
    "given-twice": '{"cmd": "run", "seq": 1, "level": "scoring", "given": {}, "given": '
    '{"function": "credit", "input": 15}}',
    "nested-100000": "[" * 100_000 + "]" * 100_000,
    "two-mebibyte-line": '{"cmd": "run", "seq": 1, "pad": "' + "x" * (2 << 20) + '"}',
    "truncated-object": '{"cmd": "run", "seq": 1, "level": "round", "given": {',
}

VALID = run({"function": "credit", "input": 15}, "scoring", seq=99)
START = json.dumps({"cmd": "start", "protocol": 1})


def talk(*lines: str) -> tuple[int, list[dict[str, Any]], str]:
    out, err = io.StringIO(), io.StringIO()
    code = serve(
        ReferenceEngine(), io.StringIO("".join(f"{line}\n" for line in lines)), out, stderr=err
    )
    return code, [json.loads(line) for line in out.getvalue().splitlines()], err.getvalue()


def test_there_are_sixty_kinds() -> None:
    assert len(ERRORED) + len(LOGGED) + len(RAW) >= 60


@pytest.mark.parametrize("line", ERRORED.values(), ids=ERRORED.keys())
def test_a_bad_request_with_a_seq_is_answered_errored_and_the_server_goes_on(line: str) -> None:
    code, replies, _ = talk(START, line, VALID)
    assert code == 0
    assert replies[1]["seq"] == 1 and set(replies[1]) == {"seq", "errored"}, replies[1]
    assert replies[-1] == {"seq": 99, "observation": {"value": 15}}


@pytest.mark.parametrize("line", LOGGED.values(), ids=LOGGED.keys())
def test_a_line_without_a_usable_seq_is_logged_and_the_server_goes_on(line: str) -> None:
    code, replies, err = talk(START, line, VALID)
    assert code == 0 and err.startswith("fiveup engine: line 2")
    assert len(replies) == 2 and replies[-1] == {"seq": 99, "observation": {"value": 15}}


CREDIT_5 = b'{"cmd":"run","seq":1,"level":"scoring","given":{"function":"credit","input":5}}'
RAW: dict[str, bytes] = {
    "invalid-utf8-in-a-string": CREDIT_5.replace(b"credit", b"cr\xffedit"),
    "invalid-utf8-line": b"\xff\xfe\xfd",
    "nul-bytes": b'{"cmd":"run","seq":1,\x00"level":"scoring"}',
    "bom-then-json": b"\xef\xbb\xbf" + CREDIT_5,
    "crlf-ending": CREDIT_5 + b"\r",
    "lone-surrogate-escape": CREDIT_5.replace(b"credit", b"\\ud800"),
}


@pytest.mark.parametrize("data", RAW.values(), ids=RAW.keys())
def test_raw_bytes_in_the_c_locale_never_stop_the_server(data: bytes) -> None:
    env = {**os.environ, "LANG": "C", "LC_ALL": "C", "PYTHONUTF8": "0"}
    stdin = b'{"cmd":"start","protocol":1}\n' + data + b"\n" + VALID.encode() + b"\n"
    done = subprocess.run(
        [sys.executable, "-m", "fiveup", "engine"],
        input=stdin,
        capture_output=True,
        env=env,
        timeout=30,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    replies = [json.loads(line) for line in done.stdout.decode().splitlines()]
    assert replies[-1] == {"seq": 99, "observation": {"value": 15}}
    assert all(
        "observation" not in r or r["seq"] == 99 or r.get("observation") == {"value": 5}
        for r in replies
    )
    assert b"Traceback" not in done.stderr
