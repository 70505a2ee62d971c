"""Golden transcripts: the complete record of seeded matches, one line for each thing that happens.

A transcript is plain text, one item a line, in forms that change only when the rules do::

    fiveup-transcript 1 players=3 seed=9 policy=greedy
    round 1 opener=2 scores=0,0,0
    hand 0 [0|1] [2|3] [4|5] [0|6] [0|2]
    hand 1 ...
    hand 2 ...
    boneyard [1|1] [3|5] ...
    2 play [1|4] sum 5 credit 5
    scores 5,0,0
    0 draw [2|5]
    0 pass
    end out winner=1 pips=7,0,3 penalties=5,0,5 next=1
    0 penalty pips 7 raw 5
    1 penalty pips 0 raw 0
    2 penalty pips 3 raw 5
    scores 0,10,0
    round 2 opener=1 scores=0,10,0
    ...
    match winner=1 scores=310,150,45

The header names the match: the number of players, the seed and the policy. Each round opens
with its opener, the sides' raw scores, the hands in seat order and the boneyard in draw order;
then come the actions in the event forms of the reference (``0 play [1|4] sum 5 credit 5``,
``1 draw [2|5]``, ``2 pass``), a ``scores`` line after every placement that earns a credit, the
``end`` line of the round's result, one ``penalty`` line per seat and the sides' raw scores
after the count. The last line says who won (or ``match unfinished`` after
:data:`MAX_ROUNDS` rounds).

The decks and the neutral draws come from ``random.Random(seed)`` as in
:func:`~fiveup.reference.match.play_match`; the policy chooses with its own
``random.Random(seed)`` among the legal moves sorted by text, so that a transcript depends on
the rules only, not on the order in which an engine lists its moves. ``greedy`` (the default)
takes a move of the highest credit, which keeps matches short; ``random`` takes any.

:data:`GOLDEN` is the standard set, kept in ``tests/transcripts/``; ``fiveup transcripts
--write DIR`` regenerates it and ``fiveup transcripts --check DIR`` names the first line that
differs.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from fiveup.contract.notation import Action, Tile
from fiveup.contract.players import PLAYER_COUNTS, deal
from fiveup.contract.schemas import clip
from fiveup.errors import UsageError
from fiveup.harness.sources import read_bounded
from fiveup.harness.text import printable
from fiveup.reference.match import Match, Policy, play_match
from fiveup.reference.round import Played, Round, RoundEnded

__all__ = [
    "FORMAT_VERSION",
    "GOLDEN",
    "MAX_ROUNDS",
    "NO_LINE_END",
    "POLICIES",
    "Difference",
    "Transcript",
    "check_file",
    "first_difference",
    "greedy_policy",
    "random_policy",
    "read_transcript",
    "transcript_lines",
]

FORMAT_VERSION: Final = 1
"""The version of the transcript format, in every header."""
MAX_ROUNDS: Final = 200
"""A match still undecided after this many rounds stops (``match unfinished``)."""
_MAGIC: Final = "fiveup-transcript"
_SEEDS: Final = 1 << 63
"""One past the largest seed, as ``--seed`` takes them."""
NO_LINE_END: Final = " (no line end)"
"""Marks a file's last line that has no line end, so that it differs from every line."""


_SHOWN_CHARS: Final = 120


def _shown(line: str) -> str:
    """A line as a message quotes it: repr, clipped (a file's line may be a megabyte long)."""
    if len(line) <= _SHOWN_CHARS:
        return repr(line)
    return f"{line[:_SHOWN_CHARS]!r}... ({len(line)} characters)"


def _sorted_moves(round_: Round) -> list[Action]:
    return sorted(round_.legal_action_list(), key=lambda action: action.text)


def random_policy(rng: random.Random) -> Policy:
    """Any legal move, uniformly, among the moves sorted by text."""

    def choose(round_: Round) -> Action:
        moves = _sorted_moves(round_)
        return moves[rng.randrange(len(moves))]

    return choose


def _credit(round_: Round, action: Action) -> int:
    """The credit ``action`` would earn (a draw or a pass earns none)."""
    if action.placement is None:
        return 0
    return round_.layout.copy().place(action.placement).credit


def greedy_policy(rng: random.Random) -> Policy:
    """A legal move of the highest credit, uniformly among those, the moves sorted by text."""

    def choose(round_: Round) -> Action:
        moves = _sorted_moves(round_)
        credits = [_credit(round_, move) for move in moves]
        top = max(credits)
        best = [move for move, credit in zip(moves, credits, strict=True) if credit == top]
        return best[rng.randrange(len(best))]

    return choose


POLICIES: Final[dict[str, Callable[[random.Random], Policy]]] = {
    "greedy": greedy_policy,
    "random": random_policy,
}
"""The policies a transcript may be played with, by the name its header gives."""


@dataclass(frozen=True, slots=True)
class Transcript:
    """Which match a transcript records: the number of players, the seed and the policy."""

    players: int
    seed: int
    policy: str = "greedy"

    def __post_init__(self) -> None:
        if self.players not in PLAYER_COUNTS:
            raise UsageError(f"a game has 2, 3 or 4 players, not {self.players}", "PLY-1")
        if self.policy not in POLICIES:
            raise UsageError(f"no policy {self.policy!r} (one of {', '.join(POLICIES)})")
        if not 0 <= self.seed < _SEEDS:
            raise UsageError(
                f"a seed is a whole number from 0 to 2**63 - 1, not {clip(str(self.seed), 40)}"
            )

    @property
    def header(self) -> str:
        """The first line: ``fiveup-transcript 1 players=3 seed=9 policy=greedy``."""
        return (
            f"{_MAGIC} {FORMAT_VERSION} players={self.players} seed={self.seed} "
            f"policy={self.policy}"
        )

    @property
    def file_name(self) -> str:
        """The name of its golden file: ``3-players-seed-9.txt`` (the policy when not greedy)."""
        policy = "" if self.policy == "greedy" else f"-{self.policy}"
        return f"{self.players}-players-seed-{self.seed}{policy}.txt"

    @staticmethod
    def parse_header(line: str) -> Transcript:
        """Read a header line; UsageError if it is not one of this format version."""
        words = line.split()
        try:
            if words[:2] != [_MAGIC, str(FORMAT_VERSION)]:
                raise ValueError(line)
            fields = dict(word.split("=", 1) for word in words[2:])
            if sorted(fields) != ["players", "policy", "seed"]:
                raise ValueError(line)
            found = Transcript(int(fields["players"]), int(fields["seed"]), fields["policy"])
            if found.header != line:  # one spelling only: no extra blanks, no "seed=+09"
                raise ValueError(line)
            return found
        except ValueError:
            raise UsageError(
                f"not a transcript header: {_shown(line)} (expected a form like "
                f"'{_MAGIC} {FORMAT_VERSION} players=3 seed=9 policy=greedy')"
            ) from None

    def match(self) -> Match:
        """The match, played again."""
        policy = POLICIES[self.policy](random.Random(self.seed))
        return play_match(self.players, policy, self.seed, max_rounds=MAX_ROUNDS)

    def lines(self) -> list[str]:
        """The transcript, one line per item, without line ends."""
        return [self.header, *transcript_lines(self.match())]

    def text(self) -> str:
        """The transcript as the text of its file (each line ended by a newline)."""
        return "".join(line + "\n" for line in self.lines())


GOLDEN: Final = (Transcript(2, 15), Transcript(3, 356), Transcript(4, 346))
"""The standard set of golden transcripts: short matches whose rounds between them draw, pass,
credit, go out and block."""


def _numbers(values: Sequence[int]) -> str:
    return ",".join(str(value) for value in values)


def _tiles(tiles: Sequence[Tile]) -> str:
    return " ".join(tile.text for tile in tiles)


def _round_lines(number: int, round_: Round) -> list[str]:
    lines = [f"round {number} opener={round_.opener} scores={_numbers(round_.starting_scores)}"]
    hands, boneyard = deal(round_.deck, round_.players, round_.rules.hand_size)
    lines += [f"hand {seat} {_tiles(hand)}" for seat, hand in enumerate(hands)]
    lines.append(f"boneyard {_tiles(boneyard)}")
    # score_history has the scores after each action; the round's end comes after them all
    for event, after in zip(round_.events, round_.score_history(), strict=False):
        lines.append(event.text)
        if isinstance(event, Played) and event.credit:
            lines.append(f"scores {_numbers(after)}")
    if round_.result is not None:
        result = round_.result
        lines.append(RoundEnded(result).text)
        for seat, (pips, penalty) in enumerate(zip(result.pips, result.penalties, strict=True)):
            lines.append(f"{seat} penalty pips {pips} raw {penalty}")
        lines.append(f"scores {_numbers(round_.scores)}")
    return lines


def transcript_lines(match: Match) -> list[str]:
    """Every line of a match's transcript after the header: the rounds, then the outcome."""
    lines: list[str] = []
    for number, round_ in enumerate(match.rounds, start=1):
        lines += _round_lines(number, round_)
    if match.winner is None:
        lines.append(f"match unfinished after {len(match.rounds)} rounds")
    else:
        lines.append(f"match winner={match.winner} scores={_numbers(match.scores)}")
    return lines


# --- comparing ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Difference:
    """The first line where two transcripts differ (numbered from 1); None past the end."""

    line: int
    expected: str | None
    """The golden line, or None where the golden transcript has ended."""
    actual: str | None
    """The line played now, or None where the transcript played now has ended."""

    @property
    def text(self) -> str:
        """``line 17: golden '1 draw [2|5]', now '1 draw [2|6]'``."""
        golden = "the end" if self.expected is None else _shown(self.expected)
        now = "the end" if self.actual is None else _shown(self.actual)
        return f"line {self.line}: golden {golden}, now {now}"

    def __str__(self) -> str:
        return self.text


def first_difference(expected: Sequence[str], actual: Sequence[str]) -> Difference | None:
    """The first line at which ``actual`` departs from ``expected``, or None if they agree."""
    for index, (want, got) in enumerate(zip(expected, actual, strict=False)):
        if want != got:
            return Difference(index + 1, want, got)
    if len(expected) == len(actual):
        return None
    at = min(len(expected), len(actual))
    return Difference(
        at + 1,
        expected[at] if at < len(expected) else None,
        actual[at] if at < len(actual) else None,
    )


def read_transcript(path: Path) -> list[str]:
    """The lines of a transcript file, each without its line end; UsageError naming the file.

    Only a regular file of at most :data:`~fiveup.harness.sources.MAX_FILE_BYTES` is read (a
    FIFO, a device or a folder is refused without being opened for reading). Lines end with
    a line feed alone: any other character, a carriage return included, stays in its line, so that
    it differs. A last line without its line end is kept with :data:`NO_LINE_END` after it.
    """
    raw = read_bounded(path)
    if isinstance(raw, str):
        raise UsageError(f"{printable(str(path))}: {raw}")
    text = raw.decode("utf-8", errors="replace")
    lines = text.split("\n")
    if lines[-1]:
        lines[-1] += NO_LINE_END
    else:
        lines.pop()
    return lines


def check_file(path: Path, transcript: Transcript | None = None) -> Difference | None:
    """Play ``transcript`` again (by default the match the file's header names) and compare.

    Returns the first line at which the file departs from the match played now, or None. A file
    that cannot be read (see :func:`read_transcript`), or without a transcript header (and no
    ``transcript`` given), raises UsageError naming the file.
    """
    golden = read_transcript(path)
    if transcript is None:
        try:
            transcript = Transcript.parse_header(golden[0] if golden else "")
        except UsageError as exc:
            raise UsageError(f"{printable(str(path))}: {exc}") from None
    return first_difference(golden, transcript.lines())
