"""The fixture linter behind ``fiveup validate``.

First the JSON Schema (the format), then sanity checks the schema cannot express: unique IDs,
rule IDs that exist in the spec, canonical tiles, deals that are permutations of the 28 tiles,
scripts that name only tiles and points that exist, expectations whose sizes fit the case, and
the coverage of every checkable spec rule.
"""

from __future__ import annotations

import contextlib
import difflib
import itertools
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from fiveup.contract.engine import Level
from fiveup.contract.notation import ALL_TILES, Action, Placement, Point, Tile
from fiveup.contract.players import HAND_SIZE, side_count
from fiveup.contract.schemas import json_words
from fiveup.contract.shapes import fixture_errors
from fiveup.errors import NotationError

from .sources import (
    MAX_PROBLEMS,
    MAX_RUN_PROBLEMS,
    TOO_MANY_PROBLEMS,
    Problem,
    SourceFile,
    pointer,
    read_yaml,
)
from .spec_index import (
    CONVENTIONS,
    QUESTION_ID,
    Retired,
    Rule,
    decision_number,
    retired_ids,
    spec_open_questions,
    spec_rules,
)

if TYPE_CHECKING:  # imported where a file has problems to describe: a valid corpus needs none
    import jsonschema


def rounded_penalty(pips: int) -> int:
    """PEN-2, restated here so that the linter does not lean on the engine it checks."""
    return (pips + 2) // 5 * 5


def placement_credit(total: int) -> int:
    """SCR-2, restated for the same reason."""
    return total if total > 0 and total % 5 == 0 else 0


@dataclass(slots=True)
class LintReport:
    """What the linter found: problems, the parsed files and rule coverage."""

    sources: list[SourceFile] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    coverage: dict[str, list[str]] = field(default_factory=dict)
    """Case IDs by rule ID, for every rule of the spec."""
    checked: int = 0
    """How many files were checked."""
    stopped: bool = False
    """True when the files were not all checked: too many problems were found before."""

    @property
    def case_count(self) -> int:
        """How many cases the valid files hold."""
        return sum(len(s.data["cases"]) for s in self.sources)


FRESH_PREFIX: Final = "fresh."
"""The case-ID prefix of the fresh cases certify makes in a run; no fixture may take it."""


def _schema_problems(src: SourceFile) -> list[Problem]:
    found = []
    errors = fixture_errors(src.data)
    for err in itertools.islice(errors, MAX_PROBLEMS + 1):
        # A failed `if/then` or `oneOf` hides the real cause one level down: report the
        # deepest errors, which name the actual key or value.
        leaves = _leaf_errors(err)
        for leaf in leaves:
            ptr = pointer([*leaf.absolute_path, *_unexpected_key(leaf)])
            found.append(src.problem(ptr, f"schema: {_schema_message(leaf)}"))
    return sorted(set(found))


def _unexpected_key(error: jsonschema.ValidationError) -> list[str]:
    """The first key ``additionalProperties`` refuses, so the problem is at its line."""
    if error.validator != "additionalProperties" or not isinstance(error.instance, dict):
        return []
    schema = error.schema
    known = schema.get("properties", {}) if isinstance(schema, dict) else {}
    extra = [key for key in error.instance if key not in known]
    return [extra[0]] if extra and isinstance(extra[0], str) else []


def _schema_message(error: jsonschema.ValidationError) -> str:
    if error.validator == "not" and isinstance(error.instance, str) and "\n" in error.instance:
        # common.json refuses a line break by "not": the message would only quote the schema
        return (
            f"{json_words(repr(error.instance))} holds a line break: none is allowed here, "
            "not even a final one"
        )
    if error.validator == "pattern" and error.validator_value == "\\S":
        return "a blank title: it says in one line what the case shows"
    if error.validator == "maxLength" and isinstance(error.instance, str):
        return f"{len(error.instance):,} characters: at most {error.validator_value}"
    return json_words(error.message)


def _leaf_errors(err: jsonschema.ValidationError) -> list[jsonschema.ValidationError]:
    if not err.context:
        return [err]
    import jsonschema.exceptions

    best = jsonschema.exceptions.best_match(err.context)
    return _leaf_errors(best) if best is not None else [err]


class _Enough(Exception):
    """More problems were found in a file than are reported: checking it stops."""


class _Checker:
    """Sanity checks on one schema-valid file."""

    def __init__(self, src: SourceFile, rules: Mapping[str, Rule]) -> None:
        self.src = src
        self.rules = rules
        self.problems: list[Problem] = []

    def report(self, parts: Sequence[str | int], message: str) -> None:
        self.problems.append(self.src.problem(pointer(parts), message))
        if len(self.problems) > MAX_PROBLEMS:
            raise _Enough

    def check(self) -> None:
        with contextlib.suppress(_Enough):
            self._cases()

    def _cases(self) -> None:
        for i, case in enumerate(self.src.data["cases"]):
            at: list[str | int] = ["cases", i]
            for j, rule in enumerate(case["rules"]):
                if rule not in self.rules:
                    self.report([*at, "rules", j], f"unknown rule ID {rule} (not in spec/rules.md)")
                elif not self.rules[rule].checkable:
                    self.report(
                        [*at, "rules", j], f"rule {rule} is a conduct rule: no case can check it"
                    )
            self._tiles(case["given"], [*at, "given"])
            self._tiles(case["expect"], [*at, "expect"])
            _LEVEL_CHECKS[Level(case["level"])](self, case, at)

    def _tiles(self, value: Any, at: list[str | int]) -> None:
        """Every tile, point and placement text in the case is canonical and exists."""
        if isinstance(value, dict):
            for k, v in value.items():
                if isinstance(k, str) and k.startswith("["):
                    self._text(k, [*at, k], key=True)
                self._tiles(v, [*at, k])
        elif isinstance(value, list):
            for k, v in enumerate(value):
                self._tiles(v, [*at, k])
        elif isinstance(value, str) and "[" in value:
            self._text(value, at, key=False)

    def _text(self, text: str, at: list[str | int], *, key: bool) -> None:
        try:
            parsed: Tile | Point | Placement | Action
            if text[0].isdigit():
                parsed = Action.parse(text)
            elif ":" in text and "@" not in text:
                parsed = Point.parse(text)
            else:
                parsed = Placement.parse(text)
                if parsed.target is None:
                    parsed = parsed.tile
        except NotationError as exc:
            self.report(at, str(exc))
            return
        if parsed.text != text:
            self.report(at, f"{text!r} is not canonical: write {parsed.text!r}")

    def _scoring(self, case: Mapping[str, Any], at: list[str | int]) -> None:
        fn, value = case["given"]["function"], case["given"]["input"]
        wants_list = fn == "side_penalty"
        if wants_list != isinstance(value, list):
            kind = "a list of pips, one per partner" if wants_list else "a whole number"
            self.report([*at, "given", "input"], f"function {fn} takes {kind}")
        if (fn == "tally") != isinstance(case["expect"]["value"], dict):
            self.report(
                [*at, "expect", "value"],
                "tally answers {fifties, strokes}; the other functions a number",
            )
        if fn in ("displayed", "tally") and isinstance(value, int) and value % 5:
            self.report([*at, "given", "input"], f"{value} raw is not a multiple of 5")
        if fn != "displayed" and isinstance(value, int) and value < 0:
            self.report(
                [*at, "given", "input"],
                f"{fn} takes no negative number (only a "
                "score, converted by displayed, can be negative)",
            )

    def _layout(self, case: Mapping[str, Any], at: list[str | int]) -> None:
        placements = case["given"]["placements"]
        self._error_and_counts(
            case["expect"], len(placements), [*at, "expect"], "steps", "placements"
        )
        for k, step in enumerate(case["expect"].get("steps", [])):
            self._credit(step, [*at, "expect", "steps", k])
        snap = case["expect"].get("layout")
        if snap:
            self._snapshot(snap, [*at, "expect", "layout"])

    def _credit(self, entry: Mapping[str, Any], at: list[str | int]) -> None:
        """A sum, its credit and the displayed credit agree (SCR-2, PTS-1)."""
        if (
            "sum" in entry
            and "credit" in entry
            and placement_credit(entry["sum"]) != entry["credit"]
        ):
            self.report(
                [*at, "credit"],
                f"a sum of {entry['sum']} credits "
                f"{placement_credit(entry['sum'])}, not {entry['credit']} (SCR-2)",
            )
        if "credit" in entry and "displayed" in entry and entry["credit"] != 5 * entry["displayed"]:
            self.report(
                [*at, "displayed"],
                f"{entry['credit']} raw is "
                f"{entry['credit'] / 5:g} displayed, not {entry['displayed']} (PTS-1)",
            )

    def _snapshot(self, snap: Mapping[str, Any], at: list[str | int]) -> None:
        for text, value in snap.get("points", {}).items():
            try:
                if Point.parse(text).value != value:
                    self.report(
                        [*at, "points", text],
                        f"{text} has the value {Point.parse(text).value}, not {value}",
                    )
            except NotationError:
                pass  # reported by _tiles
        for k, (tile_text, value) in enumerate(snap.get("contributions", [])):
            try:
                tile = Tile.parse(tile_text)
            except NotationError:
                continue
            possible = {2 * tile.low} if tile.is_double else {tile.low, tile.high}
            if value not in possible:
                self.report(
                    [*at, "contributions", k],
                    f"{tile.text} can contribute only {sorted(possible)}, not {value}",
                )
        if "contributions" in snap and "sum" in snap:
            total = sum(v for _, v in snap["contributions"])
            if total != snap["sum"]:
                self.report(
                    [*at, "sum"], f"sum {snap['sum']} but the contributions add up to {total}"
                )

    def _error_and_counts(
        self, expect: Mapping[str, Any], actions: int, at: list[str | int], log: str, what: str
    ) -> None:
        accepted = actions
        if "error" in expect:
            err_at = expect["error"]["at"]
            if err_at is not None and err_at >= actions:
                self.report(
                    [*at, "error", "at"],
                    f"error at {what} index {err_at}, but there are only {actions} {what}",
                )
            elif err_at is not None:
                accepted = err_at
                if err_at != actions - 1:
                    self.report(
                        [*at, "error", "at"],
                        f"the refused action must be the last one ({what} after index "
                        f"{err_at} would never be played)",
                    )
        if log in expect and len(expect[log]) != accepted:
            self.report(
                [*at, log],
                f"{len(expect[log])} {log} listed but {accepted} {what} "
                "are accepted: list one entry per accepted action",
            )

    def _deal(self, start: Mapping[str, Any], players: int, at: list[str | int]) -> None:
        hands = start["hands"]
        if len(hands) != players:
            self.report([*at, "hands"], f"{len(hands)} hands for {players} players")
        for s, hand in enumerate(hands):
            if len(hand) != HAND_SIZE:
                self.report(
                    [*at, "hands", s], f"seat {s} is dealt {len(hand)} tiles, not 5 (SET-3)"
                )
        self._each_tile_once(start, at)
        opener = start.get("opener")
        if opener is not None and opener >= players:
            self.report([*at, "opener"], f"no seat {opener} with {players} players")
        for k, text in enumerate(start["actions"]):
            if "[" not in text:  # a play is checked with the tiles, by _tiles
                self._text(text, [*at, "actions", k], key=False)
            try:
                seat = Action.parse(text).seat
            except NotationError:
                continue
            if seat >= players:
                self.report([*at, "actions", k], f"no seat {seat} with {players} players")

    def _each_tile_once(self, start: Mapping[str, Any], at: list[str | int]) -> None:
        """Hands and boneyard together are the 28 tiles, each once."""
        hands = start["hands"]
        places: list[list[str | int]] = [
            ["hands", s, i] for s, hand in enumerate(hands) for i in range(len(hand))
        ]
        places.extend(["boneyard", i] for i in range(len(start["boneyard"])))
        deck = [t for hand in hands for t in hand] + list(start["boneyard"])
        first: dict[str, list[str | int]] = {}
        for tile, place in zip(deck, places, strict=True):
            if tile in first:
                where = "/".join(str(p) for p in first[tile])
                self.report(
                    [*at, *place],
                    f"{tile} is dealt twice (also at {where}): a deal is the 28 tiles, each once",
                )
            else:
                first[tile] = place
        missing = sorted({t.text for t in ALL_TILES} - set(deck))
        if missing:
            self.report(
                [*at, "boneyard"],
                f"the deal lacks {', '.join(missing)}: "
                "hands and boneyard together are the 28 tiles, each once",
            )

    def _round(self, case: Mapping[str, Any], at: list[str | int]) -> None:
        given, expect = case["given"], case["expect"]
        players = given["players"]
        self._deal(given, players, [*at, "given"])
        self._scores(given.get("scores"), players, [*at, "given", "scores"])
        self._error_and_counts(expect, len(given["actions"]), [*at, "expect"], "events", "actions")
        self._round_expect(expect, players, [*at, "expect"])

    def _round_expect(self, expect: Mapping[str, Any], players: int, at: list[str | int]) -> None:
        for k, event in enumerate(expect.get("events", [])):
            kinds = [v for v in ("play", "draw", "pass") if v in event]
            if len(kinds) > 1:
                self.report(
                    [*at, "events", k], f"an event is one of play, draw or pass, not {kinds}"
                )
            if ("sum" in event or "credit" in event) and kinds and kinds != ["play"]:
                self.report([*at, "events", k], "only a play has a sum and a credit")
            self._credit(event, [*at, "events", k])
            if event.get("seat", 0) >= players:
                self.report([*at, "events", k, "seat"], f"no seat {event['seat']}")
        state = expect.get("state", {})
        self._state(state, players, [*at, "state"])

    def _state(self, state: Mapping[str, Any], players: int, at: list[str | int]) -> None:
        if "hands" in state and len(state["hands"]) != players:
            self.report([*at, "hands"], f"{len(state['hands'])} hands for {players} players")
        self._scores(state.get("scores"), players, [*at, "scores"])
        if state.get("layout"):
            self._snapshot(state["layout"], [*at, "layout"])
        result = state.get("result")
        if result:
            for key in ("pips", "penalties"):
                if key in result and len(result[key]) != players:
                    self.report(
                        [*at, "result", key], f"{len(result[key])} entries for {players} players"
                    )
            if "pips" in result and "penalties" in result:
                for s, (pips, pen) in enumerate(
                    zip(result["pips"], result["penalties"], strict=False)
                ):
                    if rounded_penalty(pips) != pen:
                        self.report(
                            [*at, "result", "penalties", s],
                            f"{pips} pips round to {rounded_penalty(pips)}, not {pen} (PEN-2)",
                        )
            if result.get("end") == "blocked" and result.get("winner") is not None:
                self.report([*at, "result", "winner"], "a blocked round has no winner (END-3)")

    def _scores(self, scores: list[int] | None, players: int, at: list[str | int]) -> None:
        sides = side_count(players)
        if scores is not None and len(scores) != sides:
            self.report(at, f"{len(scores)} scores for {sides} sides ({players} players)")
        for k, score in enumerate(scores or []):
            if score % 5:
                self.report(
                    [*at, k],
                    f"score {score} is not a multiple of 5: every credit and "
                    "penalty is, so no game reaches it (PTS-1)",
                )

    def _match(self, case: Mapping[str, Any], at: list[str | int]) -> None:
        given, expect = case["given"], case["expect"]
        players = given["players"]
        self._scores(given.get("scores"), players, [*at, "given", "scores"])
        self._scores(expect.get("scores"), players, [*at, "expect", "scores"])
        for r, start in enumerate(given["rounds"]):
            self._deal(start, players, [*at, "given", "rounds", r])
        if "opener" not in given["rounds"][0] and expect.get("error", {}).get("round") != 0:
            self.report(
                [*at, "given", "rounds", 0],
                "the first round needs an opener (the neutral draw, OPN-1)",
            )
        for r, exp in enumerate(expect.get("rounds", [])):
            self._round_expect(exp, players, [*at, "expect", "rounds", r])
        if len(expect.get("rounds", [])) > len(given["rounds"]):
            self.report([*at, "expect", "rounds"], "more rounds expected than given")
        if "error" in expect and expect["error"]["round"] >= len(given["rounds"]):
            self.report([*at, "expect", "error", "round"], "no such round")
        winner = expect.get("winner")
        sides = side_count(players)
        if winner is not None and winner >= sides:
            self.report([*at, "expect", "winner"], f"no side {winner}")


def _moves_checks(checker: _Checker, case: Mapping[str, Any], at: list[str | int]) -> None:
    """A moves case: a round's deal, and expectations that agree with each other."""
    given, expect = case["given"], case["expect"]
    players = given["players"]
    checker._deal(given, players, [*at, "given"])
    checker._scores(given.get("scores"), players, [*at, "given", "scores"])
    checker._error_and_counts(expect, len(given["actions"]), [*at, "expect"], "", "actions")
    _moves_legal(checker, given, expect, at)
    _moves_divide(checker, given, expect, at)


def _moves_legal(
    checker: _Checker, given: Mapping[str, Any], expect: Mapping[str, Any], at: list[str | int]
) -> None:
    """The legal actions: canonical, of one seat of the game, each once; the count they make."""
    players, depth = given["players"], given["depth"]
    legal, count = expect.get("legal"), expect.get("count")
    for k, text in enumerate(legal or []):
        if "[" not in text:
            checker._text(text, [*at, "expect", "legal", k], key=False)
        with contextlib.suppress(NotationError):
            if Action.parse(text).seat >= players:
                checker.report([*at, "expect", "legal", k], f"no seat in {text!r}")
    if legal is not None and len(set(legal)) != len(legal):
        checker.report([*at, "expect", "legal"], "an action is listed twice")
    if legal is not None and len({text.split(" ")[0] for text in legal}) > 1:
        checker.report([*at, "expect", "legal"], "the legal actions are those of one seat")
    if count is not None and depth == 0 and count != 1:
        checker.report([*at, "expect", "count"], "depth 0 counts one sequence, the empty one")
    if count is not None and legal is not None and depth == 1 and count != len(legal):
        checker.report([*at, "expect", "count"], "at depth 1 the count is the legal actions'")


def _moves_divide(
    checker: _Checker, given: Mapping[str, Any], expect: Mapping[str, Any], at: list[str | int]
) -> None:
    """The divide: asked for, one entry per legal first action, adding up to the count."""
    depth = given["depth"]
    legal, count, divide = expect.get("legal"), expect.get("count"), expect.get("divide")
    if divide is not None:
        for text in divide:
            checker._text(text, [*at, "expect", "divide", text], key=True)
        if not given.get("divide"):
            checker.report([*at, "expect", "divide"], "a divide is expected but not asked for")
        if depth == 0 and divide:
            checker.report([*at, "expect", "divide"], "at depth 0 there is no first action")
        if legal is not None and depth > 0 and sorted(divide) != sorted(legal):
            checker.report(
                [*at, "expect", "divide"], "the divide names each legal action, and no other"
            )
        if count is not None and depth > 0 and sum(divide.values()) != count:
            checker.report(
                [*at, "expect", "count"], f"the divide adds up to {sum(divide.values())}"
            )


_LEVEL_CHECKS: Final[
    Mapping[Level, Callable[[_Checker, Mapping[str, Any], list[str | int]], None]]
] = {
    Level.SCORING: _Checker._scoring,
    Level.LAYOUT: _Checker._layout,
    Level.ROUND: _Checker._round,
    Level.MATCH: _Checker._match,
    Level.MOVES: _moves_checks,
}
"""The checks of a case of each level, beyond those every case gets."""


_OQ_MENTION: Final = re.compile(rf"\b{QUESTION_ID}\b")


def _scores_in(expect: Mapping[str, Any]) -> Iterator[int]:
    """Every score a round or match expectation names."""
    states = [expect.get("state", {}), *(r.get("state", {}) for r in expect.get("rounds", []))]
    for scores in [expect.get("scores"), *(s.get("scores") for s in states)]:
        yield from scores or []


def _results_in(expect: Mapping[str, Any]) -> Iterator[Mapping[str, Any]]:
    states = [expect.get("state", {}), *(r.get("state", {}) for r in expect.get("rounds", []))]
    yield from (s["result"] for s in states if s.get("result"))


def _implied_decisions(
    case: Mapping[str, Any], rules: Mapping[str, Rule]
) -> Iterator[tuple[str, str]]:
    """``(OQ-n, why)`` for each decision a case's expectation shows it depends on.

    Each test is a sign that cannot mislead: a cited rule whose text names the decision, or an
    expectation that only that decision gives (a negative score, a blocked round, a tally of
    50 or more, a draw refused with DRW-2, a round refused for want of an opener).
    """
    for rule in case["rules"]:
        if rule in rules:
            for oq in dict.fromkeys(_OQ_MENTION.findall(rules[rule].text)):
                yield oq, f"it cites {rule}, whose text in spec/rules.md names {oq}"
    expect, given = case["expect"], case["given"]
    if case["level"] in ("round", "match"):
        if any(score < 0 for score in _scores_in(expect)):
            yield "OQ-4", "it expects a score below zero"
        if any(result.get("end") == "blocked" for result in _results_in(expect)):
            yield "OQ-7", "it expects a blocked round, recognised at once"
    error = expect.get("error") or {}
    if error.get("rule") == "DRW-2":
        yield "OQ-19", "it expects a draw refused with DRW-2"
    if (
        case["level"] == "match"
        and error.get("at") is None
        and error.get("rule")
        in (
            "OPN-1",
            "OPN-4",
        )
    ):
        yield "OQ-8", "it expects a round refused for want of an opener"
    tally = case["level"] == "scoring" and given["function"] == "tally"
    if tally and isinstance(given["input"], int) and given["input"] >= 50:
        yield "OQ-18", "it expects a tally with a 50-point mark"


def implied_decisions(case: Mapping[str, Any]) -> list[str]:
    """The open questions a fixture case's expectation shows it depends on, in register order.

    What ``validate`` requires its ``decisions`` to hold (conventions left out): a case made
    by a tool (``fiveup fuzz``) lists these.
    """
    register = spec_open_questions()
    found = {oq for oq, _ in _implied_decisions(case, spec_rules())}
    kept = [oq for oq in found if oq in register and oq not in CONVENTIONS]
    return sorted(kept, key=decision_number)


def _decision_problems(
    src: SourceFile, rules: Mapping[str, Rule], register: Mapping[str, str]
) -> list[Problem]:
    """Each case's ``decisions``: open questions of the register, in order, none forgotten."""
    problems = []
    hinted = 0
    for i, case in enumerate(src.data["cases"]):
        listed = list(case.get("decisions", []))
        at: list[str | int] = ["cases", i, "decisions"] if "decisions" in case else ["cases", i]
        for j, oq in enumerate(listed):
            if oq not in register:
                close = []
                if hinted <= MAX_PROBLEMS:  # past the problems reported, a search is wasted
                    hinted += 1
                    close = difflib.get_close_matches(oq, list(register), n=1)
                hint = f"; did you mean {close[0]}?" if close else ""
                message = f"unknown open question {oq} (not in spec/open-questions.md){hint}"
                problems.append(src.problem(pointer([*at, j]), message))
            elif oq in CONVENTIONS:
                message = (
                    f"{oq} ({register[oq]}) is a convention every case follows alike: "
                    'it is not listed per case (spec/fixtures.md, "Decisions")'
                )
                problems.append(src.problem(pointer([*at, j]), message))
        known = [oq for oq in listed if oq in register]
        if known != sorted(known, key=decision_number):
            ordered = ", ".join(sorted(known, key=decision_number))
            problems.append(
                src.problem(pointer(at), f"decisions are listed in register order: [{ordered}]")
            )
        for oq, why in dict(_implied_decisions(case, rules)).items():
            if oq in register and oq not in listed and oq not in CONVENTIONS:
                message = f"decisions lack {oq} ({register[oq]}): {why}"
                problems.append(src.problem(pointer(at), message))
    return problems


def _retired_uses(src: SourceFile, retired: Mapping[str, Retired]) -> list[Problem]:
    """Cases that take a retired case ID or cite a retired rule (spec/README.md ledger)."""
    problems = []
    for i, case in enumerate(src.data["cases"]):
        uses: list[tuple[list[str | int], str]] = [(["cases", i, "id"], case["id"])]
        uses += [(["cases", i, "rules", j], rule) for j, rule in enumerate(case["rules"])]
        for at, used in uses:
            if (gone := retired.get(used)) is not None:
                message = f"{gone.kind} ID {used!r} was retired in {gone.version} ({gone.why})"
                problems.append(src.problem(pointer(at), message + "; IDs are never reused"))
    return problems


def _record_cases(
    report: LintReport, src: SourceFile, first_seen: dict[str, Problem]
) -> list[Problem]:
    """Note the file's case IDs and the rules its cases cover; the IDs seen before."""
    problems = []
    for i, case in enumerate(src.data["cases"]):
        where = src.problem(pointer(["cases", i, "id"]), "")
        if case["id"].startswith(FRESH_PREFIX):
            message = (
                f"case ID {case['id']!r}: the prefix {FRESH_PREFIX!r} is kept for the fresh "
                "cases certify makes (spec/fixtures.md)"
            )
            problems.append(Problem(where.file, where.line, where.pointer, message))
        if case["id"] in first_seen:
            first = first_seen[case["id"]]
            problems.append(
                Problem(
                    where.file,
                    where.line,
                    where.pointer,
                    f"duplicate case ID {case['id']!r} (first at {first.file}:{first.line})",
                )
            )
        else:
            first_seen[case["id"]] = where
        for rule in case["rules"]:
            report.coverage.setdefault(rule, []).append(case["id"])
    return problems


def _uncovered(rules: Mapping[str, Rule], coverage: Mapping[str, list[str]]) -> list[Problem]:
    return [
        Problem("spec/rules.md", 0, "", f"rule {rule_id} is covered by no case")
        for rule_id, rule in rules.items()
        if rule.checkable and not coverage.get(rule_id)
    ]


def _reading_problems(src: SourceFile) -> list[Problem]:
    """What keeps a file from the sanity checks: reading it, or its schema."""
    if src.problems:
        return src.problems
    if src.data is None:
        return [Problem(src.name, 1, "", "empty file: expected a mapping with 'cases'")]
    return _schema_problems(src)


def _capped(src: SourceFile, problems: list[Problem]) -> list[Problem]:
    """The first :data:`MAX_PROBLEMS` problems of a file, and a note when there are more."""
    if len(problems) <= MAX_PROBLEMS:
        return problems
    kept = sorted(p for p in problems if p.message != TOO_MANY_PROBLEMS)[:MAX_PROBLEMS]
    return [*kept, Problem(src.name, 0, "", TOO_MANY_PROBLEMS)]


def lint(
    files: Iterable[Path],
    *,
    require_coverage: bool,
    rules: Mapping[str, Rule] | None = None,
    retired: Mapping[str, Retired] | None = None,
    read: Callable[[Path], SourceFile] = read_yaml,
    register: Mapping[str, str] | None = None,
) -> LintReport:
    """Check fixture files; with ``require_coverage`` every checkable rule needs a case.

    ``register`` (default: spec/open-questions.md) gives the open questions a case's
    ``decisions`` may name.
    """
    rules = spec_rules() if rules is None else rules
    retired = retired_ids() if retired is None else retired
    register = spec_open_questions() if register is None else register
    report = LintReport(coverage={r: [] for r in rules})
    first_seen: dict[str, Problem] = {}
    stopped: Problem | None = None
    for path in files:
        src = read(path)
        problems = _reading_problems(src)
        if not problems:
            checker = _Checker(src, rules)
            checker.check()
            problems = [
                *checker.problems,
                *_retired_uses(src, retired),
                *_decision_problems(src, rules, register),
                *_record_cases(report, src, first_seen),
            ]
            if not checker.problems:
                report.sources.append(src)
        report.problems.extend(_capped(src, problems))
        report.checked += 1
        if len(report.problems) >= MAX_RUN_PROBLEMS:
            stopped = Problem(
                src.name,
                0,
                "",
                f"too many problems in all ({MAX_RUN_PROBLEMS:,} or more): "
                "no file after this one was checked",
            )
            break
    if require_coverage and stopped is None:
        report.problems.extend(_uncovered(rules, report.coverage))
    report.problems.sort(key=lambda p: (p.file, p.line, p.pointer, p.message))
    if stopped is not None:  # last, where a reader of a long list looks
        report.problems.append(stopped)
        report.stopped = True
    return report
