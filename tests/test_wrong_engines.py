"""Proof that the suite has teeth: deliberately wrong engines, each breaking one rule, all rejected.

Every script in ``tests/wrong_engines/`` serves the reference engine over the process protocol
after monkeypatching it to break exactly one rule of ``spec/rules.md``, the way a real
third-party engine gets it wrong (its docstring says which rule and how). Each one is certified
against the whole bundled corpus with ``fiveup certify --engine-cmd``: the run must not conform,
the cases listed below must be among its failed cases, and no case may error - a wrong engine
has to be caught by a rule, not by a crash. The unpatched reference served the same way
(``python -m fiveup engine``) conforms, so every rejection is due to the break. That protocol
run of every wrong engine is a campaign (``pytest -m campaign``, which ``.ci/run`` runs); the
default run certifies each wrong engine in-process on every level but ``moves``.

Each entry: the engine, the rule it breaks, the break; then the most telling cases that catch
it (more cases fail; at least one of those listed checks the broken rule itself)::

    cnt1_sums_connection_points        CNT-1  sums the connection points, not the counted ends
        rule.layout.cnt-1.points-are-not-counted-ends, doc.layout.branches-1-2,
        doc.layout.doubles-4-4
    cnt2_zero_end_not_counted          CNT-2  a free end of value 0 is no counted end
        rule.layout.cnt-2.zero-end-counts-zero, rule.layout.cnt-2.zero-end-beside-five,
        doc.layout.sum-to-points-0-0
    cnt3_terminal_double_once          CNT-3  a terminal double counts d, not 2d
        rule.layout.cnt-3.terminal-double-no-line-side-sum-12,
        rule.layout.cnt-3.terminal-double-one-line-side, doc.layout.sum-to-points-6-6
    cnt4_internal_double_counts        CNT-4  an internal double still counts 2d
        rule.layout.cnt-4.internal-double-counts-nothing, doc.layout.doubles-3-4,
        doc.layout.branches-1-2
    cnt5_unstarted_branch_counts       CNT-5  an unstarted branch counts the double's value
        rule.layout.cnt-5.unstarted-branch-zero-started-branch-outer-end,
        doc.layout.branches-1-2, doc.layout.branches-1-5
    spn1_only_first_double_spins       SPN-1  later doubles are plain tiles without branches
        rule.layout.spn-1.double-in-branch, doc.layout.branches-0-5,
        rule.round.three-players.out-with-negative-score
    spn2_branch_after_one_line_side    SPN-2  branches open once one line side is occupied
        rule.layout.spn-2.joined-double-branch-before-line-b-refused,
        rule.layout.spn-2.opening-double-one-line-side-refused,
        rule.round.illegal.branch-of-joined-double-before-line-b
    spn3_branch_a_before_branch_b      SPN-3  branch B opens only after branch A
        rule.layout.spn-3.branch-b-first-leaves-branch-a-open,
        rule.layout.spn-3.branch-b-first-then-branch-a, doc.layout.branches-1-3
    spn4_double_in_branch_not_spinner  SPN-4  a double in a branch is not a spinner
        rule.layout.spn-4.double-in-branch-line-sides-then-branches,
        rule.layout.spn-4.double-in-branch-branch-before-line-b-refused, doc.layout.branches-0-5
    scr1_last_tile_not_scored          SCR-1  the last tile's credit never reaches the score
        doc.round.last-tile-scored-normally, rule.round.two-players.out-after-drawing
    scr2_credit_rounded_sum            SCR-2  a sum not a multiple of 5 is credited, rounded
        doc.scoring.credit-12, doc.scoring.credit-14, doc.scoring.credit-17,
        rule.layout.scr-2.sum-17-earns-nothing
    scr3_credit_to_next_seat           SCR-3  the credit goes to the next seat's side
        rule.round.four-players.out-partners-share-credit,
        rule.round.three-players.out-with-negative-score
    pen1_blocked_round_not_counted     PEN-1  no penalties after a blocked round
        rule.round.four-players.blocked, rule.round.illegal.pass-after-block
    pen2_remainder_three_rounds_down   PEN-2  a remainder of 3 rounds down
        doc.scoring.penalty-3, doc.scoring.side-penalty-3-3,
        doc.round.partners-three-pips-each-lose-ten
    pen3_penalty_in_displayed_points   PEN-3  the penalty is subtracted in displayed points
        doc.round.partners-three-pips-each-lose-ten,
        rule.round.three-players.out-with-negative-score
    pen4_partners_pips_merged          PEN-4  partners' pips are merged before rounding
        doc.round.partners-three-pips-each-lose-ten, doc.scoring.side-penalty-3-3
    drw1_draw_while_able               DRW-1  a player who can play may draw
        rule.round.illegal.draw-while-able-to-play, rule.round.illegal.opener-draws,
        rule.round.illegal.draw-while-able-boneyard-empty
    drw2_empty_boneyard_draw_passes    DRW-2  a draw from the empty boneyard becomes a pass
        rule.round.illegal.draw-from-empty-boneyard
    drw3_drawn_tile_not_pending        DRW-3  a drawn playable tile may wait (DRW-4 too)
        rule.round.illegal.other-tile-instead-of-drawn,
        rule.round.illegal.draw-again-after-playable-draw,
        rule.round.illegal.pass-after-playable-draw
    drw5_pass_with_tiles_in_boneyard   DRW-5  a stuck player may pass with tiles to draw
        rule.round.illegal.pass-with-tiles-in-boneyard
    end1_block_beats_going_out         END-1  going out that also blocks is recorded as a block
        rule.round.two-players.out-with-the-move-that-would-block
    end2_blocked_when_next_seat_stuck  END-2  blocked as soon as the seat to act is stuck
        rule.round.four-players.empty-boneyard-pass-not-blocked,
        rule.round.illegal.pass-after-block
    end4_out_wins_opponents_pips       END-4  going out wins the opponents' pips
        doc.round.last-tile-scored-normally, rule.round.two-players.out-after-drawing
    mat1_target_checked_mid_round      MAT-1  a credit reaching 305 wins at once
        rule.match.target-passed-mid-round-penalty-takes-it-back
    mat3_tie_at_top_first_side_wins    MAT-3  a tie at the top is won by the first side
        rule.match.tie-at-top-another-round-decides, rule.match.partnerships-tied-then-decided
    mat4_exact_target_only             MAT-4  only exactly 305 wins
        rule.match.score-above-target-accepted, rule.match.winner-of-a-round-opens-the-next
    mat5_score_floored_at_zero         MAT-5  a score never goes below zero
        rule.round.three-players.out-with-negative-score
    opn2_highest_double_opens          OPN-2  the holder of the highest double opens
        rule.round.two-players.out-after-drawing
    opn3_next_opener_rotates           OPN-3  the opening passes clockwise round by round
        rule.match.winner-of-a-round-opens-the-next,
        rule.match.next-round-opened-by-who-went-out
    opn5_opening_double_forced         OPN-5  an opener holding a double must open with one
        rule.round.three-players.out-with-negative-score
    ply3_partners_side_by_side         PLY-3  partners are seats 0-1 and 2-3
        rule.round.four-players.out-partners-share-credit,
        doc.round.partners-three-pips-each-lose-ten
    set3_seven_tiles_dealt             SET-3  7 tiles are dealt to each player
        rule.round.two-players.out-after-drawing,
        rule.round.four-players.out-partners-share-credit
    set4_last_two_tiles_held_back      SET-4  the last two boneyard tiles cannot be drawn
        rule.round.four-players.empty-boneyard-pass-not-blocked,
        rule.round.four-players.blocked
    trn1_counterclockwise              TRN-1  turns pass counter-clockwise
        rule.round.illegal.out-of-turn-three-players,
        rule.round.three-players.drawn-tile-at-chosen-point
    trn2_draw_ends_turn                TRN-2  an unplayable draw ends the turn
        rule.round.two-players.drawn-playable-tile-pending,
        rule.round.two-players.out-after-drawing
    trn3_acts_for_seat_to_play         TRN-3  another seat's action is played for the seat to act
        rule.round.illegal.out-of-turn, rule.round.illegal.wrong-seat-while-tile-pending
"""

from __future__ import annotations

import importlib.util
import json
import multiprocessing
import os
import shlex
import sys
from collections.abc import Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from fiveup.cli import main
from fiveup.contract.engine import Level
from fiveup.harness.certify import Conclusion, Verdict, certify
from fiveup.harness.corpus import Corpus, load_corpus
from fiveup.harness.spec_index import spec_rules
from fiveup.reference import ReferenceEngine

WRONG_ENGINES_DIR = Path(__file__).parent / "wrong_engines"
REFERENCE = "reference"


@dataclass(frozen=True)
class WrongEngine:
    """A script in tests/wrong_engines/, the rule it breaks and cases that must catch it."""

    name: str
    rule: str
    catching: tuple[str, ...]

    @property
    def path(self) -> Path:
        return WRONG_ENGINES_DIR / f"{self.name}.py"


def _engine(name: str, rule: str, *catching: str) -> WrongEngine:
    return WrongEngine(name, rule, catching)


# fmt: off
WRONG_ENGINES = (
    _engine(
        "cnt1_sums_connection_points", "CNT-1",
        "rule.layout.cnt-1.points-are-not-counted-ends", "doc.layout.branches-1-2",
        "doc.layout.doubles-4-4",
    ),
    _engine(
        "cnt2_zero_end_not_counted", "CNT-2",
        "rule.layout.cnt-2.zero-end-counts-zero", "rule.layout.cnt-2.zero-end-beside-five",
        "doc.layout.sum-to-points-0-0",
    ),
    _engine(
        "cnt3_terminal_double_once", "CNT-3",
        "rule.layout.cnt-3.terminal-double-no-line-side-sum-12",
        "rule.layout.cnt-3.terminal-double-one-line-side", "doc.layout.sum-to-points-6-6",
    ),
    _engine(
        "cnt4_internal_double_counts", "CNT-4",
        "rule.layout.cnt-4.internal-double-counts-nothing", "doc.layout.doubles-3-4",
        "doc.layout.branches-1-2",
    ),
    _engine(
        "cnt5_unstarted_branch_counts", "CNT-5",
        "rule.layout.cnt-5.unstarted-branch-zero-started-branch-outer-end",
        "doc.layout.branches-1-2", "doc.layout.branches-1-5",
    ),
    _engine(
        "spn1_only_first_double_spins", "SPN-1",
        "rule.layout.spn-1.double-in-branch", "doc.layout.branches-0-5",
        "rule.round.three-players.out-with-negative-score",
    ),
    _engine(
        "spn2_branch_after_one_line_side", "SPN-2",
        "rule.layout.spn-2.joined-double-branch-before-line-b-refused",
        "rule.layout.spn-2.opening-double-one-line-side-refused",
        "rule.round.illegal.branch-of-joined-double-before-line-b",
    ),
    _engine(
        "spn3_branch_a_before_branch_b", "SPN-3",
        "rule.layout.spn-3.branch-b-first-leaves-branch-a-open",
        "rule.layout.spn-3.branch-b-first-then-branch-a", "doc.layout.branches-1-3",
    ),
    _engine(
        "spn4_double_in_branch_not_spinner", "SPN-4",
        "rule.layout.spn-4.double-in-branch-line-sides-then-branches",
        "rule.layout.spn-4.double-in-branch-branch-before-line-b-refused",
        "doc.layout.branches-0-5",
    ),
    _engine(
        "scr1_last_tile_not_scored", "SCR-1",
        "doc.round.last-tile-scored-normally", "rule.round.two-players.out-after-drawing",
    ),
    _engine(
        "scr2_credit_rounded_sum", "SCR-2",
        "doc.scoring.credit-12", "doc.scoring.credit-14", "doc.scoring.credit-17",
        "rule.layout.scr-2.sum-17-earns-nothing",
    ),
    _engine(
        "scr3_credit_to_next_seat", "SCR-3",
        "rule.round.four-players.out-partners-share-credit",
        "rule.round.three-players.out-with-negative-score",
    ),
    _engine(
        "pen1_blocked_round_not_counted", "PEN-1",
        "rule.round.four-players.blocked", "rule.round.illegal.pass-after-block",
    ),
    _engine(
        "pen2_remainder_three_rounds_down", "PEN-2",
        "doc.scoring.penalty-3", "doc.scoring.side-penalty-3-3",
        "doc.round.partners-three-pips-each-lose-ten",
    ),
    _engine(
        "pen3_penalty_in_displayed_points", "PEN-3",
        "doc.round.partners-three-pips-each-lose-ten",
        "rule.round.three-players.out-with-negative-score",
    ),
    _engine(
        "pen4_partners_pips_merged", "PEN-4",
        "doc.round.partners-three-pips-each-lose-ten", "doc.scoring.side-penalty-3-3",
    ),
    _engine(
        "drw1_draw_while_able", "DRW-1",
        "rule.round.illegal.draw-while-able-to-play", "rule.round.illegal.opener-draws",
        "rule.round.illegal.draw-while-able-boneyard-empty",
    ),
    _engine(
        "drw2_empty_boneyard_draw_passes", "DRW-2",
        "rule.round.illegal.draw-from-empty-boneyard",
    ),
    _engine(
        "drw3_drawn_tile_not_pending", "DRW-3",
        "rule.round.illegal.other-tile-instead-of-drawn",
        "rule.round.illegal.draw-again-after-playable-draw",
        "rule.round.illegal.pass-after-playable-draw",
    ),
    _engine(
        "drw5_pass_with_tiles_in_boneyard", "DRW-5",
        "rule.round.illegal.pass-with-tiles-in-boneyard",
    ),
    _engine(
        "end1_block_beats_going_out", "END-1",
        "rule.round.two-players.out-with-the-move-that-would-block",
    ),
    _engine(
        "end2_blocked_when_next_seat_stuck", "END-2",
        "rule.round.four-players.empty-boneyard-pass-not-blocked",
        "rule.round.illegal.pass-after-block",
    ),
    _engine(
        "end4_out_wins_opponents_pips", "END-4",
        "doc.round.last-tile-scored-normally", "rule.round.two-players.out-after-drawing",
    ),
    _engine(
        "mat1_target_checked_mid_round", "MAT-1",
        "rule.match.target-passed-mid-round-penalty-takes-it-back",
    ),
    _engine(
        "mat3_tie_at_top_first_side_wins", "MAT-3",
        "rule.match.tie-at-top-another-round-decides", "rule.match.partnerships-tied-then-decided",
    ),
    _engine(
        "mat4_exact_target_only", "MAT-4",
        "rule.match.score-above-target-accepted", "rule.match.winner-of-a-round-opens-the-next",
    ),
    _engine(
        "mat5_score_floored_at_zero", "MAT-5",
        "rule.round.three-players.out-with-negative-score",
    ),
    _engine(
        "opn2_highest_double_opens", "OPN-2",
        "rule.round.two-players.out-after-drawing",
    ),
    _engine(
        "opn3_next_opener_rotates", "OPN-3",
        "rule.match.winner-of-a-round-opens-the-next",
        "rule.match.next-round-opened-by-who-went-out",
    ),
    _engine(
        "opn5_opening_double_forced", "OPN-5",
        "rule.round.three-players.out-with-negative-score",
    ),
    _engine(
        "ply3_partners_side_by_side", "PLY-3",
        "rule.round.four-players.out-partners-share-credit",
        "doc.round.partners-three-pips-each-lose-ten",
    ),
    _engine(
        "set3_seven_tiles_dealt", "SET-3",
        "rule.round.two-players.out-after-drawing",
        "rule.round.four-players.out-partners-share-credit",
    ),
    _engine(
        "set4_last_two_tiles_held_back", "SET-4",
        "rule.round.four-players.empty-boneyard-pass-not-blocked",
        "rule.round.four-players.blocked",
    ),
    _engine(
        "trn1_counterclockwise", "TRN-1",
        "rule.round.illegal.out-of-turn-three-players",
        "rule.round.three-players.drawn-tile-at-chosen-point",
    ),
    _engine(
        "trn2_draw_ends_turn", "TRN-2",
        "rule.round.two-players.drawn-playable-tile-pending",
        "rule.round.two-players.out-after-drawing",
    ),
    _engine(
        "trn3_acts_for_seat_to_play", "TRN-3",
        "rule.round.illegal.out-of-turn", "rule.round.illegal.wrong-seat-while-tile-pending",
    ),
)
# fmt: on


@dataclass(frozen=True)
class Certification:
    """What one ``fiveup certify --format json`` run gave: its exit code and its report."""

    exit_code: int
    report: dict[str, Any]

    def verdicts(self) -> dict[str, str]:
        """The verdict of every case by its ID."""
        return {case["id"]: case["verdict"] for case in self.report.get("cases", [])}

    def rules(self) -> dict[str, list[str]]:
        """The rule IDs every case checks, by case ID."""
        return {case["id"]: case["rules"] for case in self.report.get("cases", [])}


class Certifications:
    """Certification runs of engines by name, in a pool of worker processes.

    Each run is ``fiveup.cli.main`` certifying one engine command. Asking for one engine's result
    also starts the runs of the next few engines in ``order``, so the pool stays busy while the
    tests go through the list, and a session that runs only some tests (``-k``) certifies little
    more than those. Worker processes rather than threads: most
    of a run is the harness validating the engine's messages, pure Python that threads would take
    turns at.
    """

    def __init__(
        self, pool: ProcessPoolExecutor, folder: Path, order: list[str], lookahead: int
    ) -> None:
        """Runs in ``pool``, reports in ``folder``; ``order`` is the order tests ask in."""
        self._pool = pool
        self._folder = folder
        self._order = order
        self._lookahead = lookahead
        self._runs: dict[str, Future[int]] = {}

    def _start(self, name: str) -> None:
        if name in self._runs:
            return
        if name == REFERENCE:
            command = [sys.executable, "-m", "fiveup", "engine"]
        else:
            command = [sys.executable, str(WRONG_ENGINES_DIR / f"{name}.py")]
        argv = ["certify", "--engine-cmd", shlex.join(command), "--format", "json"]
        argv += ["--output", str(self._folder / f"{name}.json")]
        self._runs[name] = self._pool.submit(main, argv)

    def __getitem__(self, name: str) -> Certification:
        self._start(name)
        if name in self._order:
            at = self._order.index(name)
            for following in self._order[at + 1 : at + 1 + self._lookahead]:
                self._start(following)
        exit_code = self._runs[name].result()
        output = self._folder / f"{name}.json"
        report = json.loads(output.read_text(encoding="utf-8")) if output.exists() else {}
        return Certification(exit_code, report)

    def cancel(self) -> None:
        """Drop the runs not started yet."""
        for run in self._runs.values():
            run.cancel()


@pytest.fixture(scope="module")
def certifications(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Certifications]:
    """The reference and the wrong engines of the collected tests, certified concurrently."""
    order = [REFERENCE]
    for item in request.session.items:
        callspec = getattr(item, "callspec", None)
        engine = callspec.params.get("engine") if callspec is not None else None
        if isinstance(engine, WrongEngine):
            order.append(engine.name)
    workers = os.cpu_count() or 2
    # An xdist worker runs an unknown share of the tests: certify only the engines it asks for.
    lookahead = 0 if "PYTEST_XDIST_WORKER" in os.environ else 2 * workers
    context = multiprocessing.get_context("spawn")  # no fork of the test process
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        runs = Certifications(pool, tmp_path_factory.mktemp("wrong_engines"), order, lookahead)
        yield runs
        runs.cancel()


def test_reference_served_the_same_way_conforms(
    certifications: Certifications,
) -> None:
    run = certifications[REFERENCE]
    assert run.exit_code == 0, run.report.get("summary")
    assert run.report["conforms"] is True
    summary = run.report["summary"]
    assert summary["passed"] == run.report["corpus"]["cases"] == len(run.verdicts()) > 0
    assert summary["failed"] == summary["errored"] == summary["unsupported"] == 0


def _in_process(engine: WrongEngine) -> ReferenceEngine:
    spec = importlib.util.spec_from_file_location(f"_wrong_engine_{engine.name}", engine.path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    loaded = module.ENGINE
    assert isinstance(loaded, ReferenceEngine)
    return loaded


@pytest.fixture(scope="module")
def corpus() -> Corpus:
    return load_corpus()


@pytest.mark.parametrize("engine", WRONG_ENGINES, ids=lambda engine: engine.name)
def test_wrong_engine_in_process_is_rejected_by_the_cases_of_its_rule(
    corpus: Corpus, engine: WrongEngine
) -> None:
    """The default run's check: in-process, the levels but ``moves`` (the campaign plays all)."""
    cases = [case for case in corpus.cases if case.level is not Level.MOVES]
    run = certify(_in_process(engine), corpus, cases)
    verdicts = {o.result.case.id: o.verdict for o in run.outcomes}
    assert run.conclusion is Conclusion.DOES_NOT_CONFORM
    errored = sorted(case for case, verdict in verdicts.items() if verdict is Verdict.ERRORED)
    assert errored == [], "a wrong engine must be caught by a rule, not by a crash"
    assert {case: verdicts.get(case) for case in engine.catching} == {
        case: Verdict.FAILED for case in engine.catching
    }
    by_id = corpus.by_id()
    checked = {rule for case in engine.catching for rule in by_id[case].rules}
    assert engine.rule in checked, f"no listed case checks {engine.rule}: caught only by accident"


@pytest.mark.campaign
@pytest.mark.parametrize("engine", WRONG_ENGINES, ids=lambda engine: engine.name)
def test_wrong_engine_is_rejected_by_the_cases_of_its_rule(
    certifications: Certifications, engine: WrongEngine
) -> None:
    run = certifications[engine.name]
    assert run.exit_code == 1, run.report.get("summary")
    assert run.report["conforms"] is False
    assert run.report["handshake_error"] is None
    verdicts = run.verdicts()
    assert len(verdicts) == run.report["corpus"]["cases"]
    errored = sorted(case for case, verdict in verdicts.items() if verdict == "errored")
    assert errored == [], "a wrong engine must be caught by a rule, not by a crash"
    assert {case: verdicts.get(case) for case in engine.catching} == {
        case: "failed" for case in engine.catching
    }
    rules = run.rules()
    checked = {rule for case in engine.catching for rule in rules[case]}
    assert engine.rule in checked, f"no listed case checks {engine.rule}: caught only by accident"


def test_every_wrong_engine_is_listed_with_a_rule_of_the_spec() -> None:
    assert sorted(p.stem for p in WRONG_ENGINES_DIR.glob("*.py")) == sorted(
        engine.name for engine in WRONG_ENGINES
    )
    checkable = {rule.id for rule in spec_rules().values() if rule.checkable}
    for engine in WRONG_ENGINES:
        assert engine.rule in checkable, engine.name
        assert engine.name.startswith(engine.rule.lower().replace("-", "")), engine.name
        docstring = engine.path.read_text(encoding="utf-8").split('"""')[1]
        assert docstring.startswith(f"Wrong engine: breaks {engine.rule} "), engine.name
    assert len({engine.rule for engine in WRONG_ENGINES}) == len(WRONG_ENGINES) >= 15


def test_module_docstring_table_matches_the_list() -> None:
    lines = (__doc__ or "").splitlines()
    for engine in WRONG_ENGINES:
        start = next(i for i, line in enumerate(lines) if line.split()[:1] == [engine.name])
        assert lines[start].split()[1] == engine.rule, engine.name
        block = []
        for line in lines[start + 1 :]:
            if not line.startswith(" " * 8):
                break
            block.append(line)
        listed = {case.strip() for case in " ".join(block).split(",")}
        assert listed == set(engine.catching), engine.name
