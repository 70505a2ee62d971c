from __future__ import annotations

import io
import json
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from fiveup.contract.engine import JSON, Engine, EngineInfo
from fiveup.errors import UnsupportedCase, UsageError
from fiveup.harness.process import message_problem
from fiveup.harness.server import serve
from fiveup.reference.engine import ReferenceEngine


class Fake:
    """Scoring for real; a few inputs misbehave on purpose."""

    def __init__(self, protocol: int = 1) -> None:
        self.protocol = protocol
        self.calls: list[tuple[str, dict[str, JSON]]] = []

    def info(self) -> EngineInfo:
        return {"name": "fake", "version": "2.0", "protocol": self.protocol, "levels": ["scoring"]}

    def run(self, level: str, given: dict[str, JSON]) -> dict[str, JSON]:
        self.calls.append((level, given))
        if given.get("function") not in ("credit", "displayed", "penalty", "side_penalty", "tally"):
            raise ValueError(f"no function {given.get('function')!r}")
        n = given["input"]
        if n == 13:
            raise ValueError("unlucky")
        if n == 14:
            raise UnsupportedCase("fourteen is beyond me")
        if n == 15:
            print("a stray print")
            return {"value": 15}
        if n == 16:
            return {"value": {16}}
        if n == 17:
            return [17]  # type: ignore[return-value]
        return {"value": n}


class Odd(Fake):
    """Fake, and a few tallies that end in a refusal in words, an exit or an outsize answer."""

    def run(self, level: str, given: dict[str, JSON]) -> dict[str, JSON]:
        n = given.get("input")
        if n == 1015:
            raise UsageError("opener must be a seat from 0 to 1, not 2")
        if n == 1030:
            raise SystemExit(3)
        if n == 1020:
            return {"value": "x" * (1 << 20)}
        if n == 1025:
            return {"value": int("9" * 4300) * 10}
        return super().run(level, given)


def run(request: dict[str, Any], seq: int) -> dict[str, Any]:
    return {"cmd": "run", "seq": seq, "level": "scoring", **request}


def talk(
    lines: Sequence[str | dict[str, Any]], engine: Engine | None = None, check: bool = True
) -> tuple[int, list[dict[str, Any]], str]:
    text = "".join((line if isinstance(line, str) else json.dumps(line)) + "\n" for line in lines)
    out, err = io.StringIO(), io.StringIO()
    code = serve(engine or Fake(), io.StringIO(text), out, stderr=err)
    replies = [json.loads(line) for line in out.getvalue().splitlines()]
    for reply in replies if check else []:  # every line is exactly one protocol message
        names = ("ready", "stopped") if "seq" not in reply else ("reply",)
        assert any(message_problem(name, reply) is None for name in names), reply
    return code, replies, err.getvalue()


START = {"cmd": "start", "protocol": 1}
STOP = {"cmd": "stop"}
READY = {
    "ready": True,
    "protocol": 1,
    "engine": {"name": "fake", "version": "2.0", "levels": ["scoring"]},
}


def test_handshake_cases_and_stop() -> None:
    code, replies, err = talk(
        [
            START,
            run({"given": {"function": "credit", "input": 5}}, 1),
            run({"given": {"function": "penalty", "input": 7}, "future": "ignored"}, 2),
            {"cmd": "stop"},
            run({"given": {"function": "credit", "input": 5}}, 3),
        ]
    )
    assert code == 0
    assert replies == [
        READY,
        {"seq": 1, "observation": {"value": 5}},
        {"seq": 2, "observation": {"value": 7}},
        {"stopped": True},
    ]
    assert err == ""


def test_eof_ends_the_service_quietly() -> None:
    assert talk([START]) == (0, [READY], "")
    assert talk([]) == (0, [], "")


def test_the_engines_protocol_version_is_passed_on_for_the_harness_to_judge() -> None:
    code, replies, err = talk([{"cmd": "start", "protocol": 7}], Fake(protocol=2), check=False)
    assert replies[0]["protocol"] == 2
    assert code == 0 and err == ""


def test_a_start_without_protocol_is_answered_anyway_with_a_warning() -> None:
    _, replies, err = talk([{"cmd": "start"}])
    assert replies == [READY]
    assert "the start message does not follow start.json" in err


def test_engine_failures_become_replies() -> None:
    engine = Fake()
    _, replies, err = talk(
        [START]
        + [run({"given": {"function": "credit", "input": n}}, n) for n in (13, 14, 15, 16, 17)],
        engine,
    )
    assert replies[1:] == [
        {"seq": 13, "errored": "ValueError: unlucky"},
        {"seq": 14, "unsupported": "fourteen is beyond me"},
        {"seq": 15, "observation": {"value": 15}},
        {
            "seq": 16,
            "errored": "the observation is not JSON: Object of type set is not JSON serializable",
        },
        {"seq": 17, "errored": "the engine returned a list, not an object"},
    ]
    assert "a stray print" in err  # sent to stderr, not into the protocol stream
    assert len(engine.calls) == 5


def test_a_refusal_in_words_a_reply_too_long_and_a_number_too_long_are_errored_plainly() -> None:
    _, replies, _ = talk(
        [START]
        + [run({"given": {"function": "tally", "input": n}}, n) for n in (1015, 1020, 1025)],
        Odd(),
    )
    assert replies[1:] == [
        {"seq": 1015, "errored": "opener must be a seat from 0 to 1, not 2"},  # no "UsageError: "
        {
            "seq": 1020,
            "errored": "the observation is a line of 1,048,615 bytes, "
            "over the 1 MiB a line may have",
        },
        {
            "seq": 1025,
            "errored": "the observation is not JSON: a whole number of over 4,300 digits",
        },
    ]
    _, replies, _ = talk(
        [START, run({"given": {"function": "tally", "input": 1030}}, 9), STOP], Odd()
    )
    assert replies[1] == {"seq": 9, "errored": "SystemExit: 3"} and replies[2] == {"stopped": True}
    _, replies, _ = talk([START, {"cmd": "x" * 100_000, "seq": 1}])
    assert len(replies[1]["errored"]) < 120


def test_a_level_the_engine_does_not_play_is_unsupported() -> None:
    engine = Fake()
    _, replies, _ = talk(
        [
            START,
            {"cmd": "run", "seq": 4, "level": "round", "given": {}},
            {"cmd": "run", "seq": 5, "level": "poker", "given": {}},
        ],
        engine,
    )
    assert replies[1] == {"seq": 4, "unsupported": "the engine does not play the level 'round'"}
    assert replies[2] == {"seq": 5, "unsupported": "the engine does not play the level 'poker'"}
    assert engine.calls == []


@pytest.mark.parametrize(
    ("request_", "errored"),
    [
        (
            {"cmd": "run", "seq": 1, "level": "scoring", "given": {"function": "credit"}},
            "invalid run request: its given does not follow run.json at $: "
            '"input" is a required property',
        ),
        (
            {"cmd": "run", "seq": 1, "level": "scoring", "given": {"function": "cube", "input": 1}},
            "invalid run request: its given does not follow run.json at $.function: ",
        ),
        (
            {"cmd": "run", "seq": 1, "level": "scoring", "given": [1]},
            "invalid run request: its given is not an object",
        ),
        (
            {"cmd": "run", "seq": 1, "given": {"function": "credit", "input": 1}},
            "invalid run request: no level",
        ),
        ({"cmd": "dance", "seq": 1}, "unknown command 'dance'"),
    ],
)
def test_invalid_requests_with_a_seq_get_an_errored_reply(
    request_: dict[str, Any], errored: str
) -> None:
    engine = Fake()
    code, replies, _ = talk(
        [START, request_, run({"given": {"function": "credit", "input": 10}}, 2)], engine
    )
    assert replies[1]["seq"] == 1
    assert replies[1]["errored"].startswith(errored)
    assert replies[2] == {"seq": 2, "observation": {"value": 10}}  # and the server goes on
    assert code == 0
    # A request whose given does not follow run.json never reaches an engine that does not
    # check its requests itself.
    assert len(engine.calls) == 1


class Checking(Fake):
    validates_requests = True


def test_an_engine_that_checks_its_requests_is_asked_first_and_explained_by_the_schema() -> None:
    engine = Checking()
    bad = {"cmd": "run", "seq": 1, "level": "scoring", "given": {"function": "credit"}}
    _, replies, _ = talk([START, bad], engine)
    assert replies[1]["errored"].startswith(
        'invalid run request: its given does not follow run.json at $: "input" is a required'
    )
    assert len(engine.calls) == 1  # it was asked, failed, and the schema said why


@pytest.mark.parametrize(
    ("line", "logged"),
    [
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
        ('{"cmd": "run", "seq": 3, "given": ' + "[" * 5000 + "]" * 5000 + "}", "nested too deeply"),
        ("x" * (2 << 20), "longer than"),
    ],
    ids=["nested-array", "nested-given", "two-megabyte-line"],
)
def test_lines_the_server_cannot_read_are_logged_and_it_goes_on(line: str, logged: str) -> None:
    code, replies, err = talk([START, line, run({"given": {"function": "credit", "input": 5}}, 9)])
    assert code == 0 and logged in err
    assert replies[-1] == {"seq": 9, "observation": {"value": 5}}


@pytest.mark.parametrize(
    ("line", "logged"),
    [
        ("this is not json", "line 2 is not JSON"),
        ("[1, 2]", "line 2 is not a JSON object"),
        ('{"cmd": "run", "level": "scoring", "given": {}}', "line 2: no command with a valid seq"),
        (
            '{"cmd": "run", "seq": "7", "level": "scoring", "given": {}}',
            "no command with a valid seq",
        ),
        (
            '{"cmd": "run", "seq": true, "level": "scoring", "given": {}}',
            "no command with a valid seq",
        ),
        ('{"cmd": "hello"}', "line 2: no command with a valid seq (cmd 'hello'); ignored"),
    ],
)
def test_lines_without_a_seq_are_logged_on_stderr_and_skipped(line: str, logged: str) -> None:
    code, replies, err = talk([START, line, run({"given": {"function": "credit", "input": 20}}, 3)])
    assert replies == [READY, {"seq": 3, "observation": {"value": 20}}]
    assert err.startswith("fiveup engine: ")
    assert logged in err
    assert code == 0


def test_blank_lines_are_ignored() -> None:
    _, replies, err = talk(
        [START, "", "   ", run({"given": {"function": "credit", "input": 0}}, 1)]
    )
    assert replies[1] == {"seq": 1, "observation": {"value": 0}}
    assert err == ""


def test_an_engine_that_cannot_describe_itself() -> None:
    class Broken(Fake):
        def info(self) -> EngineInfo:
            raise RuntimeError("no name")

    code, replies, err = talk([START], Broken())
    assert code == 1
    assert replies == []
    assert "the engine cannot describe itself: RuntimeError: no name" in err


def test_a_closed_output_ends_the_service() -> None:
    class Closed(io.StringIO):
        def write(self, text: str) -> int:
            raise BrokenPipeError("the harness went away")

    err = io.StringIO()
    assert serve(Fake(), io.StringIO(json.dumps(START) + "\n"), Closed(), stderr=err) == 1
    assert "cannot write the reply" in err.getvalue()


def test_serve_over_real_pipes_answers_line_by_line() -> None:
    served = Path(__file__).parent / "engines" / "served.py"
    with subprocess.Popen(
        [sys.executable, str(served)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    ) as proc:
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(json.dumps(START) + "\n")
        proc.stdin.flush()
        ready = json.loads(proc.stdout.readline())  # answered before the input ends
        assert ready["engine"]["name"] == "fake"
        proc.stdin.write(json.dumps(run({"given": {"function": "credit", "input": 35}}, 9)) + "\n")
        proc.stdin.flush()
        assert json.loads(proc.stdout.readline()) == {"seq": 9, "observation": {"value": 35}}
        proc.stdin.write('{"cmd": "stop"}\n')
        proc.stdin.flush()
        assert json.loads(proc.stdout.readline()) == {"stopped": True}
        assert proc.wait(5) == 0


@pytest.mark.parametrize("depth", [200, 900, 990])
def test_a_given_nested_just_under_the_parsers_limit_is_errored_not_fatal(depth: int) -> None:
    nested = "[" * depth + "]" * depth
    line = '{"cmd": "run", "seq": 1, "level": "scoring", "given": {"function": "credit", '
    line += f'"input": {nested}}}}}'
    for engine in (Fake(), ReferenceEngine()):
        code, replies, err = talk(
            [START, line, run({"given": {"function": "credit", "input": 5}}, 2)], engine
        )
        assert code == 0
        if depth < 950:  # read, then refused by the schema or by the engine's own check
            assert replies[1]["seq"] == 1
            assert replies[1]["errored"].startswith("invalid run request")
        else:  # too deep for the JSON reader itself: no seq can be trusted, so it is logged
            assert "line 2 is nested too deeply to read; ignored" in err
        assert replies[-1] == {"seq": 2, "observation": {"value": 5}}


class _Cyclic:
    """An engine whose observation contains itself."""

    def info(self) -> EngineInfo:
        return {"name": "cyclic", "version": "1", "protocol": 1, "levels": ["scoring"]}

    def run(self, level: str, given: dict[str, JSON]) -> dict[str, JSON]:
        observation: dict[str, Any] = {"value": 1}
        observation["self"] = observation
        return observation


def test_an_observation_that_contains_itself_is_an_errored_reply_and_the_server_goes_on() -> None:
    request = run({"given": {"function": "credit", "input": 5}}, 1)
    code, replies, _ = talk([START, request, {**request, "seq": 2}], _Cyclic())
    assert code == 0 and [reply["seq"] for reply in replies[1:]] == [1, 2]
    assert all(reply["errored"].startswith("the observation is not JSON") for reply in replies[1:])
