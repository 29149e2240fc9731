"""Compare pane: Pilot tests (typing, k slider, special modes, rows, unknown pieces, the curve) and
a Korean snapshot; in the app, a hidden Compare tab does no work until shown."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from textual.widgets import DataTable, Select, TextArea

from bpe_engine.pretokenizers import GPT2
from tests.tui.pilot import SMALL, CompareHost, hand_bpe, set_input, settle, settle_panes, shown, train_to_end
from tui.app import ExplorerApp
from tui.compare import ComparePane
from tui.compare.aligned import AlignedRows
from tui.compare.running import CompareResult
from tui.state import ExplorerState

KOREAN = "대한민국은 민주공화국이다. 한국어 tokenization 👩‍👩‍👧"


def row_stats(pane: ComparePane, label: str) -> Any:
    assert pane.result is not None
    rows = dict(zip(pane.result.labels, pane.result.comparison.rows))
    return rows[label].stats


async def test_typing_updates_every_row() -> None:
    app = CompareHost("ab", ("characters", "words", "gpt2"))
    async with app.run_test(size=(140, 40)) as pilot:
        await settle_panes(pilot)
        pane = app.query_one(ComparePane)
        assert row_stats(pane, "characters").tokens == 2
        app.query_one(TextArea).focus()
        app.query_one(TextArea).move_cursor((0, 2))
        await pilot.press("space", "한", "x")
        await settle_panes(pilot)
        assert pane.result is not None and pane.result.comparison.text == "ab 한x"
        assert row_stats(pane, "characters").tokens == 5
        assert row_stats(pane, "words").tokens == 2
        assert row_stats(pane, "gpt2").partial_tokens >= 2  # 한 is split in gpt2


async def test_stepping_k_changes_our_row_only() -> None:
    app = CompareHost("hello hello", ("ours", "characters"), tokenizer=hand_bpe())
    async with app.run_test(size=(140, 40)) as pilot:
        await settle_panes(pilot)
        pane = app.query_one(ComparePane)
        full = row_stats(pane, f"ours k={pane.k}").tokens
        assert pane.k == 10 and full == 3  # hello, Ġ, hello -- all merges
        pane.set_k(0)
        await settle_panes(pilot)
        assert row_stats(pane, "ours k=0").tokens == 11  # bytes only
        pane.set_k(4)  # merges 0-3: the Korean ones, then "he"
        await settle_panes(pilot)
        assert row_stats(pane, "ours k=4").tokens == 9
        app.query_one(DataTable).focus()
        await pilot.press("right_square_bracket")  # k = 5 adds "ll"
        await settle_panes(pilot)
        assert row_stats(pane, "ours k=5").tokens == 7
        assert row_stats(pane, "characters").tokens == 11


async def test_step_changed_from_the_app_moves_k() -> None:
    app = CompareHost("hello", ("ours",), tokenizer=hand_bpe())
    async with app.run_test(size=(140, 40)) as pilot:
        await settle_panes(pilot)
        pane = app.query_one(ComparePane)
        pane.state = replace(pane.state, step=5)
        await settle_panes(pilot)
        assert pane.k == 5 and row_stats(pane, "ours k=5").tokens == 3  # he, ll, o


async def test_special_token_mode_changes_counts() -> None:
    app = CompareHost("hi <|endoftext|>", ("gpt2", "cl100k_base"))
    async with app.run_test(size=(140, 40)) as pilot:
        await settle_panes(pilot)
        pane = app.query_one(ComparePane)
        as_text = row_stats(pane, "gpt2").tokens
        app.query_one("#compare-special", Select).value = "special"
        await settle_panes(pilot)
        special = row_stats(pane, "gpt2")
        assert special.special_tokens == 1 and special.tokens < as_text
        app.query_one("#compare-special", Select).value = "refuse"
        await settle_panes(pilot)
        assert pane.result is not None and all(r.error for r in pane.result.comparison.rows)


async def test_rows_can_be_removed_reordered_and_added() -> None:
    app = CompareHost("abc", ("characters", "words", "gpt2"))
    async with app.run_test(size=(140, 40)) as pilot:
        await settle_panes(pilot)
        pane = app.query_one(ComparePane)
        app.query_one(DataTable).focus()
        await pilot.press("shift+down")  # characters moves below words
        await settle_panes(pilot)
        assert pane.rows == ["words", "characters", "gpt2"]
        await pilot.press("x")  # removes the row under the cursor (characters, followed)
        await settle_panes(pilot)
        assert pane.rows == ["words", "gpt2"]
        pane.add_row("o200k_base")  # the picker's result (tests/test_tui_explore.py drives the picker)
        await settle_panes(pilot)
        assert pane.rows == ["words", "gpt2", "o200k_base"] and pane.result is not None
        assert pane.result.labels == ("words", "gpt2", "o200k_base")


async def test_stale_results_never_overwrite_newer_ones() -> None:
    app = CompareHost("new text", ("characters",))
    async with app.run_test(size=(140, 40)) as pilot:
        await settle_panes(pilot)
        pane = app.query_one(ComparePane)
        current = pane.result
        assert current is not None
        from bpe_engine.compare import compare
        from bpe_engine.compare.baselines import CharacterTokenizer

        old = CompareResult(current.generation - 1, ("characters",), compare("old", [CharacterTokenizer()]), (), frozenset(), 80)
        pane.post_message(ComparePane.Compared(old, old.generation))
        await settle_panes(pilot)
        assert pane.result is current


async def test_large_text_is_encoded_in_a_worker_and_bad_input_is_safe() -> None:
    text = ("\x1b[2J\u202e한국어 text\u200b " * 400) + "\ud800"
    app = CompareHost("x", ("characters", "words", "gpt2"))
    async with app.run_test(size=(140, 40)) as pilot:
        await settle_panes(pilot)
        pane = app.query_one(ComparePane)
        app.query_one(TextArea).load_text(text)
        await settle_panes(pilot)
        assert pane.result is not None and len(pane.result.comparison.text) == len(text)
        assert len(pane.result.ranges) > 20  # wrapped into many lines, laid out when drawn
        drawn = "\n".join(app.query_one(AlignedRows).lines_text())
        assert "\x1b" not in drawn and "\u202e" not in drawn and "␛" in drawn and "<RLO>" in drawn


def test_compare_pane_snapshot_korean(snap_compare: Any) -> None:
    async def run_before(pilot: Any) -> None:
        await settle_panes(pilot)

    app = CompareHost(KOREAN, ("characters", "words", "ours", "gpt2", "cl100k_base", "o200k_base"), tokenizer=hand_bpe())
    assert snap_compare(app, terminal_size=(150, 45), run_before=run_before)


def test_unloadable_row_is_a_visible_error_not_a_crash(tmp_path: Any) -> None:
    from bpe_engine.compare import compare
    from tui.models import sources

    bad = tmp_path / "broken.tiktoken"
    bad.write_text("not base64 at all\n", encoding="utf-8")
    failed = sources.get(str(bad), lambda: None)
    missing = sources.get(str(tmp_path / "nope.json"), lambda: None)
    ours = sources.get(sources.OURS, lambda: None)
    result = compare("abc", [failed, missing, ours], special_mode="text")
    errors = [row.error or "" for row in result.rows]
    assert "broken.tiktoken" in errors[0] and "nope.json" in errors[1] and "no trained model" in errors[2]
    assert sources.row_label(str(bad)) == "broken.tiktoken"


async def test_a_row_without_a_tokenizer_says_why_in_place() -> None:
    """Before any training the "ours" row cannot encode: the Rows view said "(failed: see above)"
    with nothing above it (the reason is in the status lines below). It gives the reason itself."""
    app = CompareHost("abc", ("characters", "ours"))
    async with app.run_test(size=(120, 30)) as pilot:
        await settle_panes(pilot)
        view = app.query_one(AlignedRows)
        lines = [view.render_line(y).text for y in range(view.size.height)]
        ours = next(line for line in lines if line.startswith("ours"))
        assert "no trained model yet: ctrl+t trains one on the corpus" in ours, lines
        assert "see above" not in "".join(lines)


def test_opening_inspect_or_compare_does_not_import_the_plotting_stack() -> None:
    """The first f3 or f4 imports its pane: textual-plot and numpy were ~75 ms of the ~170 ms of
    imports it waited for, though only the Curve view draws with them."""
    import subprocess
    import sys

    code = "import sys, tui.app, tui.inspect, tui.compare; print(sorted({'numpy', 'textual_plot'} & set(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


async def test_the_curve_view_makes_its_plot_when_first_shown() -> None:
    from textual_plot import PlotWidget

    app = CompareHost("hello", ("characters",))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle_panes(pilot)
        pane = app.query_one(ComparePane)
        assert not app.query(PlotWidget)
        pane.show_view("compare-curve")
        await settle_panes(pilot)
        assert app.query_one(PlotWidget).display
        assert "train a model (ctrl+t) to draw its curve" in str(app.query_one("#curve-title").render())


async def test_compression_curve_is_drawn_from_the_training_log() -> None:
    from textual_plot import PlotWidget

    from bpe_engine.explore.stepper import Stepper
    from bpe_engine.training.bpe import BpeTrainerConfig, train
    from tui.compare.chart import CurveChart
    from tui.train.step_log import StepLog

    corpus = "hello world, hello there. 한국어 텍스트\n" * 20
    result = train([corpus], BpeTrainerConfig(vocab_size=256 + 40))
    stepper = Stepper.from_text(corpus, GPT2, byte_level=True, merges=list(result.steps))
    state = ExplorerState(
        corpus=corpus, merges=StepLog().extended(result.steps), initial_tokens=stepper.initial_token_count,
        tokenizer=result.tokenizer, step=40,
    )
    app = CompareHost("hello", ("ours", "gpt2"), tokenizer=result.tokenizer, state=state)
    async with app.run_test(size=(150, 45)) as pilot:
        await settle_panes(pilot)
        chart = app.query_one(CurveChart)
        chart.redraw(state, 10)
        await settle_panes(pilot)
        plot = app.query_one(PlotWidget)
        labels = [label for label in plot._labels if label]  # noqa: SLF001 - the plot keeps no public list
        assert labels[0] == "ours" and "+ gpt2" in labels and "o o200k_base" in labels
        assert "⣀ ours" in str(app.query_one("#curve-title").render()) and "+ gpt2" in str(app.query_one("#curve-title").render())


async def test_the_legend_fits_the_view_whole() -> None:
    """The key above the rows was 132 cells and was cut at the view's edge (at 120 columns it lost
    what "dim" means): the view shows the fullest wording that fits."""
    from bpe_engine.compare import LEGEND

    for width in (80, 100, 160):
        app = CompareHost("hello", ("characters",))
        async with app.run_test(size=(width, 30)) as pilot:
            await settle_panes(pilot)
            aligned = app.query_one(AlignedRows)
            legend = aligned._line(0).text  # noqa: SLF001 - the line as drawn
            assert len(legend) <= aligned.size.width and legend.endswith("token"), (width, legend)
            assert (legend == LEGEND) == (width >= len(LEGEND) + 2)


async def test_an_unseen_symbol_is_a_marked_unknown_piece_never_a_row_error() -> None:
    """A character-level </w> model has 어 only inside words: a word-final 어 is unknown to it."""
    from bpe_engine.compare import block, compare
    from bpe_engine.pretokenizers import END_OF_WORD
    from bpe_engine.training.bpe import BpeTrainerConfig, train
    from tui.state import ExplorerState

    tok = train(["어가 어나 가어가 " * 10], BpeTrainerConfig(vocab_size=40, byte_level=False, pre_tokenizer=END_OF_WORD)).tokenizer
    result = compare("가어 새", [tok])
    row = result.rows[0]
    assert row.error is None and row.encoding is not None and any(row.encoding.unknown)
    styles = {style for segs in block(result, 0, len(result.text)).rows for _, style in (segs or ())}
    assert "unknown" in styles
    app = ExplorerApp(SMALL)
    async with app.run_test(size=(140, 40)) as pilot:
        await pilot.press("f4")
        await settle(app, pilot)
        pane = app.query_one(ComparePane)
        pane.rows = ["ours"]
        pane.state = ExplorerState(tokenizer=tok, step=tok.n_merges)
        pane.query_one("#compare-text").load_text("가어 새")
        await settle(app, pilot)
        await pilot.pause(0.3)
        assert pane.result is not None and pane.result.comparison.rows[0].error is None
        assert "error" not in shown(app, "#compare-status").lower().split("unknown")[0]


async def test_a_hidden_compare_does_no_work_until_shown() -> None:
    """The first release re-encoded every Compare row on each step while the tab was hidden."""
    app = ExplorerApp(SMALL)
    async with app.run_test(size=(140, 40)) as pilot:
        await set_input(pilot, app, "#vocab", "290")
        await train_to_end(app, pilot)
        await pilot.press("f4")
        await settle(app, pilot)
        pane = app.query_one(ComparePane)
        before = pane._generation
        await pilot.press("f2")
        await pilot.pause()
        for _ in range(5):
            await pilot.press("n")
        await pilot.pause(0.5)
        assert pane._generation == before and pane.state.step == 0, "a hidden pane gets no state and encodes nothing"
        await pilot.press("f4")
        await settle(app, pilot)
        assert pane.state.step == 5 and pane._generation > before and pane.k == 5


async def test_a_short_curve_gives_its_rows_to_the_lines() -> None:
    """At 80x24 the plot had two rows for its lines: its axis titles and the blank rows around
    them took the rest. A short chart drops them (its title line names both axes), and gets them
    back when the window grows."""
    from textual_plot import PlotWidget

    app = ExplorerApp(SMALL * 20)
    async with app.run_test(size=(80, 24)) as pilot:
        await set_input(pilot, app, "#vocab", "300")
        await train_to_end(app, pilot)
        await pilot.press("f4")
        await settle(app, pilot)
        app.query_one(ComparePane).show_view("compare-curve")
        await settle(app, pilot)
        plot = app.query_one(PlotWidget)
        assert plot.query_one("#plot").size.height >= 7, plot.query_one("#plot").size  # 5 rows of lines and the axes
        assert (plot.margin_top, plot.margin_bottom) == (0, 1)
        await pilot.resize_terminal(120, 40)
        await settle(app, pilot)
        assert (plot.margin_top, plot.margin_bottom) == (2, 3)
        assert "tokens/char" in "".join(s.text for s in plot.query_one("#margin-top").render_line(0))
