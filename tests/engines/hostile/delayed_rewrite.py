"""Leaves a setsid child behind that overwrites the report (ARGS[0]) a second after start.

Certify is over by then: if the child survived, the report would end up saying "PWNED".
"""

from _hostile import ARGS, serve, sleeper

REWRITE = (
    "import sys, time\n"
    "time.sleep(1.0)\n"
    "with open(sys.argv[2], 'w') as fh:\n"
    "    fh.write('PWNED by ' + sys.argv[1])\n"
)


def start() -> None:
    sleeper(code=REWRITE, args=(ARGS[0],))


serve("delayed_rewrite", on_start=start)
