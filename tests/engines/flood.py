"""Echoes its input; input 13: one endless line; input 14: a reply, then endless lines."""

import json
import sys

for line in sys.stdin:
    msg = json.loads(line)
    if msg["cmd"] == "start":
        engine = {"name": "flood", "version": "1", "levels": ["scoring"]}
        print(json.dumps({"ready": True, "protocol": 1, "engine": engine}), flush=True)
    elif msg["cmd"] == "stop":
        print(json.dumps({"stopped": True}), flush=True)
        sys.exit(0)
    else:
        n = msg["given"]["input"]
        print(json.dumps({"seq": msg["seq"], "observation": {"value": n}}), end="", flush=True)
        if n == 13:
            while True:
                sys.stdout.write(" " * 65536)
        print(flush=True)
        if n == 14:
            while True:
                sys.stdout.write('{"seq": 0, "observation": {"value": 0}}\n' * 1000)
