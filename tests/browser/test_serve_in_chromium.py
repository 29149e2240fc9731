"""``bpe-explorer serve`` in a real browser: the page loads, the app's first screen shows, keys and
typed text reach the app, and Inspect's token count comes back to the page.

The installed ``bpe-explorer serve`` runs on a free port with a temporary HOME; Debian's headless
``chromium`` (installed by ``.ci/run``) opens the page with a fresh profile; the screen is read from
the page's own xterm.js buffer (``tests/browser/chromium.py``). Every wait is for something to show,
with a deadline only for failing; nothing is downloaded and nothing sleeps a fixed time.
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import aiohttp
import pytest

from bpe_engine.catalog.openai import load_reference
from tests.browser.chromium import Browser, Page, chromium_path, until

TYPED = "hello world 한국어"
STARTUP = 60.0  # failure deadlines: a loaded 2-core CI machine is slow to start a browser and an app


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def accepts(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.2):
            return True
    except OSError:
        return False


def count(pattern: str, screen: str) -> int | None:
    m = re.search(pattern, screen)
    return int(m.group(1).replace(",", "")) if m else None


@pytest.fixture
def server(tmp_path: Path) -> Iterator[int]:
    """``bpe-explorer serve --port P`` in its own process group (it starts one app per page)."""
    port = free_port()
    script = Path(sys.executable).with_name("bpe-explorer")
    home = tmp_path / "home"
    home.mkdir()
    env = {**os.environ, "HOME": str(home)}
    log = (tmp_path / "serve.log").open("wb")
    process = subprocess.Popen(
        [str(script), "serve", "--port", str(port)], cwd=tmp_path, env=env, stdin=subprocess.DEVNULL,
        stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
    )  # fmt: skip
    try:
        yield port
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


async def test_the_app_in_a_browser_counts_typed_tokens(server: int, tmp_path: Path) -> None:
    executable = chromium_path()
    if executable is None:
        pytest.fail("no chromium on PATH: install Debian's (apt-get install -y chromium chromium-driver), as .ci/run does", pytrace=False)
    await until(lambda: accepts(server), STARTUP, f"bpe-explorer serve never listened on port {server} ({tmp_path / 'serve.log'})")
    browser = Browser(executable, tmp_path / "chromium-profile")
    try:
        port = await browser.devtools_port(STARTUP)
        async with aiohttp.ClientSession() as http:
            page = await Page.open(http, port)
            try:
                await page.call("Page.navigate", url=f"http://127.0.0.1:{server}/")
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
            finally:
                await page.close()
    except AssertionError as exc:  # say what the server and the browser said, too
        logs = "\n".join(f"--- {p.name} (tail) ---\n{p.read_text(errors='replace')[-2000:]}" for p in (tmp_path / "serve.log", browser.log))
        raise AssertionError(f"{exc}\n{logs}") from None
    finally:
        browser.close()


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
