"""Echoes its input; on input 13 answers a line that is not JSON, on 14 and 16 lines that only
a lenient reader takes: a member named twice (the last one right) and a NaN."""

import json
import sys

for line in sys.stdin:
    msg = json.loads(line)
    if msg["cmd"] == "start":
        engine = {"name": "not_json", "version": "1", "levels": ["scoring"]}
        print(json.dumps({"ready": True, "protocol": 1, "engine": engine}), flush=True)
    elif msg["cmd"] == "stop":
        print(json.dumps({"stopped": True}), flush=True)
        sys.exit(0)
    elif msg["given"]["input"] == 13:
        print("value: thirteen", flush=True)
    elif msg["given"]["input"] == 14:
        seq = msg["seq"]
        print(f'{{"seq": {seq}, "observation": {{"value": 0}}, "observation": {{"value": 14}}}}')
        sys.stdout.flush()
    elif msg["given"]["input"] == 16:
        print(f'{{"seq": {msg["seq"]}, "observation": {{"value": NaN}}}}', flush=True)
    else:
        print(
            json.dumps({"seq": msg["seq"], "observation": {"value": msg["given"]["input"]}}),
            flush=True,
        )
