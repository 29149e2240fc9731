"""``bpe-explorer serve``'s sessions, driven over the page's own WebSocket (no browser needed):
every tab's app ends when the tab goes (even while the app starts), when the server stops however
it stops, and only ``--max-sessions`` run at once, a tab beyond that being told why.

A tab closed while its app started left ``python -m bpe_cli.main`` at ~100 % CPU for ever, re-parented
to PID 1 once the server stopped, deaf to SIGTERM and SIGINT. ``tests/browser`` does the same in Chromium.
"""

from __future__ import annotations

import doctest
import json
import signal
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pyte
import pytest

from tests.served import STARTUP, ServeProcess, all_gone, children, until

READY = "ready: press ctrl+t"
pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="finds the server's apps in /proc")


@pytest.fixture
async def http() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as session:
        yield session


async def open_tab(http: aiohttp.ClientSession, server: ServeProcess) -> aiohttp.ClientWebSocketResponse:
    """What the page's script does: open the WebSocket with its size, then send the size again."""
    ws = await http.ws_connect(f"http://127.0.0.1:{server.port}/ws?width=100&height=30")
    await ws.send_str(json.dumps(["resize", {"width": 100, "height": 30}]))
    return ws


async def first_screen(ws: aiohttp.ClientWebSocketResponse, first: aiohttp.WSMessage | None = None) -> str:
    """The app's output (after ``first``, already read), read into a terminal emulator until the
    first screen shows (its ready line)."""
    screen = pyte.Screen(100, 30)
    stream = pyte.ByteStream(screen)
    deadline = time.monotonic() + STARTUP
    message = first
    if message is not None:
        stream.feed(message.data)
    while not any(READY in line for line in screen.display):
        message = await ws.receive(timeout=max(0.1, deadline - time.monotonic()))
        assert message.type == aiohttp.WSMsgType.BINARY, f"the session ended before the app drew: {message}"
        stream.feed(message.data)
    return "\n".join(screen.display)


async def a_tab_let_in(http: aiohttp.ClientSession, server: ServeProcess) -> tuple[aiohttp.ClientWebSocketResponse, aiohttp.WSMessage]:
    """A tab the server runs an app for, and its first message (one opened while a place frees up is
    refused: then another is opened)."""
    deadline = time.monotonic() + STARTUP
    while True:
        ws = await open_tab(http, server)
        message = await ws.receive(timeout=STARTUP)
        if message.type == aiohttp.WSMsgType.BINARY and b"already running" not in message.data:
            return ws, message
        assert time.monotonic() < deadline, f"no tab was let in: {message}"
        await ws.close()


async def test_an_app_ends_when_its_tab_goes_while_it_starts(tmp_path: Path, http: aiohttp.ClientSession) -> None:
    server = ServeProcess(tmp_path)
    try:
        await server.listening()
        ws = await open_tab(http, server)
        await server.an_app_started()
        first = await ws.receive(timeout=STARTUP)  # the driver's set-up (alternate screen, mouse): nothing drawn yet
        assert first.type == aiohttp.WSMsgType.BINARY and READY.encode() not in first.data
        server.apps()
        await ws.send_str(json.dumps(["resize", {"width": 120, "height": 40}]))  # the page fits itself again
        await ws.close()
        await all_gone(server.seen, "the app of a tab closed while it started")
        assert server.process.poll() is None  # the server goes on
    finally:
        server.close()


@pytest.mark.parametrize("number", [signal.SIGTERM, signal.SIGINT, signal.SIGKILL], ids=lambda n: n.name)
async def test_every_app_ends_when_the_server_stops(tmp_path: Path, http: aiohttp.ClientSession, number: signal.Signals) -> None:
    server = ServeProcess(tmp_path)
    try:
        await server.listening()
        ready = await open_tab(http, server)
        await first_screen(ready)
        await open_tab(http, server)  # and one still starting
        await until(lambda: len(server.apps()) == 2, STARTUP, "the second tab's app never started")
        server.apps()
        server.stop(number)
        status = await server.ended()
        await all_gone(server.seen, f"the apps of a server stopped by {number.name}")
        if number is not signal.SIGKILL:
            assert status == 0, server.log()
    finally:
        server.close()


async def test_a_tab_beyond_the_cap_is_told_why_and_starts_nothing(tmp_path: Path, http: aiohttp.ClientSession) -> None:
    server = ServeProcess(tmp_path, "--max-sessions", "1")
    try:
        await server.listening()
        first = await open_tab(http, server)
        await first_screen(first)
        second = await open_tab(http, server)
        told = await second.receive(timeout=STARTUP)
        assert told.type == aiohttp.WSMsgType.BINARY
        text = told.data.decode()
        assert "1 session already running" in text and "set with --max-sessions" in text and "reload" in text
        assert (await second.receive(timeout=STARTUP)).type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)
        assert len(children(server.pid)) == 1
        await first.close()  # the first tab goes: its place is free again, once the server has seen its app end
        await all_gone(server.seen, "the first tab's app")
        await first_screen(*await a_tab_let_in(http, server))
    finally:
        server.close()


def test_the_default_cap_follows_the_cores_and_the_memory() -> None:
    import bpe_cli.serve_cap as serve_cap
    failures, tried = doctest.testmod(serve_cap, verbose=False)
    assert tried > 0 and failures == 0
