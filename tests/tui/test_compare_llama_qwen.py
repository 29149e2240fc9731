"""Llama 4 and Qwen 3.6 in Compare on Korean text, beside o200k_base: rows, counts, no errors."""

from __future__ import annotations

from typing import Any

from bpe_engine.registry import load_tokenizer
from tests.tui.pilot import CompareHost, settle_panes
from tui.compare.pane import ComparePane

KOREAN = "대한민국은 민주공화국이다. 모든 국민은 법 앞에 평등하다. Cafe\u0301"


async def test_llama4_and_qwen36_side_by_side_on_korean(builtin_model_path: Any) -> None:
    for name in ("llama3", "llama4", "qwen2.5", "qwen3.6"):
        builtin_model_path(name)
    rows = ("characters", "o200k_base", "llama3", "llama4", "qwen2.5", "qwen3.6")
    app = CompareHost(KOREAN, rows)
    async with app.run_test(size=(140, 44)) as pilot:
        pane = app.query_one(ComparePane)
        for _ in range(40):
            await settle_panes(pilot)
            if pane.result is not None and len(pane.result.labels) == len(rows):
                break
        assert pane.result is not None and [r.error for r in pane.result.comparison.rows] == [None] * len(rows)
        counts = {label: row.stats.tokens for label, row in zip(pane.result.labels, pane.result.comparison.rows)}
        for name in ("llama4", "qwen3.6"):
            assert counts[name] == len(load_tokenizer(name).encode(KOREAN))
        assert counts["llama4"] < counts["llama3"]
