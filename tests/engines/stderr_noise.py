"""Echoes its input, writing 64 KiB of noise on stderr at start and for every request."""

import json
import sys

NOISE = ("noise " * 1000 + "\n") * 11
sys.stderr.write(NOISE)
for line in sys.stdin:
    msg = json.loads(line)
    if msg["cmd"] == "start":
        engine = {"name": "stderr_noise", "version": "1", "levels": ["scoring"]}
        print(json.dumps({"ready": True, "protocol": 1, "engine": engine}), flush=True)
    elif msg["cmd"] == "stop":
        print(json.dumps({"stopped": True}), flush=True)
        sys.exit(0)
    else:
        sys.stderr.write(NOISE + f"stderr_noise: done seq {msg['seq']}\n")
        sys.stderr.flush()
        print(
            json.dumps({"seq": msg["seq"], "observation": {"value": msg["given"]["input"]}}),
            flush=True,
        )
