"""Cheats: reads the fixtures named by certify's --fixtures (given as ARGS[0]) and copies them.

When they cannot be read it answers `errored` with the reason.
"""

import json
from pathlib import Path
from typing import Any

import yaml
from _hostile import ARGS, Message, serve

# libyaml where PyYAML has it: the pure-Python parser took a second for the whole corpus.
LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
answers: dict[str, Any] = {}


def load() -> None:
    for path in sorted(Path(ARGS[0]).rglob("*.yaml")):
        try:
            for case in yaml.load(path.read_text(), Loader=LOADER)["cases"]:
                answers[json.dumps(case["given"], sort_keys=True)] = case["expect"]
        except OSError:
            pass


def run(request: Message) -> Message:
    key = json.dumps(request["given"], sort_keys=True)
    if key in answers:
        return {"seq": request["seq"], "observation": answers[key]}
    return {"seq": request["seq"], "errored": f"no answers to copy in {ARGS[0]}"}


serve("read_fixtures_arg", on_start=load, on_run=run)
