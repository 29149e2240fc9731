"""An extended tokenizer written in its base's formats loads in tiktoken and HF ``tokenizers`` with our ids."""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bpe_engine.corpus import count_words
from bpe_engine.formats.saved_dir import METADATA_FILE
from bpe_engine.registry import load_tokenizer
from bpe_engine.surgery import ExtendConfig, bpe_base
from bpe_engine.surgery.extend import extend
from bpe_engine.surgery.save import SURGERY_FILE, TIKTOKEN_SETTINGS_FILE, save_changed
from bpe_engine.training.bpe import BpeTrainerConfig, train
from tests.oracles import require

tiktoken = require("tiktoken")
tokenizers = require("tokenizers")
from tiktoken.load import load_tiktoken_bpe  # noqa: E402

SAMPLES = [
    "대한민국은 민주공화국이다. 모든 권력은 국민으로부터 나온다.",
    "Alice was beginning to get very tired of sitting by her sister on the bank",
    "  two  spaces\tand a tab\n\nnew lines 12345 3.14 don't",
    "<|endoftext|> special text, 👩‍👩‍👧 emoji, cafe\u0301 combining",
]
text_strategy = st.text(
    alphabet=st.one_of(st.characters(exclude_categories=("Cs", "Cn")), st.sampled_from(list(" \n\t한국어민주공화e\u0301"))),
    max_size=60,
)


def extended(name: str, corpus: str, add: int):
    base = bpe_base(load_tokenizer(name))
    wc = count_words([corpus], base.pre_tokenizer, base.specials, byte_level=True, workers=1, normalizer=base.normalizer)
    tok, steps, run = extend(base, wc, ExtendConfig(add=add))
    return base, tok, steps, run


def written(tmp_path: Path, base, tok, steps, run) -> Path:
    out = tmp_path / "out"
    new_ids = sorted(run.new_tokens().values())
    save_changed(tok, base, out, name="ext", operation="extend", steps=steps, new_ids=new_ids)
    return out


def tiktoken_from_files(out: Path):
    settings_ = json.loads((out / TIKTOKEN_SETTINGS_FILE).read_text(encoding="utf-8"))
    ranks = load_tiktoken_bpe(str(out / settings_["mergeable_ranks"]))
    return tiktoken.Encoding(
        settings_["name"], pat_str=settings_["pat_str"], mergeable_ranks=ranks,
        special_tokens=settings_["special_tokens"], explicit_n_vocab=settings_.get("explicit_n_vocab"),
    ), settings_


_CLIENTS: dict = {}


def clients(out: Path):
    """tiktoken (and its settings), HF and our loader, each from the written files (once per directory)."""
    if out not in _CLIENTS:
        enc, settings_ = tiktoken_from_files(out)
        _CLIENTS[out] = (enc, settings_, tokenizers.Tokenizer.from_file(str(out / "tokenizer.json")), load_tokenizer(out))
    return _CLIENTS[out]


def assert_clients_agree(out: Path, tok, texts: list[str]) -> None:
    enc, settings_, hf, again = clients(out)
    form = settings_.get("normalize_first")
    for text in texts:
        ids = tok.encode(text)
        assert enc.encode_ordinary(unicodedata.normalize(form, text) if form else text) == ids, text
        assert again.encode(text) == ids, text
        with_specials = tok.encode(text, special_mode="special")  # HF always matches added tokens
        assert hf.encode(text, add_special_tokens=False).ids == with_specials, text
        assert enc.encode(unicodedata.normalize(form, text) if form else text, allowed_special="all") == with_specials


@pytest.mark.parametrize("name", ["cl100k_base", "llama3", "qwen2.5", "gpt2"])
def test_extended_base_loads_in_tiktoken_and_hf(tmp_path: Path, name: str, korean_text: str, alice_text: str) -> None:
    corpus = korean_text[:12_000] + alice_text[:6_000]
    base, tok, steps, run = extended(name, corpus, 150)
    out = written(tmp_path, base, tok, steps, run)
    record = json.loads((out / SURGERY_FILE).read_text(encoding="utf-8"))
    assert record["new_ids"] == {"first": base.next_id, "last": base.next_id + 149, "count": 150}
    texts = [*SAMPLES, korean_text[12_000:16_000], alice_text[50_000:53_000]]
    assert_clients_agree(out, tok, texts)
    enc, _ = tiktoken_from_files(out)
    old = base.tokenizer
    for i in range(0, old.vocab_size, 997):  # every base id still decodes to the same bytes
        if old.token_str(i) is not None:
            assert enc.decode_single_token_bytes(i) == old.token_bytes(i)
    for token, i in old.special_tokens.items():
        assert enc.encode(token, allowed_special="all") == [i]
    assert json.loads((out / METADATA_FILE).read_text(encoding="utf-8"))["files"][TIKTOKEN_SETTINGS_FILE] == TIKTOKEN_SETTINGS_FILE


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(texts=st.lists(text_strategy, min_size=1, max_size=5))
def test_extended_cl100k_files_agree_on_any_text(tmp_path_factory, korean_text: str, texts: list[str]) -> None:
    global _CL100K
    if _CL100K is None:
        base, tok, steps, run = extended("cl100k_base", korean_text[:10_000], 80)
        _CL100K = (tok, written(tmp_path_factory.mktemp("cl"), base, tok, steps, run))
    tok, out = _CL100K
    assert_clients_agree(out, tok, texts)


_CL100K = None


def test_extended_merge_list_writes_gpt2_files_hf_loads(tmp_path: Path, alice_text: str) -> None:
    from bpe_engine.pretokenizers import GPT2

    wc = count_words([alice_text[:30_000]], GPT2, byte_level=True, workers=1)
    trained = train(wc, BpeTrainerConfig(vocab_size=700, special_tokens=("<|endoftext|>",)), workers=1)
    base = bpe_base(trained.tokenizer)
    tok, steps, run = extend(base, count_words([alice_text[30_000:60_000]], GPT2, byte_level=True, workers=1), ExtendConfig(add=120))
    out = written(tmp_path, base, tok, steps, run)
    hf = tokenizers.Tokenizer.from_file(str(out / "tokenizer.json"))
    gpt2 = tokenizers.Tokenizer(tokenizers.models.BPE.from_file(str(out / "vocab.json"), str(out / "merges.txt")))
    gpt2.pre_tokenizer = hf.pre_tokenizer
    for text in [alice_text[60_000:63_000], *SAMPLES[1:3]]:
        ids = tok.encode(text)
        assert hf.encode(text).ids == ids
        assert gpt2.encode(text).ids == ids
        assert load_tokenizer(out).encode(text) == ids
    assert tok.vocab["<|endoftext|>"] == trained.tokenizer.vocab["<|endoftext|>"]
