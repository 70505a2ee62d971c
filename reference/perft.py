"""Move counts (perft): the legal actions of a round position and the action sequences below it.

The ``moves`` level of the protocol (spec/protocol.md, "moves"). From a :class:`Round` as it
stands, :func:`legal_actions` lists the actions of the seat to act in the canonical order, and
:func:`count` the distinct sequences of exactly ``depth`` actions, each legal after the ones
before it; a sequence that ends the round before ``depth`` counts nothing (OQ-26). Everything is
built on the round's own legal-move generator (:meth:`Round.legal_action_list`), so a count
checks that generator against an independent one.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from fiveup.contract.notation import Action, Verb

from .round import Round

__all__ = ["action_order", "count", "divide", "legal_actions"]

_VERB_RANK = {Verb.PLAY: 0, Verb.DRAW: 1, Verb.PASS: 2}


def action_order(action: Action) -> tuple[int, ...]:
    """The sort key of the canonical order of actions (spec/protocol.md, "moves").

    Plays first, by tile (lower half, then higher half), the opening before any joining, then by
    the point's tile and its slot (``low``, ``high``, ``line-a``, ``line-b``, ``branch-a``,
    ``branch-b``); then a draw; then a pass.
    """
    placement = action.placement
    if placement is None:
        return (_VERB_RANK[action.verb],)
    tile, target = placement.tile, placement.target
    if target is None:
        return (0, tile.low, tile.high, 0)
    point = target.tile
    return (0, tile.low, tile.high, 1, point.low, point.high, target.slot.rank)


def legal_actions(round_: Round) -> list[Action]:
    """The legal actions of the seat to act, in the canonical order; none once it is over."""
    return sorted(round_.legal_action_list(), key=action_order)


MEMO_ENTRIES = 200_000
"""Positions whose counts one count remembers at most (a few tens of MB)."""


KNOWN_ENTRIES = 4096
"""Counts and divisions of the positions asked about that the process remembers at most."""

# By position key and depth: a key starts with its rules' own token unless they are the spec's.
_Key = tuple[Hashable, int]
_COUNTED: dict[_Key, int] = {}
_DIVIDED: dict[_Key, tuple[tuple[Action, int], ...]] = {}


def _remember(known: dict[_Key, Any], key: _Key, value: Any) -> None:
    if len(known) >= KNOWN_ENTRIES:
        known.clear()
    known[key] = value


def count(round_: Round, depth: int) -> int:
    """The number of distinct sequences of ``depth`` actions, each legal in turn (1 at 0).

    Positions reached again by another order of play (:meth:`Round.position_key`) are counted
    once: deep counts in the middle of a round visit far fewer positions than sequences. A
    position asked about again in the process (a case played again) is not counted again.
    """
    if depth < 0:
        raise ValueError(f"a depth is 0 or more, not {depth}")
    position = round_.position_key() if depth > 1 else None
    if position is None:
        return _count(round_, depth, {})
    key = (position, depth)
    known = _COUNTED.get(key)
    if known is None:
        known = _count(round_, depth, {})
        _remember(_COUNTED, key, known)
    return known


def _count(round_: Round, depth: int, memo: dict[tuple[Hashable, int], int]) -> int:
    if depth == 0:
        return 1
    moves = round_.legal_action_list()
    if depth == 1:
        return len(moves)
    key = round_.position_key() if depth > 1 else None
    if key is not None:
        known = memo.get((key, depth))
        if known is not None:
            return known
    total = 0
    for action in list(moves):
        child = round_.copy()
        child.apply(action)
        total += _count(child, depth - 1, memo)
    if key is not None and len(memo) < MEMO_ENTRIES:
        memo[(key, depth)] = total
    return total


def divide(round_: Round, depth: int) -> dict[Action, int]:
    """The count under each legal first action, in the canonical order (empty at depth 0)."""
    if depth < 0:
        raise ValueError(f"a depth is 0 or more, not {depth}")
    if depth == 0:
        return {}
    position = round_.position_key() if depth > 1 else None
    key = None if position is None else (position, depth)
    if key is not None:
        known = _DIVIDED.get(key)
        if known is not None:
            return dict(known)
    counts = {}
    memo: dict[tuple[Hashable, int], int] = {}
    for action in legal_actions(round_):
        child = round_.copy()
        child.apply(action)
        counts[action] = _count(child, depth - 1, memo)
    if key is not None:
        _remember(_DIVIDED, key, tuple(counts.items()))
    return counts
