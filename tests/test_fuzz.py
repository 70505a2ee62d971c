"""``fiveup fuzz``: random cases on a baseline and a candidate, divergences written as fixtures."""

from __future__ import annotations

import io
import json
import os
import re
from pathlib import Path

import pytest
import yaml

from fiveup.cli import main
from fiveup.contract.engine import JSON, EngineInfo, Level
from fiveup.contract.notation import Action
from fiveup.errors import EngineError, UnsupportedCase, UsageError
from fiveup.fuzz.campaign import Shard, run_campaign
from fiveup.fuzz.cases import LEVEL_WEIGHTS, observed_case, random_case
from fiveup.harness.levels import LEVELS
from fiveup.harness.process import ProcessEngine
from fiveup.harness.runner import Status
from fiveup.reference.engine import ReferenceEngine

ROOT = Path(__file__).resolve().parent.parent
WRONG = "fiveup.mutants.engines:pen2_remainder_three_rounds_down"


@pytest.fixture(autouse=True)
def _at_the_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)


def fiveup(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(args), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_the_same_seed_makes_the_same_cases_and_every_level_appears() -> None:
    cases = [random_case(7, i) for i in range(300)]
    assert cases == [random_case(7, i) for i in range(300)]
    assert {level for level, _ in cases} == set(LEVEL_WEIGHTS)
    assert random_case(8, 0) != random_case(7, 0)


def test_some_cases_end_with_a_refused_action_or_past_the_end() -> None:
    engine = ReferenceEngine()
    refused = 0
    for i in range(300):
        level, given = random_case(3, i, levels=(Level.ROUND, Level.LAYOUT))
        observation = engine.run(level.value, LEVELS[level].request(given))
        refused += observation["error"] is not None
    assert 40 < refused < 200


def test_the_reference_does_not_diverge_from_itself() -> None:
    tally = run_campaign(ReferenceEngine(), ReferenceEngine(), 1, range(400))
    assert tally.cases == 400 and tally.divergences == []
    assert tally.by_level.keys() == {level.value for level in LEVEL_WEIGHTS}


def test_a_wrong_engine_is_caught_and_its_fixture_fails_it_and_passes_the_reference(
    tmp_path: Path,
) -> None:
    out = tmp_path / "found"
    code, text, err = fiveup(
        "fuzz", "--engine", WRONG, "--rounds", "150", "--seed", "3", "--out", str(out)
    )
    assert code == 1, err
    assert "DIVERGES: fuzz." in text and text.rstrip().endswith("kinds")
    files = sorted(out.glob("*.yaml"))
    assert files and "(PEN-2)" in text
    code, report, _ = fiveup("validate", str(out))
    assert code == 0, report
    code, report, _ = fiveup("certify", "--engine", WRONG, "--fixtures", str(out))
    assert code == 1 and "DOES NOT CONFORM" in report.splitlines()[-1]
    code, report, _ = fiveup("certify", "--fixtures", str(out))
    assert code == 0 and "CONFORMS" in report.splitlines()[-1]


def test_divergences_are_shrunk_to_a_short_script(tmp_path: Path) -> None:
    code, text, _ = fiveup(
        "fuzz",
        "--engine",
        WRONG,
        "--rounds",
        "60",
        "--seed",
        "3",
        "--format",
        "json",
        "--out",
        str(tmp_path),
    )
    assert code == 1
    found = [row for row in json.loads(text)["divergences"] if row["file"]]
    assert found
    for row in found:
        case = yaml.safe_load(Path(row["file"]).read_text(encoding="utf-8"))["cases"][0]
        assert case["provenance"]["source"] == "fuzz" and case["provenance"]["seed"] == 3
        script = case["given"].get("actions", case["given"].get("placements", []))
        assert len(script) <= 40


def test_shards_play_the_whole_campaign_once_and_merge(tmp_path: Path) -> None:
    whole = run_campaign(ReferenceEngine(), _wrong(), 5, range(120))
    parts = [
        run_campaign(ReferenceEngine(), _wrong(), 5, Shard(i, 3).indexes(120)) for i in range(3)
    ]
    assert sum(p.cases for p in parts) == whole.cases == 120
    ids = sorted(d.case.id for p in parts for d in p.divergences)
    assert ids == sorted(d.case.id for d in whole.divergences)


def _wrong() -> ReferenceEngine:
    from fiveup.harness.engines import load_engine

    engine = load_engine(WRONG)
    assert isinstance(engine, ReferenceEngine)
    return engine


def test_jobs_give_the_same_findings_as_one_process(tmp_path: Path) -> None:
    runs = []
    for jobs in ("1", "2"):
        code, text, err = fiveup(
            "fuzz",
            "--engine",
            WRONG,
            "--rounds",
            "80",
            "--seed",
            "2",
            "--jobs",
            jobs,
            "--format",
            "json",
        )
        assert code == 1, err
        runs.append(sorted(d["case"] for d in json.loads(text)["divergences"]))
    assert runs[0] == runs[1] and runs[0]


def test_the_json_report_gives_the_speed(tmp_path: Path) -> None:
    code, text, _ = fiveup("fuzz", "--engine", "reference", "--rounds", "100", "--format", "json")
    assert code == 0
    report = json.loads(text)
    assert report["cases"] == 100 and report["divergences"] == []
    assert report["cases_per_second"] > 0 and "rounds_per_second" in report


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["fuzz"], "name the engine under test"),
        (["fuzz", "--engine", "reference", "--shard", "3/2"], "not a shard"),
        (["fuzz", "--engine", "reference", "--jobs", "0"], "--jobs: 0 is out of range"),
        (["fuzz", "--engine", "reference", "--players", "5"], "--players: 5 is out of range"),
    ],
)
def test_mistakes_exit_2(args: list[str], words: str) -> None:
    code, _, err = fiveup(*args)
    assert code == 2 and words in err


def test_a_shard_takes_blanks_around_it_as_every_number_option_does() -> None:
    assert Shard.parse(" 1/2\t") == Shard(1, 2)  # as --rounds " 5" is 5
    for word in ("1 /2", "\x001/2", "1/2\n", os.fsdecode(b"\xff"), "9" * 100_000):
        with pytest.raises(ValueError, match="not a shard") as caught:
            Shard.parse(word)
        assert "\\udc" not in str(caught.value) and len(str(caught.value)) < 200
    assert "'\\xff'" in fiveup("fuzz", "--engine", "reference", "--shard", "\udcff")[2]


def test_the_bundled_corpus_holds_no_fuzz_output() -> None:
    from fiveup.harness.corpus import load_corpus

    assert {case.provenance["source"] for case in load_corpus().cases} <= {"documents", "derived"}


def test_only_the_levels_the_engine_declares_are_played() -> None:
    from fiveup.harness.engines import load_engine

    scoring_only = load_engine("examples.adapters.python.minimal_engine:MinimalEngine")
    tally = run_campaign(ReferenceEngine(), scoring_only, 4, range(60))
    assert tally.by_level == {"scoring": 60}


class _Forgetful:
    """The reference, except that a replayed prefix of the last round request ends otherwise.

    Only the replay of a refusal sends such a prefix, so only that replay can catch it.
    """

    def __init__(self) -> None:
        self.engine = ReferenceEngine()
        self.last: dict[str, JSON] | None = None

    def info(self) -> EngineInfo:
        return self.engine.info()

    def run(self, level: str, given: dict[str, JSON]) -> dict[str, JSON]:
        observation = self.engine.run(level, given)
        last, self.last = self.last, given
        if level == "round" and last is not None and last.get("deck") == given.get("deck"):
            replayed = len(given["actions"]) < len(last["actions"])
            observation["state"]["boneyard"] += replayed
        return observation


class _Piped:
    """An in-process engine behind ``submit`` and ``collect``, as a process engine has them."""

    def __init__(self, engine: _Forgetful | ReferenceEngine) -> None:
        self.engine = engine
        self.pending: tuple[str, dict[str, JSON]] | None = None
        self.sent = 0

    def info(self) -> EngineInfo:
        return self.engine.info()

    def run(self, level: str, given: dict[str, JSON]) -> dict[str, JSON]:
        return self.engine.run(level, given)

    def submit(
        self, level: str, given: dict[str, JSON], known: dict[str, JSON] | None = None
    ) -> None:
        assert self.pending is None, "two requests in flight"
        self.pending = (level, given)
        self.sent += 1

    def collect(self, spin: float = 0.0) -> dict[str, JSON]:
        assert self.pending is not None
        (level, given), self.pending = self.pending, None
        return self.engine.run(level, given)


def _refused(seed: int, count: int) -> list[int]:
    """The indexes of the 2-player round cases of ``seed`` that end with a refused action."""
    engine = ReferenceEngine()
    cases = [random_case(seed, i, 2, (Level.ROUND,))[1] for i in range(count)]
    answers = [engine.run("round", LEVELS[Level.ROUND].request(given)) for given in cases]
    return [i for i, answer in enumerate(answers) if answer["error"]]


@pytest.mark.parametrize("piped", [False, True])
def test_a_refusal_that_changes_the_game_is_caught_by_its_replay(piped: bool) -> None:
    forgetful = _Forgetful()
    candidate = _Piped(forgetful) if piped else forgetful
    tally = run_campaign(
        ReferenceEngine(), candidate, 6, range(40), players=2, levels=[Level.ROUND]
    )
    refused = _refused(6, 40)
    assert refused and sorted(d.index for d in tally.divergences) == refused


def test_a_pipelined_candidate_is_judged_as_one_run_request_at_a_time() -> None:
    piped = _Piped(ReferenceEngine())
    tally = run_campaign(ReferenceEngine(), piped, 8, range(60))
    assert tally.cases == 60 and tally.divergences == []
    assert piped.sent > 60  # the refusals were replayed through submit as well
    wrong = run_campaign(ReferenceEngine(), _Piped(_wrong()), 5, range(120))
    assert sorted(d.index for d in wrong.divergences) == sorted(
        d.index for d in run_campaign(ReferenceEngine(), _wrong(), 5, range(120)).divergences
    )


class _FailsOnce(_Piped):
    """A pipelined reference that fails its 3rd request once, as a process engine that timed
    out or wrote output nobody asked for does; played again (a fresh process), it passes."""

    def submit(
        self, level: str, given: dict[str, JSON], known: dict[str, JSON] | None = None
    ) -> None:
        if self.sent == 2:
            self.sent += 1
            raise EngineError("engine timed out: no reply to seq 3 within 1 s")
        super().submit(level, given, known)


def test_a_failure_that_does_not_repeat_on_a_second_try_is_still_reported() -> None:
    tally = run_campaign(ReferenceEngine(), _FailsOnce(ReferenceEngine()), 8, range(20))
    assert tally.cases == 20
    [divergence] = tally.divergences
    assert divergence.result.status is Status.ERROR
    assert "engine timed out: no reply to seq 3" in divergence.result.message


class _LiesOnce(ReferenceEngine):
    """The reference, but wrong the first time it is asked each request: asked again, right."""

    def __init__(self) -> None:
        super().__init__()
        self.asked: set[str] = set()

    def run(self, level: str, given: dict[str, JSON]) -> dict[str, JSON]:
        answer = super().run(level, given)
        key = json.dumps([level, given], sort_keys=True)
        if key in self.asked:
            return answer
        self.asked.add(key)
        return self.lie(level, answer)

    def lie(self, level: str, answer: dict[str, JSON]) -> dict[str, JSON]:
        """The wrong answer given the first time."""
        if level == "scoring":
            return {"value": -1}
        return {**answer, "events": []}


@pytest.mark.parametrize("piped", [False, True])
def test_a_wrong_answer_the_engine_does_not_repeat_is_still_a_divergence(piped: bool) -> None:
    liar = _LiesOnce()
    candidate = _Piped(liar) if piped else liar
    tally = run_campaign(ReferenceEngine(), candidate, 3, range(30))
    assert tally.cases == 30 and len(tally.divergences) == 30  # every first answer was wrong
    again = _Piped(_LiesOnce()) if piped else _LiesOnce()  # a liar that has not met them yet
    scoring = run_campaign(ReferenceEngine(), again, 3, range(10), levels=[Level.SCORING])
    asked = {json.dumps(random_case(3, i, levels=(Level.SCORING,))[1]) for i in range(10)}
    assert len(scoring.divergences) == len(asked) > 5  # a request asked twice is right twice
    assert all(d.result.differences[0].actual == -1 for d in scoring.divergences)


class _LiesOnceOnTheReplay(_LiesOnce):
    """The reference whose first answer to a request it does not refuse has a wrong boneyard:
    a refusal's prefix, replayed, shows a state the refusal did not leave."""

    def lie(self, level: str, answer: dict[str, JSON]) -> dict[str, JSON]:
        state = answer.get("state")
        if answer.get("error") is None and isinstance(state, dict):
            return {**answer, "state": {**state, "boneyard": -1}}
        return answer


@pytest.mark.parametrize("piped", [False, True])
def test_a_replay_that_differs_once_is_still_a_divergence(piped: bool) -> None:
    liar = _LiesOnceOnTheReplay()
    candidate = _Piped(liar) if piped else liar
    tally = run_campaign(
        ReferenceEngine(), candidate, 6, range(40), players=2, levels=[Level.ROUND]
    )
    found = sorted(d.index for d in tally.divergences)
    refused = set(_refused(6, 40))
    assert refused and refused <= set(found)  # the replays' first answers, wrong
    assert len(found) == 40  # and every unrefused case's first answer


class _DeclinesScoring(ReferenceEngine):
    """The reference declining every scoring case but the optional tally's, which it plays."""

    def run(self, level: str, given: dict[str, JSON]) -> dict[str, JSON]:
        if level == "scoring" and given.get("function") != "tally":
            raise UnsupportedCase("not yet")
        return super().run(level, given)


def test_a_declined_case_of_a_claimed_level_diverges_as_certify_fails_it() -> None:
    tally = run_campaign(ReferenceEngine(), _DeclinesScoring(), 4, range(80))
    declined = [d for d in tally.divergences if d.result.status is Status.UNSUPPORTED]
    scoring = tally.by_level.get("scoring", 0)
    assert declined and len(declined) == len(tally.divergences) < scoring
    assert all(d.case.level is Level.SCORING for d in declined)
    assert all(d.case.given["function"] != "tally" for d in declined)


def test_over_the_protocol_a_campaign_finds_what_it_finds_in_process() -> None:
    import sys

    served = f"{sys.executable} -m fiveup engine --engine {WRONG}"
    runs = []
    for option, engine in (("--engine", WRONG), ("--engine-cmd", served)):
        code, text, err = fiveup(
            "fuzz", option, engine, "--rounds", "60", "--seed", "5", "--format", "json"
        )
        assert code == 1, err
        runs.append(sorted(d["case"] for d in json.loads(text)["divergences"]))
    assert runs[0] == runs[1] and runs[0]
    code, text, err = fiveup(
        "fuzz", "--engine-cmd", f"{sys.executable} -m fiveup engine", "--rounds", "60",
        "--seed", "5", "--format", "json",
    )  # fmt: skip
    assert code == 0 and json.loads(text)["divergences"] == [], err
    forgetful = f"{sys.executable} -m fiveup engine --engine tests.test_fuzz:_Forgetful"
    with ProcessEngine(forgetful) as process:
        tally = run_campaign(
            ReferenceEngine(), process, 6, range(40), players=2, levels=[Level.ROUND]
        )
    refused = _refused(6, 40)
    assert refused and sorted(d.index for d in tally.divergences) == refused


def test_the_observation_a_case_comes_with_is_the_references_byte_for_byte() -> None:
    engine = ReferenceEngine()
    played = {Level.LAYOUT: 0, Level.ROUND: 0, Level.MATCH: 0}
    for index in range(300):
        level, given, observation = observed_case(13, index)
        assert (level, given) == random_case(13, index)
        if level in played:
            played[level] += 1
            answer = engine.run(level.value, LEVELS[level].request(given))
            assert json.dumps(observation) == json.dumps(answer)
        else:
            assert observation is None
    assert played[Level.ROUND] > 50 and played[Level.LAYOUT] > 30 and played[Level.MATCH] > 10
    refused = [observed_case(2, i, None, (Level.MATCH,))[2] for i in range(60)]
    assert any(o is not None and o["error"] for o in refused)  # a match refused a round


class _Booly:
    """The reference, except that seat 1 to act is written ``true``: equal by ``==``, not JSON."""

    def __init__(self) -> None:
        self.engine = ReferenceEngine()

    def info(self) -> EngineInfo:
        return self.engine.info()

    def run(self, level: str, given: dict[str, JSON]) -> dict[str, JSON]:
        observation = self.engine.run(level, given)
        if level == "round" and observation["state"]["turn"] == 1:
            observation["state"]["turn"] = True
        return observation


def test_an_observation_equal_by_python_but_not_as_json_diverges() -> None:
    tally = run_campaign(ReferenceEngine(), _Booly(), 3, range(30), players=2, levels=[Level.ROUND])
    assert tally.divergences
    assert all(d.result.status.value == "error" for d in tally.divergences)
    assert "does not follow the protocol" in tally.divergences[0].result.message


def test_level_narrows_the_campaign_to_those_levels() -> None:
    code, text, err = fiveup(
        "fuzz", "--engine", "reference", "--rounds", "40", "--level", "round", "--level",
        "scoring", "--players", "2", "--format", "json",
    )  # fmt: skip
    assert code == 0, err
    report = json.loads(text)
    assert report["by_level"].keys() <= {"round", "scoring"} and report["cases"] == 40
    assert report["rounds_per_second"] > 0
    code, _, err = fiveup("fuzz", "--engine", "reference", "--level", "poker")
    assert code == 2 and "invalid choice" in err


def test_a_campaign_counts_every_divergence_and_writes_a_few_of_each_kind(tmp_path: Path) -> None:
    kept, every = tmp_path / "kept", tmp_path / "every"
    argv = ["fuzz", "--engine", WRONG, "--rounds", "150", "--seed", "3", "--format", "json"]
    code, text, err = fiveup(*argv, "--out", str(kept))
    assert code == 1, err
    report = json.loads(text)
    kinds = report["kinds"]
    assert sum(k["count"] for k in kinds) == len(report["divergences"]) > len(kinds) > 0
    assert all(1 <= len(k["files"]) <= min(3, k["count"]) for k in kinds)
    assert {row["kind"] for row in report["divergences"]} == {k["kind"] for k in kinds}
    kind = re.compile(r"(scoring|layout|round|match|moves) [A-Z]{3}-\d+: /.+")
    assert all(kind.fullmatch(k["kind"]) for k in kinds), kinds
    assert any(k["kind"].startswith("round PEN-2: ") for k in kinds)
    assert not any(re.search(r"/\d", k["kind"]) for k in kinds), "indexes are left out"
    assert len(list(kept.glob("*.yaml"))) == sum(len(k["files"]) for k in kinds)
    code, text, err = fiveup(*argv, "--out", str(every), "--keep", "0")
    assert code == 1, err
    assert len(list(every.glob("*.yaml"))) == len(json.loads(text)["divergences"])
    code, _, err = fiveup(*argv, "--keep", "-1")
    assert code == 2 and "--keep: -1 is out of range" in err


class _Hanging(ReferenceEngine):
    """The reference, but a scoring request never returns."""

    def run(self, level: str, given: dict[str, JSON]) -> dict[str, JSON]:
        if level == "scoring":
            import time

            time.sleep(60)
        return super().run(level, given)


def test_a_timed_candidate_that_hangs_is_cut_off_case_by_case() -> None:
    import signal

    from fiveup.harness.engines import TimedEngine

    before = signal.getsignal(signal.SIGALRM)
    tally = run_campaign(
        ReferenceEngine(), TimedEngine(_Hanging(), 0.05), 1, range(2), levels=(Level.SCORING,)
    )
    assert tally.cases == 2 and len(tally.divergences) == 2
    assert all("did not answer within 0.05 s" in d.result.message for d in tally.divergences)
    assert signal.getsignal(signal.SIGALRM) is before, "the handler is put back"
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


def test_cases_draw_their_decks_levels_and_moves_as_the_standard_library_and_reference_do() -> None:
    import random

    from fiveup.fuzz import cases
    from fiveup.reference.match import random_policy
    from fiveup.reference.round import Round, shuffled_deck

    for seed in range(300):
        ours, theirs = random.Random(seed), random.Random(seed)
        assert cases._shuffled_deck(ours) == shuffled_deck(theirs)
        levels = tuple(LEVEL_WEIGHTS)[seed % 5 :] or (Level.MOVES,)
        weights = [LEVEL_WEIGHTS[level] for level in levels]
        assert cases._level(ours, levels) is theirs.choices(levels, weights)[0]
        players = 2 + seed % 3
        assert cases._below(ours, players) == theirs.randrange(players)
        near = theirs.choice((0, 0, 100, 250, 290, 300, 305))
        sides = 2 if players == 4 else players
        scores = [near + 5 * theirs.randrange(-4, 5) if near else 0 for _ in range(sides)]
        assert cases._scores(ours, players) == scores
        deck = shuffled_deck(random.Random(seed))
        played, policy = Round(2, deck, 0), Round(2, deck, 0)
        length = seed % 50
        actions = cases._played(played, ours, length)
        choose, chosen = random_policy(theirs), list[Action]()
        while not policy.over and len(chosen) < length:
            chosen.append(choose(policy))
            policy.apply(chosen[-1])
        assert actions == [action.text for action in chosen] and played.over == policy.over
        assert ours.getstate() == theirs.getstate()


# Pinned from the campaign before its speed-ups (issue 15): a seed makes the same cases, the same
# divergences and byte for byte the same fixture files from one release to the next.
_SEED_3_CASES = "dd33fb05957118074fa30cbf3708d1fa5336a2b18d701b8969c1e7882d5c8448"
_SEED_3_FOUND = "b82218be95368b43a893dda178d0b3cc684cd45070ad8f256081b98d4e7e438a"


def test_a_seed_makes_the_cases_divergences_and_fixture_files_it_always_made(
    tmp_path: Path,
) -> None:
    import hashlib

    made = hashlib.sha256()
    for index in range(240):
        level, given, seen = observed_case(3, index)
        made.update(json.dumps([level.value, given, seen]).encode())
    assert made.hexdigest() == _SEED_3_CASES
    found = run_campaign(ReferenceEngine(), _wrong(), 3, range(150), out=tmp_path, keep=None)
    assert (found.cases, found.rounds, len(found.divergences)) == (150, 75, 29)
    assert found.by_level == {"layout": 40, "match": 13, "moves": 14, "round": 75, "scoring": 8}
    digest = hashlib.sha256()
    for d in found.divergences:
        digest.update(
            f"{d.index} {d.kind} {d.case.id} {d.result.status.value} {d.result.rule}\n".encode()
        )
    for file in sorted(tmp_path.glob("*.yaml")):
        digest.update(file.name.encode() + file.read_bytes())
    assert digest.hexdigest() == _SEED_3_FOUND


def test_a_fuzz_case_is_filed_under_a_rule_for_each_level_and_scoring_function() -> None:
    from fiveup.fuzz import campaign

    assert tuple(campaign._FUNCTION_RULE) == LEVELS[Level.SCORING].features
    assert set(campaign._PRIMARY) == set(Level) - {Level.SCORING}


def _fiveup_garbage(garbage: list[object]) -> list[str]:
    """What of the collector's garbage the project made: its objects and its code's frames."""
    names = []
    for item in garbage:
        code = getattr(item, "f_code", None)
        where = code.co_filename if code is not None else type(item).__module__
        if "fiveup" in where:
            names.append(code.co_name if code is not None else type(item).__qualname__)
    return names


def test_a_campaign_of_every_level_leaves_nothing_for_the_cyclic_collector() -> None:
    """What lets a campaign pause the collector: its cases are freed by reference counting."""
    import gc

    from fiveup.harness.engines import TimedEngine

    candidate = TimedEngine(ReferenceEngine(), 10.0)
    wrong = TimedEngine(load_wrong(), 10.0)
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        collections: list[int] = []
        gc.callbacks.append(lambda phase, info: collections.append(info["collected"]))
        tally = run_campaign(ReferenceEngine(), candidate, 5, range(400))
        mixed = run_campaign(ReferenceEngine(), wrong, 5, range(60), levels=(Level.ROUND,))
        collected_as_it_went = len(collections)
        gc.collect()
        made = _fiveup_garbage(gc.garbage)
    finally:
        gc.callbacks.pop()
        gc.set_debug(0)
        gc.garbage.clear()
    assert tally.cases == 400 and len(tally.by_level) == len(LEVEL_WEIGHTS)
    assert mixed.divergences, "the wrong engine's divergences were shrunk and reported too"
    assert collected_as_it_went, "the campaign collected the young generations as it went"
    assert made == [], made[:20]


class _Node:
    """An object in a cycle of its own, counting how many are alive."""

    alive = 0

    def __init__(self) -> None:
        _Node.alive += 1
        self.me = self

    def __del__(self) -> None:
        _Node.alive -= 1


class _CachingEngine:
    """The reference, keeping its last answer's node: evicted, it is garbage of the oldest age."""

    def __init__(self) -> None:
        self.engine = ReferenceEngine()
        self.last: _Node | None = None

    def info(self) -> EngineInfo:
        return self.engine.info()

    def run(self, level: str, given: dict[str, JSON]) -> dict[str, JSON]:
        self.last = _Node()  # the one before lived through a young collection, then lost its name
        return self.engine.run(level, given)


def _peak_of_dropped_nodes(
    every: int, full_every: int, cases: int, monkeypatch: pytest.MonkeyPatch
) -> int:
    """The most nodes of a caching engine alive at once in a campaign of ``cases`` collecting so
    often."""
    import gc

    from fiveup.fuzz import campaign

    monkeypatch.setattr(campaign, "COLLECT_EVERY", every)
    monkeypatch.setattr(campaign, "FULL_COLLECT_EVERY", full_every)
    gc.collect()
    before = _Node.alive
    seen: list[int] = []
    # What the worker held before is frozen out of the collections (as tests/conftest.py does at
    # each file's start; never unfrozen): the campaign's own objects, its engines' dropped nodes
    # among them, are all the collector walks, where each full collection walked the whole
    # worker's heap (most of this test's CPU).
    gc.freeze()
    run_campaign(
        ReferenceEngine(), _CachingEngine(), 2, range(cases), levels=(Level.SCORING,),
        progress=lambda tally: seen.append(_Node.alive - before),
    )  # fmt: skip
    gc.collect()
    return max(seen)


def test_a_campaign_frees_the_cycles_an_engine_drops_after_a_young_collection(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    never = _peak_of_dropped_nodes(1, 10**9, 60, monkeypatch)  # young collections alone
    assert never >= 50, "without a full collection the dropped nodes pile up"
    # A full one every fourth: 16 cases suffice, where the nodes would pile up past 6 without it.
    assert _peak_of_dropped_nodes(1, 4, 16, monkeypatch) <= 6


def test_a_campaign_switches_the_collector_back_on_and_leaves_it_off_if_it_was() -> None:
    import gc

    assert gc.isenabled()
    run_campaign(ReferenceEngine(), ReferenceEngine(), 1, range(3))
    assert gc.isenabled()
    gc.disable()
    try:
        run_campaign(ReferenceEngine(), ReferenceEngine(), 1, range(3))
        assert not gc.isenabled()
    finally:
        gc.enable()


def load_wrong() -> ReferenceEngine:
    from fiveup.harness.engines import load_engine

    engine = load_engine(WRONG)
    assert isinstance(engine, ReferenceEngine)
    return engine


def test_the_prefix_bytes_cut_from_a_refusal_are_those_of_the_prefix_observation() -> None:
    import marshal

    from fiveup.fuzz import campaign

    cut = 0
    for index in range(300):
        level, _, expected = observed_case(11, index)
        if expected is None or not isinstance(expected.get("error"), dict):
            continue
        known = marshal.dumps(expected, 2)
        whole = campaign._unrefused(level, expected)
        sliced = campaign._unrefused_marshalled(LEVELS[level], expected, known)
        assert (sliced is None) == (whole is None), (level, index)
        if whole is not None:
            assert sliced == marshal.dumps(whole, 2), (level, index)
            cut += 1
    assert cut > 20


def test_a_hanging_candidate_is_cut_off_beside_a_timed_baseline() -> None:
    """As ``fiveup fuzz`` runs: the baseline is timed too, and its calls set and clear the timer."""
    from fiveup.harness.engines import TimedEngine

    baseline = TimedEngine(ReferenceEngine(), 10.0)
    tally = run_campaign(
        baseline, TimedEngine(_Hanging(), 0.05), 1, range(3), levels=(Level.SCORING,)
    )
    assert tally.cases == 3 and len(tally.divergences) == 3
    assert all("did not answer within 0.05 s" in d.result.message for d in tally.divergences)


def test_a_limit_too_short_for_any_answer_is_refused_before_the_campaign() -> None:
    from fiveup.harness.engines import TimedEngine

    with pytest.raises(UsageError, match=r"out of range: at least 0\.05 and at most"):
        TimedEngine(_Hanging(), 1e-5)  # the reference itself would fail every case


class _CreditOnly(ReferenceEngine):
    """Claims the feature scoring.credit alone, and credits 25 as 20."""

    def info(self) -> EngineInfo:
        return {**super().info(), "levels": [], "features": ["scoring.credit"]}

    def run(self, level: str, given: dict[str, JSON]) -> dict[str, JSON]:
        if given.get("input") == 25:
            return {"value": 20}
        return super().run(level, given)


def test_an_engine_claiming_features_is_fuzzed_on_those_features() -> None:
    tally = run_campaign(ReferenceEngine(), _CreditOnly(), 1, range(200))
    assert tally.by_level == {"scoring": 200}  # it played them all: none unplayed, passed
    assert tally.divergences and all(
        d.case.given == {"function": "credit", "input": 25} for d in tally.divergences
    )


def test_an_engine_claiming_nothing_fuzz_plays_is_refused_not_passed() -> None:
    with pytest.raises(UsageError, match="nothing to play: fuzz plays round, and the engine"):
        run_campaign(ReferenceEngine(), _CreditOnly(), 1, range(5), levels=[Level.ROUND])
    code, out, err = fiveup(
        "fuzz", "--engine", "tests.test_fuzz:_CreditOnly", "--rounds", "5", "--level", "round"
    )
    assert code == 2 and out == "" and "claims scoring (credit)" in err
