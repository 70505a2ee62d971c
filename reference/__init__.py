"""The reference engine of Five Up: the executable form of the spec, pure Python."""
