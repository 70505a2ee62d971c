"""One exception root for the whole suite.

Every error also derives from the matching builtin, so callers that only know Python's own
exceptions still catch it; every rule error carries the spec rule ID it enforces.
"""

from __future__ import annotations


class FiveUpError(Exception):
    """Root of every error raised by the suite."""

    rule: str | None = None


class NotationError(FiveUpError, ValueError):
    """A text form (tile, connection point, placement, action) that does not parse."""


class IllegalMoveError(FiveUpError, ValueError):
    """An action the rules forbid; the game state is left exactly as it was.

    ``rule`` is the ID of the spec rule that forbids it (for example ``SPN-2``).
    """

    def __init__(self, rule: str, message: str) -> None:
        """Refuse an action under ``rule``, saying why in ``message``."""
        super().__init__(f"{rule}: {message}")
        self.rule = rule
        self.message = message


class UsageError(FiveUpError, ValueError):
    """A mistake in how a command or function was called (exit code 2).

    ``rule`` names the spec rule the call breaks, when there is one (``PLY-1`` for five players).
    """

    def __init__(self, message: str, rule: str | None = None) -> None:
        """Describe the mistake; with ``rule``, the message starts with the rule ID."""
        super().__init__(f"{rule}: {message}" if rule else message)
        self.rule = rule


class FixtureError(FiveUpError, ValueError):
    """A fixture file that is not valid; the message names the file, place and problem."""


class EngineError(FiveUpError, RuntimeError):
    """An engine under test misbehaved: crashed, hung, broke the protocol or lied."""


class UnsupportedCase(FiveUpError, LookupError):
    """An engine declined a case: it does not support the level or the function asked.

    Not an error of the engine: the runner reports the case as unsupported, with ``reason``.
    """

    def __init__(self, reason: str) -> None:
        """Decline a case for ``reason``."""
        super().__init__(reason)
        self.reason = reason
