"""Dies before the handshake, with a message on stderr."""

import sys

sys.stderr.write("crash_on_start: cannot load my rules\n")
sys.exit(3)
