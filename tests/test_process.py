from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from fiveup import PROTOCOL_VERSION
from fiveup.contract.engine import Engine, Level
from fiveup.errors import EngineError, UnsupportedCase, UsageError
from fiveup.harness.pipes import tracks_descendants
from fiveup.harness.process import (
    SCHEMA_NAMES,
    Failure,
    ProcessEngine,
    ProcessEngineError,
    given_problem,
    message_problem,
    observation_problem,
    protocol_schema,
    run_line,
)

ENGINES = Path(__file__).parent / "engines"
ROOT = Path(__file__).parent.parent
NODE_ENGINE = ROOT / "examples" / "adapters" / "node" / "engine.js"
MINIMAL_ENGINE = ROOT / "examples" / "adapters" / "python" / "minimal_engine.py"


PATIENT = 30.0
"""The bound of a case and a handshake that should be answered: it stops a hang only, so a loaded
machine never trips it. A test that needs a hang caught bounds that one step short."""


def engine(script: str, *args: str, timeout: float = PATIENT, **options: Any) -> ProcessEngine:
    return ProcessEngine([sys.executable, str(ENGINES / script), *args], timeout=timeout, **options)


def echo(n: int) -> dict[str, Any]:
    return {"function": "credit", "input": n}


def failure(connection: ProcessEngine, n: int) -> ProcessEngineError:
    with pytest.raises(ProcessEngineError) as caught:
        connection.run("scoring", echo(n))
    return caught.value


HANG_GUARD = 120
"""Seconds after which a test of this file is stopped as hung: far above what any needs even on
a loaded machine, since it only turns a stuck run into a failure (no time is asserted)."""


def _hung(signum: int, frame: object) -> None:
    raise TimeoutError(f"the test still runs after {HANG_GUARD} s: hung")


@pytest.fixture
def fast() -> Iterator[None]:
    # A hang of the code under test fails the test instead of blocking the whole run.
    previous = signal.signal(signal.SIGALRM, _hung)
    signal.alarm(HANG_GUARD)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


# --------------------------------------------------------------------------- schemas

TABLE: dict[str, Any] = {
    "tiles": ["[1|4]", "[1|1]"],
    "spinners": ["[1|1]"],
    "connections": [["[1|4]:low", "[1|1]:line-a"]],
    "points": {"[1|1]:line-b": 1, "[1|4]:high": 4},
    "contributions": [["[1|1]", 2], ["[1|4]", 4]],
    "sum": 6,
}
LAYOUT: dict[str, Any] = {
    "steps": [{"sum": 5, "credit": 5, "displayed": 1}, {"sum": 6, "credit": 0, "displayed": 0}],
    "layout": TABLE,
    "error": None,
}
STATE: dict[str, Any] = {
    "turn": 1,
    "pending": None,
    "hands": [["[1|5]"], [], ["[0|0]"]],
    "boneyard": 12,
    "scores": [5, 0, 0],
    "layout": TABLE,
    "result": {
        "end": "out",
        "winner": 1,
        "pips": [7, 0, 3],
        "penalties": [5, 0, 5],
        "next_opener": 1,
    },
}
EVENTS: list[dict[str, Any]] = [
    {"seat": 0, "play": "[1|4]", "sum": 5, "credit": 5},
    {"seat": 1, "play": "[4|5]@[1|4]:high", "sum": 6, "credit": 0},
    {"seat": 1, "draw": "[2|5]"},
    {"seat": 2, "pass": True},
]
ROUND: dict[str, Any] = {"events": EVENTS, "state": STATE, "error": None}
MATCH: dict[str, Any] = {
    "rounds": [{"events": EVENTS, "state": STATE}],
    "over": True,
    "winner": 0,
    "scores": [310, 275],
    "error": {"round": 1, "at": None, "rule": "MAT-2", "message": "the match is over"},
}


def test_every_schema_is_a_valid_2020_12_schema_named_after_its_file() -> None:
    for name in SCHEMA_NAMES:
        schema = protocol_schema(name)
        jsonschema.Draft202012Validator.check_schema(schema)
        assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
        assert schema["$id"] == f"https://fiveup-conformance.example/schemas/protocol/{name}.json"
    files = {p.stem for p in (ROOT / "spec" / "schemas" / "protocol").glob("*.json")}
    assert files == set(SCHEMA_NAMES)


def test_unknown_schema_name_is_a_usage_error() -> None:
    with pytest.raises(UsageError, match="no protocol schema"):
        protocol_schema("nonsense")


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("start", {"cmd": "start", "protocol": 1}),
        ("start", {"cmd": "start", "protocol": 1, "future": "ignored"}),
        (
            "ready",
            {
                "ready": True,
                "protocol": 1,
                "engine": {"name": "x", "version": "1", "levels": ["scoring"], "url": "u"},
            },
        ),
        ("run", {"cmd": "run", "seq": 1, "level": "scoring", "given": echo(5)}),
        ("run", {"cmd": "run", "seq": 2, "level": "layout", "given": {"placements": ["[1|4]"]}}),
        (
            "run",
            {
                "cmd": "run",
                "seq": 3,
                "level": "round",
                "given": {
                    "players": 2,
                    "deck": ["[0|0]"],
                    "opener": 0,
                    "scores": [0, 0],
                    "actions": ["0 play [0|0]", "1 draw", "0 pass"],
                },
            },
        ),
        (
            "run",
            {
                "cmd": "run",
                "seq": 4,
                "level": "match",
                "given": {
                    "players": 4,
                    "scores": [0, 0],
                    "rounds": [
                        {"deck": [], "actions": []},
                        {"deck": [], "opener": 3, "actions": []},
                    ],
                },
            },
        ),
        ("reply", {"seq": 1, "observation": {"value": 5}}),
        ("reply", {"seq": 1, "unsupported": "no layouts"}),
        ("reply", {"seq": 1, "errored": "out of memory"}),
        ("stop", {"cmd": "stop"}),
        ("stopped", {"stopped": True}),
        ("observation-scoring", {"value": -5}),
        ("observation-scoring", {"value": {"fifties": 6, "strokes": 1}}),
        ("observation-layout", LAYOUT),
        ("observation-layout", {**LAYOUT, "error": {"at": 2, "rule": "SPN-2", "message": "no"}}),
        ("observation-round", ROUND),
        ("observation-round", {**ROUND, "state": {**STATE, "turn": None, "result": None}}),
        ("observation-match", MATCH),
        ("observation-match", {**MATCH, "over": False, "winner": None, "error": None}),
    ],
)
def test_schemas_accept_the_documented_shapes(name: str, message: dict[str, Any]) -> None:
    assert message_problem(name, message) is None


@pytest.mark.parametrize(
    ("name", "message", "where"),
    [
        ("start", {"cmd": "start"}, '"protocol" is a required property'),
        (
            "ready",
            {
                "ready": True,
                "protocol": 2,
                "engine": {"name": "x", "version": "1", "levels": ["scoring"]},
            },
            "$.protocol",
        ),
        (
            "ready",
            {
                "ready": True,
                "protocol": 1,
                "engine": {"name": "x", "version": "1", "levels": ["poker"]},
            },
            "levels[0]",
        ),
        (
            "ready",
            {
                "ready": True,
                "protocol": 1,
                "engine": {"name": "x", "version": "1", "levels": ["layout", "layout"]},
            },
            "levels",
        ),
        ("run", {"cmd": "run", "seq": -1, "level": "scoring", "given": echo(5)}, "$.seq"),
        (
            "run",
            {"cmd": "run", "seq": 1, "level": "scoring", "given": {"function": "x", "input": 1}},
            "$.given.function",
        ),
        (
            "run",
            {"cmd": "run", "seq": 1, "level": "layout", "given": {"placements": ["[1|7]"]}},
            "$.given.placements[0]",
        ),
        ("reply", {"seq": 1}, "$"),
        ("reply", {"seq": 1, "observation": {}, "errored": "both"}, "$"),
        ("reply", {"seq": "1", "observation": {}}, "$"),
        ("stopped", {"stopped": False}, "$.stopped"),
        ("observation-scoring", {"value": "5"}, "$.value"),
        ("observation-scoring", {"value": {"fifties": 1, "strokes": "10"}}, "$.value"),
        ("observation-scoring", {"value": 5, "extra": 1}, "$"),
        (
            "observation-layout",
            {**LAYOUT, "error": {"at": 2, "rule": "spn2", "message": "x"}},
            "$.error",
        ),
        ("observation-layout", {"steps": [], "layout": TABLE}, '"error" is a required property'),
        (
            "observation-layout",
            {**LAYOUT, "layout": {**TABLE, "tiles": ["[1|7]"]}},
            "$.layout.tiles[0]",
        ),
        (
            "observation-layout",
            {**LAYOUT, "layout": {**TABLE, "points": {"[1|1]:side": 1}}},
            "$.layout.points",
        ),
        (
            "observation-layout",
            {**LAYOUT, "layout": {**TABLE, "points": {"[1|1]:line-b": "7"}}},
            "$.layout.points",
        ),
        (
            "observation-layout",
            {**LAYOUT, "layout": {**TABLE, "contributions": [["[1|1]", 2, 3]]}},
            "$.layout.contributions[0]",
        ),
        (
            "observation-layout",
            {**LAYOUT, "steps": [{"sum": 5, "credit": "4", "displayed": 1}]},
            "$.steps[0].credit",
        ),
        (
            "observation-round",
            {**ROUND, "events": [{"seat": 0, "draw": "[1|4]", "pass": True}]},
            "$.events[0]",
        ),
        (
            "observation-round",
            {**ROUND, "state": {**STATE, "result": {**STATE["result"], "end": "won"}}},
            "$.state.result",
        ),
        ("observation-round", {**ROUND, "state": {**STATE, "boneyard": -1}}, "$.state.boneyard"),
        ("observation-match", {**MATCH, "winner": 3}, "$.winner"),
        ("observation-match", {**MATCH, "rounds": [ROUND]}, "$.rounds[0]"),
    ],
)
def test_schemas_refuse_wrong_shapes_and_say_where(
    name: str, message: dict[str, Any], where: str
) -> None:
    problem = message_problem(name, message)
    assert problem is not None
    assert problem.startswith(f"does not follow {name}.json at ")
    assert where in problem


def test_observation_and_given_checks_by_level() -> None:
    assert observation_problem(Level.SCORING, {"value": 5}) is None
    assert observation_problem("layout", {"value": 5}) is not None
    assert given_problem(Level.ROUND, {"players": 2}) is not None
    assert given_problem("scoring", echo(5)) is None
    assert given_problem("poker", {}) == (
        "names no level: 'poker' is none of layout, match, moves, round, scoring"
    )


# --------------------------------------------------------------------------- construction


def test_a_string_command_is_split_like_a_shell_would() -> None:
    connection = ProcessEngine(f"{sys.executable} '{ENGINES / 'crash_mid_run.py'}'")
    assert connection.command == (sys.executable, str(ENGINES / "crash_mid_run.py"))
    with connection:
        assert connection.run("scoring", echo(7)) == {"value": 7}


@pytest.mark.parametrize(
    "options",
    [
        {"timeout": 0},
        {"start_timeout": -1.0},
        {"max_line_bytes": 0},
        {"max_failed_starts": 0},
        {"memory": (64 << 20) - 1},
        {"memory": (1 << 40) + 1},
        {"memory": float(1 << 30)},
        {"memory": True},
    ],
)
def test_bad_options_are_usage_errors(options: dict[str, Any]) -> None:
    with pytest.raises(UsageError):
        ProcessEngine(["true"], **options)
    with pytest.raises(UsageError, match="empty"):
        ProcessEngine("   ")


@pytest.mark.parametrize(
    ("command", "said"), [("'engine", "No closing quotation"), ("x\\", "No escaped")]
)
def test_a_command_shlex_cannot_split_is_a_usage_error_quoting_it(command: str, said: str) -> None:
    with pytest.raises(UsageError, match=f"the engine command {re.escape(command)}: {said}"):
        ProcessEngine(command)


def test_the_connection_satisfies_the_engine_protocol_and_reports_the_handshake(fast: None) -> None:
    with engine("crash_mid_run.py") as connection:
        assert isinstance(connection, Engine)
        assert connection.starts == 0  # lazy: nothing runs before the first call
        assert connection.info() == {
            "name": "crash_mid_run",
            "version": "1",
            "protocol": PROTOCOL_VERSION,
            "levels": ["scoring"],
        }
        assert [connection.run("scoring", echo(n))["value"] for n in range(5)] == [0, 1, 2, 3, 4]
        assert connection.starts == 1


def test_a_level_the_engine_does_not_declare_is_unsupported_without_asking(fast: None) -> None:
    with engine("crash_mid_run.py") as connection:
        with pytest.raises(UnsupportedCase, match="does not declare the level 'layout'"):
            connection.run("layout", {"placements": ["[1|4]"]})
        assert connection.run("scoring", echo(1)) == {"value": 1}


def test_submit_sends_one_request_and_collect_reads_its_reply(fast: None) -> None:
    with engine("crash_mid_run.py") as connection:
        assert connection.pid is None  # not started yet
        connection.submit("scoring", echo(7))
        assert connection.pid is not None and os.path.exists(f"/proc/{connection.pid}")
        with pytest.raises(UsageError, match="already in flight"):
            connection.submit("scoring", echo(8))
        with pytest.raises(UsageError, match="already in flight"):
            connection.run("scoring", echo(8))
        assert connection.collect() == {"value": 7}
        with pytest.raises(UsageError, match="no request is in flight"):
            connection.collect()
        with pytest.raises(UnsupportedCase, match="does not declare the level 'layout'"):
            connection.submit("layout", {"placements": ["[1|4]"]})
        assert connection.run("scoring", echo(9)) == {"value": 9}
    assert connection.pid is None


def test_a_reply_that_carries_a_known_observation_byte_for_byte_is_that_observation(
    fast: None,
) -> None:
    served = [sys.executable, str(ENGINES / "served.py")]
    with ProcessEngine(served, timeout=PATIENT) as connection:
        given = {"function": "credit", "input": 15}
        known = {"value": 15}
        connection.submit("scoring", given, known)
        assert connection.collect() is known
        other = {"value": 10}
        connection.submit("scoring", given, other)
        observed = connection.collect()
        assert observed == known and observed is not other
        connection.submit("scoring", {"function": "credit", "input": 16}, {"value": 16})
        assert connection.collect() == {"value": 0}


def test_a_given_that_contains_itself_is_the_callers_mistake() -> None:
    given: dict[str, Any] = {"input": 1}
    given["again"] = given
    with pytest.raises(UsageError, match="not JSON"):
        run_line(1, "scoring", given)


def test_a_given_that_is_not_json_is_the_callers_mistake(fast: None) -> None:
    with engine("crash_mid_run.py") as connection, pytest.raises(UsageError, match="not JSON"):
        connection.run("scoring", {"input": {1, 2}})


# --------------------------------------------------------------------------- misbehaviour


def test_a_command_that_cannot_run(fast: None) -> None:
    connection = ProcessEngine(["/nonexistent/engine"], max_failed_starts=2)
    for _ in range(2):
        with pytest.raises(ProcessEngineError) as caught:
            connection.run("scoring", echo(1))
        assert caught.value.kind is Failure.CANNOT_START
        assert "cannot run /nonexistent/engine" in str(caught.value)
    with pytest.raises(ProcessEngineError) as caught:
        connection.info()
    assert caught.value.kind is Failure.CANNOT_START
    assert "not started again after 2 failed starts in a row" in str(caught.value)
    assert connection.starts == 0


def test_a_command_holding_a_nul_cannot_run_and_raises_no_value_error(fast: None) -> None:
    connection = ProcessEngine(["engine\x00x"])  # the plugin's --fiveup-engine-cmd reaches here
    with pytest.raises(ProcessEngineError) as caught:
        connection.info()
    assert caught.value.kind is Failure.CANNOT_START and caught.value.not_executable
    assert "embedded null byte" in str(caught.value)


def test_crash_on_start_reports_exit_code_and_stderr_then_gives_up(fast: None) -> None:
    connection = engine("crash_on_start.py", max_failed_starts=2)
    for _ in range(2):
        with pytest.raises(ProcessEngineError) as caught:
            connection.info()
        err = caught.value
        assert isinstance(err, EngineError)
        assert err.kind is Failure.CRASHED
        assert err.exit_code == 3
        assert "exited with code 3 before it was ready" in str(err)
        assert "cannot load my rules" in err.stderr_tail
        assert "cannot load my rules" in str(err)
    with pytest.raises(ProcessEngineError, match="not started again") as caught:
        connection.run("scoring", echo(1))
    assert caught.value.kind is Failure.CANNOT_START
    assert connection.starts == 2


def test_crash_mid_run_then_the_next_case_restarts(fast: None) -> None:
    with engine("crash_mid_run.py") as connection:
        assert connection.run("scoring", echo(1)) == {"value": 1}
        err = failure(connection, 13)
        assert err.kind is Failure.CRASHED
        assert err.exit_code == 3
        assert "exited with code 3 while running seq 2 (level scoring)" in str(err)
        assert "ValueError: unlucky 13" in err.stderr_tail
        assert connection.stderr_tail.endswith("ValueError: unlucky 13")
        assert connection.info()["name"] == "crash_mid_run"
        assert connection.starts == 1  # the handshake is remembered; the restart is lazy
        assert connection.run("scoring", echo(2)) == {"value": 2}
        assert connection.starts == 2


def test_an_exit_between_cases_is_a_crash_of_the_next_case(fast: None) -> None:
    with engine("crash_mid_run.py") as connection:
        assert connection.run("scoring", echo(12)) == {"value": 12}
        time.sleep(0.2)  # let it exit before the next request
        err = failure(connection, 1)
        assert err.kind is Failure.CRASHED
        assert err.exit_code == 0
        assert "exited with code 0 between cases, before seq 2 was sent" in str(err)
        assert connection.run("scoring", echo(1)) == {"value": 1}


def _gone(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().split(")")[-1].split()
            return fields[0] == "Z" and int(fields[17]) <= 1  # Z with threads left is alive
    except FileNotFoundError:
        return True
    except OSError:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        return False


def test_after_cases_in_a_row_without_a_reply_the_engine_is_not_asked_again(fast: None) -> None:
    with engine("hang.py", "run", timeout=0.2, start_timeout=PATIENT, max_timeouts=2) as connection:
        assert connection.run("scoring", echo(1)) == {"value": 1}
        assert failure(connection, 13).kind is Failure.TIMEOUT
        assert connection.run("scoring", echo(2)) == {"value": 2}  # a reply: counted again
        for _ in range(2):
            assert failure(connection, 13).kind is Failure.TIMEOUT
        starts = connection.starts
        err = failure(connection, 3)  # would be answered; the engine is not asked
        assert err.kind is Failure.TIMEOUT and connection.starts == starts
        assert "not asked again: the last 2 cases of level scoring in a row got no reply" in str(
            err
        )
    with pytest.raises(UsageError, match="max_timeouts must be positive"):
        engine("hang.py", "run", max_timeouts=0)


HANGS_ON_LAYOUT = """\
import json, sys, time
for line in sys.stdin:
    msg = json.loads(line)
    if msg["cmd"] == "start":
        engine = {"name": "hangs-on-layout", "version": "1", "levels": ["scoring", "layout"]}
        print(json.dumps({"ready": True, "protocol": 1, "engine": engine}), flush=True)
    elif msg["cmd"] == "run" and msg["level"] == "layout":
        time.sleep(60)
    elif msg["cmd"] == "run":
        print(json.dumps({"seq": msg["seq"], "observation": {"value": 0}}), flush=True)
"""


def test_a_level_that_hangs_is_not_asked_again_and_the_others_still_are(
    tmp_path: Path, fast: None
) -> None:
    script = tmp_path / "hangs_on_layout.py"
    script.write_text(HANGS_ON_LAYOUT)
    layout = {"placements": ["[1|4]"]}
    with ProcessEngine(
        [sys.executable, str(script)], timeout=0.2, start_timeout=PATIENT, max_timeouts=2
    ) as connection:
        for _ in range(2):
            with pytest.raises(ProcessEngineError, match="no reply to seq"):
                connection.run("layout", layout)
        with pytest.raises(ProcessEngineError, match="the last 2 cases of level layout"):
            connection.run("layout", layout)
        assert connection.run("scoring", echo(0)) == {"value": 0}  # asked, and answers


def test_a_hang_times_out_and_kills_the_whole_process_group(fast: None) -> None:
    with engine("hang.py", "run", timeout=1.0, start_timeout=PATIENT) as connection:
        assert connection.run("scoring", echo(1)) == {"value": 1}
        err = failure(connection, 13)
        assert err.kind is Failure.TIMEOUT
        assert "no reply to seq 2 (level scoring) within 1 s" in str(err)
        found = re.search(r"grandchild (\d+)", err.stderr_tail)
        assert found, err.stderr_tail
        deadline = time.monotonic() + 30  # a wait, not a bound: generous for a busy machine
        while not _gone(int(found.group(1))) and time.monotonic() < deadline:
            time.sleep(0.02)
        assert _gone(int(found.group(1)))
        assert connection.run("scoring", echo(2)) == {"value": 2}
        assert connection.starts == 2


def test_an_exit_while_a_child_holds_stdout_is_a_crash_not_a_timeout(fast: None) -> None:
    with engine("exit_leaving_stdout.py", timeout=0.5, start_timeout=PATIENT) as connection:
        err = failure(connection, 13)
        assert err.kind is Failure.CRASHED
        assert err.exit_code == 3
        assert "exited with code 3 while seq 1 (level scoring) ran" in str(err)
        assert connection.run("scoring", echo(2)) == {"value": 2}
        assert connection.starts == 2


def test_no_ready_message_times_out(fast: None) -> None:
    connection = engine("hang.py", "start", start_timeout=0.5)
    with pytest.raises(ProcessEngineError) as caught:
        connection.info()
    assert caught.value.kind is Failure.TIMEOUT
    assert "no ready message within 0.5 s" in str(caught.value)


@pytest.mark.skipif(not tracks_descendants(), reason="a stopped process is seen in /proc only")
def test_an_engine_that_stops_itself_is_said_to_be_stopped(fast: None) -> None:
    connection = engine("stops_itself.py", "start", start_timeout=0.5)
    with pytest.raises(ProcessEngineError) as caught:
        connection.info()
    assert caught.value.kind is Failure.TIMEOUT and caught.value.stopped
    assert "no ready message within 0.5 s: the engine was stopped by a signal" in str(caught.value)
    connection = engine("stops_itself.py", "run", timeout=0.5)
    error = failure(connection, 1)
    assert error.kind is Failure.TIMEOUT and error.stopped
    assert "within 0.5 s: the engine was stopped by a signal" in str(error)
    assert connection.starts == 1


def test_a_timeout_in_the_middle_of_a_line_shows_that_line(fast: None) -> None:
    error = failure(engine("half_line.py", timeout=0.5), 1)
    assert error.kind is Failure.TIMEOUT
    assert """within 0.5 s, in the middle of the line '{"seq": 1, "observ' (no newline""" in str(
        error
    )


def test_a_hang_is_not_said_to_be_stopped(fast: None) -> None:
    connection = engine("hang.py", "start", start_timeout=0.5)
    with pytest.raises(ProcessEngineError) as caught:
        connection.info()
    assert not caught.value.stopped and "stopped" not in str(caught.value)


def test_close_kills_an_engine_that_ignores_stop(fast: None) -> None:
    connection = engine("hang.py", "run", stop_timeout=0.3)
    connection.run("scoring", echo(1))
    connection.close()
    connection.close()
    assert connection.starts == 1


def test_close_stops_a_well_behaved_engine_and_a_later_case_starts_again(fast: None) -> None:
    connection = engine("crash_mid_run.py")
    connection.run("scoring", echo(1))
    connection.close()
    assert connection.run("scoring", echo(2)) == {"value": 2}
    assert connection.starts == 2
    connection.close()


def test_output_that_is_not_json(fast: None) -> None:
    with engine("not_json.py") as connection:
        err = failure(connection, 13)
        assert err.kind is Failure.NOT_JSON
        assert "the reply to seq 1 is not JSON" in str(err)
        assert "'value: thirteen'" in str(err)
        assert connection.run("scoring", echo(3)) == {"value": 3}
        assert connection.starts == 2


@pytest.mark.parametrize(
    ("value", "said"),
    [(14, 'the name "observation" appears twice in one object'), (16, "NaN is not a JSON number")],
    ids=["member-twice", "nan"],
)
def test_a_reply_only_a_lenient_reader_takes_is_not_json(fast: None, value: int, said: str) -> None:
    with engine("not_json.py") as connection:  # a member twice: Python's json keeps the right one
        err = failure(connection, value)
        assert err.kind is Failure.NOT_JSON and said in str(err)
        assert "the reply to seq 1 is not JSON" in str(err)


def test_a_reply_of_the_wrong_shape_restarts(fast: None) -> None:
    with engine("wrong_shape.py") as connection:
        err = failure(connection, 13)
        assert err.kind is Failure.BAD_MESSAGE
        assert "the reply to seq 1 does not follow reply.json" in str(err)
        assert connection.run("scoring", echo(3)) == {"value": 3}
        assert connection.starts == 2


def test_an_observation_of_the_wrong_shape_keeps_the_process(fast: None) -> None:
    with engine("wrong_shape.py") as connection:
        err = failure(connection, 14)
        assert err.kind is Failure.BAD_OBSERVATION
        assert not err.kind.restarts
        assert (
            "the scoring observation of seq 1 does not follow observation-scoring.json at $.value"
        ) in str(err)
        assert connection.run("scoring", echo(3)) == {"value": 3}
        assert connection.starts == 1


def test_a_ready_message_of_the_wrong_shape(fast: None) -> None:
    with pytest.raises(ProcessEngineError) as caught:
        engine("wrong_shape.py", "ready").info()
    assert caught.value.kind is Failure.BAD_MESSAGE
    assert "the ready message does not follow ready.json" in str(caught.value)
    assert '"engine" is a required property' in str(caught.value)


_ENGINE = '"engine": {"name": "e", "version": "1", "levels": ["scoring"]}'


@pytest.mark.parametrize(
    ("ready", "where"),
    [
        ('{"ready": true, "protocol": "1", ' + _ENGINE + "}", "$.protocol"),
        ('{"ready": true, "protocol": "2", ' + _ENGINE + "}", "$.protocol"),
        ('{"ready": true, "protocol": 1.5, ' + _ENGINE + "}", "$.protocol"),
        ('{"ready": true, "protocol": 2.5, ' + _ENGINE + "}", "$.protocol"),
        ('{"ready": true, "protocol": true, ' + _ENGINE + "}", "$.protocol"),
        ('{"ready": true, "protocol": false, ' + _ENGINE + "}", "$.protocol"),
        ('{"ready": true, "protocol": null, ' + _ENGINE + "}", "$.protocol"),
        ('{"ready": true, "protocol": [1], ' + _ENGINE + "}", "$.protocol"),
        ('{"ready": true, "protocol": {"v": 1}, ' + _ENGINE + "}", "$.protocol"),
        ('{"ready": true, ' + _ENGINE + "}", '"protocol" is a required property'),
        ('{"ready": true, "protocol": 1}', '"engine" is a required property'),
        ('{"ready": true, "protocol": 1, "engine": "e"}', "$.engine"),
        (
            '{"ready": true, "protocol": 1, "engine": {"name": "e", "version": "1", '
            '"levels": "scoring"}}',
            "$.engine.levels",
        ),
        (
            '{"ready": true, "protocol": 1, "engine": {"name": 5, "version": "1", "levels": []}}',
            "$.engine.name",
        ),
        (
            '{"ready": true, "protocol": 1, "engine": {"name": "e", "version": 1, "levels": []}}',
            "$.engine.version",
        ),
        ('{"ready": "yes", "protocol": 1, ' + _ENGINE + "}", "$.ready"),
    ],
)
def test_a_wrongly_typed_ready_field_is_the_wrong_shape_not_another_version(
    fast: None, ready: str, where: str
) -> None:
    with engine("ready_line.py", ready) as connection:
        with pytest.raises(ProcessEngineError) as caught:
            connection.info()
        assert caught.value.kind is Failure.BAD_MESSAGE, caught.value
        assert "the ready message does not follow ready.json" in str(caught.value)
        assert where in str(caught.value)
        assert "version mismatch" not in str(caught.value)


@pytest.mark.parametrize("version", ["0", "2", "-1", "99999999999999999999"])
def test_only_another_integer_version_is_a_version_mismatch(fast: None, version: str) -> None:
    with engine(
        "ready_line.py", '{"ready": true, "protocol": ' + version + ", " + _ENGINE + "}"
    ) as connection:
        with pytest.raises(ProcessEngineError) as caught:
            connection.info()
        assert caught.value.kind is Failure.PROTOCOL_MISMATCH
        assert f"the engine speaks protocol {version}, the harness protocol 1" in str(caught.value)


def test_another_protocol_version_is_refused_for_every_case(fast: None) -> None:
    with engine("wrong_protocol.py") as connection:
        for call in (
            connection.info,
            lambda: connection.run("scoring", echo(1)),
            lambda: connection.run("layout", {"placements": []}),
        ):
            with pytest.raises(ProcessEngineError, match=r"^protocol version mismatch: ") as caught:
                call()
            assert caught.value.kind is Failure.PROTOCOL_MISMATCH
            assert "the engine speaks protocol 2, the harness protocol 1" in str(caught.value)
        assert connection.starts == 1


def test_two_replies_to_one_request(fast: None) -> None:
    with engine("extra_lines.py") as connection:
        assert connection.run("scoring", echo(13)) == {"value": 13}
        err = failure(connection, 1)
        assert err.kind is Failure.UNREQUESTED_OUTPUT
        assert "while no request was in flight (found before seq 2 was sent)" in str(err)
        assert '"seq": 1' in str(err)
        assert connection.run("scoring", echo(2)) == {"value": 2}
        assert connection.starts == 2


def test_a_reply_nobody_asked_for(fast: None) -> None:
    with engine("extra_lines.py", "unsolicited") as connection:
        err = failure(connection, 1)
        assert err.kind is Failure.UNREQUESTED_OUTPUT
        assert "found before seq 1 was sent" in str(err)


def test_a_reply_with_the_wrong_seq(fast: None) -> None:
    with engine("wrong_seq.py") as connection:
        assert connection.run("scoring", echo(1)) == {"value": 1}
        err = failure(connection, 13)
        assert err.kind is Failure.WRONG_SEQ
        assert "the reply carries seq 1002, the request in flight is seq 2" in str(err)
        assert connection.run("scoring", echo(2)) == {"value": 2}
        assert connection.starts == 2


def test_a_flood_in_one_line_is_killed_at_the_limit(fast: None) -> None:
    with engine("flood.py", max_line_bytes=100_000) as connection:
        err = failure(connection, 13)
        assert err.kind is Failure.LINE_TOO_LONG
        assert "more than 100000 bytes without a newline in reply to seq 1" in str(err)
        assert connection.run("scoring", echo(2)) == {"value": 2}


def test_a_flood_of_lines_after_the_reply(fast: None) -> None:
    with engine("flood.py") as connection:
        assert connection.run("scoring", echo(14)) == {"value": 14}
        time.sleep(0.2)  # else the flood may come after the next request: a wrong seq
        err = failure(connection, 2)
        assert err.kind is Failure.UNREQUESTED_OUTPUT
        assert connection.run("scoring", echo(2)) == {"value": 2}


def test_an_exit_in_the_middle_of_a_reply(fast: None) -> None:
    with engine("exit_mid_reply.py") as connection:
        err = failure(connection, 13)
        assert err.kind is Failure.TRUNCATED
        assert err.exit_code == 5
        assert (
            "exited with code 5 while running seq 1 (level scoring), in the middle of the line "
        ) in str(err)
        assert '\'{"seq": 1, "observ\'' in str(err)
        assert connection.run("scoring", echo(2)) == {"value": 2}


def test_noise_on_stderr_is_drained_and_only_its_tail_kept(fast: None) -> None:
    with engine("stderr_noise.py", stderr_tail_bytes=2048) as connection:
        for n in range(40):  # 40 x 64 KiB would fill the pipe many times over
            assert connection.run("scoring", echo(n)) == {"value": n}
        deadline = time.monotonic() + 30  # a wait, not a bound: generous for a busy machine
        while "done seq 40" not in connection.stderr_tail and time.monotonic() < deadline:
            time.sleep(0.01)
        assert connection.stderr_tail.endswith("stderr_noise: done seq 40")
        assert len(connection.stderr_tail) <= 2048
        assert connection.starts == 1


# --------------------------------------------------------------------------- round trips


def test_round_trip_through_serve_in_a_subprocess(fast: None) -> None:
    with engine("served.py") as connection:
        assert connection.info()["levels"] == ["scoring", "layout"]
        assert connection.run("scoring", {"function": "credit", "input": 15}) == {"value": 15}
        assert connection.run("scoring", {"function": "tally", "input": 135}) == {
            "value": {"fifties": 2, "strokes": 7}
        }
        with pytest.raises(UnsupportedCase, match=r"^no function penalty$"):
            connection.run("scoring", {"function": "penalty", "input": 3})
        with pytest.raises(UnsupportedCase, match=r"^fives are not my thing$"):
            connection.run("layout", {"placements": ["[5|5]"]})
        with pytest.raises(ProcessEngineError) as caught:
            connection.run("layout", {"placements": ["[6|6]"]})
        assert caught.value.kind is Failure.ERRORED
        assert str(caught.value) == "engine reported an error: RuntimeError: the table is on fire"
        observation = connection.run("layout", {"placements": ["[4|4]"]})
        assert observation["error"] is None
        with pytest.raises(ProcessEngineError, match="invalid run request: its given") as caught:
            connection.run("scoring", {"function": "credit"})
        assert caught.value.kind is Failure.ERRORED
        values = [connection.run("scoring", echo(n))["value"] for n in range(200)]
        assert values == [n if n % 5 == 0 and n > 0 else 0 for n in range(200)]
        assert connection.starts == 1
        assert "debugging output that must not reach the harness" in connection.stderr_tail


def test_the_reference_engine_served_answers_the_whole_corpus_in_shape(fast: None) -> None:
    if importlib.util.find_spec("fiveup.reference.engine") is None:
        pytest.skip("fiveup.reference.engine is not there yet")
    from fiveup.harness.corpus import load_corpus
    from fiveup.reference.engine import ReferenceEngine

    reference = ReferenceEngine()
    cases = list(load_corpus().cases)
    assert {case.level for case in cases} == set(Level)
    code = (
        "import sys; from fiveup.reference.engine import ReferenceEngine; "
        "from fiveup.harness.server import serve; "
        "sys.exit(serve(ReferenceEngine(), sys.stdin, sys.stdout))"
    )
    with ProcessEngine([sys.executable, "-c", code], timeout=PATIENT) as connection:
        assert set(connection.info()["levels"]) == {level.value for level in Level}
        for case in cases:
            # run() checks every observation against its level's schema
            served = connection.run(case.level.value, case.request())
            assert served == reference.run(case.level.value, case.request()), case.id
        assert connection.starts == 1


# --------------------------------------------------------------------------- adapters


def scoring_expected(function: str, value: Any) -> Any:
    def penalty(pips: int) -> int:
        return (pips + 2) // 5 * 5

    if function == "credit":
        return value if value > 0 and value % 5 == 0 else 0
    if function == "displayed":
        return value // 5
    if function == "penalty":
        return penalty(value)
    if function == "side_penalty":
        return sum(penalty(p) for p in value)
    return {"fifties": value // 50, "strokes": value % 50 // 5}


SCORING_CASES = (
    [("credit", n) for n in (0, 4, 5, 12, 15, 20, 33, 35)]
    + [("displayed", n) for n in (0, 5, 305)]
    + [("penalty", n) for n in (0, 1, 2, 3, 4, 5, 7, 8, 12, 13)]
    + [("side_penalty", [3, 3]), ("side_penalty", [2, 2]), ("side_penalty", [7])]
    + [("tally", n) for n in (0, 5, 45, 50, 135, 305)]
)


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not on PATH")
def test_the_node_adapter_plays_scoring(fast: None) -> None:
    with ProcessEngine(["node", str(NODE_ENGINE)], timeout=PATIENT) as connection:
        info = connection.info()
        assert info["levels"] == ["scoring"]
        assert info["protocol"] == PROTOCOL_VERSION
        for function, value in SCORING_CASES:
            observation = connection.run("scoring", {"function": function, "input": value})
            assert observation == {"value": scoring_expected(function, value)}, (function, value)
        with pytest.raises(UnsupportedCase):
            connection.run("round", {})
        with pytest.raises(ProcessEngineError) as caught:
            connection.run("scoring", {"function": "credit", "input": "fifteen"})
        assert caught.value.kind is Failure.ERRORED
        assert connection.starts == 1


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not on PATH")
def test_the_node_adapter_speaks_the_protocol_itself(fast: None) -> None:
    requests = [
        {"cmd": "start", "protocol": 1},
        {"cmd": "run", "seq": 1, "level": "layout", "given": {"placements": []}, "future": True},
        {"cmd": "run", "seq": 2, "level": "scoring", "given": {"function": "tally", "input": 60}},
        {"cmd": "run", "seq": 3, "level": "scoring", "given": {"function": "squares", "input": 2}},
        {"cmd": "stop"},
    ]
    result = subprocess.run(
        ["node", str(NODE_ENGINE)],
        capture_output=True,
        text=True,
        input="".join(json.dumps(r) + "\n" for r in requests),
        timeout=PATIENT,
        check=False,
    )
    assert result.returncode == 0
    replies = [json.loads(line) for line in result.stdout.splitlines()]
    assert message_problem("ready", replies[0]) is None
    assert replies[1]["seq"] == 1 and "unsupported" in replies[1]
    assert replies[2] == {"seq": 2, "observation": {"value": {"fifties": 1, "strokes": 2}}}
    assert replies[3]["seq"] == 3 and "unsupported" in replies[3]
    assert replies[4] == {"stopped": True}
    assert len(replies) == 5
    for reply in replies[1:4]:
        assert message_problem("reply", reply) is None


def load_minimal_engine() -> Any:
    spec = importlib.util.spec_from_file_location("minimal_engine", MINIMAL_ENGINE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_python_example_engine_in_process() -> None:
    minimal = load_minimal_engine().MinimalEngine()
    assert isinstance(minimal, Engine)
    assert minimal.info()["levels"] == ["scoring"]
    for function, value in SCORING_CASES:
        given = {"function": function, "input": value}
        observation = minimal.run("scoring", given)
        assert observation == {"value": scoring_expected(function, value)}
        assert observation_problem("scoring", observation) is None
    with pytest.raises(UnsupportedCase):
        minimal.run("layout", {"placements": []})


def test_the_python_example_engine_served(fast: None) -> None:
    with ProcessEngine([sys.executable, str(MINIMAL_ENGINE)], timeout=PATIENT) as connection:
        assert connection.info()["name"] == "minimal-python"
        assert connection.run("scoring", {"function": "side_penalty", "input": [3, 3]}) == {
            "value": 10
        }


def test_a_reply_nested_too_deeply_is_the_engines_violation_and_it_restarts(tmp_path: Path) -> None:
    script = tmp_path / "deep.py"
    script.write_text(
        "import json, sys\n"
        "depth = int(sys.argv[1])\n"
        "for line in sys.stdin:\n"
        "    m = json.loads(line)\n"
        "    if m['cmd'] == 'start':\n"
        "        e = {'name': 'deep', 'version': '1', 'levels': ['scoring']}\n"
        "        print(json.dumps({'ready': True, 'protocol': 1, 'engine': e}), flush=True)\n"
        "    elif m['cmd'] == 'run':\n"
        "        v = '[' * depth + ']' * depth\n"
        '        reply = \'{"seq": %d, "observation": {"value": %s}}\' % (m[\'seq\'], v)\n'
        "        print(reply, flush=True)\n"
        "    else:\n"
        "        break\n",
        encoding="utf-8",
    )
    for depth in (100_000, 950):
        with ProcessEngine([sys.executable, str(script), str(depth)], timeout=PATIENT) as engine:
            with pytest.raises(ProcessEngineError) as caught:
                engine.run("scoring", {"function": "credit", "input": 5})
            assert caught.value.kind in (Failure.TOO_DEEP, Failure.BAD_OBSERVATION), depth
            if depth > 1000:
                assert caught.value.kind is Failure.TOO_DEEP
                assert "nests too deeply to read" in str(caught.value)


_FEATURES_ONLY = (
    "import json, sys\n"
    "sys.stdin.readline()\n"
    'print(json.dumps({"ready": True, "protocol": 1, "engine": {"name": "f", "version": "1",'
    ' "levels": [], "features": ["scoring.credit"]}}), flush=True)\n'
    "for line in sys.stdin:\n"
    "    m = json.loads(line)\n"
    '    if m["cmd"] == "stop": break\n'
    '    print(json.dumps({"seq": m["seq"], "observation": {"value": 5}}), flush=True)\n'
)


def test_a_ready_message_may_claim_features_alone(fast: None) -> None:
    with ProcessEngine([sys.executable, "-c", _FEATURES_ONLY]) as connection:
        info = connection.info()
        assert info["levels"] == [] and info["features"] == ["scoring.credit"]
        assert connection.run("scoring", {"function": "credit", "input": 5}) == {"value": 5}
        with pytest.raises(UnsupportedCase, match="does not declare the level 'layout'"):
            connection.run("layout", {"placements": ["[1|4]"]})
