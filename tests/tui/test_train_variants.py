"""The variants in the Train tab: PickyBPE trains, its step list holds split and restore rows by their
kind, and stepping to a split shows why (IoS against τ) and the corpus as it was then."""

from __future__ import annotations

from tests.tui.pilot import make_app, runner, set_input, set_select, settle, shown, train_to_end
from tui.train.step_table import StepTable

CORPUS = ("the hat the hatter hath a hatch that " * 3 + "abc abc abc ab " * 4 + "\n") * 8


async def test_picky_trains_in_the_app_and_steps_to_a_split() -> None:
    app = make_app(CORPUS, runner=runner(backend="thread"))  # type: ignore[arg-type]
    async with app.run_test(size=(140, 44)) as pilot:
        await set_select(pilot, app, "#model", "picky")
        await set_input(pilot, app, "#vocab", "40")
        await set_input(pilot, app, "#tau", "0.75")
        await train_to_end(app, pilot)
        steps = list(app.train_pane.step_log)
        kinds = [s.kind for s in steps]
        assert "split" in kinds and "merge" in kinds
        first_split = kinds.index("split") + 1
        table = app.query_one(StepTable)
        split = steps[first_split - 1]
        assert table.cells(first_split)[:2] == (f"{first_split}", f"{split.token} → {' + '.join(split.parts)}")
        await pilot.press("g")
        for _ in range(first_split):
            await pilot.press("n")
        await settle(app, pilot)
        detail = shown(app, "#detail")
        assert f"split {first_split}: {split.token}" in detail and "why: IoS" in detail and "τ 0.75" in detail
        assert "split into" in detail


async def test_scaffold_and_superbpe_train_in_the_app_with_their_step_kinds() -> None:
    for model, field, value, kinds in (("scaffold", "#vocab", "300", {"merge", "scaffold"}), ("superbpe", "#transition", "20", {"merge"})):
        app = make_app(CORPUS, runner=runner(backend="thread"))  # type: ignore[arg-type]
        async with app.run_test(size=(140, 44)) as pilot:
            await set_select(pilot, app, "#model", model)
            await set_input(pilot, app, "#vocab", "300")
            await set_input(pilot, app, field, value)
            await train_to_end(app, pilot)
            steps = list(app.train_pane.step_log)
            assert kinds <= {s.kind for s in steps}, model
            assert app.train_pane.tokenizer is not None and app.train_pane.tokenizer.decode(app.train_pane.tokenizer.encode("the hat")) == "the hat"
            await pilot.press("g", "n")
            await settle(app, pilot)
            assert "why:" in shown(app, "#detail")
