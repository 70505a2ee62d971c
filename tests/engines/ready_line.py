"""Answers start with its first argument, as is, for the ready message; then echoes its input."""

import json
import sys

for line in sys.stdin:
    msg = json.loads(line)
    if msg["cmd"] == "start":
        print(sys.argv[1], flush=True)
    elif msg["cmd"] == "stop":
        print(json.dumps({"stopped": True}), flush=True)
        sys.exit(0)
    else:
        reply = {"seq": msg["seq"], "observation": {"value": msg["given"]["input"]}}
        print(json.dumps(reply), flush=True)
