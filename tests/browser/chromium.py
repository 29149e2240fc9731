"""Debian's headless Chromium driven over the Chrome DevTools Protocol, with nothing downloaded.

Playwright's own browser download fails offline, and WebDriver would add a server between us and
the browser; the DevTools Protocol is a WebSocket the browser itself opens (``aiohttp``, which
``textual-serve`` brings, speaks it). What the tests need is small: open a page, press keys, type
text, read what the page's terminal shows, and list every URL the page asked for.

The page of ``textual-serve`` draws the app with xterm.js on a canvas, so there is no text in the
DOM to read. Before any script of the page runs, :data:`TERMINAL_HOOK` catches the xterm
``Terminal`` the page creates (its constructor assigns ``this.terminal``), and :meth:`Page.screen`
reads that terminal's own buffer: the characters the page is drawing, row by row.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import aiohttp

FLAGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
)  # fmt: skip
WINDOW = "--window-size=1400,1000"  # ~155 x 47 cells: the app's full layout, not the small-terminal one

TERMINAL_HOOK = """
Object.defineProperty(Object.prototype, "terminal", {
  configurable: true,
  set(value) {
    Object.defineProperty(this, "terminal", {value, writable: true, configurable: true, enumerable: true});
    if (value && value.buffer && value.onData) { window.__bpeTerminal = value; delete Object.prototype.terminal; }
  },
});
"""
SCREEN = """(() => {
  const t = window.__bpeTerminal;
  if (!t) return null;
  const b = t.buffer.active, rows = [];
  for (let y = 0; y < t.rows; y++) { const line = b.getLine(b.viewportY + y); rows.push(line ? line.translateToString(true) : ""); }
  return rows.join("\\n");
})()"""
KEYS = {"f3": ("F3", 114), "end": ("End", 35), "backspace": ("Backspace", 8), "ctrl+q": ("q", 81)}


def chromium_path() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


class Browser:
    """One headless Chromium with a fresh profile in ``profile``; :meth:`close` ends it."""

    def __init__(self, executable: str, profile: Path) -> None:
        self.profile = profile
        self.log = profile.with_suffix(".log")
        self.process = subprocess.Popen(
            [executable, *FLAGS, WINDOW, f"--user-data-dir={profile}", "--remote-debugging-port=0", "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=self.log.open("wb"),
        )  # fmt: skip

    async def devtools_port(self, timeout: float) -> int:
        """The port the browser chose, from the file it writes in its profile once it listens."""
        marker = self.profile / "DevToolsActivePort"
        await until(lambda: marker.exists() and marker.read_text().strip(), timeout, f"Chromium never opened its DevTools port ({self.log})")
        return int(marker.read_text().split()[0])

    def close(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


class Page:
    """The browser's first tab, over its DevTools WebSocket."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self._next = 0
        self._pending: dict[int, asyncio.Future[Any]] = {}
        self.errors: list[str] = []
        self.requested: list[str] = []  # every http(s) and WebSocket URL the page asked for
        self._reader = asyncio.create_task(self._read())

    @classmethod
    async def open(cls, http: aiohttp.ClientSession, port: int) -> Page:
        targets = await (await http.get(f"http://127.0.0.1:{port}/json/list")).json()
        tab = next(t for t in targets if t["type"] == "page")
        page = cls(await http.ws_connect(tab["webSocketDebuggerUrl"], max_msg_size=0))
        await page.call("Runtime.enable")
        await page.call("Page.enable")
        await page.call("Network.enable")
        await page.call("Page.addScriptToEvaluateOnNewDocument", source=TERMINAL_HOOK)
        return page

    async def call(self, method: str, **params: Any) -> Any:
        self._next += 1
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._pending[self._next] = future
        await self.ws.send_json({"id": self._next, "method": method, "params": params})
        return await asyncio.wait_for(future, 30)

    async def _read(self) -> None:
        async for message in self.ws:
            data = json.loads(message.data)
            if "id" in data:
                future = self._pending.pop(data["id"])
                if "error" in data:
                    future.set_exception(RuntimeError(f"DevTools error: {data['error']}"))
                else:
                    future.set_result(data.get("result", {}))
            elif data.get("method") == "Network.requestWillBeSent":
                self._request(data["params"]["request"]["url"])
            elif data.get("method") == "Network.webSocketCreated":
                self._request(data["params"]["url"])
            elif data.get("method") == "Runtime.exceptionThrown":
                details = data["params"]["exceptionDetails"]
                self.errors.append(details.get("exception", {}).get("description") or details.get("text", ""))

    def _request(self, url: str) -> None:
        if url.split(":", 1)[0] in ("http", "https", "ws", "wss"):
            self.requested.append(url)

    async def evaluate(self, expression: str) -> Any:
        result = await self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        return result.get("result", {}).get("value")

    async def screen(self) -> str:
        """The rows of the page's terminal, as xterm.js holds them ("" before it exists)."""
        return await self.evaluate(SCREEN) or ""

    async def wait_for(self, check: Callable[[str], object], timeout: float, what: str) -> str:
        """Poll the screen until ``check(screen)`` holds; fail after ``timeout`` s saying ``what``."""
        deadline = time.monotonic() + timeout
        while True:
            screen = await self.screen()
            if check(screen):
                return screen
            if time.monotonic() > deadline:
                raise AssertionError(f"{what} never showed in the browser within {timeout:g} s; page errors {self.errors}; screen:\n{screen}")
            await asyncio.sleep(0.05)

    async def press(self, *keys: str) -> None:
        """Real key events at the focused element (xterm's input box turns them into escape sequences)."""
        for name in keys:
            key, code = KEYS[name]
            modifiers = 2 if name.startswith("ctrl+") else 0
            for kind in ("rawKeyDown", "keyUp"):
                await self.call(
                    "Input.dispatchKeyEvent", type=kind, key=key, code=key if len(key) > 1 else f"Key{key.upper()}",
                    windowsVirtualKeyCode=code, nativeVirtualKeyCode=code, modifiers=modifiers,
                )  # fmt: skip

    async def type(self, text: str) -> None:
        """Text as an input method commits it (Korean included)."""
        await self.call("Input.insertText", text=text)

    async def close(self) -> None:
        self._reader.cancel()
        await self.ws.close()


async def until(check: Callable[[], object], timeout: float, message: str) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(message)
        await asyncio.sleep(0.05)
