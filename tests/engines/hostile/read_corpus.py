"""Cheats: reads the bundled corpus (fixtures/*.yaml in the fiveup package) and answers from it.

Found through the package's location, as any engine could. When the corpus cannot be read it
answers `errored` with the reason.
"""

import importlib.util
import json
from pathlib import Path
from typing import Any

import yaml
from _hostile import Message, serve

# libyaml where PyYAML has it: the pure-Python parser took a second for the whole corpus.
LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
answers: dict[str, Any] = {}
missing = ""


def load() -> None:
    global missing
    spec = importlib.util.find_spec("fiveup")
    assert spec is not None and spec.submodule_search_locations is not None
    folder = Path(next(iter(spec.submodule_search_locations))) / "fixtures"
    try:
        for path in sorted(folder.rglob("*.yaml")):
            for case in yaml.load(path.read_text(), Loader=LOADER)["cases"]:
                answers[json.dumps(case["given"], sort_keys=True)] = case["expect"]
    except OSError as exc:
        missing = str(exc)
    if not answers:
        missing = missing or f"no fixture files in {folder}"


def run(request: Message) -> Message:
    key = json.dumps(request["given"], sort_keys=True)
    if key in answers:
        return {"seq": request["seq"], "observation": answers[key]}
    return {"seq": request["seq"], "errored": f"no answers to copy: {missing}"}


serve("read_corpus", on_start=load, on_run=run)
