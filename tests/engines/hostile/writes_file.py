"""Tries to write a file outside its own folder (ARGS[0]) at start, then plays right."""

from _hostile import ARGS, MARKER, serve


def scribble() -> None:
    try:
        with open(ARGS[0], "w") as fh:
            fh.write(f"written by {MARKER}\n")
    except OSError:
        pass


serve("writes_file", on_start=scribble)
