"""Answers start with protocol version 2."""

import json
import sys

for line in sys.stdin:
    msg = json.loads(line)
    if msg["cmd"] == "start":
        engine = {"name": "wrong_protocol", "version": "1", "levels": ["scoring"]}
        print(json.dumps({"ready": True, "protocol": 2, "engine": engine}), flush=True)
    elif msg["cmd"] == "stop":
        print(json.dumps({"stopped": True}), flush=True)
        sys.exit(0)
    else:
        print(
            json.dumps({"seq": msg["seq"], "observation": {"value": msg["given"]["input"]}}),
            flush=True,
        )
