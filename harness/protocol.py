"""The engine plug-in interface, under its 1.0 name: see :mod:`fiveup.contract.engine`.

``fiveup.harness.protocol.Engine`` is the name the README and ``spec/protocol.md`` of suite
1.0.0 document; it stays importable from here.
"""

from fiveup.contract.engine import JSON, Engine, EngineInfo, Level

__all__ = ["JSON", "Engine", "EngineInfo", "Level"]
