"""The Train tab says why each step won: the deciding number, a tie and its rule, the rule lab's
comparison with the previous run, and the same columns and story for WordPiece and Unigram."""

from __future__ import annotations

from textual.widgets import Select

from tests.tui.pilot import make_app, set_input, set_select, settle, shown, train_to_end
from tui.train.step_table import StepTable

TEXTBOOK = " ".join(["low"] * 5 + ["lower"] * 2 + ["newest"] * 6 + ["widest"] * 3) + "\n"


async def textbook_settings(app, pilot, tie_break: str) -> None:  # noqa: ANN001
    await set_select(pilot, app, "#level", "char")
    await set_select(pilot, app, "#pretok", "end-of-word")
    await set_select(pilot, app, "#eow", "separate")
    await set_select(pilot, app, "#tiebreak", tie_break)
    await set_input(pilot, app, "#vocab", "40")


async def test_a_tie_is_marked_named_and_explained_and_the_rule_lab_compares_runs() -> None:
    app = make_app(TEXTBOOK)
    async with app.run_test(size=(140, 44)) as pilot:
        await textbook_settings(app, pilot, "hf")
        await train_to_end(app, pilot)
        table = app.query_one(StepTable)
        assert table.cells(1)[1:3] == ("e + s → es", "9=")  # three pairs at 9: a tie, marked
        await pilot.press("g", "n")
        await settle(app, pilot)
        why = shown(app, "#detail")
        assert "why: count 9 · tied with s + t, t + </w>" in why and "decided by hf:" in why
        await textbook_settings(app, pilot, "first-seen")
        await train_to_end(app, pilot)
        assert [table.cells(k)[1] for k in (1, 2, 3)] == ["e + s → es", "es + t → est", "est + </w> → est</w>"]
        lab = shown(app, "#run-comparison")
        assert "tie_break: 'hf' → 'first-seen'" in lab and "merges part at merge 2" in lab and "tokens only in this run" in lab


async def test_wordpiece_steps_show_their_score_and_unigram_steps_their_round() -> None:
    corpus = ("hug " * 10 + "pug " * 5 + "pun " * 12 + "bun " * 4 + "hugs " * 5 + "\n") * 3
    app = make_app(corpus)
    async with app.run_test(size=(140, 44)) as pilot:
        await set_select(pilot, app, "#model", "wordpiece")
        assert app.query_one("#pretok", Select).value == "bert" and app.query_one("#minfreq").value == "2"
        await set_input(pilot, app, "#vocab", "30")
        assert app.query_one("#merge_by", Select).value == "count"  # HF's WordPieceTrainer: the default
        await train_to_end(app, pilot)
        table = app.query_one(StepTable)
        assert [c.title for c in table._columns] == ["#", "merge", "count", "words"]  # noqa: SLF001
        assert table.cells(1)[1] == "##u + ##g → ##ug" and table.cells(1)[2] == "60"  # hug, pug, hugs: the most frequent pair
        await set_select(pilot, app, "#merge_by", "score")
        await train_to_end(app, pilot)
        assert [c.title for c in table._columns] == ["#", "merge", "score", "count", "words"]  # noqa: SLF001
        assert table.cells(1)[1] == "##g + ##s → ##gs" and table.cells(1)[2] == "0.01667"  # 15 / (15 · 60): the HF course example, three times over
        await pilot.press("g", "n")
        await settle(app, pilot)
        assert "why: score 0.01667" in shown(app, "#detail")

        await set_select(pilot, app, "#model", "unigram")
        await set_input(pilot, app, "#vocab", "12")
        await train_to_end(app, pilot)
        rows = [table.cells(k)[1] for k in range(1, table.row_count)]
        assert rows[0].startswith("seeds:") and any(r.startswith("EM round 1.1") for r in rows) and rows[-1].startswith("final vocabulary")
        await pilot.press("g", "n", "n")
        await settle(app, pilot)
        assert "EM round 1, iteration 1" in shown(app, "#detail") and "log-likelihood" in shown(app, "#detail")
        assert shown(app, "#segmented-text").strip(), "the corpus is segmented by the model of step 2"
        assert app.train_pane.tokenizer is not None and app.train_pane.tokenizer.capabilities.family == "unigram"
