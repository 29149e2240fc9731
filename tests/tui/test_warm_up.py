"""Once the app is up, what the first f3 waits for is made ready off the UI thread: the lazy panes'
modules and Inspect's first tokenizer (~85 ms of imports and ~110 ms for gpt2 on the UI thread;
in a pty the first f3 showed its tokens at ~880 ms before, ~420 ms after)."""

from __future__ import annotations

import threading
from typing import Any

from tests.tui.pilot import settle_panes
from tui.app import ExplorerApp
from tui.inspect import DEFAULT_SPEC
from tui.models import sources

SMALL = "low lower lowest newer wider\nthe cat sat on the mat, the end.\n"


async def test_inspects_first_tokenizer_is_loaded_before_the_first_f3(monkeypatch: Any) -> None:
    monkeypatch.setattr(sources, "_cache", {})
    loads: list[tuple[str, bool]] = []
    real_resolve = sources.resolve_tokenizer

    def spying_resolve(spec: str) -> Any:
        loads.append((spec, threading.current_thread() is threading.main_thread()))
        return real_resolve(spec)

    monkeypatch.setattr(sources, "resolve_tokenizer", spying_resolve)
    app = ExplorerApp(SMALL)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle_panes(pilot)
        assert loads == [(DEFAULT_SPEC, False)], "loaded once, off the UI thread, before any f3"
        await pilot.press("f3")
        await settle_panes(pilot)
        assert loads == [(DEFAULT_SPEC, False)], "the first f3 found it loaded"
        assert "gpt2 ·" in str(app.query_one("#inspect-status").render())
