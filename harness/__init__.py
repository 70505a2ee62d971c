"""The conformance harness: fixtures, the case runner, engine connections and reports."""

if __name__ != "fiveup.harness":  # pragma: no cover - only a bare import from the checkout root
    raise ImportError(
        f"import fiveup.harness, not {__name__}: the top-level folder harness/ is installed as "
        "fiveup.harness, and a second name would make a second copy of every module"
    )
