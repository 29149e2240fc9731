"""Pruning by leaves leaves nothing unreachable and loads in tiktoken and HF; added tokens keep their ids."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bpe_engine.audit.vocabulary import audit_vocabulary
from bpe_engine.corpus import count_words
from bpe_engine.errors import ConfigError
from bpe_engine.pretokenizers import GPT2
from bpe_engine.registry import load_tokenizer
from bpe_engine.surgery import bpe_base
from bpe_engine.surgery.added import add_tokens
from bpe_engine.surgery.checks import UNREACHABLE, surgery_checks
from bpe_engine.surgery.prune import plan_prune, prune_floor, pruned_tokenizer
from bpe_engine.surgery.save import SURGERY_FILE, save_changed
from bpe_engine.training.bpe import BpeTrainerConfig, train
from tests.engine.test_extended_files_load import SAMPLES, clients, text_strategy, tiktoken_from_files
from tests.oracles import require

tokenizers = require("tokenizers")


def unreachable(tok) -> int:
    audit = audit_vocabulary(tok)
    return sum(len(audit.ids.get(c, ())) for c in UNREACHABLE)


@pytest.fixture(scope="module")
def o200k_32k(tmp_path_factory):
    base = bpe_base(load_tokenizer("o200k_base"))
    plan = plan_prune(base, 32_000)
    tok, id_map = pruned_tokenizer(base, plan.removed, "o200k-32k")
    out = tmp_path_factory.mktemp("pruned") / "o200k-32k"
    save_changed(tok, base, out, name="o200k-32k", operation="prune", id_map=id_map)
    return base, plan, tok, id_map, out


def test_o200k_pruned_to_32k_has_nothing_unreachable(o200k_32k) -> None:
    base, plan, tok, id_map, out = o200k_32k
    assert unreachable(base.tokenizer) > 0  # o200k itself has some ("Ċ//": a newline is a piece of its own)
    assert tok.vocab_size == 32_000 and len(id_map) == 32_000
    assert unreachable(tok) == 0
    assert sorted(id_map.values()) == list(range(32_000))  # compacted, order kept
    olds = sorted(id_map)
    assert all(id_map[a] < id_map[b] for a, b in zip(olds, olds[1:]))
    for old in olds[::50]:
        assert tok.token_bytes(id_map[old]) == base.tokenizer.token_bytes(old)
    assert all(bytes([b]) in (tok.mergeable_ranks or {}) for b in range(256))  # never a byte
    assert {t: id_map[i] for t, i in base.specials.items()} == tok.special_tokens  # never a special
    record = json.loads((out / SURGERY_FILE).read_text(encoding="utf-8"))
    assert len(record["removed_ids"]) == 168_000 and record["id_map"][str(olds[-1])] == 31_999
    checks = surgery_checks(base.tokenizer, tok, None, id_map=id_map)
    assert checks.unreachable_after == 0 and len(checks.removed_ids) == 168_000 and checks.specials_kept


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(texts=st.lists(text_strategy, min_size=1, max_size=4))
def test_pruned_files_give_our_ids_in_tiktoken_and_hf(o200k_32k, texts) -> None:
    _, _, tok, _, out = o200k_32k
    enc, _, hf, again = clients(out)
    for text in [*texts, *SAMPLES]:
        ids = tok.encode(text)
        assert enc.encode_ordinary(text) == ids
        assert hf.encode(text, add_special_tokens=False).ids == tok.encode(text, special_mode="special")
        assert again.encode(text) == ids


def test_prune_by_corpus_removes_least_used_leaves_of_a_merge_list(tmp_path: Path, alice_text: str, korean_text: str) -> None:
    wc = count_words([alice_text[:40_000], korean_text[:10_000]], GPT2, byte_level=True, workers=1)
    trained = train(wc, BpeTrainerConfig(vocab_size=1_500, special_tokens=("<|endoftext|>",)), workers=1)
    base = bpe_base(trained.tokenizer)
    english = count_words([alice_text[40_000:80_000]], GPT2, byte_level=True, workers=1)
    plan = plan_prune(base, 900, english)
    tok, id_map = pruned_tokenizer(base, plan.removed, "small", keep_ids=True)
    assert tok.vocab_size == 900 and unreachable(tok) == 0
    assert all(id_map[i] == i for i in id_map)  # holes kept
    made = {a + b for a, b in tok.merges}
    assert all(a in tok.vocab and b in tok.vocab for a, b in tok.merges)  # no merge lost its parts
    assert tok.special_tokens == trained.tokenizer.special_tokens
    assert len(tok.encode(alice_text[80_000:90_000])) < len(tok.encode(korean_text[10_000:14_000])) * 3
    korean_left = sum(1 for t in made if any(ord(c) >= 0xE0 for c in t[:1]))
    assert korean_left < sum(1 for a, b in trained.tokenizer.merges if any(ord(c) >= 0xE0 for c in (a + b)[:1]))
    out = tmp_path / "holes"
    save_changed(tok, base, out, name="holes", operation="prune", id_map=id_map)
    hf = tokenizers.Tokenizer.from_file(str(out / "tokenizer.json"))
    for text in (alice_text[90_000:92_000], korean_text[20_000:21_000]):
        assert hf.encode(text).ids == tok.encode(text) == load_tokenizer(out).encode(text)


def test_prune_below_the_alphabet_is_refused() -> None:
    base = bpe_base(load_tokenizer("cl100k_base"))
    assert prune_floor(base) == 256 + 5
    with pytest.raises(ConfigError, match="--to 200 is below what 'cl100k_base' cannot lose: 261 ids"):
        plan_prune(base, 200)


def test_added_tokens_take_the_next_ids_and_load_in_every_client(tmp_path: Path) -> None:
    base = bpe_base(load_tokenizer("gpt2"))
    tok, added = add_tokens(base, ["<|tool_call|>", "[CODE]", "hello", "<|endoftext|>"], "tools")
    assert added.tokens == {"<|tool_call|>": 50_257, "[CODE]": 50_258}
    assert added.already == {"hello": 31_373, "<|endoftext|>": 50_256}
    out = tmp_path / "tools"
    save_changed(tok, base, out, name="tools", operation="add-tokens", new_ids=sorted(added.tokens.values()))
    text = "call <|tool_call|> with [CODE] x = 1"
    ids = tok.encode(text, special_mode="special")
    assert 50_257 in ids and 50_258 in ids
    enc, _ = tiktoken_from_files(out)
    assert enc.encode(text, allowed_special="all") == ids
    assert tokenizers.Tokenizer.from_file(str(out / "tokenizer.json")).encode(text, add_special_tokens=False).ids == ids
    assert load_tokenizer(out).encode(text, special_mode="special") == ids
    with pytest.raises(ConfigError, match="cannot be empty"):
        add_tokens(base, [""], "x")
