"""Five Up conformance suite: normative spec, fixtures, reference engine and harness.

The suite version names the spec, the fixture corpus and the engine protocol together:
they change as one.
"""

__version__ = "1.1.0.dev0"
SUITE_VERSION = __version__
PROTOCOL_VERSION = 1

__all__ = ["PROTOCOL_VERSION", "SUITE_VERSION", "__version__"]
