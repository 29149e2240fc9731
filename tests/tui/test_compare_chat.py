"""Compare's Chat view: the text box as a conversation (one user message, or messages JSON), each
row's prompt as its chat format builds it with the count the engine gives, exact or a convention
said, control tokens lit; a row without a format and a half-typed JSON say so instead."""

from __future__ import annotations

import json
from typing import Any

from bpe_engine.chat import chat_prompt, messages_of
from bpe_engine.registry import load_tokenizer
from tests.tui.pilot import CompareHost, settle_panes
from tui.compare.chat_view import ChatView
from tui.compare.pane import ComparePane


async def shown_text(pilot: Any, pane: ComparePane, rows: int) -> str:
    for _ in range(60):
        await settle_panes(pilot)
        if pane.result is not None and len(pane.result.labels) == rows:
            break
    pane.show_view("compare-chat")
    await settle_panes(pilot)
    return str(pane.query_one(ChatView).query_one("#chat-body").render())


async def test_each_row_shows_its_models_prompt_and_count(builtin_model_path: Any) -> None:
    for name in ("llama3", "qwen3.6"):
        builtin_model_path(name)
    rows = ("llama3", "qwen3.6", "gpt2")
    app = CompareHost("How many tokens? 한국어", rows)
    async with app.run_test(size=(140, 44)) as pilot:
        pane = app.query_one(ComparePane)
        text = await shown_text(pilot, pane, len(rows))
        messages = messages_of([("user", "How many tokens? 한국어")])
        llama = chat_prompt(load_tokenizer("llama3"), messages)
        qwen = chat_prompt(load_tokenizer("qwen3.6"), messages)
        assert text.startswith("1 message (user) + the reply's opening")
        assert f"llama3 · {llama.count:,} tokens, {llama.special_count:,} control · Llama 3, exact" in text
        assert f"qwen3.6 · {qwen.count:,} tokens, {qwen.special_count:,} control · ChatML (Qwen), documented convention" in text
        assert "<|start_header_id|>" in text and "<|im_start|>" in text
        assert "gpt2 · no chat format is known for 'gpt2'" in text


async def test_a_conversation_in_json_and_a_half_typed_one(builtin_model_path: Any) -> None:
    builtin_model_path("llama4")
    conversation = [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Hi"}]
    app = CompareHost(json.dumps(conversation), ("llama4",))
    async with app.run_test(size=(140, 44)) as pilot:
        pane = app.query_one(ComparePane)
        text = await shown_text(pilot, pane, 1)
        expected = chat_prompt(load_tokenizer("llama4"), messages_of([("system", "Be brief."), ("user", "Hi")]))
        assert text.startswith("2 messages (system, user)") and f"llama4 · {expected.count:,} tokens" in text
        pane.query_one("#compare-text").load_text('[{"role": "user", "content": "Hi"')  # type: ignore[attr-defined]
        for _ in range(60):
            await settle_panes(pilot)
            if pane.result is not None and pane.result.comparison.text.endswith('"Hi"'):
                break
        await settle_panes(pilot)
        assert "the conversation is not valid JSON yet" in str(pane.query_one("#chat-body").render())
