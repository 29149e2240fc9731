"""The Train form and the step list are made from the registered trainers: a toy trainer registered
in a test (``tests/toy_trainer``) shows its own fields, trains, and lists its own step kind's
columns and rows, and its steps explain themselves -- with no tui file knowing it."""

from __future__ import annotations

from textual.widgets import Input

from tests.toy_trainer import registered
from tests.tui.pilot import make_app, runner, set_input, set_select, settle, shown, train_to_end
from tui.train.step_table import StepTable

CORPUS = "low lower lowest newer wider\n" * 12


async def _train_toy(backend: str) -> None:
    with registered():
        app = make_app(CORPUS, runner=runner(backend=backend))  # type: ignore[arg-type]
        async with app.run_test(size=(140, 44)) as pilot:
            await set_select(pilot, app, "#model", "toy")
            toymin = app.query_one("#toymin", Input)
            assert toymin.display and not toymin.disabled and toymin.value == "2"  # the config's default
            assert app.query_one("#minfreq").disabled and app.query_one("#tiebreak").disabled  # BPE's, not the toy's
            await set_input(pilot, app, "#vocab", "20")
            await set_input(pilot, app, "#toymin", "0")
            assert "min_count must be at least 1" in shown(app, "#toymin-error")  # the config's check, at its field
            await set_input(pilot, app, "#toymin", "3")
            await train_to_end(app, pilot)
            table = app.query_one(StepTable)
            assert [c.title for c in table._columns] == ["#", "toy pair", "toy count"]  # noqa: SLF001
            assert table.cells(1)[:2] == ("1", "e·r") and table.row_count == 1 + 20 - len(set(CORPUS))
            await pilot.press("g", "n")
            await settle(app, pilot)
            detail = shown(app, "#detail")
            assert "merge 1: e + r → er" in detail and "why: count 36" in detail
            assert app.train_pane.tokenizer is not None and app.train_pane.tokenizer.encode("lower") != []


async def test_a_registered_toy_trains_in_the_app_in_a_thread() -> None:
    await _train_toy("thread")


async def test_a_registered_toy_trains_in_the_app_in_the_child_process() -> None:
    await _train_toy("child")
