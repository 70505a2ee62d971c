"""Data package: shipped so that an installed wheel carries the spec."""

if __name__ != "fiveup.spec":  # pragma: no cover - only a bare import from the checkout root
    raise ImportError(
        f"import fiveup.spec, not {__name__}: the top-level folder spec/ is installed as "
        "fiveup.spec, and a second name would make a second copy of every module"
    )
