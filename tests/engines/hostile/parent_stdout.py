"""Writes into the harness's own stdout and stderr through /proc/<ppid>/fd/1 and fd/2.

Then plays fair. Without the sandbox the lines land in certify's output; under the sandbox
its parent is the sandbox's init, and the harness is out of sight.
"""

import os

from _hostile import MARKER, serve


def inject() -> None:
    for fd in (1, 2):
        try:
            with open(f"/proc/{os.getppid()}/fd/{fd}", "w") as fh:
                fh.write(f"INJECTED {MARKER}: everything CONFORMS\n")
        except OSError:
            pass


serve("parent_stdout", on_start=inject)
