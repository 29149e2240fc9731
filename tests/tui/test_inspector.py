"""Inspector pane: Pilot tests (select a token -> its bytes; stepping; special modes; ours at
step k; bad input) and a Korean snapshot."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from textual.widgets import Input, Select

from bpe_engine.bpe.model import BpeTokenizer
from bpe_engine.pretokenizers import GPT2
from tests.engine.test_inspect_fixtures import hand_ranks
from tests.tui.pilot import InspectorHost, settle_panes, shown
from tui.inspect import InspectorPane
from tui.inspect.chips import TokenChips


async def test_selecting_a_token_shows_its_bytes_and_the_stream_waits() -> None:
    app = InspectorHost("한!")
    async with app.run_test(size=(150, 40)) as pilot:
        await settle_panes(pilot)
        pane = app.query_one(InspectorPane)
        assert pane.result is not None and [d.id for d in pane.result.details] == [47991, 250, 0]
        detail = shown(app, "#inspect-detail")
        assert "ED 95" in detail and "lead of 3" in detail and "incomplete" in detail
        assert "bytes 1-2 of 3 of U+D55C" in detail and "together make 한" in detail
        assert "waiting for 1 more byte (2/3)" in shown(app, "#inspect-stream")
        assert re.search(r"  merge \d", shown(app, "#inspect-tree"))
        app.query_one(TokenChips).focus()
        await pilot.press("right")
        await settle_panes(pilot)
        detail = shown(app, "#inspect-detail")
        assert "9C" in detail and "byte 3 of 3 of U+D55C" in detail and "ED 95" not in detail
        stream = shown(app, "#inspect-stream")
        assert "so far: 한" in stream and "1 character complete" in stream
        chips = str(app.query_one(TokenChips).render())
        assert "⟦" in chips and "⟧=한" in chips


async def test_clicking_a_chip_selects_it() -> None:
    app = InspectorHost("ab cd")
    async with app.run_test(size=(150, 40)) as pilot:
        await settle_panes(pilot)
        # border + padding put the chips at x = 2: "ab" (2-3), space, "Ġcd" (5-7)
        assert await pilot.click(TokenChips, offset=(6, 1))
        await settle_panes(pilot)
        detail = shown(app, "#inspect-detail")
        assert "id 22927" in detail and "20 63 64" in detail and "␣, c, d" in detail  # gpt2 " cd"


async def test_special_token_mode_changes_counts() -> None:
    app = InspectorHost("hello <|endoftext|>", spec="cl100k_base")
    async with app.run_test(size=(150, 40)) as pilot:
        await settle_panes(pilot)
        pane = app.query_one(InspectorPane)
        # one special-token default everywhere: "text", and the pane says so
        assert pane.result is not None and len(pane.result.details) > 3 and not any(d.special for d in pane.result.details)
        assert "encoded as ordinary text" in shown(app, "#inspect-status")
        app.query_one("#inspect-special", Select).value = "special"
        await settle_panes(pilot)
        assert [d.id for d in pane.result.details] == [15339, 220, 100257]
        app.query_one("#inspect-special", Select).value = "refuse"
        await settle_panes(pilot)
        assert pane.result.details == () and "mode 'special'" in shown(app, "#inspect-status")


async def test_trained_model_follows_the_step() -> None:
    tok = BpeTokenizer.from_ranks(name="hand", mergeable_ranks=hand_ranks(), pre_tokenizer=GPT2)
    app = InspectorHost("hello", spec="ours", tokenizer=tok)
    async with app.run_test(size=(150, 40)) as pilot:
        await settle_panes(pilot)
        pane = app.query_one(InspectorPane)
        assert pane.result is not None and len(pane.result.details) == 5  # step 0: bytes
        pane.state = replace(pane.state, step=7)
        await settle_panes(pilot)
        assert [d.token for d in pane.result.details] == ["hello"]
        assert "hell" in shown(app, "#inspect-tree")


async def test_no_trained_model_and_bad_input_are_shown_not_raised() -> None:
    app = InspectorHost("a\x1b[31m\u202eb\u200d\ud800", spec="ours")
    async with app.run_test(size=(150, 40)) as pilot:
        await settle_panes(pilot)
        assert "no trained model yet" in shown(app, "#inspect-status")
        app.query_one("#inspect-tokenizer", Select).value = "characters"
        await settle_panes(pilot)
        status, chips = shown(app, "#inspect-status"), str(app.query_one(TokenChips).render())
        assert "lone surrogate" in status
        assert "\x1b" not in chips and "\u202e" not in chips and "␛" in chips and "<RLO>" in chips
        app.query_one(Input).value = ""
        await settle_panes(pilot)
        assert "no tokens" in str(app.query_one(TokenChips).render())


def test_inspector_snapshot_korean(snap_compare: Any) -> None:
    async def run_before(pilot: Any) -> None:
        await settle_panes(pilot)
        pilot.app.query_one(TokenChips).action_select_token(2)
        await settle_panes(pilot)

    assert snap_compare(InspectorHost("대한민국 헌법 👩‍👩‍👧"), terminal_size=(150, 40), run_before=run_before)
