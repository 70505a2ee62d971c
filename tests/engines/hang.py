"""Hangs. `hang.py start`: never answers start and never reads stdin.

`hang.py run`: echoes its input but hangs on input 13 after starting a grandchild that sleeps
too (its pid on stderr, so a test can check the whole process group was killed); ignores stop.
"""

import json
import subprocess
import sys
import time

if sys.argv[1] == "start":
    time.sleep(60)
for line in sys.stdin:
    msg = json.loads(line)
    if msg["cmd"] == "start":
        engine = {"name": "hang", "version": "1", "levels": ["scoring"]}
        print(json.dumps({"ready": True, "protocol": 1, "engine": engine}), flush=True)
    elif msg["cmd"] == "stop":
        time.sleep(60)
    elif msg["given"]["input"] == 13:
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
        sys.stderr.write(f"hang: grandchild {child.pid}\n")
        sys.stderr.flush()
        time.sleep(60)
    else:
        print(
            json.dumps({"seq": msg["seq"], "observation": {"value": msg["given"]["input"]}}),
            flush=True,
        )
