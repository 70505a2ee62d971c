"""Echoes its input; on input 13 writes half a reply and exits with code 5."""

import json
import sys

for line in sys.stdin:
    msg = json.loads(line)
    if msg["cmd"] == "start":
        engine = {"name": "exit_mid_reply", "version": "1", "levels": ["scoring"]}
        print(json.dumps({"ready": True, "protocol": 1, "engine": engine}), flush=True)
    elif msg["cmd"] == "stop":
        print(json.dumps({"stopped": True}), flush=True)
        sys.exit(0)
    elif msg["given"]["input"] == 13:
        sys.stdout.write(json.dumps({"seq": msg["seq"]})[:-1] + ', "observ')
        sys.stdout.flush()
        sys.exit(5)
    else:
        print(
            json.dumps({"seq": msg["seq"], "observation": {"value": msg["given"]["input"]}}),
            flush=True,
        )
