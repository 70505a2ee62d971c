"""A small driver of headless Chromium over the DevTools protocol, with the standard library only.

Chromium started with ``--remote-debugging-pipe`` reads protocol commands from its fd 3 and
writes replies and events to its fd 4, each message one JSON text ended by a NUL byte. The
driver opens one page, records what would tell a person that something is wrong (console
errors, uncaught exceptions, log errors, failed loads), and answers questions about the page
through ``Runtime.evaluate``. Every wait is bounded; the browser's whole process group is
killed on close.
"""

from __future__ import annotations

import base64
import contextlib
import fcntl
import json
import os
import select
import shutil
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any

CHROMIUM = "/usr/bin/chromium"
BASH = shutil.which("bash") or "/bin/bash"
"""The shell that moves the pipes to fds 3 and 4 (dash takes no fd above 9)."""
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--window-size=1280,1600",
)


class BrowserError(Exception):
    """The browser did not answer in time, or answered with an error."""


@dataclass
class Problems:
    """What went wrong on the page, as the browser reported it."""

    console: list[str] = field(default_factory=list)
    exceptions: list[str] = field(default_factory=list)
    log: list[str] = field(default_factory=list)
    failed_loads: list[str] = field(default_factory=list)

    def all(self) -> list[str]:
        """Every problem, each prefixed by where it was reported."""
        return [
            *(f"console: {m}" for m in self.console),
            *(f"exception: {m}" for m in self.exceptions),
            *(f"log: {m}" for m in self.log),
            *(f"failed load: {m}" for m in self.failed_loads),
        ]


def _high(fd: int) -> int:
    """``fd`` moved to a number above 9 (so the redirections to 3 and 4 cannot clash)."""
    moved = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10)
    os.close(fd)
    return moved


class Browser:
    """One headless Chromium with one page, driven over its debugging pipe."""

    def __init__(self, executable: str = CHROMIUM, timeout: float = 10.0) -> None:
        """Start the browser; ``timeout`` bounds every single wait."""
        self.timeout = timeout
        self.problems = Problems()
        self._profile = tempfile.mkdtemp(prefix="fiveup-chromium-")
        to_browser_r, self._to_browser = (_high(fd) for fd in os.pipe())
        self._from_browser, from_browser_w = (_high(fd) for fd in os.pipe())
        shell = f'exec "$0" "$@" 3<&{to_browser_r} 4>&{from_browser_w}'
        self._proc = subprocess.Popen(
            [BASH, "-c", shell, executable, *FLAGS, f"--user-data-dir={self._profile}",
             "--remote-debugging-pipe", "about:blank"],
            pass_fds=(to_browser_r, from_browser_w),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL if not os.environ.get("BROWSER_DEBUG") else None,
            start_new_session=True,
        )  # fmt: skip
        os.close(to_browser_r)
        os.close(from_browser_w)
        self._buffer = b""
        self._next_id = 0
        self._events: list[dict[str, Any]] = []
        self._session = ""
        self._attach()

    # ------------------------------------------------------------------ the pipe

    def _read_message(self, deadline: float) -> dict[str, Any]:
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise BrowserError("the browser did not answer in time")
            ready, _, _ = select.select([self._from_browser], [], [], left)
            if not ready:
                continue
            chunk = os.read(self._from_browser, 1 << 16)
            if not chunk:
                raise BrowserError("the browser closed its pipe")
            self._buffer += chunk
        message, _, self._buffer = self._buffer.partition(b"\0")
        parsed: dict[str, Any] = json.loads(message)
        return parsed

    def _note(self, event: dict[str, Any]) -> None:
        method, params = event.get("method", ""), event.get("params", {})
        if method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
            texts = (str(a.get("value", a.get("description", ""))) for a in params["args"])
            self.problems.console.append(" ".join(texts))
        elif method == "Runtime.exceptionThrown":
            details = params.get("exceptionDetails", {})
            self.problems.exceptions.append(str(details.get("text", details)))
        elif method == "Log.entryAdded" and params["entry"].get("level") == "error":
            self.problems.log.append(str(params["entry"].get("text", "")))
        elif method == "Network.loadingFailed":
            self.problems.failed_loads.append(str(params.get("errorText", "")))
        self._events.append(event)

    def send(self, method: str, params: dict[str, Any] | None = None, **options: Any) -> Any:
        """Send one command (to the page unless ``browser=True``) and return its result."""
        self._next_id += 1
        message: dict[str, Any] = {"id": self._next_id, "method": method, "params": params or {}}
        if self._session and not options.get("browser"):
            message["sessionId"] = self._session
        os.write(self._to_browser, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + self.timeout
        while True:
            reply = self._read_message(deadline)
            if reply.get("id") == self._next_id:
                if "error" in reply:
                    raise BrowserError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self._note(reply)

    def wait_for(self, method: str) -> dict[str, Any]:
        """The first event ``method`` not yet consumed, waiting for it if need be."""
        deadline = time.monotonic() + self.timeout
        while True:
            for i, event in enumerate(self._events):
                if event.get("method") == method:
                    del self._events[i]
                    params: dict[str, Any] = event.get("params", {})
                    return params
            self._note(self._read_message(deadline))

    def _attach(self) -> None:
        target = self.send("Target.createTarget", {"url": "about:blank"}, browser=True)
        attached = self.send(
            "Target.attachToTarget", {"targetId": target["targetId"], "flatten": True}
        )
        self._session = attached["sessionId"]
        for domain in ("Page", "Runtime", "Log", "Network"):
            self.send(f"{domain}.enable")

    # ------------------------------------------------------------------ the page

    def open(self, path: Path) -> None:
        """Load the file ``path`` and wait until its load event; the problems are its own."""
        self._events.clear()
        self.problems = Problems()
        result = self.send("Page.navigate", {"url": path.resolve().as_uri()})
        if result.get("errorText"):
            raise BrowserError(f"{path}: {result['errorText']}")
        self.wait_for("Page.loadEventFired")

    def evaluate(self, expression: str) -> Any:
        """The value of a JavaScript expression on the page (returned by value)."""
        result = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True})
        if "exceptionDetails" in result:
            raise BrowserError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def screenshot(self, target: Path, *, max_height: int = 6000, scale: float = 0.6) -> Path:
        """A PNG of the page from its top, at most ``max_height`` pixels of it, to ``target``."""
        size = self.evaluate("[document.documentElement.scrollWidth, document.body.scrollHeight]")
        clip = {"x": 0, "y": 0, "width": size[0], "height": min(size[1], max_height)}
        params = {"format": "png", "captureBeyondViewport": True, "clip": {**clip, "scale": scale}}
        shot = self.send("Page.captureScreenshot", params)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(base64.b64decode(shot["data"]))
        return target

    # ------------------------------------------------------------------ the end

    def close(self) -> None:
        """Kill the browser's whole process group and remove its profile."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self._proc.pid, signal.SIGKILL)
        try:
            self._proc.wait(timeout=self.timeout)
        finally:
            for fd in (self._to_browser, self._from_browser):
                os.close(fd)
            shutil.rmtree(self._profile, ignore_errors=True)

    def __enter__(self) -> Browser:
        """The browser itself."""
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        """Close the browser whatever happened."""
        self.close()
