"""Echoes its input; dies on input 13 (exit 3); exits quietly after answering input 12."""

import json
import sys

for line in sys.stdin:
    msg = json.loads(line)
    if msg["cmd"] == "start":
        engine = {"name": "crash_mid_run", "version": "1", "levels": ["scoring"]}
        print(json.dumps({"ready": True, "protocol": 1, "engine": engine}), flush=True)
    elif msg["cmd"] == "stop":
        print(json.dumps({"stopped": True}), flush=True)
        sys.exit(0)
    else:
        n = msg["given"]["input"]
        if n == 13:
            sys.stderr.write("Traceback (most recent call last):\nValueError: unlucky 13\n")
            sys.exit(3)
        print(json.dumps({"seq": msg["seq"], "observation": {"value": n}}), flush=True)
        if n == 12:
            sys.exit(0)
