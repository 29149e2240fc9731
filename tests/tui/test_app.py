"""Drive the explorer as a user would (Pilot) and check what the widgets show."""

from __future__ import annotations

import asyncio

from textual.widgets import Input, Static, TabbedContent, TextArea

from bpe_engine.training.runner import Steps
from tests.tui.pilot import SMALL, newest_toast_drawn, runner, set_input, settle, shown, train_to_end  # noqa: F401 - re-exported for other tests
from tui.app import ExplorerApp
from tui.inspect import InspectorPane
from tui.messages import TrainingEvent
from tui.train.step_table import StepTable


async def test_train_then_step_jump_first_last() -> None:
    app = ExplorerApp(SMALL)
    async with app.run_test(size=(120, 36)) as pilot:
        await set_input(pilot, app, "#vocab", "290")
        await train_to_end(app, pilot)
        assert app.train_pane.stepper is not None and app.train_pane.stepper.available == 290 - 256
        assert app.query_one(StepTable).row_count == 290 - 256 + 1  # + the step-0 row
        assert "done: 34 merges" in shown(app, "#progress-status")
        assert app.focused is app.query_one(StepTable)
        await pilot.press("n", "n", "n", "b")
        assert app.train_pane.current_step == 2
        assert shown(app, "#step-status").startswith("step 2/34")
        merge2 = app.train_pane.stepper.merge_at(1)
        assert f"merge 2: {merge2[0]} + {merge2[1]}" in shown(app, "#detail")
        await pilot.press("j")
        await pilot.press(*"12", "enter")
        await pilot.pause()
        assert app.train_pane.current_step == 12 and app.query_one(StepTable).cursor_row == 12
        await pilot.press("G")
        assert app.train_pane.current_step == 34
        await pilot.press("g")
        assert app.train_pane.current_step == 0 and app.train_pane.stepper.token_count == len(SMALL.encode())
        await pilot.press("down", "down", "down")  # the merge list's cursor is the step selector
        assert app.train_pane.current_step == 3


async def test_typing_into_the_corpus_offers_retrain() -> None:
    app = ExplorerApp(SMALL)
    async with app.run_test(size=(120, 36)) as pilot:
        await set_input(pilot, app, "#vocab", "270")
        await train_to_end(app, pilot)
        offer = app.query_one("#retrain-offer", Static)
        assert not offer.has_class("-visible")
        await pilot.click("#corpus-text")
        await pilot.press("end", *" hello", "ctrl+home")
        await pilot.pause()
        assert app.query_one("#corpus-text", TextArea).text.startswith("low lower lowest newer wider hello")
        assert offer.has_class("-visible") and "retrain" in shown(app, "#retrain-offer")
        # n typed into the editor, not a step
        assert app.train_pane.current_step == 0


async def test_cancel_mid_run_keeps_received_merges(alice_text: str) -> None:
    app = ExplorerApp(alice_text, runner=runner(throttle=0.002))
    async with app.run_test(size=(120, 36)) as pilot:
        await set_input(pilot, app, "#vocab", "5000")
        app.train_pane.train()
        while app.train_pane.stepper is None or app.train_pane.stepper.available < 50:
            await asyncio.sleep(0.05)
        app.train_pane.cancel()
        await settle(app, pilot)
        kept = app.train_pane.stepper.available
        assert not app.train_pane.training and kept < 5000 - 256
        assert "cancelled after" in shown(app, "#progress-status")
        assert app.query_one(StepTable).row_count == kept + 1
        await pilot.press("n", "n")
        assert app.train_pane.current_step == 2


async def test_retrain_with_other_settings_drops_stale_batches(alice_text: str) -> None:
    seen: list[int] = []

    def hook(message) -> None:  # noqa: ANN001
        if isinstance(message, TrainingEvent) and isinstance(message.event, Steps):
            seen.append(message.run_id)

    app = ExplorerApp(alice_text, runner=runner(throttle=0.002))
    async with app.run_test(size=(120, 36), message_hook=hook) as pilot:
        await set_input(pilot, app, "#vocab", "4000")
        app.train_pane.train()
        while app.train_pane.stepper is None or app.train_pane.stepper.available < 20:
            await asyncio.sleep(0.05)
        first_run = app.train_pane.run_id
        app.query_one("#vocab", Input).value = "300"
        app.train_pane.train()  # supersedes the running run
        await settle(app, pilot)
        assert app.train_pane.run_id == first_run + 1
        assert app.train_pane.stepper is not None and app.train_pane.stepper.available == 300 - 256
        assert app.query_one(StepTable).row_count == 300 - 256 + 1
        assert first_run in seen  # run 1 did post batches; none of them reached the table


async def test_quit_during_training_stops_the_worker(alice_text: str, monkeypatch) -> None:  # noqa: ANN001
    """Textual marks every worker cancelled on exit whether or not its thread stopped: check the
    training body itself returned (a thread still in it would keep the process from exiting).
    Textual runs thread workers in an executor whose idle threads live on, so the check is on
    the work, not on the thread object."""
    import threading

    threads: list[threading.Thread] = []
    returned: list[bool] = []
    real = runner(throttle=0.005, backend="thread")

    def recording(request, cancelled):  # noqa: ANN001, ANN202
        threads.append(threading.current_thread())
        try:
            yield from real(request, cancelled)
        finally:
            returned.append(True)

    app = ExplorerApp(alice_text, runner=recording)
    async with app.run_test(size=(120, 40)) as pilot:
        await set_input(pilot, app, "#vocab", "20000")
        app.train_pane.train()
        while app.train_pane.stepper is None or app.train_pane.stepper.available < 5:
            await asyncio.sleep(0.05)
        assert app.train_pane.training and threads and threads[0].is_alive()
        app.exit()
    for _ in range(100):
        if returned:
            break
        await asyncio.sleep(0.05)
    assert returned == [True], "the training body must really return when the app quits"
    assert app.return_code in (0, None)


async def test_markup_and_escape_codes_in_the_corpus_show_literally() -> None:
    nasty = "[bold]x[/bold] [link=http://e.com]y[/link] a\x1b[31mred\x1b]8;;u\x07 b\u202ec\u200bd\n"
    app = ExplorerApp(nasty)
    async with app.run_test(size=(120, 36)) as pilot:
        await set_input(pilot, app, "#vocab", "262")
        await train_to_end(app, pilot)
        view = shown(app, "#segmented-text")
        assert "[bold]x[/bold]" in view and "[link=http://e.com]" in view
        assert "␛[31m" in view and "\x1b" not in view
        assert "<RLO>" in view and "<ZWSP>" in view
        table_cells = [str(c) for row in range(app.query_one(StepTable).row_count)
                       for c in app.query_one(StepTable).cells(row)]
        assert not any("\x1b" in c or "\u202e" in c for c in table_cells)
        screen = app.export_screenshot()
        assert "\x1b[31m" not in screen and "[/bold]" in screen.replace("&#91;", "[")


async def test_invalid_settings_are_shown_next_to_the_field() -> None:
    app = ExplorerApp(SMALL)
    async with app.run_test(size=(120, 36)) as pilot:
        await set_input(pilot, app, "#vocab", "100")
        await train_to_end(app, pilot)  # the trainer knows the alphabet: it refuses when the run starts
        assert "above the alphabet (256" in shown(app, "#vocab-error")
        app.query_one("#pretok").value = "regex"
        await pilot.pause()
        await set_input(pilot, app, "#regex", "([a-z")
        assert shown(app, "#regex-error") != ""  # the regex module's reason, next to the field
        await pilot.press("ctrl+t")
        await pilot.pause()
        assert not app.train_pane.training and app.train_pane.stepper is None  # nothing started, nothing crashed
        await set_input(pilot, app, "#regex", r"\w+|\s")
        await set_input(pilot, app, "#vocab", "280")
        assert shown(app, "#vocab-error") == "" and shown(app, "#regex-error") == ""
        await train_to_end(app, pilot)
        assert app.train_pane.stepper is not None and app.train_pane.stepper.available == 24


async def test_character_level_end_of_word_and_help_screen() -> None:
    app = ExplorerApp(SMALL)
    async with app.run_test(size=(80, 24)) as pilot:
        app.query_one("#level").value = "char"
        app.query_one("#pretok").value = "end-of-word"
        await pilot.pause()
        await set_input(pilot, app, "#vocab", "60")
        await train_to_end(app, pilot)
        assert app.train_pane.stepper is not None and app.train_pane.stepper.available > 0
        app.query_one(StepTable).focus()
        await pilot.press("G")
        assert "</w>" not in shown(app, "#segmented-text")  # bookkeeping suffix is not corpus text
        app.query_one(TabbedContent).active = "inspect-tab"  # the Inspect pane mounts on first use
        await pilot.pause()
        assert len(app.query(InspectorPane)) == 1
        app.query_one(TabbedContent).active = "train-tab"
        await pilot.pause()
        await pilot.press("f1")
        assert app.screen.__class__.__name__ == "HelpScreen"
        await pilot.press("escape")
        assert app.screen.__class__.__name__ != "HelpScreen"


async def test_escapes_and_markup_in_the_title_inputs_and_toasts_are_shown_inert(tmp_path) -> None:  # noqa: ANN001
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
        drawn = newest_toast_drawn(app)
        assert "[@click=app.quit]" in drawn
