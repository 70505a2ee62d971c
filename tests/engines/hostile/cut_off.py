"""Writes half a reply and exits."""

import os
import sys

from _hostile import Message, serve


def run(request: Message) -> Message:
    sys.stdout.write('{"seq": ' + str(request["seq"]) + ', "observ')
    sys.stdout.flush()
    os._exit(0)


serve("cut_off", on_run=run)
