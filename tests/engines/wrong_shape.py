"""Echoes its input; input 13: a reply without observation; 14: an observation of the wrong shape.

`wrong_shape.py ready`: the ready message lacks `engine`.
"""

import json
import sys

for line in sys.stdin:
    msg = json.loads(line)
    if msg["cmd"] == "start":
        engine = {"name": "wrong_shape", "version": "1", "levels": ["scoring"]}
        ready: dict[str, object] = {"ready": True, "protocol": 1}
        if sys.argv[1:] != ["ready"]:
            ready["engine"] = engine
        print(json.dumps(ready), flush=True)
    elif msg["cmd"] == "stop":
        print(json.dumps({"stopped": True}), flush=True)
        sys.exit(0)
    else:
        n = msg["given"]["input"]
        if n == 13:
            reply = {"seq": msg["seq"], "result": {"value": 13}}
        elif n == 14:
            reply = {"seq": msg["seq"], "observation": {"value": "fourteen"}}
        else:
            reply = {"seq": msg["seq"], "observation": {"value": n}}
        print(json.dumps(reply), flush=True)
