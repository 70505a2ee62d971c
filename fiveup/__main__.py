"""``python -m fiveup``: the same as the ``fiveup`` command."""

import sys

from fiveup.cli import main

sys.exit(main())
