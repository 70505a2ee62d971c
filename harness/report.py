"""Reports of a certification run: text for people, JSON and JUnit XML for tools."""

from __future__ import annotations

import json
import shlex
import xml.etree.ElementTree as ET
from collections import Counter, defaultdict
from collections.abc import Iterable

from fiveup import PROTOCOL_VERSION, SUITE_VERSION
from fiveup.contract.engine import JSON

from .certify import Outcome, Run, Verdict
from .levels import LEVELS
from .rules import spec_sections

_ORDER = tuple(level.value for level in LEVELS)


def layout_text(layout: JSON) -> str:
    """A layout observation as its placements in order: ``[1|4] [1|1]@[1|4]:low ...``."""
    if not isinstance(layout, dict):
        return ""
    tiles, links = layout.get("tiles"), layout.get("connections")
    if not isinstance(tiles, list) or not isinstance(links, list) or not tiles:
        return ""
    parts = [str(tiles[0])]
    for tile, link in zip(tiles[1:], links, strict=False):
        point = link[0] if isinstance(link, list) and link else "?"
        parts.append(f"{tile}@{point}")
    return " ".join(parts)


def _observed_layout(outcome: Outcome) -> str:
    result = outcome.result
    return layout_text(LEVELS[result.case.level].layout_of(result.observation))


def plural(n: int, noun: str) -> str:
    """``1 case``, ``2 cases``."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def rerun_command(engine_args: list[str], case_id: str) -> str:
    """The command that reruns just one case."""
    return shlex.join(["fiveup", "certify", *engine_args, "--case", case_id])


def _counts(outcomes: Iterable[Outcome]) -> Counter[Verdict]:
    return Counter(o.verdict for o in outcomes)


def _tally(outcomes: list[Outcome]) -> str:
    passed = sum(o.verdict in (Verdict.PASSED,) for o in outcomes)
    return f"{passed}/{len(outcomes)}"


def summary_line(run: Run) -> str:
    """``N passed, N failed, ...`` and the verdict."""
    c = _counts(run.outcomes)
    parts = [
        f"{c[Verdict.PASSED]} passed",
        f"{c[Verdict.FAILED]} failed",
        f"{c[Verdict.ERRORED]} errors",
        f"{c[Verdict.UNSUPPORTED]} unsupported",
        f"{c[Verdict.XFAILED]} expected failures",
        f"{c[Verdict.XPASSED]} unexpectedly passing",
    ]
    verdict = "CONFORMS" if run.ok else "DOES NOT CONFORM"
    declined = sorted(
        {o.result.case.level.value for o in run.outcomes if o.verdict is Verdict.UNSUPPORTED},
        key=_ORDER.index,
    )
    if run.ok and declined:
        verdict += f" (not checked: level {', '.join(declined)})"
    return f"{', '.join(parts)}: {verdict}"


def _header(run: Run) -> list[str]:
    info = run.engine
    who = (
        f"{info['name']} {info['version']} (protocol {info['protocol']}, levels "
        f"{', '.join(info['levels'])})"
        if info
        else "unknown engine"
    )
    out = [
        f"Five Up conformance suite {SUITE_VERSION} (protocol {PROTOCOL_VERSION})",
        f"engine: {who}",
    ]
    if run.handshake_error:
        out.append(f"engine failed: {run.handshake_error}")
    out.append(
        f"corpus: {run.corpus.digest} ({len(run.corpus.cases)} cases in "
        f"{len(run.corpus.files)} files); selected {len(run.outcomes)}"
    )
    return out


def _unsupported_note(outcomes: list[Outcome]) -> str:
    unsupported = sum(o.verdict is Verdict.UNSUPPORTED for o in outcomes)
    return f"  ({unsupported} unsupported)" if unsupported else ""


def _tallies(run: Run) -> list[str]:
    by_level: dict[str, list[Outcome]] = defaultdict(list)
    by_section: dict[str, list[Outcome]] = defaultdict(list)
    for o in run.outcomes:
        by_level[o.result.case.level.value].append(o)
        for section in o.result.case.sections():
            by_section[section].append(o)
    out = ["", "by level (passed/selected):"]
    out.extend(
        f"  {level:<8} {_tally(by_level[level]):>8}{_unsupported_note(by_level[level])}"
        for level in _ORDER
        if level in by_level
    )
    out.append("by spec section (passed/selected):")
    titles = spec_sections()
    for section in sorted(by_section):
        title = titles[section].title if section in titles else ""
        note = _unsupported_note(by_section[section])
        out.append(f"  {section:<4} {_tally(by_section[section]):>8}  {title}{note}")
    return out


def _case_lines(o: Outcome, engine_args: list[str]) -> list[str]:
    """The block that tells one case that did not pass."""
    case = o.result.case
    out = [
        "",
        f"{o.verdict.value.upper()}: {case.id}  ({case.file}:{case.line})",
        f"  {case.title}",
        f"  rules: {', '.join(case.rules)}",
    ]
    if o.verdict is Verdict.XPASSED:
        out.append(
            f"  listed as an expected failure ({o.reason}) but it passes now: "
            "remove it from the list"
        )
    elif o.verdict is Verdict.XFAILED:
        out.append(f"  expected failure: {o.reason}")
    if o.result.message and not o.result.differences:
        out.append(f"  {o.result.message}")
    out.extend(f"  {diff.text}" for diff in o.result.differences)
    shown = _observed_layout(o)
    if shown and o.verdict is Verdict.FAILED:
        out.append(f"  engine's layout: {shown}")
    out.append(f"  rerun: {rerun_command(engine_args, case.id)}")
    return out


def _not_passed(run: Run, engine_args: list[str]) -> list[str]:
    out: list[str] = []
    first_with: dict[str, str] = {}
    for o in run.outcomes:
        if o.verdict in (Verdict.PASSED, Verdict.UNSUPPORTED):
            continue
        case = o.result.case
        seen = first_with.get(o.result.message) if not o.result.differences else None
        if seen is not None and o.verdict is Verdict.ERRORED:
            # An engine that cannot start errs every case alike: say it once, then point back.
            out.append(f"{o.verdict.value.upper()}: {case.id}  (the same error as {seen})")
            continue
        if o.result.message and not o.result.differences:
            first_with.setdefault(o.result.message, case.id)
        out.extend(_case_lines(o, engine_args))
    return out


def _declined(run: Run) -> list[str]:
    declined = [o for o in run.outcomes if o.verdict is Verdict.UNSUPPORTED]
    if not declined:
        return []
    reasons = Counter(o.result.message for o in declined)
    return ["", *(f"unsupported ({n}): {reason}" for reason, n in sorted(reasons.items()))]


def text_report(run: Run, engine_args: list[str]) -> str:
    """The human-readable report."""
    out = [
        *_header(run),
        *_tallies(run),
        *_not_passed(run, engine_args),
        *_declined(run),
        "",
        summary_line(run),
    ]
    return "\n".join(out) + "\n"


def json_report(run: Run) -> str:
    """The machine-readable report."""
    c = _counts(run.outcomes)
    doc: dict[str, JSON] = {
        "suite": SUITE_VERSION,
        "protocol": PROTOCOL_VERSION,
        "corpus": {"digest": run.corpus.digest, "cases": len(run.corpus.cases)},
        "engine": dict(run.engine) if run.engine else None,
        "handshake_error": run.handshake_error or None,
        "conforms": run.ok,
        "summary": {v.name.lower(): c[v] for v in Verdict},
        "cases": [
            {
                "id": o.result.case.id,
                "title": o.result.case.title,
                "level": o.result.case.level.value,
                "rules": list(o.result.case.rules),
                "file": o.result.case.file,
                "line": o.result.case.line,
                "verdict": o.verdict.name.lower(),
                "status": o.result.status.value,
                "message": o.result.message,
                "expected_failure": o.reason or None,
                "differences": [d.to_json() for d in o.result.differences],
                "seconds": round(o.result.seconds, 6),
            }
            for o in run.outcomes
        ],
    }
    return json.dumps(doc, indent=2) + "\n"


def junit_report(run: Run) -> str:
    """A JUnit XML report: one testcase per case, classname ``fiveup.<level>``."""
    c = _counts(run.outcomes)
    suite = ET.Element(
        "testsuite",
        {
            "name": "fiveup-conformance",
            "tests": str(len(run.outcomes)),
            "failures": str(c[Verdict.FAILED] + c[Verdict.XPASSED]),
            "errors": str(c[Verdict.ERRORED]),
            "skipped": str(c[Verdict.UNSUPPORTED] + c[Verdict.XFAILED]),
            "time": f"{sum(o.result.seconds for o in run.outcomes):.6f}",
        },
    )
    props = ET.SubElement(suite, "properties")
    for name, value in (
        ("suite", SUITE_VERSION),
        ("corpus", run.corpus.digest),
        ("engine", f"{run.engine['name']} {run.engine['version']}" if run.engine else "unknown"),
    ):
        ET.SubElement(props, "property", {"name": name, "value": value})
    for o in run.outcomes:
        case = o.result.case
        tc = ET.SubElement(
            suite,
            "testcase",
            {
                "classname": f"fiveup.{case.level.value}",
                "name": case.id,
                "file": case.file,
                "line": str(case.line),
                "time": f"{o.result.seconds:.6f}",
            },
        )
        detail = "\n".join([o.result.message, *(d.text for d in o.result.differences)]).strip()
        if o.verdict is Verdict.FAILED:
            ET.SubElement(tc, "failure", {"message": o.result.message}).text = detail
        elif o.verdict is Verdict.XPASSED:
            ET.SubElement(tc, "failure", {"message": "unexpectedly passing"}).text = o.reason
        elif o.verdict is Verdict.ERRORED:
            ET.SubElement(tc, "error", {"message": o.result.message}).text = detail
        elif o.verdict in (Verdict.UNSUPPORTED, Verdict.XFAILED):
            ET.SubElement(tc, "skipped", {"message": o.reason or o.result.message})
    ET.indent(suite)
    return ET.tostring(suite, encoding="unicode", xml_declaration=True) + "\n"
