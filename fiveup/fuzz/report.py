"""A campaign's report as data: what ``fiveup fuzz --format json`` prints, and shards merged.

A report names its campaign (suite version, seed, cases, players, levels, engines, ``keep``)
and its shard, and lists every divergence with its case index. K shard reports of one campaign
merge (:func:`merge_reports`) into the report the whole campaign gives in one process: the same
cases, divergences, kinds and counts, and the same fixture files listed (the first ``keep`` of
each kind, by case index); only the timings differ.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final, TextIO

from fiveup import SUITE_VERSION
from fiveup.contract.engine import Level
from fiveup.contract.players import PLAYER_COUNTS
from fiveup.harness.runner import Status
from fiveup.harness.text import cut, printable

from .campaign import Findings, Shard

__all__ = ["CAMPAIGN_KEYS", "campaign_report", "merge_reports", "write_text"]

CAMPAIGN_KEYS: Final = (
    "suite",
    "seed",
    "rounds",
    "players",
    "levels",
    "engine",
    "baseline",
    "keep",
)
"""What makes two shard reports parts of one campaign: these must be equal in every shard."""


def campaign_report(
    findings: Findings, campaign: Mapping[str, Any], shard: Shard
) -> dict[str, Any]:
    """The JSON report of a campaign (or one shard of it) described by ``campaign``.

    ``campaign`` gives every key of :data:`CAMPAIGN_KEYS` but ``suite``; divergences are
    listed in the order of their case indexes.
    """
    divergences = [
        {
            "index": d.index,
            "case": d.case.id,
            "level": d.case.level.value,
            "rule": d.result.rule,
            "status": d.result.status.value,
            "first_difference": d.result.differences[0].text
            if d.result.differences
            else d.result.message,
            "kind": d.kind,
            "file": d.file or None,
        }
        for d in sorted(findings.divergences, key=lambda d: d.index)
    ]
    report: dict[str, Any] = {"suite": SUITE_VERSION}
    report.update({key: campaign[key] for key in CAMPAIGN_KEYS if key != "suite"})
    report["shard"] = f"{shard.number}/{shard.count}"
    report.update(
        {
            "cases": findings.cases,
            "round_cases": findings.rounds,
            "by_level": dict(sorted(findings.by_level.items())),
            "seconds": findings.seconds,
            "interrupted": findings.interrupted,
            "divergences": divergences,
        }
    )
    return _finished(report)


def _finished(report: dict[str, Any]) -> dict[str, Any]:
    """The report with its rates and its table of kinds, computed from the rest."""
    seconds = report["seconds"]
    report["cases_per_second"] = report["cases"] / seconds if seconds else 0.0
    report["rounds_per_second"] = report["round_cases"] / seconds if seconds else 0.0
    kinds: dict[str, dict[str, Any]] = {}
    for row in report["divergences"]:
        kind = kinds.setdefault(row["kind"], {"kind": row["kind"], "count": 0, "files": []})
        kind["count"] += 1
        if row["file"]:
            kind["files"].append(row["file"])
    report["kinds"] = list(kinds.values())
    return report


_SHAPE: Final[dict[str, type | tuple[type, ...]]] = {
    "suite": str,
    "seed": int,
    "rounds": int,
    "shard": str,
    "cases": int,
    "round_cases": int,
    "by_level": dict,
    "seconds": (int, float),
    "interrupted": bool,
    "divergences": list,
}
_ROW: Final[dict[str, type]] = {
    "index": int,
    "case": str,
    "level": str,
    "rule": str,
    "status": str,
    "first_difference": str,
    "kind": str,
}


def _checked(name: str, data: object) -> tuple[dict[str, Any], Shard]:
    """The report read from ``name``, and its shard; ValueError saying what is wrong."""
    if not isinstance(data, dict):
        raise ValueError(f"{name}: not a fuzz report (a JSON object of fiveup fuzz --format json)")
    for key in (*CAMPAIGN_KEYS, *_SHAPE):
        if key not in data:
            raise ValueError(f"{name}: not a fuzz report: no {key!r} (written by fiveup fuzz?)")
    for key, kind in _SHAPE.items():
        if not isinstance(data[key], kind) or isinstance(data[key], bool) is not (kind is bool):
            raise ValueError(f"{name}: not a fuzz report: {key!r} has the wrong type")
    for row in data["divergences"]:
        if not isinstance(row, dict) or not all(
            isinstance(row.get(key), kind) and not isinstance(row.get(key), bool)
            for key, kind in _ROW.items()
        ):
            raise ValueError(f"{name}: not a fuzz report: a divergence is malformed")
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in data["by_level"].values()):
        raise ValueError(f"{name}: not a fuzz report: 'by_level' has the wrong type")
    shard = Shard.parse(data["shard"])
    if data["shard"] != f"{shard.number}/{shard.count}":
        raise ValueError(
            f"{name}: not a fuzz report: shard {_short(data['shard'])} is not written as "
            f"fiveup fuzz writes it ({shard.number}/{shard.count})"
        )
    return data, shard


_LEVEL_NAMES: Final = frozenset(level.value for level in Level)
_STATUSES: Final = frozenset({Status.FAIL.value, Status.ERROR.value})
"""What a divergence can be: a case that failed or erred."""


def _campaign_problem(data: Mapping[str, Any]) -> str:
    """What is impossible in the campaign keys of a report that has the right types, or ''."""
    rounds, keep, players, levels = data["rounds"], data["keep"], data["players"], data["levels"]
    if not 0 <= rounds < _MAX_CASES:
        return f"'rounds' is {_short(rounds)} (a number of cases from 0, less than 2**63)"
    if keep is not None and (type(keep) is not int or keep < 1):
        return f"'keep' is {_short(keep)} (a number of files from 1, or null for every one)"
    if players is not None and (type(players) is not int or players not in PLAYER_COUNTS):
        return f"'players' is {_short(players)} (2, 3, 4 or null)"
    if levels is not None and (
        type(levels) is not list
        or not levels
        or not all(type(level) is str and level in _LEVEL_NAMES for level in levels)
        or len(set(levels)) != len(levels)
    ):
        return f"'levels' is {_short(levels)} (level names, each once, or null)"
    if not -_MAX_CASES <= data["seed"] < _MAX_CASES:
        return f"'seed' is {_short(data['seed'])} (a seed of fiveup fuzz --seed)"
    return ""


def _divergence_problem(data: Mapping[str, Any], shard: Shard, cases: int) -> str:
    """What is impossible in a report's divergences: a case outside the shard, or twice."""
    rounds = data["rounds"]
    played = _LEVEL_NAMES if data["levels"] is None else frozenset(data["levels"])
    seen: set[int] = set()
    for row in data["divergences"]:
        index = row["index"]
        where = f"divergence at case {_short(index)}"
        if not 0 <= index < rounds or index % shard.count != shard.number or index in seen:
            return f"{where}: not a case of shard {data['shard']}, or listed twice"
        if row["level"] not in played or row["status"] not in _STATUSES:
            return f"{where}: level {_short(row['level'])}, status {_short(row['status'])}"
        if row["case"] != f"fuzz.{row['level']}.s{data['seed']}-{index}":
            return f"{where}: its case is {_short(row['case'])}, not the campaign's case"
        if row.get("file") is not None and type(row["file"]) is not str:
            return f"{where}: 'file' is {_short(row['file'])}"
        seen.add(index)
    if len(seen) > cases:
        return f"{len(seen)} divergences among {cases} cases"
    return ""


_MAX_CASES: Final = 1 << 63
"""More cases than any campaign plays: a report's ``rounds`` is below it."""
_MIN_SECONDS: Final = 1e-9
_MAX_SECONDS: Final = 1e9
"""A report's time, when not 0: past these, the rates would not be finite numbers."""


def _short(value: object) -> str:
    """``repr(value)``, clipped: a report may hold a number of thousands of digits."""
    text = repr(value)
    return text if len(text) <= 40 else f"{text[:37]}..."


def _inconsistency(data: Mapping[str, Any], shard: Shard) -> str:
    """What in a well-typed report its own campaign and shard make impossible, or ''.

    A shard of ``rounds`` cases plays ``shard.indexes(rounds)``: all of them unless
    interrupted; its levels add up to its cases, its divergences are among its indexes, once
    each. A report edited by hand (or a shard of another suite) would merge into counts that
    no campaign can give.
    """
    problem = _campaign_problem(data)
    if problem:
        return problem
    cases, rounds = data["cases"], data["rounds"]
    seconds, by_level = data["seconds"], data["by_level"]
    # counted, not len(shard.indexes(rounds)): a range longer than sys.maxsize has no len
    planned = max(0, -(-(rounds - shard.number) // shard.count))
    if not 0 <= cases <= planned or (cases < planned and not data["interrupted"]):
        return f"{_short(cases)} cases in shard {data['shard']} of a campaign of {_short(rounds)}"
    # a whole number past a float's range broke math.isfinite and the rates, and a fraction of a
    # nanosecond made them infinite, which JSON cannot write
    if not (seconds == 0 or _MIN_SECONDS <= seconds <= _MAX_SECONDS):
        return f"'seconds' is {_short(seconds)} (0, or from 1e-9 to 1e9)"
    unknown = sorted(
        set(by_level) - (_LEVEL_NAMES if data["levels"] is None else set(data["levels"]))
    )
    if unknown:
        return f"'by_level' names no level {_short(unknown[0])} of the campaign"
    negative = sorted(level for level, count in by_level.items() if count < 0)
    if negative:
        return f"'by_level' counts {_short(by_level[negative[0]])} for {negative[0]} (0 or more)"
    if any(count < 0 for count in by_level.values()) or sum(by_level.values()) != cases:
        return f"'by_level' counts {sum(by_level.values())} cases, not {cases}"
    if data["round_cases"] != by_level.get(Level.ROUND.value, 0):
        return f"'round_cases' is {_short(data['round_cases'])}, not the round level's count"
    return _divergence_problem(data, shard, cases)


def _belong_together(reports: Sequence[tuple[str, dict[str, Any], Shard]]) -> None:
    """ValueError unless the reports are the K shards of one campaign, each once."""
    first_name, first, first_shard = reports[0]
    seen: dict[int, str] = {}
    for name, report, shard in reports:
        for key in CAMPAIGN_KEYS:
            if report[key] != first[key]:
                raise ValueError(
                    f"{name}: another campaign than {first_name}'s: {key} {_short(report[key])}, "
                    f"not {_short(first[key])}"
                )
        if shard.count != first_shard.count:
            raise ValueError(
                f"{name}: shard {shard.number}/{shard.count} is not one of "
                f"{first_shard.count} shards, as {first_name}'s is"
            )
        if shard.number in seen:
            raise ValueError(
                f"{name}: shard {shard.number}/{shard.count} again (also {seen[shard.number]})"
            )
        seen[shard.number] = name
    missing = [f"{n}/{first_shard.count}" for n in range(first_shard.count) if n not in seen]
    if missing:
        shown = ", ".join(missing[:5]) + (", ..." if len(missing) > 5 else "")
        raise ValueError(f"shards missing: {shown} (a campaign of {first_shard.count} shards)")


def merge_reports(named: Sequence[tuple[str, object]]) -> dict[str, Any]:
    """The whole campaign's report from the reports of its K shards, each given with its name.

    ValueError, naming the file, when the reports are not the K shards of one campaign (another
    seed, suite version, engine, size or number of shards; a shard missing or given twice), or
    one is not a fuzz report.
    """
    if not named:
        raise ValueError("no report to merge")
    reports = [(name, *_checked(name, data)) for name, data in named]
    _belong_together(reports)
    for name, report, shard in reports:  # after: a shard of another campaign is named as such
        problem = _inconsistency(report, shard)
        if problem:
            raise ValueError(f"{name}: not a fuzz report: {problem}")
    first = reports[0][1]
    merged: dict[str, Any] = {key: first[key] for key in CAMPAIGN_KEYS}
    merged["shard"] = "0/1"
    by_level: dict[str, int] = {}
    rows: list[dict[str, Any]] = []
    for _, report, _ in reports:
        for level, count in report["by_level"].items():
            by_level[level] = by_level.get(level, 0) + count
        rows.extend(dict(row) for row in report["divergences"])
    rows.sort(key=lambda row: row["index"])
    keep = first["keep"]
    written: dict[str, int] = {}
    for row in rows:  # each shard wrote the first `keep` of a kind; the campaign lists its own
        seen_of_kind = written[row["kind"]] = written.get(row["kind"], 0) + 1
        if isinstance(keep, int) and seen_of_kind > keep:
            row["file"] = None
    merged.update(
        {
            "cases": sum(report["cases"] for _, report, _ in reports),
            "round_cases": sum(report["round_cases"] for _, report, _ in reports),
            "by_level": dict(sorted(by_level.items())),
            "seconds": max(report["seconds"] for _, report, _ in reports),
            "interrupted": any(report["interrupted"] for _, report, _ in reports),
            "divergences": rows,
        }
    )
    return _finished(merged)


def write_text(report: Mapping[str, Any], out: TextIO) -> None:
    """The report as ``fiveup fuzz`` prints it: the kept divergences, each kind's count, a total."""
    keep = report["keep"]
    groups: dict[str, list[Mapping[str, Any]]] = {}
    for row in report["divergences"]:
        groups.setdefault(row["kind"], []).append(row)
    for rows in groups.values():
        for row in rows if keep is None else rows[:keep]:
            where = f"  -> {row['file']}" if row["file"] else ""
            # an engine's words, or a merged report's: no control character reaches a terminal
            first = cut(row["first_difference"], 500)
            line = f"DIVERGES: {row['case']} ({row['rule']}): {first}{where}"
            out.write(printable(line) + "\n")
    for kind in report["kinds"]:
        out.write(printable(f"{kind['count']:6} of kind {kind['kind']}") + "\n")
    rate = report["cases_per_second"]
    stopped = " (interrupted: what was found so far)" if report["interrupted"] else ""
    out.write(
        f"seed {report['seed']}: {report['cases']} cases in {report['seconds']:.1f} s "
        f"({rate:,.0f}/s), {len(report['divergences'])} divergences of "
        f"{len(report['kinds'])} kinds{stopped}\n"
    )
