"""An app key never overtakes the keys typed just before it.

Textual runs an app binding (ctrl+t) the moment its key arrives, but hands the keys before it to
the focused field's own queue, applied in that field's turn. On a busy app the two raced: a pty
test that typed a vocab of 1000 and pressed ctrl+t at once lost 1 run in 25 to "Fix the settings
marked in red", and here a field slowed by 10 ms a key trained the old vocab while showing the new
one. The field is slowed on purpose, so the race is certain rather than a matter of load.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from textual import events
from textual.widgets import Input

from tests.tui.pilot import settle_panes
from tui.app import ExplorerApp


@pytest.fixture
def slow_fields(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every text field takes 10 ms per key, as on a loaded machine."""
    real = Input._on_key  # noqa: SLF001

    async def slow(self: Input, event: events.Key) -> Any:
        await asyncio.sleep(0.01)
        return await real(self, event)

    monkeypatch.setattr(Input, "_on_key", slow)


def burst(app: ExplorerApp, keys: list[tuple[str, str | None]]) -> None:
    """Keys as a terminal delivers a quick burst: all queued before the app handles the first."""
    for key, character in keys:
        app.post_message(events.Key(key, character))


async def test_ctrl_t_right_after_typing_a_vocab_trains_that_vocab(slow_fields: None, alice_text: str) -> None:
    app = ExplorerApp(alice_text[:20_000], vocab_size=290)
    notes: list[str] = []
    async with app.run_test(size=(120, 40)) as pilot:
        await settle_panes(pilot)
        real_notify = app.notify
        app.notify = lambda message, **kw: (notes.append(message), real_notify(message, **kw))  # type: ignore[method-assign]
        app.query_one("#vocab", Input).focus()
        await pilot.pause()
        burst(app, [("end", None), *[("backspace", None)] * 4, ("3", "3"), ("0", "0"), ("5", "5"), ("ctrl+t", None)])
        await settle_panes(pilot)
        assert app.query_one("#vocab", Input).value == "305"
        assert "Fix the settings marked in red first." not in notes and app.train_pane.trained is not None
        assert app.train_pane.trained.config.vocab_size == 305  # the settings of the run that trained


async def test_bound_edit_keys_keep_their_order_with_typed_characters(slow_fields: None) -> None:
    """ctrl+u, ctrl+w, ctrl+a / ctrl+e and backspace are bindings of the field: they ran only
    after a trip up to the app, and the characters typed after them overtook them ("ctrl+u 4000"
    left the field empty, as a path typed after ctrl+u in the save dialog was lost in tmux)."""
    app = ExplorerApp("low lower lowest newer wider\n")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle_panes(pilot)
        field = app.query_one("#vocab", Input)
        field.focus()
        await pilot.pause()
        burst(app, [("ctrl+u", None), ("4", "4"), ("0", "0"), ("0", "0"), ("0", "0")])
        await settle_panes(pilot)
        assert field.value == "4000"
        burst(app, [("ctrl+a", None), ("1", "1"), ("ctrl+e", None), ("backspace", None), ("7", "7")])
        await settle_panes(pilot)
        assert field.value == "14007"


async def test_the_compare_text_keeps_the_order_of_a_burst() -> None:
    from textual.widgets import TextArea

    app = ExplorerApp("low lower lowest newer wider\n")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("f4")
        await settle_panes(pilot)
        box = app.query_one("#compare-text", TextArea)
        assert app.focused is box
        box.text = ""
        await pilot.pause()
        burst(app, [("t", "t"), ("e", "e"), ("h", "h"), ("backspace", None), ("backspace", None), ("h", "h"), ("e", "e")])
        await settle_panes(pilot)
        assert box.text == "the"
