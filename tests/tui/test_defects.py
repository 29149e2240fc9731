"""One Pilot test per defect of issue 8 §2 (and the app items of issue 9) that Pilot can see;
the pseudo-terminal layer (tests/pty) covers what only a real terminal shows."""

from __future__ import annotations

import asyncio
import os
import time

from textual.widgets import Input, Select
from textual.widgets._toast import Toast

from tests.tui.pilot import SMALL, runner, set_input, settle, shown, train_to_end
from tui.app import ExplorerApp
from tui.compare import ComparePane
from tui.train.corpus_pane import CorpusPane
from tui.train.step_table import StepTable


def live_children() -> list[int]:
    """Training children of this process still alive or unreaped (other tests' helpers don't count)."""
    me = os.getpid()
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    mine = int(f.read().rsplit(")", 1)[1].split()[1]) == me
                with open(f"/proc/{entry}/cmdline", "rb") as f:
                    training = b"training.runner.child" in f.read()
            except OSError:
                continue
            if mine and training:
                out.append(int(entry))
    return out


async def test_8_2_2_the_app_moving_the_cursor_never_echoes_a_move() -> None:
    """Selection has one owner: the app's seek moves the list's cursor and the list posts nothing
    back (the first release took its own late highlight event for a user move and ping-ponged)."""
    app = ExplorerApp(SMALL)
    async with app.run_test(size=(120, 36)) as pilot:
        await set_input(pilot, app, "#vocab", "290")
        await train_to_end(app, pilot)
        table = app.query_one(StepTable)
        posted: list[object] = []
        post = table.post_message
        table.post_message = lambda message: posted.append(message) or post(message)  # type: ignore[method-assign]
        for step in (5, 2, 5):
            app.train_pane.seek(step)
            await pilot.pause()
        assert not [m for m in posted if isinstance(m, StepTable.Selected)]
        assert app.train_pane.current_step == 5 and table.cursor_row == 5
        table.focus()
        await pilot.press("down", "down", "up")  # real user moves still step
        await pilot.pause()
        assert app.train_pane.current_step == 6 and table.cursor_row == 6


async def test_8_2_3_count_and_words_stay_visible(alice_text: str) -> None:
    app = ExplorerApp(alice_text[:20000])
    async with app.run_test(size=(120, 40)) as pilot:
        await set_input(pilot, app, "#vocab", "1500")
        await train_to_end(app, pilot)
        await pilot.pause(0.6)
        table = app.query_one(StepTable)
        header = table.render_line(0).text
        assert header.rstrip().endswith("count  words"), "every column fits: count and words visible"
        last = table.cells(table.row_count - 1)
        app.train_pane.seek(table.row_count - 1)
        await pilot.pause()
        shown_row = table.render_line(table.row_count - round(table.scroll_y)).text
        assert shown_row.split()[-2:] == [last[2], last[3]], "the last row's count and words are drawn"


async def test_8_2_4_ctrl_o_reads_the_same_bytes_as_the_command_line(tmp_path) -> None:  # noqa: ANN001
    from tui.launch import build_app

    path = tmp_path / "crlf.txt"
    path.write_bytes(b"one line\r\nanother line\r\n\xef\xbb\xbfbom\r\n")
    app = ExplorerApp(SMALL)
    async with app.run_test(size=(120, 36)) as pilot:
        app.files._read(str(path))
        await settle(app, pilot)
        assert app.query_one(CorpusPane).text == path.read_bytes().decode("utf-8")
        assert app.query_one(CorpusPane).text == build_app([str(path)]).corpus  # one reading path
        binary = tmp_path / "x.bin"
        binary.write_bytes(b"\x89PNG\x00\x01")
        app.files._read(str(binary))
        await settle(app, pilot)
        message = list(app._notifications)[-1].message
        assert "looks like a binary file" in message and "bpe-explorer train" in message


async def test_8_2_5_a_loaded_tokenizer_follows_a_newly_opened_corpus(tmp_path) -> None:  # noqa: ANN001
    from bpe_engine.training.bpe import BpeTrainerConfig, train

    tok = train([SMALL * 3], BpeTrainerConfig(vocab_size=270)).tokenizer
    other = tmp_path / "other.txt"
    other.write_text("completely different words here\n" * 5, encoding="utf-8")
    app = ExplorerApp(SMALL)
    async with app.run_test(size=(120, 36)) as pilot:
        app.train_pane.explore(tok, "hand")
        await settle(app, pilot)
        app.files._read(str(other))
        await settle(app, pilot)
        await settle(app, pilot)
        assert app.train_pane.view is not None and app.train_pane.view.text == other.read_text(encoding="utf-8")
        await pilot.press("G")
        assert "other.txt" in shown(app, "#step-status")
        assert "completely" in shown(app, "#segmented-text")


async def test_the_header_drops_a_loaded_tokenizers_name_once_a_run_replaces_it() -> None:
    """Seen by hand in tmux: ctrl+l a saved tokenizer, ctrl+o another corpus, ctrl+t -- the header
    still read "bpe-explorer — /tmp/hand/tok8" over merges trained on the new corpus."""
    from bpe_engine.training.bpe import BpeTrainerConfig, train

    tok = train([SMALL * 3], BpeTrainerConfig(vocab_size=270)).tokenizer
    app = ExplorerApp(SMALL)
    async with app.run_test(size=(120, 36)) as pilot:
        app.train_pane.explore(tok, "hand")
        await settle(app, pilot)
        assert app.sub_title == "hand"
        await train_to_end(app, pilot)
        assert app.sub_title == ""


async def test_8_2_6_the_form_knows_the_alphabet_and_a_refused_run_keeps_the_last(alice_text: str) -> None:
    app = ExplorerApp(SMALL)
    async with app.run_test(size=(120, 36)) as pilot:
        await set_input(pilot, app, "#vocab", "290")
        await train_to_end(app, pilot)
        kept = app.train_pane.stepper.available
        await set_input(pilot, app, "#vocab", "-5")
        assert "between 1 and 1,000,000" in shown(app, "#vocab-error")  # the config's own rule, at its field
        app.query_one("#level", Select).value = "char"
        await pilot.pause(0.5)
        distinct = len(set(SMALL))
        await set_input(pilot, app, "#vocab", str(distinct - 3))
        await train_to_end(app, pilot)
        assert f"above the alphabet ({distinct:,} symbols)" in shown(app, "#vocab-error")
        app.query_one("#pretok", Select).value = "end-of-word"  # its alphabet is larger than the characters
        await set_input(pilot, app, "#vocab", str(distinct + 1))
        await train_to_end(app, pilot)
        assert "nothing to merge" in shown(app, "#vocab-error")
        assert app.train_pane.stepper is not None and app.train_pane.stepper.available == kept, "the last good run stays"
        assert app.query_one(StepTable).row_count == kept + 1


async def test_8_2_9_play_keeps_its_speed(alice_text: str) -> None:
    app = ExplorerApp(alice_text[:20000])
    async with app.run_test(size=(120, 36)) as pilot:
        await set_input(pilot, app, "#vocab", "900")
        await train_to_end(app, pilot)
        assert app.train_pane.stepper.available > 300
        app.train_pane.seek(0)
        app.train_pane.stepping.speed = 6  # 100 merges/s
        app.train_pane.action_play()
        start = time.monotonic()
        await pilot.pause(1.0)
        app.train_pane.pause()
        elapsed = time.monotonic() - start
        assert app.train_pane.current_step >= 0.5 * 100 * elapsed, f"{app.train_pane.current_step} merges in {elapsed:.2f} s at 100/s"


async def test_8_2_10_a_bom_shows_as_bom_in_the_corpus_pane() -> None:
    app = ExplorerApp("\ufeffhello world\n")
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        area = app.query_one("#corpus-text")
        assert "\ufffd" not in area.render_line(0).text and "hello" in area.render_line(0).text
        assert "<BOM>" in str(area.border_subtitle)
        big = ExplorerApp("\ufeff" + "hello world\n" * 5000)  # a read-only preview marks it in one cell, as
    async with big.run_test(size=(120, 36)) as pilot:  # its wrapping counts it (tests/tui/test_corpus_wrapping.py)
        await pilot.pause()
        area = big.query_one("#corpus-text")
        assert "¦hello" in area.render_line(0).text and "<BOM>" in str(area.border_subtitle)


async def test_8_2_13_stepping_keys_work_anywhere_but_in_a_text_field() -> None:
    app = ExplorerApp(SMALL)
    async with app.run_test(size=(120, 36)) as pilot:
        await set_input(pilot, app, "#vocab", "290")
        app.query_one("#model", Select).focus()  # where ctrl+t from the form leaves the focus
        await pilot.press("ctrl+t")
        await settle(app, pilot)
        await pilot.press("n", "n")
        assert app.train_pane.current_step == 2
        app.query_one("#vocab", Input).focus()
        await pilot.press("n", "b")  # text for the field, not steps
        assert app.train_pane.current_step == 2
        await pilot.press("f3", "f2")
        await pilot.press("G")
        assert app.train_pane.current_step == app.train_pane.stepper.available


async def test_8_2_14_small_terminal_shows_one_view_and_stepping_brings_the_steps() -> None:
    app = ExplorerApp(SMALL)
    async with app.run_test(size=(80, 24)) as pilot:
        await set_input(pilot, app, "#vocab", "290")
        await train_to_end(app, pilot)
        assert app.query_one("#corpus").is_on_screen and not app.query_one("#segmented").is_on_screen
        await pilot.press("n")
        await pilot.pause()
        assert app.query_one("#segmented").is_on_screen and app.query_one("#steps").is_on_screen
        assert app.query_one("#steps").size.height >= 6, "more than one merge row at 80x24"
        await pilot.press("f5")
        await pilot.pause()
        assert app.query_one("#detail").is_on_screen and not app.query_one("#steps").is_on_screen
        await pilot.press("f3")
        await pilot.pause()
        assert app.query_one("#inspect-input").size.width >= 60, "the Inspect text box gets the width"


async def test_8_2_15_every_view_says_which_k_it_uses() -> None:
    app = ExplorerApp(SMALL)
    async with app.run_test(size=(140, 40)) as pilot:
        await set_input(pilot, app, "#vocab", "290")
        await train_to_end(app, pilot)
        app.train_pane.seek(7)
        await pilot.press("f4")
        await settle(app, pilot)
        label = str(app.query_one("#compare-k-label").render())
        assert "k = 7 / 34" in label and "follows Train step" in label
        app.query_one(ComparePane).set_k(3)
        await pilot.pause()
        assert "fixed" in str(app.query_one("#compare-k-label").render())
        await pilot.press("f3")
        await settle(app, pilot)
        app.query_one("#inspect-tokenizer", Select).value = "ours"
        await settle(app, pilot)
        assert "k=7 of 34 (follows the Train step)" in shown(app, "#inspect-status")


async def test_8_2_16_one_special_token_default() -> None:
    from bpe_engine.types import DEFAULT_SPECIAL_MODE

    app = ExplorerApp(SMALL)
    async with app.run_test(size=(140, 40)) as pilot:
        await pilot.press("f3")
        await pilot.pause()
        assert app.query_one("#inspect-special", Select).value == DEFAULT_SPECIAL_MODE == "text"
        await pilot.press("f4")
        await pilot.pause()
        assert app.query_one("#compare-special", Select).value == DEFAULT_SPECIAL_MODE


async def test_8_2_17_wordpiece_trains_in_a_child_inside_the_app(alice_text: str) -> None:
    app = ExplorerApp(alice_text[:40000], runner=runner(backend="child"))
    async with app.run_test(size=(120, 36)) as pilot:
        app.query_one("#model", Select).value = "wordpiece"
        await set_input(pilot, app, "#vocab", "1200")
        await pilot.press("ctrl+t")
        for _ in range(600):
            if not app.train_pane.training:
                break
            await asyncio.sleep(0.05)
        assert "done:" in shown(app, "#progress-status"), shown(app, "#progress-status")
        assert app.train_pane.tokenizer is not None and app.train_pane.stepper is not None and app.train_pane.stepper.available > 0
        await pilot.press("G", "b")
        assert app.train_pane.current_step == app.train_pane.stepper.available - 1
    assert not live_children()


async def test_9_5_child_training_inside_a_running_app_and_quit_mid_run(alice_text: str) -> None:
    app = ExplorerApp(alice_text, runner=runner(backend="child", throttle=0.003))
    async with app.run_test(size=(120, 36)) as pilot:
        await set_input(pilot, app, "#vocab", "20000")
        app.action_train()
        while app.train_pane.stepper is None or app.train_pane.stepper.available < 5:
            await asyncio.sleep(0.05)
        assert app.train_pane.training and live_children(), "the merges come from a child process"
        app.exit()
    for _ in range(100):
        if not live_children():
            break
        await asyncio.sleep(0.05)
    assert not live_children(), "quitting mid-run leaves no process behind"


async def test_9_3_save_checks_the_target_first_and_waits_for_a_running_run(tmp_path, alice_text: str) -> None:  # noqa: ANN001
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    app = ExplorerApp(alice_text[:30000], runner=runner(throttle=0.01))
    async with app.run_test(size=(120, 36)) as pilot:
        await set_input(pilot, app, "#vocab", "700")
        app.action_train()
        while app.train_pane.stepper is None or app.train_pane.stepper.available < 3:
            await asyncio.sleep(0.05)
        app.files._save_to(str(blocker / "sub"))  # not writable: said at once, while it trains
        await pilot.pause()
        assert "is a file, not a directory" in list(app._notifications)[-1].message
        target = tmp_path / "out"
        app.files._save_to(str(target))
        await pilot.pause()
        assert "when training finishes" in list(app._notifications)[-1].message
        while app.train_pane.training:
            await asyncio.sleep(0.05)
        await settle(app, pilot)
        assert (target / "merges.txt").exists()


async def test_9_1_escapes_and_markup_in_inputs_and_titles_are_shown_safely(tmp_path) -> None:  # noqa: ANN001
    from tests.hostile_text import HOSTILE, assert_inert

    payload = HOSTILE["osc-title"] + HOSTILE["csi-clear"] + HOSTILE["c1-csi"] + HOSTILE["bidi-rlo"] + HOSTILE["markup-click"]
    app = ExplorerApp("plain corpus\n", source="[bold red]F\x1b]0;T\x07.txt")
    async with app.run_test(size=(140, 40)) as pilot:
        area = app.query_one("#corpus-text")
        title = area.border_title
        assert "[bold red]F␛]0;T␇.txt" in str(title)
        await pilot.press("f3")
        await pilot.pause()
        field = app.query_one("#inspect-input", Input)
        field.value = payload
        await pilot.pause(0.3)
        painted = field.render_line(0).text
        assert_inert(painted, where="Inspect input")
        assert "␛]0;PWNED-TITLE" in painted
        await pilot.press("f4")
        await pilot.pause()
        text = app.query_one("#compare-text")
        text.load_text(payload)
        await pilot.pause(0.3)
        assert_inert(text.render_line(0).text, where="Compare text")
        app.notify(f"Opened {payload}")
        await pilot.pause()
        drawn = str(Toast(list(app._notifications)[-1]).render())
        assert "[@click=app.quit]" in drawn


async def test_8_2_7_an_unseen_symbol_is_a_marked_unknown_piece_never_a_row_error() -> None:
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


async def test_8_3_a_hidden_compare_does_no_work_until_shown() -> None:
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


async def test_8_2_8_a_short_curve_gives_its_rows_to_the_lines() -> None:
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
