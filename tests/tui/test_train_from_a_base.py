"""Training from a base in the app: the form's "start from", the base's merges as one block, the new
merges stepped with their why, and the model at step k is the base plus k merges."""

from __future__ import annotations

import json
from pathlib import Path

from bpe_engine.registry import load_tokenizer
from tests.tui.pilot import make_app, runner, set_input, set_select, settle, shown, train_to_end
from tui.train.step_table import StepTable

KOREAN = "대한민국은 민주공화국이다. 대한민국의 주권은 국민에게 있고, 모든 권력은 국민으로부터 나온다.\n" * 8


async def _extend_gpt2(backend: str, tmp_path: Path) -> None:
    app = make_app(KOREAN, runner=runner(backend=backend))
    async with app.run_test(size=(150, 46)) as pilot:
        await set_select(pilot, app, "#model", "extend")
        await set_select(pilot, app, "#base", "gpt2")
        await set_input(pilot, app, "#add", "20")
        await train_to_end(app, pilot)
        table = app.query_one(StepTable)
        assert table.row_count == 1 + 20
        assert "the base's merges, as one block" in " ".join(table.cells(0))
        assert table.cells(1)[0] == "1"  # the first merge after gpt2's 50,000
        await pilot.press("g", "n")
        await settle(app, pilot)
        detail = shown(app, "#detail")
        assert "merge 1:" in detail and "why: count" in detail
        gpt2 = load_tokenizer("gpt2")
        model = app.train_pane.tokenizer
        assert model is not None and model.vocab_size == gpt2.vocab_size + 20
        text = KOREAN.splitlines()[0]
        assert len(model.encode(text)) < len(gpt2.encode(text))
        state = app.train_pane.state  # what Inspect and Compare are given
        assert state.step_total == 20
        assert state.tokenizer_at(0).encode(text) == gpt2.encode(text)  # step 0: the base itself
        at_5 = state.tokenizer_at(5)
        assert at_5.vocab_size == gpt2.vocab_size + 5 and at_5.encode("대한민국") == model.with_merge_prefix(50_005).encode("대한민국")
        assert state.tokenizer_at(20).encode(text) == model.encode(text)
        out = tmp_path / "gpt2-ko"
        app.files._save_to(str(out))  # ctrl+s's target: the trainer's own save writes the base's formats
        await settle(app, pilot)
        record = json.loads((out / "surgery.json").read_text(encoding="utf-8"))
        assert record["base"] == "gpt2" and record["new_ids"] == {"first": 50_257, "last": 50_276, "count": 20}
        assert (out / "tiktoken.json").exists() and (out / "gpt2-ko.tiktoken").exists()
        assert load_tokenizer(out).encode(text) == model.encode(text)


async def test_extending_gpt2_in_the_app_in_a_thread(tmp_path: Path) -> None:
    await _extend_gpt2("thread", tmp_path)


async def test_extending_gpt2_in_the_app_in_the_child_process(tmp_path: Path) -> None:
    await _extend_gpt2("child", tmp_path)
