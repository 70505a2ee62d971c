"""Choosing cases: ``-k`` keyword expressions as in pytest, and ``--case`` IDs."""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Sequence
from pathlib import Path

from fiveup.errors import UsageError

from .corpus import Case, Corpus
from .sources import printable

__all__ = ["keyword_matcher", "select"]

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
        self.expression = expression
        self.tokens: list[str] = _TOKEN.findall(expression)
        self.pos = 0
        if not self.tokens:
            raise UsageError("-k: empty expression")

    def peek(self) -> str | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def take(self) -> str:
        token = self.peek()
        if token is None:
            raise UsageError(f"-k {self.expression!r}: the expression ends too early")
        self.pos += 1
        return token

    def whole(self) -> Predicate:
        matcher = self.expr()
        if self.peek() is not None:
            raise UsageError(f"-k {self.expression!r}: unexpected {self.peek()!r}")
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
        if token == "not":
            return _negated(self.factor())
        if token == "(":
            inner = self.expr()
            if self.peek() != ")":
                raise UsageError(f"-k {self.expression!r}: a '(' is never closed")
            self.take()
            return inner
        if token in (")", "and", "or"):
            raise UsageError(f"-k {self.expression!r}: unexpected {token!r}")
        return _word(token.lower())


def keyword_matcher(expression: str) -> Callable[[Case], bool]:
    """A ``-k`` expression as in pytest: words joined by ``and``, ``or``, ``not`` and brackets.

    A word matches a case when it is a case-insensitive substring of the case ID, its title,
    its level, its file name, or one of its rule IDs.
    """
    matcher = _KeywordParser(expression).whole()

    def matches(case: Case) -> bool:
        haystack = " ".join(
            [case.id, case.title, case.level.value, Path(case.file).name, *case.rules]
        ).lower()
        return matcher(haystack)

    return matches


def select(corpus: Corpus, keyword: str | None = None, ids: Sequence[str] = ()) -> list[Case]:
    """The cases picked by ``-k`` and ``--case`` (all when neither is given)."""
    cases = list(corpus.cases)
    if ids:
        known = corpus.by_id()
        unknown = [i for i in ids if i not in known]
        if unknown:
            close = difflib.get_close_matches(unknown[0], list(known), n=3, cutoff=0.6)
            hint = f"; did you mean {' or '.join(close)}?" if close else " (see fiveup list)"
            raise UsageError(f"no case {', '.join(map(printable, unknown))} in the corpus{hint}")
        wanted = set(ids)
        cases = [c for c in cases if c.id in wanted]
    if keyword:
        match = keyword_matcher(keyword)
        cases = [c for c in cases if match(c)]
    return cases
