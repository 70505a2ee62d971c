"""Echoes its input; on input 13 forks a child that keeps stdout open, and exits 3 unanswered."""

import json
import os
import sys
import time

for line in sys.stdin:
    msg = json.loads(line)
    if msg["cmd"] == "start":
        engine = {"name": "exit_leaving_stdout", "version": "1", "levels": ["scoring"]}
        print(json.dumps({"ready": True, "protocol": 1, "engine": engine}), flush=True)
    elif msg["cmd"] == "stop":
        print(json.dumps({"stopped": True}), flush=True)
        sys.exit(0)
    else:
        n = msg["given"]["input"]
        if n == 13:
            if os.fork() == 0:
                time.sleep(600)
            os._exit(3)
        print(json.dumps({"seq": msg["seq"], "observation": {"value": n}}), flush=True)
