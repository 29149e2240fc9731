"""Inspector pane: Pilot tests (select a token -> its bytes; stepping; special modes; ours at
step k; bad input) and a Korean snapshot."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from textual.app import App, ComposeResult
from textual.widgets import Input, Select, Static

from bpe_engine.bpe.model import BpeTokenizer
from bpe_engine.pretokenizers import GPT2
from tests.engine.test_inspect_fixtures import hand_ranks
from tests.explore_pilot import workers_done
from tui.inspect import STYLESHEET, InspectorPane
from tui.inspect.chips import TokenChips
from tui.state import ExplorerState


class Host(App[None]):
    CSS_PATH = [STYLESHEET]

    def __init__(self, text: str, spec: str = "gpt2", tokenizer: Any = None) -> None:
        super().__init__()
        self._text, self._spec = text, spec
        self.state = ExplorerState(tokenizer=tokenizer, step=0)

    def compose(self) -> ComposeResult:
        yield InspectorPane(id="inspector", text=self._text, spec=self._spec, state=self.state)

    def on_mount(self) -> None:
        self.query_one(Input).cursor_blink = False


async def settle(pilot: Any) -> None:
    for _ in range(3):
        await pilot.pause(0.15)
        await workers_done(pilot)  # a cancelled run (replaced by a newer one) is no failure
    await pilot.pause()


def shown(app: App[None], widget_id: str) -> str:
    return str(app.query_one(widget_id, Static).render())


async def test_selecting_a_token_shows_its_bytes_and_the_stream_waits() -> None:
    app = Host("한!")
    async with app.run_test(size=(150, 40)) as pilot:
        await settle(pilot)
        pane = app.query_one(InspectorPane)
        assert pane.result is not None and [d.id for d in pane.result.details] == [47991, 250, 0]
        detail = shown(app, "#inspect-detail")
        assert "ED 95" in detail and "lead of 3" in detail and "incomplete" in detail
        assert "bytes 1-2 of 3 of U+D55C" in detail and "together make 한" in detail
        assert "waiting for 1 more byte (2/3)" in shown(app, "#inspect-stream")
        assert re.search(r"  merge \d", shown(app, "#inspect-tree"))
        app.query_one(TokenChips).focus()
        await pilot.press("right")
        await settle(pilot)
        detail = shown(app, "#inspect-detail")
        assert "9C" in detail and "byte 3 of 3 of U+D55C" in detail and "ED 95" not in detail
        stream = shown(app, "#inspect-stream")
        assert "so far: 한" in stream and "1 character complete" in stream
        chips = str(app.query_one(TokenChips).render())
        assert "⟦" in chips and "⟧=한" in chips


async def test_clicking_a_chip_selects_it() -> None:
    app = Host("ab cd")
    async with app.run_test(size=(150, 40)) as pilot:
        await settle(pilot)
        # border + padding put the chips at x = 2: "ab" (2-3), space, "Ġcd" (5-7)
        assert await pilot.click(TokenChips, offset=(6, 1))
        await settle(pilot)
        detail = shown(app, "#inspect-detail")
        assert "id 22927" in detail and "20 63 64" in detail and "␣, c, d" in detail  # gpt2 " cd"


async def test_special_token_mode_changes_counts() -> None:
    app = Host("hello <|endoftext|>", spec="cl100k_base")
    async with app.run_test(size=(150, 40)) as pilot:
        await settle(pilot)
        pane = app.query_one(InspectorPane)
        # one special-token default everywhere: "text", and the pane says so
        assert pane.result is not None and len(pane.result.details) > 3 and not any(d.special for d in pane.result.details)
        assert "encoded as ordinary text" in shown(app, "#inspect-status")
        app.query_one("#inspect-special", Select).value = "special"
        await settle(pilot)
        assert [d.id for d in pane.result.details] == [15339, 220, 100257]
        app.query_one("#inspect-special", Select).value = "refuse"
        await settle(pilot)
        assert pane.result.details == () and "mode 'special'" in shown(app, "#inspect-status")


async def test_trained_model_follows_the_step() -> None:
    tok = BpeTokenizer.from_ranks(name="hand", mergeable_ranks=hand_ranks(), pre_tokenizer=GPT2)
    app = Host("hello", spec="ours", tokenizer=tok)
    async with app.run_test(size=(150, 40)) as pilot:
        await settle(pilot)
        pane = app.query_one(InspectorPane)
        assert pane.result is not None and len(pane.result.details) == 5  # step 0: bytes
        pane.state = replace(pane.state, step=7)
        await settle(pilot)
        assert [d.token for d in pane.result.details] == ["hello"]
        assert "hell" in shown(app, "#inspect-tree")


async def test_no_trained_model_and_bad_input_are_shown_not_raised() -> None:
    app = Host("a\x1b[31m\u202eb\u200d\ud800", spec="ours")
    async with app.run_test(size=(150, 40)) as pilot:
        await settle(pilot)
        assert "no trained model yet" in shown(app, "#inspect-status")
        app.query_one("#inspect-tokenizer", Select).value = "characters"
        await settle(pilot)
        status, chips = shown(app, "#inspect-status"), str(app.query_one(TokenChips).render())
        assert "lone surrogate" in status
        assert "\x1b" not in chips and "\u202e" not in chips and "␛" in chips and "<RLO>" in chips
        app.query_one(Input).value = ""
        await settle(pilot)
        assert "no tokens" in str(app.query_one(TokenChips).render())


def test_inspector_snapshot_korean(snap_compare: Any) -> None:
    async def run_before(pilot: Any) -> None:
        await settle(pilot)
        pilot.app.query_one(TokenChips).action_select_token(2)
        await settle(pilot)

    assert snap_compare(Host("대한민국 헌법 👩‍👩‍👧"), terminal_size=(150, 40), run_before=run_before)
