"""Typing into Compare lays out again only the blocks that draw differently: the blocks before the
edit are kept (checked against a fresh layout, and by counting layouts)."""

from __future__ import annotations

from typing import Any

from hypothesis import example, given, settings
from hypothesis import strategies as st
from textual.widgets import TextArea

import tui.compare.aligned as aligned_module
from bpe_engine.compare import block, compare, wrap_axis
from bpe_engine.compare.baselines import CharacterTokenizer, WhitespaceWordTokenizer
from bpe_engine.compare.layout import all_cuts
from bpe_engine.compare.segments import SegmentCache
from tests.tui.pilot import CompareHost, hand_bpe, settle_panes
from tui.compare import ComparePane
from tui.compare.unchanged import unchanged_before

TOKENIZERS = (CharacterTokenizer(), WhitespaceWordTokenizer(), hand_bpe())


@settings(max_examples=80, deadline=None)
@given(
    lines=st.lists(st.text(alphabet="hel owa한👋.", max_size=16), min_size=2, max_size=8),
    back=st.integers(min_value=0, max_value=40),
    cut=st.integers(min_value=0, max_value=3),
    insert=st.text(alphabet="lo 한\n", max_size=3),
)
@example(lines=["", "ahel"], back=0, cut=0, insert="l")  # "a|he|l" + "l" -> "a|hell": a cut before the edit goes
def test_blocks_before_the_first_change_draw_the_same(lines: list[str], back: int, cut: int, insert: str) -> None:
    text = "\n".join(lines)
    at = max(len(text) - back, 0)  # edits mostly late in the text, where blocks before them can stay
    edited = text[:at] + insert + text[at + cut :]
    cache = SegmentCache()  # shared, as the pane's: typing re-encodes only the edited line
    old = compare(text, TOKENIZERS, cache=cache)
    new = compare(edited, TOKENIZERS, cache=cache)
    stable = unchanged_before(old, new, len(text) + 1)
    assert stable <= min(len(text), len(edited))
    cuts_old, cuts_new = all_cuts(old), all_cuts(new)
    old_ranges = set(wrap_axis(old.text, cuts_old, 4))
    for start, end in wrap_axis(new.text, cuts_new, 4):
        if end < stable and (start, end) in old_ranges:
            assert block(old, start, end, cuts_old) == block(new, start, end, cuts_new)


async def test_a_key_below_the_screen_lays_out_no_block_on_it(monkeypatch: Any) -> None:
    text = "the cat sat on the mat.\n" * 60 + "the end"
    app = CompareHost(text, ("characters", "words", "gpt2"))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle_panes(pilot)
        layouts: list[tuple[int, int]] = []
        real = aligned_module.block

        def counting(comparison: Any, start: int, end: int, *args: Any) -> Any:
            layouts.append((start, end))
            return real(comparison, start, end, *args)

        monkeypatch.setattr(aligned_module, "block", counting)
        area = app.query_one(TextArea)
        area.focus()
        area.move_cursor(area.document.end)
        await pilot.press("x")
        await settle_panes(pilot)
        pane = app.query_one(ComparePane)
        assert pane.result is not None and pane.result.comparison.text.endswith("x")
        assert layouts == []  # the blocks on screen are of the unchanged top of the text
        area.move_cursor((2, 0))  # the third line: the first block on screen stays as it was
        await pilot.press("y")
        await settle_panes(pilot)
        assert layouts and min(start for start, _ in layouts) > 0
