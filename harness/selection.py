"""Choosing cases: ``-k`` expressions, ``--case`` IDs, and the decisions cases depend on.

A decision is an open question of spec/open-questions.md; ``certify --without-decision``
leaves out the cases whose expectation depends on it, ``list --decision`` lists them.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from pathlib import Path

from fiveup.contract.engine import Level
from fiveup.contract.schemas import clip
from fiveup.errors import UsageError

from .corpus import Case, Corpus
from .spec_index import CONVENTIONS, decision_number, spec_open_questions
from .text import printable, quoted

_SHOWN = 120
"""The characters of a name the user typed that a message shows (a long word is cut)."""

__all__ = [
    "cases_by_decision",
    "check_decisions",
    "decision_levels",
    "keyword_matcher",
    "select",
    "without_decisions",
]

MAX_KEYWORD_TOKENS = 400
"""The most words and brackets a ``-k`` expression may have (each is a call when matching)."""
MAX_KEYWORD_NESTING = 50
"""How deep brackets and ``not`` may nest in a ``-k`` expression."""

_TOKEN = re.compile(r"\s*(\(|\)|[^\s()]+)")

Predicate = Callable[[str], bool]
"""Whether a case's lower-cased haystack matches."""


def _either(a: Predicate, b: Predicate) -> Predicate:
    return lambda s: a(s) or b(s)


def _both(a: Predicate, b: Predicate) -> Predicate:
    return lambda s: a(s) and b(s)


def _negated(a: Predicate) -> Predicate:
    return lambda s: not a(s)


def _word(word: str) -> Predicate:
    return lambda s: word in s


class _KeywordParser:
    """A recursive-descent parser of ``-k`` expressions.

    ``expr := term (or term)*``, ``term := factor (and factor)*``,
    ``factor := not factor | ( expr ) | word``.
    """

    def __init__(self, expression: str) -> None:
        self.expression = expression if len(expression) <= 200 else expression[:197] + "..."
        self.tokens: list[str] = _TOKEN.findall(expression)
        self.pos = 0
        self.depth = 0
        if not self.tokens:
            raise UsageError("-k: empty expression")
        if len(self.tokens) > MAX_KEYWORD_TOKENS:
            raise UsageError(
                f"-k: {len(self.tokens)} words and brackets, more than {MAX_KEYWORD_TOKENS}"
            )

    def peek(self) -> str | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def take(self) -> str:
        token = self.peek()
        if token is None:
            raise UsageError(f"-k {quoted(self.expression)}: the expression ends too early")
        self.pos += 1
        return token

    def whole(self) -> Predicate:
        matcher = self.expr()
        left = self.peek()
        if left is not None:
            raise UsageError(f"-k {quoted(self.expression)}: unexpected {quoted(left)}")
        return matcher

    def expr(self) -> Predicate:
        left = self.term()
        while self.peek() == "or":
            self.take()
            left = _either(left, self.term())
        return left

    def term(self) -> Predicate:
        left = self.factor()
        while self.peek() == "and":
            self.take()
            left = _both(left, self.factor())
        return left

    def factor(self) -> Predicate:
        token = self.take()
        if token in ("not", "("):
            self.depth += 1
            if self.depth > MAX_KEYWORD_NESTING:
                raise UsageError(
                    f"-k {quoted(self.expression)}: brackets and nots nest deeper than "
                    f"{MAX_KEYWORD_NESTING}"
                )
            try:
                return self._nested(token)
            finally:
                self.depth -= 1
        if token in (")", "and", "or"):
            raise UsageError(f"-k {quoted(self.expression)}: unexpected {quoted(token)}")
        return _word(token.lower())

    def _nested(self, token: str) -> Predicate:
        if token == "not":
            return _negated(self.factor())
        inner = self.expr()
        if self.peek() != ")":
            raise UsageError(f"-k {quoted(self.expression)}: a '(' is never closed")
        self.take()
        return inner


def keyword_matcher(expression: str) -> Callable[[Case], bool]:
    """A ``-k`` expression as in pytest: words joined by ``and``, ``or``, ``not`` and brackets.

    A word matches a case when it is a case-insensitive substring of the case ID, its title,
    its level, its file name, one of its rule IDs or one of its decisions (``OQ-6``).
    """
    matcher = _KeywordParser(expression).whole()

    def matches(case: Case) -> bool:
        words = [case.id, case.title, case.level.value, Path(case.file).name, *case.rules]
        haystack = " ".join([*words, *case.decisions]).lower()
        return matcher(haystack)

    return matches


def select(
    corpus: Corpus, keyword: str | None = None, ids: Sequence[str] = (), ids_option: str = ""
) -> list[Case]:
    """The cases picked by ``-k`` and ``--case`` (all when neither is given).

    An empty ``-k`` is refused, not read as no ``-k`` (``-k "$PATTERN"`` with the variable unset
    would run everything). ``ids_option`` names the option of ``ids`` in a message.
    """
    if keyword is not None and not keyword.strip():
        raise UsageError(f"-k is empty ({keyword!r}): give an expression, or leave -k out")
    if any(not name.strip() for name in ids):  # an unset variable: say so, not "no case  "
        raise UsageError(f"{ids_option or 'CASE_ID'} is empty: name a case (see fiveup list)")
    cases = list(corpus.cases)
    if ids:
        known = corpus.by_id()
        unknown = [i for i in ids if i not in known]
        if unknown:
            close = difflib.get_close_matches(unknown[0], list(known), n=3, cutoff=0.6)
            hint = f"; did you mean {' or '.join(close)}?" if close else " (see fiveup list)"
            named = ", ".join(quoted(clip(name, _SHOWN)) for name in unknown)  # " x " shows
            said = (
                f"{ids_option} {clip(named, 4 * _SHOWN)}: no such case"
                if ids_option
                else (f"no case {clip(named, 4 * _SHOWN)}")
            )
            raise UsageError(f"{said} in the corpus{hint}")
        wanted = set(ids)
        cases = [c for c in cases if c.id in wanted]
    if keyword is not None:
        match = keyword_matcher(keyword)
        cases = [c for c in cases if match(c)]
    return cases


def cases_by_decision(
    cases: Iterable[Case], register: Iterable[str] | None = None
) -> dict[str, tuple[Case, ...]]:
    """Per open question, the cases whose expectation depends on its decision, in case order.

    Every open question of ``register`` (default: spec/open-questions.md) is a key, in register
    order, even one no case depends on (a convention, ``CONVENTIONS``, has none); a decision a
    case names outside the register comes after them, in number order.
    """
    ids = list(spec_open_questions() if register is None else register)
    by: dict[str, list[Case]] = {oq: [] for oq in ids}
    for case in cases:
        for oq in case.decisions:
            by.setdefault(oq, []).append(case)
    extra = sorted(set(by) - set(ids), key=decision_number)
    return {oq: tuple(by[oq]) for oq in [*ids, *extra]}


def without_decisions(cases: Iterable[Case], decisions: Collection[str]) -> list[Case]:
    """The cases that depend on none of ``decisions``."""
    return [case for case in cases if not set(case.decisions) & set(decisions)]


def decision_levels(cases: Iterable[Case], decisions: Collection[str]) -> tuple[str, ...]:
    """The levels of the cases that depend on one of ``decisions``, in the protocol's order."""
    levels = {case.level for case in cases if set(case.decisions) & set(decisions)}
    return tuple(level.value for level in Level if level in levels)


def check_decisions(
    corpus: Corpus, decisions: Iterable[str], option: str = "--without-decision"
) -> tuple[str, ...]:
    """The decisions named, each once in register order; UsageError for one no case depends on.

    A name is refused when it is no open question of spec/open-questions.md (with the close
    matches among those some case depends on), a convention no case lists, or a decision no
    case of the corpus depends on.
    """
    register: Mapping[str, str] = spec_open_questions()
    tagged = {oq for case in corpus.cases for oq in case.decisions}
    for oq in decisions:
        if oq in tagged:
            continue
        shown = printable(clip(oq, _SHOWN))
        if oq in CONVENTIONS:
            why = f"every case follows it alike, so no case lists it ({register[oq]})"
        elif oq in register:
            why = f"no case of the corpus depends on it ({register[oq]})"
        else:
            guess = f"OQ-{oq}" if oq.isdigit() else oq.upper()
            close = difflib.get_close_matches(guess, sorted(tagged, key=decision_number), n=3)
            hint = f"; did you mean {' or '.join(close)}?" if close else ""
            why = f"not an open question of spec/open-questions.md{hint}"
        listed = ", ".join(sorted(tagged, key=decision_number)) or "none"
        raise UsageError(f"{option} {shown}: {why} (the decisions cases depend on: {listed})")
    return tuple(sorted(set(decisions), key=decision_number))
