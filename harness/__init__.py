"""The conformance harness: fixtures, the case runner, engine connections and reports."""
