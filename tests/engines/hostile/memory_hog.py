"""Answers its first case by taking memory without end, in a child and in itself."""

import subprocess
import sys

from _hostile import MARKER, Message, serve

HOG = "import sys\nheld = []\nwhile True:\n    held.append(bytearray(16 << 20))\n"


def run(request: Message) -> Message:
    child = subprocess.Popen([sys.executable, "-c", HOG, MARKER])
    child.wait()  # a MemoryError under the harness's limit: it inherited it
    held = []
    while True:
        held.append(bytearray(16 << 20))  # touched: zero-filled pages are written


serve("memory_hog", on_run=run)
