"""Echoes its input; answers input 13 with another seq."""

import json
import sys

for line in sys.stdin:
    msg = json.loads(line)
    if msg["cmd"] == "start":
        engine = {"name": "wrong_seq", "version": "1", "levels": ["scoring"]}
        print(json.dumps({"ready": True, "protocol": 1, "engine": engine}), flush=True)
    elif msg["cmd"] == "stop":
        print(json.dumps({"stopped": True}), flush=True)
        sys.exit(0)
    else:
        n = msg["given"]["input"]
        seq = msg["seq"] + 1000 if n == 13 else msg["seq"]
        print(json.dumps({"seq": seq, "observation": {"value": n}}), flush=True)
