"""Engines under test (fiveup.harness.engines): found by name, timed, asked who they are."""

from __future__ import annotations

import re
import sys
import threading
from pathlib import Path

import pytest
from fakes import Broken

from fiveup.contract.engine import JSON, Engine
from fiveup.errors import EngineError, UsageError
from fiveup.harness.engines import (
    TimedEngine,
    close_engine,
    handshake,
    load_engine,
    open_engine,
    startup_hint,
)
from fiveup.harness.process import Failure, ProcessEngineError


def test_a_handshake_is_judged_as_the_ready_message() -> None:
    info = {"name": "x", "version": "1", "protocol": 1, "levels": ["scoring"]}
    assert handshake(Broken(info)) == info
    for bad, words in [
        (
            {**info, "levels": ["scoring", "scoring"]},
            "does not follow ready.json at $.engine.levels",
        ),
        ({**info, "levels": ["chess"]}, "does not follow ready.json"),
        ({**info, "name": ""}, "does not follow ready.json at $.engine.name"),
        ({**info, "protocol": 2}, "protocol version mismatch: the engine speaks 2"),
        ({**info, "protocol": "1"}, "does not follow ready.json at $.protocol"),
        ({**info, "protocol": "2"}, "does not follow ready.json at $.protocol"),
        ({**info, "protocol": 2.5}, "does not follow ready.json at $.protocol"),
        ({**info, "protocol": None}, "does not follow ready.json at $.protocol"),
        ({**info, "protocol": [2]}, "does not follow ready.json at $.protocol"),
        ({**info, "name": 7}, "does not follow ready.json at $.engine.name"),
        ({**info, "levels": "scoring"}, "does not follow ready.json at $.engine.levels"),
        ("x", "answered str"),
    ]:
        with pytest.raises(EngineError, match=re.escape(words)):
            handshake(Broken(bad))


def test_a_stopped_engine_is_hinted_at_as_stopped_not_as_unflushed() -> None:
    assert "flushed" in startup_hint(ProcessEngineError(Failure.TIMEOUT, "no ready message"))
    hint = startup_hint(ProcessEngineError(Failure.TIMEOUT, "no ready message", stopped=True))
    assert "SIGSTOP" in hint and "flushed" not in hint


def test_a_bad_ready_message_is_hinted_at_with_its_features_too() -> None:
    hint = startup_hint(ProcessEngineError(Failure.BAD_MESSAGE, "the ready message ..."))
    assert '"levels": [...], "features": [...]' in hint and '"scoring.credit"' in hint


def test_a_hanging_in_process_engine_is_cut_off() -> None:
    info = {"name": "x", "version": "1", "protocol": 1, "levels": ["scoring"]}
    gate, done = threading.Event(), threading.Event()

    class Hangs(Broken):
        def run(self, level: str, given: dict[str, JSON]) -> dict[str, JSON]:
            gate.wait(60)
            done.set()
            return {"value": 5}

    engine = TimedEngine(Hangs(info), timeout=0.2)
    with pytest.raises(EngineError, match=r"within 0\.2 s"):
        engine.run("scoring", {})
    # Cut off while the engine still hangs: no wall clock read, so a busy machine cannot fail it.
    assert not done.is_set()
    gate.set()


def test_engines_load_by_entry_point_and_by_module_attribute() -> None:
    by_name = load_engine("reference")
    by_path = load_engine("fiveup.reference.engine:ReferenceEngine")
    assert isinstance(by_name, Engine) and isinstance(by_path, Engine)
    assert by_name.info()["name"] == by_path.info()["name"] == "fiveup-reference"


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("no-such-engine", "no engine of that name (installed: reference"),
        ("no_such_module:X", "cannot import 'no_such_module'"),
        ("fiveup.reference.engine:Nope", "has no 'Nope'"),
        ("fiveup.contract.notation:ALL_TILES", "has no info() and run"),
        (":X", "'' is not a module's absolute name"),
        (".engine:X", "'.engine' is not a module's absolute name"),
        (
            "fiveup.reference:ReferenceEngin",
            "has no 'ReferenceEngin'; did you mean ReferenceEngine?",
        ),
        ("broken_on_import:X", "cannot import 'broken_on_import': RuntimeError: half-written"),
        ("getattr_fails:X", "'getattr_fails' has no 'X'"),
        ("exits_on_import:X", "cannot import 'exits_on_import': SystemExit: 3"),
        ("hostile_objects:ODD", "not an engine: RuntimeError: no attributes"),
        ("hostile_objects:FACTORY", "creating the engine failed: Unsayable"),
    ],
)
def test_a_bad_engine_name_is_a_usage_error(
    name: str, words: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "broken_on_import.py").write_text("raise RuntimeError('half-written')\n")
    (tmp_path / "getattr_fails.py").write_text("def __getattr__(name):\n    raise KeyError(name)\n")
    (tmp_path / "exits_on_import.py").write_text("raise SystemExit(3)\n")
    (tmp_path / "hostile_objects.py").write_text(
        "class Odd:\n"
        "    def __getattr__(self, name):\n"
        "        raise RuntimeError('no attributes')\n"
        "ODD = Odd()\n"
        "class Unsayable(Exception):\n"
        "    def __str__(self):\n"
        "        raise RuntimeError('nothing to say')\n"
        "def FACTORY():\n"
        "    raise Unsayable()\n"
    )
    monkeypatch.syspath_prepend(tmp_path)
    with pytest.raises(UsageError, match=re.escape(words)):
        load_engine(name)


_HINT = "; to run a program that speaks spec/protocol.md, give it to --engine-cmd"


@pytest.mark.parametrize(
    "name", ["python3 engine.py", "./engine", "/usr/local/bin/my-engine", "node:x y", "a\\b"]
)
def test_a_command_given_as_an_engine_name_is_pointed_to_the_command_option(name: str) -> None:
    with pytest.raises(UsageError) as raised:
        open_engine(name, None, 5.0)
    assert str(raised.value).endswith(_HINT)
    with pytest.raises(UsageError) as raised:
        open_engine(name, None, 5.0, option="--baseline")
    assert str(raised.value).endswith(_HINT.replace("--engine-cmd", "--baseline-cmd"))


@pytest.mark.parametrize("name", ["no-such-engine", "no_such_module:X"])
def test_a_name_that_is_no_command_gets_no_command_hint(name: str) -> None:
    with pytest.raises(UsageError) as raised:
        open_engine(name, None, 5.0)
    assert "--engine-cmd" not in str(raised.value)


def test_load_engine_alone_gives_no_command_hint_where_no_command_option_exists() -> None:
    with pytest.raises(UsageError) as raised:
        load_engine("python3 engine.py")
    assert "-cmd" not in str(raised.value)


def test_close_engine_stops_what_has_a_close_and_leaves_the_rest() -> None:
    closed: list[str] = []

    class Served:
        def close(self) -> None:
            closed.append("served")

    close_engine(Served())  # type: ignore[arg-type]
    close_engine(load_engine("reference"))
    close_engine(None)
    assert closed == ["served"]


def test_a_handshake_may_claim_features_in_its_info_or_as_an_attribute() -> None:
    info = {
        "name": "x",
        "version": "1",
        "protocol": 1,
        "levels": [],
        "features": ["scoring.credit"],
    }
    assert handshake(Broken(info)) == info
    plain = {**info, "levels": ["layout"]}
    del plain["features"]
    carrier = Broken(plain)
    carrier.features = ["scoring.credit"]  # type: ignore[attr-defined]
    assert handshake(TimedEngine(carrier, 5))["features"] == ["scoring.credit"]
    # A starter claims nothing yet: its handshake is complete, and its run checks nothing.
    nothing = {**info, "features": []}
    assert handshake(Broken(nothing)) == nothing
    for bad, words in [
        (
            {**info, "features": ["scoring.credit", "scoring.credit"]},
            "does not follow ready.json at $.engine.features",
        ),
        (
            {**info, "features": ["scoring.chess"]},
            "does not follow ready.json at $.engine.features[0]",
        ),
        ({**info, "features": "scoring.credit"}, "does not follow ready.json at $.engine.features"),
    ]:
        with pytest.raises(EngineError, match=re.escape(words)):
            handshake(Broken(bad))


def test_a_users_module_named_as_one_of_the_standard_library_is_still_an_engine(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "test.py").write_text(
        "from fiveup.reference.engine import ReferenceEngine as Engine\n", encoding="utf-8"
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.delitem(sys.modules, "test", raising=False)
    assert load_engine("test:Engine").info()["name"] == "fiveup-reference"
    with pytest.raises(UsageError, match="is a module of Python's standard library"):
        load_engine("os:abort")
