"""Inspect as an explorer, through Pilot.

The coloured text above the chips (pointing at either lights both), copying ids, graphemes beside
code points, unknown pieces marked on the chips, and "why this token" for SentencePiece BPE (its
merge tree from piece scores; byte-fallback pieces as the bytes they are), Unigram (the best cut
with its log-probability against the n-best) and a Hugging Face pipeline (its stages). Built-ins
come from the ``builtin_model_path`` fixture (fetched before the suite; no network here).
"""

from __future__ import annotations

import re
from typing import Any

from textual.widgets import Select

from bpe_engine.compare.text_view import ids_text
from tests.tui.pilot import InspectorHost, settle_panes, shown
from tui.inspect.chips import TokenChips
from tui.inspect.pane import InspectorPane
from tui.inspect.picker_bar import PickerBar
from tui.widgets.token_text import TokenText

FAMILY = "👩\u200d👩\u200d👧"


async def select(pilot: Any, index: int) -> None:
    pilot.app.query_one(TokenChips).action_select_token(index)
    await settle_panes(pilot)


async def test_text_view_lights_the_chip_and_ids_are_copied() -> None:
    app = InspectorHost(f"Hello {FAMILY}")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle_panes(pilot)
        pane = app.query_one(InspectorPane)
        assert pane.result is not None and pane.result.encoding is not None
        status = shown(app, "#inspect-status")
        assert "11 characters, 7 graphemes" in status  # the family: 5 code points, 1 grapheme
        view = app.query_one(TokenText)
        assert view.lines_text() == ["Hello 👩<ZWJ>👩<ZWJ>👧"]
        # pointing at "Hello" in the coloured text underlines its chip; a click selects it
        await pilot.hover(TokenText, offset=(2, 0))
        await pilot.pause(0.1)
        assert app.query_one(TokenChips)._lit == 0  # noqa: SLF001
        await pilot.click(TokenText, offset=(6, 0))  # the first woman (character 6): byte tokens in gpt2
        await settle_panes(pilot)
        assert pane.result.alignment is not None
        owner = pane.result.alignment.token_of_char[6]
        assert owner > 0 and app.query_one(TokenChips).selected == owner
        assert "F0" in shown(app, "#inspect-detail")  # 👩 starts with the byte F0
        view.focus()
        await pilot.press("i")
        await settle_panes(pilot)
        assert view.lines_text()[0].split() == [str(i) for i in pane.result.encoding.ids]
        await pilot.press("c")
        await settle_panes(pilot)
        assert app.clipboard == ids_text(pane.result.encoding)


async def test_unknown_pieces_are_marked_on_the_chips(builtin_model_path: Any) -> None:
    builtin_model_path("sp-unigram-en")
    app = InspectorHost("Hello 한국어", spec="sp-unigram-en")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle_panes(pilot)
        pane = app.query_one(InspectorPane)
        assert pane.result is not None and [d.unknown for d in pane.result.details] == [False] * 4 + [True]
        chips = app.query_one(TokenChips).render()
        assert "한국어?" in chips.plain
        unknown = next(s for s in chips.spans if chips.plain[s.start : s.end] == "한국어?")
        assert "#8839ef" in str(unknown.style)  # the purple of Compare's unknown pieces
        await select(pilot, 4)
        assert "unknown piece" in shown(app, "#inspect-detail") and "id 0" in shown(app, "#inspect-detail")
        assert "unknown piece" in shown(app, "#inspect-tree")


async def test_unigram_why_shows_the_best_cut_against_the_n_best(builtin_model_path: Any) -> None:
    builtin_model_path("sp-unigram-en")
    app = InspectorHost("Hello world", spec="sp-unigram-en")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle_panes(pilot)
        await select(pilot, 1)  # "ll" of ▁He|ll|o
        why = shown(app, "#inspect-tree")
        assert "Unigram" in why and "word ▁Hello" in why
        assert "best log p" in why.replace("  ", " ") and "2nd" in why and "3rd" in why and "margin" in why
        best = next(line for line in why.splitlines() if line.startswith("best"))
        assert "▁He ll o" in best


async def test_sentencepiece_bpe_why_is_a_merge_tree_from_piece_scores(builtin_model_path: Any) -> None:
    builtin_model_path("mistral-v1")
    app = InspectorHost("Hello 𝄞", spec="mistral-v1")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle_panes(pilot)
        pane = app.query_one(InspectorPane)
        assert pane.result is not None
        assert [d.token for d in pane.result.details] == ["▁Hello", "▁", "<0xF0>", "<0x9D>", "<0x84>", "<0x9E>"]
        why = shown(app, "#inspect-tree")
        assert re.search(r"␣Hello  merge \d", why) and re.search(r"└─ ello  merge \d", why) and "piece score" in why
        chips = app.query_one(TokenChips).render().plain
        assert "⟦<0xF0>" in chips and "⟧=𝄞" in chips  # four byte pieces that together hold one character
        await select(pilot, 2)
        why = shown(app, "#inspect-tree")
        assert "byte-fallback piece" in why and "the byte F0" in why
        assert "F0" in shown(app, "#inspect-detail") and "lead of 4" in shown(app, "#inspect-detail")


async def test_hf_pipeline_stages_in_why(builtin_model_path: Any) -> None:
    builtin_model_path("claude-legacy")
    app = InspectorHost("Hello ﬁne", spec="claude-legacy")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle_panes(pilot)
        await select(pilot, 1)
        why = shown(app, "#inspect-tree")
        assert "normalized: Hello fine" in why  # NFKC took the ligature apart
        assert "pre-tokenized: Hello │ ␣fine" in why and re.search(r"  merge \d", why)


async def test_picker_chooses_the_tokenizer_to_inspect_with(builtin_model_path: Any) -> None:
    builtin_model_path("tekken")
    app = InspectorHost("Hello")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle_panes(pilot)
        pane = app.query_one(InspectorPane)
        pane.action_more()
        await settle_panes(pilot)
        await pilot.press(*"tekken", "enter")
        for _ in range(20):
            await settle_panes(pilot)
            if pane.result is not None and pane.result.spec == "tekken":
                break
        assert app.query_one("#inspect-tokenizer", Select).value == "tekken"
        assert pane.result is not None and pane.result.spec == "tekken" and pane.result.error is None


async def test_small_terminal_shows_one_pane_below_the_chips_at_a_time() -> None:
    app = InspectorHost("Hello")
    async with app.run_test(size=(80, 24)) as pilot:
        app.screen.add_class("narrow")  # what the explorer app sets below 110x30
        await settle_panes(pilot)
        pane = app.query_one(InspectorPane)
        visible = lambda: [w.id for w in pane.query("#inspect-lower > VerticalScroll") if w.display]  # noqa: E731
        assert visible() == ["lower-detail"]
        app.query_one(TokenChips).focus()
        await pilot.press("v")
        await settle_panes(pilot)
        assert visible() == ["lower-stream"]
        await pilot.press("v")
        await settle_panes(pilot)
        assert visible() == ["lower-why"] and pane.query_one("#lower-why").region.height >= 4
        assert re.search(r"  merge \d", shown(app, "#inspect-tree"))
        app.screen.remove_class("narrow")
        await settle_panes(pilot)
        assert len(visible()) == 3


def test_inspector_snapshot_unigram_why(snap_compare: Any, builtin_model_path: Any) -> None:
    builtin_model_path("sp-unigram-en")

    async def run_before(pilot: Any) -> None:
        await settle_panes(pilot)
        await select(pilot, 1)

    assert snap_compare(InspectorHost("Hello 한국어", spec="sp-unigram-en"), terminal_size=(120, 40), run_before=run_before)


async def test_a_tokenizer_file_that_fails_to_load_leaves_the_one_in_use(tmp_path: Any, builtin_model_path: Any) -> None:
    """"Load file…" made a file the tokenizer before loading it: a text file (not a tokenizer)
    replaced gpt2 with its error, and the user had to pick gpt2 again. It is loaded first now."""
    not_a_tokenizer = tmp_path / "notes.txt"
    not_a_tokenizer.write_text("just some text\n", encoding="utf-8")
    app = InspectorHost("Hello 한국어")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle_panes(pilot)
        pane = app.query_one(InspectorPane)
        app.query_one(PickerBar)._loaded_path(str(not_a_tokenizer))  # noqa: SLF001 - what the path dialog calls back
        await settle_panes(pilot)
        assert app.query_one("#inspect-tokenizer", Select).value == "gpt2"
        assert pane.result is not None and pane.result.spec == "gpt2" and pane.result.encoding is not None
        assert any("cannot tell the format" in n.message and "still inspecting with gpt2" in n.message for n in app._notifications)  # noqa: SLF001
        model = str(builtin_model_path("sp-unigram-en"))
        app.query_one(PickerBar)._loaded_path(model)  # noqa: SLF001 - a file that loads becomes the tokenizer
        await settle_panes(pilot)
        assert app.query_one("#inspect-tokenizer", Select).value == model


async def test_on_a_small_terminal_the_status_keeps_the_split_characters(alice_text: str) -> None:
    """At 80x24 the status shows two lines: with the trained model's long name, the
    split-character count came last and was cut ("12 character(s)" without what they were). The
    special-text mode, which the selector above shows too, comes last now."""
    from tests.tui.pilot import set_input, train_to_end
    from tui.app import ExplorerApp

    app = ExplorerApp(alice_text[:3000] + " 대한민국은 민주공화국이다")
    async with app.run_test(size=(80, 24)) as pilot:
        await set_input(pilot, app, "#vocab", "400")
        await train_to_end(app, pilot)
        await pilot.press("f3")
        await settle_panes(pilot)
        pane = app.query_one(InspectorPane)
        pane.inspect("대한민국은 민주공화국이다. 모든 권력은 국민으로부터 나온다", "ours")
        await settle_panes(pilot)
        status = app.query_one("#inspect-status")
        lines = ["".join(s.text for s in status.render_line(y)) for y in range(status.size.height)]
        assert "k=" in lines[0] and any("split across tokens" in line for line in lines), lines
