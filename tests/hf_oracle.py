"""Shared helpers of the tokenizer.json tests: Hugging Face ``tokenizers`` is the oracle.

Each test builds a component with HF's Python API, serialises the tokenizer, loads the JSON with
``bpe_engine.hf`` and compares ids, offsets, model tokens and decoded text.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import strategies as st
from tokenizers import Tokenizer, models, pre_tokenizers

from bpe_engine.core.byte_table import BYTE_ALPHABET
from bpe_engine.hf import hf_tokenizer_from_dict
from bpe_engine.hf.pipeline import HfTokenizer

# Text that has broken tokenizers: emoji and ZWJ sequences, combining marks (and their reordering),
# CJK and Hangul, compatibility characters, whitespace runs, controls, special-token text.
TRICKY = [
    "",
    " ",
    "Hello world!",
    "  leading and trailing  ",
    "tabs\tand\nnew\r\nlines\n\n\n",
    "👩‍👩‍👧‍👦 family, 👍🏽 thumbs, 🏳️‍🌈 flag",
    "e\u0301 a\u0301\u0316 o\u0316\u0301 \u1e0b\u0323",
    "한국어 문장입니다. 대한민국",
    "中文字符和日本語のテキスト",
    "ﬁ ﬃ ① ㋿ Ａ ｶ ℌ ¼ ㎏",
    "ΟΔΟΣ İstanbul ß ẞ ǅ",
    "\x00\x01\x1b[31mred\x1b[0m \x7f \u200b\u200d\ufeff",
    "\u00a0nbsp\u3000ideographic\u2028line\u2029para",
    "<s>special</s> [CLS] <|endoftext|> <mask>",
    "don't you're I'll 12345 3.14159 1,000,000",
    "    four spaces    then\t\ttabs",
    "مرحبا بالعالم שלום עולם",
    "\U00011935\U00011930 \u07fd\u0301 \u1cf2",
]

texts = st.text(
    alphabet=st.one_of(
        st.characters(exclude_categories=("Cs", "Cn")),
        st.sampled_from(list(" \t\n\r\u00a0\u3000\u200d\u0301\u0316한국ﬁ①👩🏽<>/sCLS[]")),
    ),
    max_size=40,
) | st.lists(st.sampled_from(TRICKY), max_size=4).map(" ".join)
"""Hypothesis text: any assigned character (Unicode 14, Python 3.11's database), weighted towards
the characters above. Characters assigned later are classified differently by HF's regex engine
and Python's ``regex``; the README says so."""


def ours(hf: Tokenizer, name: str = "t") -> HfTokenizer:
    """The general pipeline loaded from the tokenizer's JSON."""
    return hf_tokenizer_from_dict("tokenizer.json", json.loads(hf.to_str()), name=name)


def byte_alphabet_bpe(**options: Any) -> models.BPE:
    """A byte-level BPE with the 256 byte characters and no merges: one token per byte, so the
    offsets show each normalised character's alignment."""
    return models.BPE({c: i for i, c in enumerate(BYTE_ALPHABET)}, [], **options)


def alignment_probe(normalizer: Any) -> Tokenizer:
    """A tokenizer whose offsets are exactly ``normalizer``'s alignments."""
    tok = Tokenizer(byte_alphabet_bpe())
    tok.normalizer = normalizer
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)
    return tok


def hf_offsets_from_spans(text: str, spans: tuple[tuple[int, int], ...]) -> list[tuple[int, int]]:
    """Our byte spans widened to whole characters, as HF reports offsets."""
    data = text.encode("utf-8", "surrogatepass")
    starts = [i for i in range(len(data) + 1) if i == len(data) or (data[i] & 0xC0) != 0x80]
    char_of = {b: k for k, b in enumerate(starts)}

    def floor(b: int) -> int:
        while b not in char_of:
            b -= 1
        return char_of[b]

    def ceil(b: int) -> int:
        while b not in char_of:
            b += 1
        return char_of[b]

    return [(floor(s), ceil(e)) for s, e in spans]


def assert_parity(hf: Tokenizer, tok: HfTokenizer, text: str, *, add_special_tokens: bool = True, offsets: bool = True) -> None:
    """ids, offsets, model tokens and decode equal HF's for ``text`` (special tokens matched)."""
    expected = hf.encode(text, add_special_tokens=add_special_tokens)
    assert tok.encode(text, special_mode="special", add_special_tokens=add_special_tokens) == expected.ids, text
    if offsets:
        records = tok.encode_records(text, special_mode="special", add_special_tokens=add_special_tokens)
        assert [r.id for r in records] == expected.ids, text
        assert [r.offsets for r in records] == expected.offsets, text
        added = {t.id for t in tok.pipeline.added.tokens}
        assert [r.token for r, i in zip(records, expected.ids) if i not in added] == [
            t for t, i in zip(expected.tokens, expected.ids) if i not in added
        ], text
        cleaned = "".join("\ufffd" if 0xD800 <= ord(c) < 0xE000 else c for c in text)
        widened = hf_offsets_from_spans(cleaned, tuple(r.span for r in records))
        assert all(w[0] <= o[0] and o[1] <= w[1] or r.special for w, o, r in zip(widened, expected.offsets, records)), text
    assert tok.decode(expected.ids) == hf.decode(expected.ids), text
    assert tok.decode(expected.ids, skip_special_tokens=False) == hf.decode(expected.ids, skip_special_tokens=False), text
