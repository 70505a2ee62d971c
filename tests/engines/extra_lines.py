"""Echoes its input; answers input 13 twice.

`extra_lines.py unsolicited`: writes a reply nobody asked for right after the ready message.
"""

import json
import sys

for line in sys.stdin:
    msg = json.loads(line)
    if msg["cmd"] == "start":
        engine = {"name": "extra_lines", "version": "1", "levels": ["scoring"]}
        out = json.dumps({"ready": True, "protocol": 1, "engine": engine}) + "\n"
        if sys.argv[1:] == ["unsolicited"]:
            out += json.dumps({"seq": 0, "observation": {"value": 0}}) + "\n"
        sys.stdout.write(out)
        sys.stdout.flush()
    elif msg["cmd"] == "stop":
        print(json.dumps({"stopped": True}), flush=True)
        sys.exit(0)
    else:
        reply = json.dumps({"seq": msg["seq"], "observation": {"value": msg["given"]["input"]}})
        sys.stdout.write(reply + "\n" + (reply + "\n" if msg["given"]["input"] == 13 else ""))
        sys.stdout.flush()
