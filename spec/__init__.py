"""Data package: shipped so that an installed wheel carries the spec."""
