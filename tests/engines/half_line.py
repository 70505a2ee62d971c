"""Starts a reply to each case and never ends its line: it waits with the line half written."""

import json
import sys
import time

for line in sys.stdin:
    msg = json.loads(line)
    if msg["cmd"] == "start":
        engine = {"name": "half_line", "version": "1", "levels": ["scoring"]}
        print(json.dumps({"ready": True, "protocol": 1, "engine": engine}), flush=True)
    elif msg["cmd"] == "stop":
        print(json.dumps({"stopped": True}), flush=True)
        sys.exit(0)
    else:
        sys.stdout.write('{"seq": ' + str(msg["seq"]) + ', "observ')
        sys.stdout.flush()
        time.sleep(60)
