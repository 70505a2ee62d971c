"""Differential fuzzing: the same random cases on a baseline and a candidate engine.

Each case (:func:`fiveup.fuzz.cases.random_case`) is played by the baseline; its observation
becomes the case's expectation, and the candidate is judged by the case runner of ``certify``
(:func:`fiveup.harness.runner.run_case`). When the candidate's observation follows its schema,
equals the baseline's and survives the replay of a refusal, the case passes without building
it, which keeps a campaign fast; when they differ, the runner says how, the case
is shrunk to the shortest script that still diverges, and it is written out as a fixture file
that ``fiveup validate`` accepts, labelled ``provenance: {source: fuzz}``.

Speed, with every check kept: a case the generator played with the reference comes with the
reference's observation (:func:`fiveup.fuzz.cases.observed_case`), so a reference baseline
does not play it again; an observation that is, byte for byte, the reference's schema-valid
one is not walked again (``marshal`` bytes in process, the reply line over the protocol); and
against an engine that can ``submit`` and ``collect`` (a process engine) the next case is
made while the candidate plays the last one, one request in flight as the protocol requires.
A campaign runs with the cyclic collector paused (:func:`_collector_paused`: its cases build no
cycles) and installs an in-process engine's alarm handler once (:class:`_Armed`).
"""

from __future__ import annotations

import dataclasses
import gc
import marshal
import re
import signal
import threading
import time
from collections import deque
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any, Final

import yaml

from fiveup.contract import shapes
from fiveup.contract.engine import (
    JSON,
    Engine,
    EngineInfo,
    Level,
    Pipelined,
    checks_observations,
    pipelined,
    unwrapped,
)
from fiveup.contract.schemas import clip
from fiveup.errors import EngineError, UsageError
from fiveup.harness.compare import same_json
from fiveup.harness.corpus import Case
from fiveup.harness.engines import NO_ANSWER, TimedEngine, no_answer
from fiveup.harness.files import write_whole
from fiveup.harness.levels import LEVELS, Claims, LevelSpec, optional_feature
from fiveup.harness.lint import FRESH_PREFIX, implied_decisions
from fiveup.harness.polling import SPIN
from fiveup.harness.process import Failure
from fiveup.harness.runner import CaseResult, Status, run_case
from fiveup.harness.text import quoted
from fiveup.reference.engine import ReferenceEngine
from fiveup.reference.rules import STANDARD

from .cases import LEVEL_WEIGHTS, observed_case, random_case

__all__ = [
    "KEEP_PER_KIND",
    "MAX_SHARDS",
    "Divergence",
    "Findings",
    "Shard",
    "fresh_cases",
    "fuzz_case",
    "kind_of",
    "run_campaign",
    "write_fixture",
]

_TIMED_OUT: Final = Failure.TIMEOUT.value
"""How a process engine's timeout is reported (``engine timed out: ...``)."""
_INDEX: Final = re.compile(r"/\d+(?=/|$)")
_SHARD: Final = re.compile(r"([0-9]{1,7})/([0-9]{1,7})")
MAX_SHARDS: Final = 10_000
"""The most shards a campaign is split into."""


@dataclass(frozen=True, slots=True)
class Shard:
    """Which indexes of a campaign a process plays: ``index % count == number``."""

    number: int = 0
    count: int = 1

    @staticmethod
    def parse(text: str) -> Shard:
        """Read ``I/K`` (0 <= I < K <= :data:`MAX_SHARDS`, ASCII digits, blanks around taken)."""
        found = _SHARD.fullmatch(text.strip(" \t"))
        shown = quoted(clip(text, 40))
        if found is None or int(found[1]) >= int(found[2]):
            raise ValueError(f"not a shard: {shown} (expected I/K with 0 <= I < K, like 0/4)")
        if int(found[2]) > MAX_SHARDS:
            raise ValueError(f"not a shard: {shown} (at most {MAX_SHARDS:,} shards)")
        return Shard(int(found[1]), int(found[2]))

    def indexes(self, total: int) -> range:
        """The indexes of a campaign of ``total`` cases this shard plays."""
        return range(self.number, total, self.count)


@dataclass(frozen=True, slots=True)
class Divergence:
    """A case on which the candidate does not observe what the baseline does."""

    index: int
    case: Case
    result: CaseResult
    file: str = ""
    kind: str = ""
    """What went wrong, the same for the same mistake (:func:`kind_of`)."""


@dataclass(slots=True)
class Findings:
    """What a campaign (or one shard of it) found."""

    seed: int
    cases: int = 0
    rounds: int = 0
    """Cases of the round level, the unit of the speed figures."""
    seconds: float = 0.0
    by_level: dict[str, int] = field(default_factory=dict)
    divergences: list[Divergence] = field(default_factory=list)
    interrupted: bool = False

    @property
    def cases_per_second(self) -> float:
        """Cases judged per second."""
        return self.cases / self.seconds if self.seconds else 0.0

    def merge(self, other: Findings) -> None:
        """Add another shard's findings to these."""
        self.cases += other.cases
        self.rounds += other.rounds
        self.seconds = max(self.seconds, other.seconds)
        for level, count in other.by_level.items():
            self.by_level[level] = self.by_level.get(level, 0) + count
        self.divergences.extend(other.divergences)
        self.interrupted = self.interrupted or other.interrupted


def _expectation(level: Level, observation: Mapping[str, JSON]) -> dict[str, JSON]:
    return LEVELS[level].expectation(observation)


_PRIMARY: Final = {
    Level.LAYOUT: "LAY-1",
    Level.ROUND: "TRN-1",
    Level.MATCH: "MAT-2",
    Level.MOVES: "LAY-1",
}
_FUNCTION_RULE: Final = {
    "credit": "SCR-2",
    "displayed": "PTS-1",
    "penalty": "PEN-2",
    "side_penalty": "PEN-4",
    "tally": "TAL-1",
}


def _primary(level: Level, given: Mapping[str, JSON]) -> str:
    if level is Level.SCORING:
        return _FUNCTION_RULE.get(str(given.get("function")), "SCR-2")
    return _PRIMARY[level]


def _exactly_typed(engine: Engine) -> bool:
    """True for the reference engine: its observations follow their schemas by construction."""
    return isinstance(unwrapped(engine), ReferenceEngine)


def _standard_reference(engine: Engine) -> bool:
    """True for the reference engine playing the spec's rules (not a variant or a mutant)."""
    inner = unwrapped(engine)
    return type(inner) is ReferenceEngine and inner.rules is STANDARD


_Made = tuple[int, Level, dict[str, JSON], dict[str, JSON] | None]
"""A case as made: its index, level and given, and the baseline's observation if known."""


def _claimed_functions(claims: Claims) -> tuple[str, ...] | None:
    """The scoring functions an engine claims, when not all of them (None: all, or none)."""
    claimed = claims.of_level(Level.SCORING)
    whole = len(claimed) == len(LEVELS[Level.SCORING].features)
    return None if whole or not claimed else claimed


def _conforms(level: Level, observation: JSON) -> bool:
    return shapes.conforms(LEVELS[level].schema, observation)


def _case(seed: int, index: int, level: Level, given: Mapping[str, JSON], expect: JSON) -> Case:
    return Case(
        id=f"fuzz.{level.value}.s{seed}-{index}",
        title=f"Fuzz case {index} of seed {seed} ({level.value})",
        rules=(_primary(level, given),),
        level=level,
        given=given,
        expect=expect,
        provenance={"source": "fuzz", "seed": seed, "case": index},
        description="",
        file="(fuzz)",
        line=0,
    )


def fresh_cases(
    baseline: Engine, seed: int, count: int, levels: list[str],
    functions: Collection[str] | None = None,
) -> list[Case]:  # fmt: skip
    """``count`` random cases of each of ``levels``, expected as ``baseline`` observes them.

    ``functions`` are the scoring functions the scoring cases are drawn among (all, by
    default): an engine that claims only ``scoring.credit`` gets ``count`` credit cases, not
    the credit cases among ``count`` cases of any function. Their IDs are
    ``fresh.<level>.s<seed>-<index>``: the same seed and claims give the same cases.
    """
    drawn = None
    if functions is not None:
        drawn = tuple(f for f in LEVELS[Level.SCORING].features if f in functions)
    cases: list[Case] = []
    for level in LEVEL_WEIGHTS:  # the levels random cases are made for
        if level.value not in levels:
            continue
        for index in range(count):
            _, given = random_case(seed, index, levels=(level,), functions=drawn)
            request = _case(seed, index, level, given, {}).request()
            expected = _expectation(level, baseline.run(level.value, request))
            fresh = _case(seed, index, level, given, expected)
            cases.append(
                dataclasses.replace(
                    fresh,
                    id=f"{FRESH_PREFIX}{level.value}.s{seed}-{index}",
                    title=f"Fresh case {index} of seed {seed} ({level.value})",
                    file="(fresh)",
                )
            )
    return cases


def _matches(
    baseline: Engine, candidate: Engine, level: Level, expected: JSON, observed: JSON
) -> bool:
    """The observation follows its schema and equals the baseline's in full.

    The schema is checked here unless the engine checks its own observations; ``==`` on two
    schema-valid observations is equality as JSON (the schemas keep integers and booleans
    apart), so a baseline other than the reference is checked too, or compared as JSON text.
    """
    checked = checks_observations(candidate)
    if not checked and _exactly_typed(baseline) and _identical(observed, expected):
        return True  # the very value of a schema-valid observation, types and all
    if not (checked or _conforms(level, observed)) or observed != expected:
        return False
    return _exactly_typed(baseline) or _conforms(level, expected) or same_json(observed, expected)


def _identical(observed: JSON, expected: JSON) -> bool:
    """The same value with the same types throughout: the same ``marshal`` bytes.

    ``marshal`` writes each value with its exact type (``True`` is not ``1``, ``1.0`` is not
    ``1``) and refuses any other class, and version 2 writes no back-references, so equal
    bytes read back as the same value. A mere difference of key order or of string interning
    gives other bytes: then the value is checked the long way.
    """
    try:
        return marshal.dumps(observed, 2) == marshal.dumps(expected, 2)
    except ValueError:  # a value of a class marshal does not write
        return False


def _replay(level: Level, request: dict[str, JSON], expected: JSON) -> dict[str, JSON] | None:
    """The request cut before the refused action, when the observation has one to replay."""
    spec = LEVELS[level]
    error = expected.get("error") if isinstance(expected, dict) else None
    if not isinstance(error, dict) or spec.script is None:
        return None
    return spec.prefix(request, error["at"])


def _unchanged(candidate: Engine, level: Level, expected: JSON, before: JSON) -> bool:
    """The replayed prefix left the game as the refusal did (the runner's replay check)."""
    checked = checks_observations(candidate)
    if not (checked or _conforms(level, before)):
        return False
    keys = LEVELS[level].replayed
    return isinstance(before, dict) and all(before.get(k) == expected.get(k) for k in keys)


def _unrefused(level: Level, expected: dict[str, JSON]) -> dict[str, JSON] | None:
    """The reference's observation of the prefix before a refusal.

    It is the refused observation without its error (a refusal changes nothing), when the
    replayed keys are all the others.
    """
    if set(expected) != {*LEVELS[level].replayed, "error"}:
        return None
    return {key: None if key == "error" else value for key, value in expected.items()}


def _judged(
    candidate: Engine, levels: list[str], seed: int, index: int, level: Level,
    given: dict[str, JSON], expected: dict[str, JSON],
) -> tuple[Case, CaseResult] | None:  # fmt: skip
    """The runner's verdict on the case; None when it passes (or cannot be played)."""
    case = _case(seed, index, level, given, _expectation(level, expected))
    result = run_case(candidate, case, levels)
    if result.status is Status.PASS:
        return None
    if result.status is Status.UNSUPPORTED and (
        level.value not in levels or optional_feature(level, given)
    ):
        return None  # not sent, or an optional feature declined: as certify counts it
    return case, result  # a declined case of a claimed level diverges, as certify fails it


def fuzz_case(
    baseline: Engine, candidate: Engine, levels: list[str], seed: int, index: int,
    level: Level, given: dict[str, JSON], expected: dict[str, JSON] | None = None,
) -> tuple[Case, CaseResult] | None:  # fmt: skip
    """Judge one case; None when the candidate passes it, the baseline's observation expected.

    A candidate that observes exactly what the baseline does passes without building the case
    (:meth:`_Judge.agrees` makes every check the runner makes); any other is judged by the
    runner. ``expected`` is the baseline's observation when the caller has it already.
    """
    return _Judge(baseline, candidate, levels, seed)(index, level, given, expected)


class _Judge:
    """:func:`fuzz_case` for the cases of one campaign, the engines' capabilities read once."""

    def __init__(self, baseline: Engine, candidate: Engine, levels: list[str], seed: int) -> None:
        self.baseline = baseline
        self.candidate = candidate
        self.levels = levels
        self.seed = seed
        self.exact = _exactly_typed(baseline) and not checks_observations(candidate)
        """An observation that is the baseline's byte for byte passes (see :func:`_matches`)."""
        self.level: Level | None = None
        self.spec = LEVELS[Level.ROUND]
        self.name = ""
        self.played = False
        """For :attr:`level`: its record, its name, and whether the candidate plays it."""
        self.seen: list[JSON | Exception] = []
        """What the candidate answered (or raised) for the case being judged, in order."""
        self.unrepeated: set[int] = set()
        """The indexes of the cases whose divergence the candidate did not repeat when asked
        again: judged on its first answers, and not shrunk."""

    def switch(self, level: Level) -> None:
        """Look up a level's record, name and whether the candidate plays it, once per run."""
        self.level, self.spec, self.name = level, LEVELS[level], level.value
        self.played = self.name in self.levels

    def __call__(
        self, index: int, level: Level, given: dict[str, JSON], expected: dict[str, JSON] | None
    ) -> Found:
        """Judge one case: None when the candidate passes it."""
        if level is not self.level:  # a level's lookups once per run of cases of that level
            self.switch(level)
        request = self.spec.request(given)
        if expected is None:
            expected = self.baseline.run(self.name, request)
        self.seen = []
        try:
            if self.played and self.passes(request, expected):
                return None
        except Exception as exc:  # the runner below says what the engine did
            self.seen.append(exc)
        found = _judged(self.candidate, self.levels, self.seed, index, level, given, expected)
        if found is None and self.played and self.seen:
            recorded = _Recorded(self.candidate, self.seen)
            found = _judged(recorded, self.levels, self.seed, index, level, given, expected)
            if found is not None:
                self.unrepeated.add(index)
        return found

    def verdicts(
        self, seed: int, indexes: Iterable[int], players: int | None, levels: tuple[Level, ...],
        free: bool, functions: tuple[str, ...] | None = None,
    ) -> Iterator[tuple[int, Level, Found]]:  # fmt: skip
        """``(index, level, found)`` of the campaign's cases, made and judged one by one.

        ``free``: the baseline is the standard reference, whose observation a case comes with;
        ``functions``: the scoring functions drawn among (None: all).
        """
        for index in indexes:
            level, given, observation = observed_case(
                seed, index, players, levels, functions=functions
            )
            yield index, level, self(index, level, given, observation if free else None)

    def agrees(self, level: Level, request: dict[str, JSON], expected: dict[str, JSON]) -> bool:
        """True when the runner would pass the candidate: every check of ``run_case``, quickly.

        The observation follows its schema and equals the baseline's (:func:`_matches`), and a
        refused action, replayed to its prefix, left the game as it was.
        """
        if level is not self.level:
            self.switch(level)
        return self.passes(request, expected)

    def passes(self, request: dict[str, JSON], expected: dict[str, JSON]) -> bool:
        """:meth:`agrees` for a case of the level looked up last (:meth:`switch`)."""
        run, name, spec = self.candidate.run, self.name, self.spec
        level = spec.level
        observed = run(name, request)
        self.seen.append(observed)
        known = _marshalled(expected) if self.exact else None
        same = known is not None and _marshalled(observed) == known
        if not same and not _matches(self.baseline, self.candidate, level, expected, observed):
            return False
        error = expected.get("error") if isinstance(expected, dict) else None
        if not isinstance(error, dict) or spec.script is None:
            return True  # nothing refused, or a level whose refusals are not replayed
        before = run(name, spec.prefix(request, error["at"]))
        self.seen.append(before)
        if known is not None:
            unrefused = _unrefused_marshalled(spec, expected, known)
            if unrefused is not None and _marshalled(before) == unrefused:
                return True  # the reference's own prefix observation, types and all
        return _unchanged(self.candidate, level, expected, before)


def _marshalled(value: JSON) -> bytes | None:
    """``marshal`` bytes of a value (see :func:`_identical`); None for one it does not write."""
    try:
        return marshal.dumps(value, 2)
    except ValueError:
        return None


def _unrefused_marshalled(spec: LevelSpec, expected: dict[str, JSON], known: bytes) -> bytes | None:
    """The ``marshal`` bytes of :func:`_unrefused`, cut from those of ``expected`` (``known``).

    A dict's bytes are each key's then its value's, then ``0``; with ``error`` the last key,
    the refused observation's bytes end with those of its error and ``0``, and the prefix's
    are the same with ``None`` (``N``) in their place.
    """
    if len(expected) != len(spec.replayed) + 1 or next(reversed(expected)) != "error":
        return None
    if not all(map(expected.__contains__, spec.replayed)):
        return None
    error = _marshalled(expected["error"])
    if error is None:
        return None
    return known[: -len(error) - 1] + b"N0"


Found = tuple[Case, CaseResult] | None
"""What judging one case found: None, or the case and the runner's result."""


@dataclass(slots=True)
class _Job:
    """One case on its way through the pipeline."""

    index: int
    level: Level
    given: dict[str, JSON]
    request: dict[str, JSON]
    expected: dict[str, JSON]
    replaying: bool = False
    known: dict[str, JSON] | None = None
    """The observation its reply in flight may carry byte for byte."""
    answered: JSON = None
    """The candidate's reply to the case's request, while its prefix is replayed."""
    failure: Exception | None = None
    """What the engine raised for its request in flight, if anything."""


class _Recorded:
    """The candidate, its first calls answered with what it answered (or raised) before.

    A wrong answer that the engine does not give again when the runner asks once more still
    happened: the runner judges the answers it gave, then the engine itself for any call after.
    """

    def __init__(self, engine: Engine, answers: Iterable[JSON | Exception]) -> None:
        self.engine = engine
        self.answers = deque(answers)

    def info(self) -> EngineInfo:
        return self.engine.info()

    def run(self, level: str, given: dict[str, JSON]) -> JSON:
        if not self.answers:
            return self.engine.run(level, given)
        answer = self.answers.popleft()
        if isinstance(answer, Exception):
            raise answer
        return answer


class _Failing:
    """An engine whose every answer is one failure seen already: the runner words its error."""

    def __init__(self, failure: EngineError) -> None:
        self.failure = failure

    def info(self) -> EngineInfo:
        raise self.failure

    def run(self, level: str, given: dict[str, JSON]) -> dict[str, JSON]:
        raise self.failure


_TRIES: Final = 20
"""Replies compared byte for byte with the baseline's before giving up when none matched."""


class _Pipeline:
    """Judges cases in order, making the next one while the candidate plays the last one.

    Only one request is ever in flight (the protocol alternates strictly); the work that
    overlaps it is the harness's own: the next random case and the baseline's observation of
    it. A case that does not pass quickly is judged by the runner, with nothing in flight.
    """

    def __init__(
        self, baseline: Engine, candidate: Engine, levels: list[str], seed: int,
        cases: Iterator[_Made], pipe: Pipelined,
    ) -> None:  # fmt: skip
        self.baseline = baseline
        self.candidate = candidate
        self.pipe = pipe
        self.levels = levels
        self.seed = seed
        self.cases = cases
        self.ready: deque[_Job] = deque()
        self.vouched = _exactly_typed(baseline)
        self.tries = self.hits = 0
        self.unrepeated: set[int] = set()
        """The indexes of the cases whose failure did not repeat when played again: not shrunk,
        since a shorter case would not show it either."""

    def prepare(self) -> bool:
        """Make the next case and the baseline's observation of it; False when none is left."""
        item = next(self.cases, None)
        if item is None:
            return False
        index, level, given, expected = item
        request = LEVELS[level].request(given)
        if expected is None:
            expected = self.baseline.run(level.value, request)
        self.ready.append(_Job(index, level, given, request, expected))
        return True

    def send(self, job: _Job, request: dict[str, JSON]) -> bool:
        # A reply that carries the baseline's own observation, byte for byte, is that
        # observation: already of the right shape and equal in full. Tried while it pays.
        job.known = None
        if self.vouched and (self.hits or self.tries < _TRIES):
            job.known = _unrefused(job.level, job.expected) if job.replaying else job.expected
            self.tries += job.known is not None
        try:
            self.pipe.submit(job.level.value, request, job.known)
        except Exception as exc:  # the runner says what the engine did
            job.failure = exc
            return False
        return True

    def failed(self, job: _Job) -> tuple[int, Level, Found]:
        """The verdict on a case whose request failed: the runner's, played again.

        An engine failure (a timeout, output nobody asked for, a crash) that the case played
        again on a fresh process does not repeat is still the case's error: it happened.
        """
        verdict = self.slow(job)
        failure, job.failure = job.failure, None
        if verdict[2] is not None or not isinstance(failure, EngineError):
            return verdict
        seen = _judged(
            _Failing(failure), self.levels, self.seed, job.index, job.level, job.given,
            job.expected,
        )  # fmt: skip
        self.unrepeated.add(job.index)
        return job.index, job.level, seen

    def told(self, job: _Job, observed: JSON) -> tuple[int, Level, Found]:
        """The verdict on a case whose reply differed: the runner's, played again.

        When the case passes played again, the runner judges the replies the engine gave: a
        wrong answer that the engine does not repeat still happened.
        """
        verdict = self.slow(job)
        if verdict[2] is not None:
            return verdict
        answers = [job.answered, observed] if job.replaying else [observed]
        seen = _judged(
            _Recorded(self.candidate, answers), self.levels, self.seed, job.index, job.level,
            job.given, job.expected,
        )  # fmt: skip
        if seen is not None:
            self.unrepeated.add(job.index)
        return job.index, job.level, seen

    def slow(self, job: _Job) -> tuple[int, Level, Found]:
        found = _judged(
            self.candidate, self.levels, self.seed, job.index, job.level, job.given, job.expected
        )
        return job.index, job.level, found

    def verdicts(self) -> Iterator[tuple[int, Level, Found]]:
        """``(index, level, found)`` of every case, in order."""
        flight: _Job | None = None
        while True:
            if flight is None:
                if not self.ready and not self.prepare():
                    return
                job = self.ready.popleft()
                if job.level.value not in self.levels:
                    yield self.slow(job)
                    continue
                if not self.send(job, job.request):
                    yield self.failed(job)
                    continue
                flight = job
            if not self.ready:
                self.prepare()  # while the candidate plays
            job, flight = flight, None
            verdict = self.reply(job)
            if verdict is None:
                flight = job  # its replay is in flight
            else:
                yield verdict

    def reply(self, job: _Job) -> tuple[int, Level, Found] | None:
        """Judge the reply to the job's request; None when its replay was sent."""
        known = job.known
        try:
            observed = self.pipe.collect(SPIN)
        except Exception as exc:  # the runner says what the engine did
            job.failure = exc
            return self.failed(job)
        if job.replaying:
            passed = observed is known or _unchanged(
                self.candidate, job.level, job.expected, observed
            )
            return (job.index, job.level, None) if passed else self.told(job, observed)
        if observed is known:
            self.hits += 1
        elif not _matches(self.baseline, self.candidate, job.level, job.expected, observed):
            return self.told(job, observed)
        prefix = _replay(job.level, job.request, job.expected)
        if prefix is None:
            return job.index, job.level, None
        job.replaying, job.answered = True, observed
        return None if self.send(job, prefix) else self.failed(job)


def _shrink(
    baseline: Engine, candidate: Engine, levels: list[str], found: tuple[Case, CaseResult]
) -> tuple[Case, CaseResult]:
    """The shortest prefix of the case's script on which the candidate still diverges."""
    case, _ = found
    key = LEVELS[case.level].played
    if key is None:
        return found
    if _timed_out(found[1]):  # each try would cost a time limit, or meet the breaker's refusal
        return found
    script = list(case.given[key])
    seed, index = int(case.provenance["seed"]), int(case.provenance["case"])
    for length in range(len(script)):
        shorter = {**case.given, key: script[:length]}
        again = fuzz_case(baseline, candidate, levels, seed, index, case.level, shorter)
        if again is not None and not _timed_out(again[1]):  # a timeout is no reproduction
            return again
    return found


def _timed_out(result: CaseResult) -> bool:
    """An error of an engine that did not answer in time (or was not asked again after)."""
    said = result.message
    return result.status is Status.ERROR and (
        said.startswith(_TIMED_OUT) or said.startswith(NO_ANSWER)
    )


KEEP_PER_KIND: Final = 3
"""Fixtures written for each kind of divergence, by default: more add nothing a reader needs."""


def kind_of(case: Case, result: CaseResult) -> str:
    """The kind of a divergence: its level, its rule and where it differs, indexes left out.

    The same mistake of an engine gives the same kind on every case it shows in (``round
    SCR-2: /events/*/credit``), so a campaign can keep a few cases of each and count the rest.
    """
    paths = sorted({_INDEX.sub("/*", d.path) or "/" for d in result.differences})
    where = ", ".join(paths[:4]) + (", ..." if len(paths) > 4 else "")
    return f"{case.level.value} {result.rule}: {where or result.status.value}"


_set_timer, _REAL = signal.setitimer, signal.ITIMER_REAL
_LONGEST_TIMER: Final = 1e8
"""Seconds: a longer limit is left to :class:`TimedEngine`'s own timer around each call."""


class _Armed:
    """A :class:`TimedEngine`'s engine under its time limit, the alarm's handler installed once.

    ``TimedEngine`` installs and removes a SIGALRM handler around every call; a campaign makes
    thousands of calls, so it installs the handler for the whole campaign (:func:`_armed`) and
    only sets and clears the timer around each call: the same limit, the same error. The timer
    is set anew for every call, not left repeating: a timed baseline's calls (``fiveup fuzz``
    times the reference too) set and clear the same timer in between.
    """

    def __init__(self, timed: TimedEngine) -> None:
        self.engine = timed.engine
        self.timeout = timed.timeout

    def info(self) -> EngineInfo:
        """The wrapped engine's identity, within the time limit."""
        signal.setitimer(signal.ITIMER_REAL, self.timeout)
        try:
            return self.engine.info()
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)

    def run(self, level: str, given: dict[str, JSON]) -> dict[str, JSON]:
        """Run one case, within the time limit."""
        _set_timer(_REAL, self.timeout)
        try:
            return self.engine.run(level, given)
        finally:
            _set_timer(_REAL, 0)


@contextmanager
def _armed(candidate: Engine) -> Iterator[Engine]:
    """The candidate to call for a campaign: a timed in-process engine as an :class:`_Armed`."""
    if (
        type(candidate) is not TimedEngine
        or not 0 < candidate.timeout < _LONGEST_TIMER
        or threading.current_thread() is not threading.main_thread()
    ):
        yield candidate
        return
    armed = _Armed(candidate)

    def expire(signum: int, frame: FrameType | None) -> None:
        raise no_answer(armed.timeout)

    previous = signal.signal(signal.SIGALRM, expire)
    try:
        yield armed
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def run_campaign(
    baseline: Engine,
    candidate: Engine,
    seed: int,
    indexes: Iterable[int],
    *,
    players: int | None = None,
    levels: Iterable[Level] | None = None,
    out: Path | None = None,
    progress: Callable[[Findings], None] | None = None,
    keep: int | None = KEEP_PER_KIND,
) -> Findings:
    """Play the cases at ``indexes`` of campaign ``seed``; write divergences to ``out``.

    ``players`` and ``levels`` narrow the cases (default: every player count, and every level
    the candidate declares). Every divergence is counted; the first ``keep`` of each kind
    (:func:`kind_of`; None: all) are written as fixtures.
    """
    with _armed(candidate) as armed, _collector_paused():
        return _campaign(baseline, armed, seed, indexes, players, levels, out, progress, keep)


COLLECT_EVERY: Final = 200
"""Cases between two collections of the young generations while a campaign runs."""
FULL_COLLECT_EVERY: Final = 100
"""Young collections between two full ones (every 20,000 cases): garbage that had lived through
a young collection (an engine's cache entry, evicted later) is in the oldest generation."""


@contextmanager
def _collector_paused() -> Iterator[None]:
    """The cyclic garbage collector off for a campaign, collecting every :data:`COLLECT_EVERY`.

    A case makes thousands of containers (a round's log, two observations) and frees them all
    by reference counting: the campaign's own code builds no reference cycles (a test runs a
    campaign of every level and finds nothing for the collector), so the automatic collections,
    one every 700 new containers, walk live objects for nothing. What an engine under test or
    a divergence's report may leave in cycles is still collected: :func:`_campaign` collects
    the young generations every :data:`COLLECT_EVERY` cases and all of them every
    :data:`FULL_COLLECT_EVERY` young collections, so memory stays bounded. The collector is
    switched back on after (if it was on), whatever happens.
    """
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


def _campaign(
    baseline: Engine, candidate: Engine, seed: int, indexes: Iterable[int], players: int | None,
    levels: Iterable[Level] | None, out: Path | None, progress: Callable[[Findings], None] | None,
    keep: int | None,
) -> Findings:  # fmt: skip
    tally = Findings(seed)
    kinds: dict[str, int] = {}
    claims = Claims.of(candidate.info())
    declared = claims.touched_levels  # a level of which a feature is claimed
    wanted = set(LEVEL_WEIGHTS if levels is None else levels)
    chosen = tuple(lv for lv in LEVEL_WEIGHTS if lv.value in declared and lv in wanted)
    if not chosen:  # else every case would be of an unclaimed level, and pass unplayed
        asked = ", ".join(lv.value for lv in LEVEL_WEIGHTS if lv in wanted)
        said = ", ".join(claims.claimed) or "nothing"
        raise UsageError(f"nothing to play: fuzz plays {asked}, and the engine claims {said}")
    functions = _claimed_functions(claims)
    start = time.perf_counter()
    free = _standard_reference(baseline)  # its observations of round cases come with them
    pipe = pipelined(candidate)
    unrepeated: set[int] = set()
    if pipe is not None:
        cases = (
            (index, level, given, observation if free else None)
            for index in indexes
            for level, given, observation in (
                observed_case(seed, index, players, chosen, functions=functions),
            )
        )
        pipeline = _Pipeline(baseline, candidate, declared, seed, cases, pipe)
        unrepeated = pipeline.unrepeated
        verdicts = pipeline.verdicts()
    else:
        judge = _Judge(baseline, candidate, declared, seed)
        unrepeated = judge.unrepeated
        verdicts = judge.verdicts(seed, indexes, players, chosen, free, functions)
    try:
        for index, level, found in verdicts:
            tally.cases += 1
            tally.rounds += level is Level.ROUND
            name = level._value_  # the member's value itself (``.value`` is a property)
            tally.by_level[name] = tally.by_level.get(name, 0) + 1
            if found is not None:
                if index in unrepeated:
                    case, result = found
                else:
                    case, result = _shrink(baseline, candidate, declared, found)
                kind = kind_of(case, result)
                seen = kinds[kind] = kinds.get(kind, 0) + 1
                kept = out is not None and (keep is None or seen <= keep)
                written = write_fixture(out, case, result) if kept and out is not None else ""
                tally.divergences.append(Divergence(index, case, result, written, kind))
            if tally.cases % COLLECT_EVERY == 0:
                full = tally.cases % (COLLECT_EVERY * FULL_COLLECT_EVERY) == 0
                gc.collect(2 if full else 1)
                if progress is not None:
                    tally.seconds = time.perf_counter() - start
                    progress(tally)
    except KeyboardInterrupt:
        tally.interrupted = True
    tally.seconds = time.perf_counter() - start
    return tally


def fixture_of(case: Case, result: CaseResult) -> dict[str, Any]:
    """The divergence as a fixture case of ``spec/fixtures.md`` (the baseline's observation)."""
    differences = [d.text for d in result.differences[:5]] or [result.message]
    rule = result.rule if result.status is Status.FAIL else case.primary_rule
    fixture: dict[str, Any] = {
        "id": case.id,
        "title": f"Fuzz divergence: {differences[0]}"[:200],
        "description": "Found by fiveup fuzz; the expectation is the baseline engine's "
        "observation, not a derivation by hand. The candidate differed: " + "; ".join(differences),
        "rules": [rule],
        "provenance": dict(case.provenance),
        "level": case.level.value,
        "given": dict(case.given),
        "expect": dict(case.expect),
    }
    decisions = implied_decisions(fixture)
    if not decisions:
        return fixture
    ordered: dict[str, Any] = {}
    for key, value in fixture.items():
        ordered[key] = value
        if key == "rules":  # right after rules, as spec/fixtures.md orders the keys
            ordered["decisions"] = decisions
    return ordered


def write_fixture(out: Path, case: Case, result: CaseResult) -> str:
    """Write the divergence as ``out/<case id>.yaml``, whole or not at all; return its path.

    The text goes to a fresh temporary file of ``out`` (created exclusively, so a symbolic link
    or a FIFO planted under a predictable name is neither written through nor waited on) that
    is then renamed over the fixture's name: a link of that name is replaced, not followed.
    """
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"{case.id}.yaml"
    text = yaml.safe_dump(
        {"cases": [fixture_of(case, result)]}, sort_keys=False, allow_unicode=True, width=100
    )
    write_whole(path, text)
    return str(path)
