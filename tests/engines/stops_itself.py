"""Sends itself SIGSTOP: `stops_itself.py start` before its ready message, `run` at a case."""

import json
import os
import signal
import sys

for line in sys.stdin:
    msg = json.loads(line)
    if msg["cmd"] == "start":
        if sys.argv[1:] == ["start"]:
            os.kill(os.getpid(), signal.SIGSTOP)
        engine = {"name": "stops_itself", "version": "1", "levels": ["scoring"]}
        print(json.dumps({"ready": True, "protocol": 1, "engine": engine}), flush=True)
    elif msg["cmd"] == "stop":
        print(json.dumps({"stopped": True}), flush=True)
        sys.exit(0)
    else:
        os.kill(os.getpid(), signal.SIGSTOP)
