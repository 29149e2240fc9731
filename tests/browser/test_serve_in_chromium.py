"""``bpe-explorer serve`` in a real browser: the page loads (only from the server), the app's first
screen shows, keys and typed text reach the app, and Inspect's token count comes back to the page;
no app outlives its tab or the server.

The installed ``bpe-explorer serve`` runs on a free port with a temporary HOME (``tests/served.py``);
Debian's headless ``chromium`` (installed by ``.ci/run``; without it these tests skip, and fail under
CI) opens the page with a fresh profile; the screen is read from
the page's own xterm.js buffer (``tests/browser/chromium.py``). Every wait is for something to show,
with a deadline only for failing; nothing is downloaded and nothing sleeps a fixed time.
"""

from __future__ import annotations

import re
import signal
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from urllib.parse import urlsplit

import aiohttp
import pytest

from bpe_engine.catalog.openai import load_reference
from tests.browser.chromium import Browser, Page, chromium_path
from tests.oracles import under_ci
from tests.served import STARTUP, ServeProcess, all_gone

TYPED = "hello world 한국어"
LOCAL_HOSTS = ("127.0.0.1", "localhost")


@pytest.fixture
def chromium() -> str:
    """Debian's chromium; without it the browser tests skip with the reason (and fail under CI)."""
    executable = chromium_path()
    if executable is None:
        reason = "no chromium on PATH: install Debian's (apt-get install -y chromium chromium-driver), as .ci/run does"
        if under_ci():
            pytest.fail(f"CI run: {reason}", pytrace=False)
        pytest.skip(reason)
    return executable


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[ServeProcess]:
    """``bpe-explorer serve`` in its own session (it starts one app per page); ended with all it left."""
    served = ServeProcess(tmp_path)
    try:
        await served.listening()
        yield served
    finally:
        served.close()


def count(pattern: str, screen: str) -> int | None:
    m = re.search(pattern, screen)
    return int(m.group(1).replace(",", "")) if m else None


async def test_the_app_in_a_browser_counts_typed_tokens(chromium: str, server: ServeProcess, tmp_path: Path) -> None:
    """...and the page loads everything from the server (it once asked a web font host for its font)."""
    browser = Browser(chromium, tmp_path / "chromium-profile")
    try:
        port = await browser.devtools_port(STARTUP)
        async with aiohttp.ClientSession() as http:
            page = await Page.open(http, port)
            try:
                await page.call("Page.navigate", url=f"http://127.0.0.1:{server.port}/")
                first = await page.wait_for(lambda s: "ready: press ctrl+t" in s, STARTUP, "the app's first screen")
                assert "Train" in first and "Inspect" in first and "Compare" in first and "sample corpus" in first

                await page.evaluate("document.querySelector('.xterm-helper-textarea').focus()")
                await press_until(page, "f3", lambda s: "Corpus selection" in s, "the Inspect tab")
                await page.press("end", *["backspace"] * 40)  # the box's sample text is gone
                await page.wait_for(lambda s: count(r"· ([\d,]+) tokens,", s) == 0, STARTUP, "an empty Inspect box")
                await page.type(TYPED)
                expected = len(load_reference("gpt2").encode(TYPED))  # Inspect's default tokenizer
                screen = await page.wait_for(
                    lambda s: count(r"gpt2 · ([\d,]+) tokens, ([\d,]+) characters", s) == expected, STARTUP, f"'{expected} tokens'"
                )
                assert count(r"tokens, ([\d,]+) characters", screen) == len(TYPED) and TYPED in screen
                assert "-first-byte" in await page.evaluate("document.body.className")  # the page drew what it got
                assert page.errors == []
                assert page.requested and all(urlsplit(url).hostname in LOCAL_HOSTS for url in page.requested), page.requested
            finally:
                await page.close()
    except AssertionError as exc:  # say what the server and the browser said, too
        raise AssertionError(f"{exc}\n{logs(server, browser)}") from None
    finally:
        browser.close()


async def test_no_app_outlives_a_tab_closed_while_it_starts_or_the_server(chromium: str, server: ServeProcess, tmp_path: Path) -> None:
    """A tab that goes while its app starts (a headless ``chromium --screenshot`` does) left the app
    redrawing at ~100 % CPU for ever, re-parented to PID 1 once the server stopped."""
    first = Browser(chromium, tmp_path / "first-profile")
    try:
        async with aiohttp.ClientSession() as http:
            page = await Page.open(http, await first.devtools_port(STARTUP))
            await page.call("Page.navigate", url=f"http://127.0.0.1:{server.port}/")
            await server.an_app_started()
            await page.wait_for(lambda s: s != "", STARTUP, "the page's terminal")  # the app is starting
            server.apps()
            await page.close()
        first.close()  # the tab goes mid-start
        await all_gone(server.seen, "the app of a tab closed while it started")

        second = Browser(chromium, tmp_path / "second-profile")
        try:
            async with aiohttp.ClientSession() as http:
                page = await Page.open(http, await second.devtools_port(STARTUP))
                await page.call("Page.navigate", url=f"http://127.0.0.1:{server.port}/")
                await page.wait_for(lambda s: "ready: press ctrl+t" in s, STARTUP, "the app's first screen")
                server.apps()
                server.stop(signal.SIGTERM)  # the server stops with a tab open
                assert await server.ended() == 0, server.log()
                await all_gone(server.seen, "the apps of a stopped server")
                await page.close()
        finally:
            second.close()
    except AssertionError as exc:
        raise AssertionError(f"{exc}\n{logs(server, first)}") from None
    finally:
        first.close()


def logs(server: ServeProcess, browser: Browser) -> str:
    return f"{server.log()}\n--- {browser.log.name} (tail) ---\n{browser.log.read_text(errors='replace')[-2000:]}"


async def press_until(page: Page, key: str, shown: Callable[[str], object], what: str) -> str:
    """Press ``key`` until ``shown`` holds: with both cores busy, a key sent as the page's first
    input was once lost between xterm.js and the server (the screen stayed on Train for 60 s), so an
    idempotent key (f3 always shows Inspect) is sent again every few seconds until the screen answers."""
    deadline = time.monotonic() + STARTUP
    while True:
        await page.press(key)
        try:
            return await page.wait_for(shown, 5, what)
        except AssertionError:
            if time.monotonic() > deadline:
                raise
