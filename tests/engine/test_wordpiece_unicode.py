"""The BERT front end agrees with HF character by character, including where Unicode versions differ.

HF's tables (unicode_categories crate, Rust's lowercase) and Python's unicodedata disagree on a few
hundred code points; bpe_engine/wordpiece/unicode_tables.py records HF's answers. The quick test
checks those code points and a sample of the rest; the slow one every code point.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe_engine.wordpiece import unicode_tables as tables
from bpe_engine.wordpiece.bert_normalizer import BertNormalizer
from bpe_engine.wordpiece.bert_pretokenizer import bert_pieces, bert_words, bert_words_spaced
from tests.oracles import require

tokenizers = require("tokenizers")
CONFIGS = [
    {"lowercase": True},
    {"lowercase": False},
    {"lowercase": True, "strip_accents": False},
    {"lowercase": False, "strip_accents": True, "clean_text": False, "handle_chinese_chars": False},
]


def _table_code_points() -> list[int]:
    ranges = (tables.NOT_MN_RANGES, tables.EXTRA_MN_RANGES, tables.NO_DECOMPOSITION_RANGES, tables.NOT_CONTROL_RANGES)
    cps = {cp for group in ranges for lo, hi in group for cp in range(lo, hi + 1)}
    cps |= set(tables.LOWERCASE_OVERRIDES)
    cps |= {lo for lo, _ in tables.PUNCT_RANGES} | {hi + 1 for _, hi in tables.PUNCT_RANGES}
    return sorted(cps)


def _all_code_points(step: int) -> list[int]:
    return [cp for cp in range(0, 0x110000, step) if not 0xD800 <= cp < 0xE000]


def _check(code_points: list[int]) -> list[str]:
    from tokenizers.normalizers import BertNormalizer as HfNormalizer
    from tokenizers.pre_tokenizers import BertPreTokenizer

    bad: list[str] = []
    for config in CONFIGS:
        hf, ours = HfNormalizer(**config), BertNormalizer(**config)
        bad += [f"{config} U+{cp:04X}" for cp in code_points if hf.normalize_str(chr(cp)) != ours.normalize(chr(cp))]
    pre = BertPreTokenizer()
    for cp in code_points:
        text = f"a{chr(cp)}b"
        if pre.pre_tokenize_str(text) != [(w, (s, e)) for w, s, e in bert_pieces(text)]:
            bad.append(f"pre-tokenizer U+{cp:04X}")
    return bad


def test_recorded_differences_and_a_sample_match_hf() -> None:
    assert _check(_table_code_points() + _all_code_points(211)) == []


def test_multi_character_sequences_match_hf() -> None:
    from tokenizers.normalizers import BertNormalizer as HfNormalizer

    texts = ["e\u0301\u0316", "\U0001D165\u0301\U0001D16D", "İSTANBUL ΣΑΣ", "한국어 中文 ﬁ", "a\u200bb\x00c\ufffd d\u3000e", "豈\u0301"]
    for config in CONFIGS:
        hf, ours = HfNormalizer(**config), BertNormalizer(**config)
        for text in texts:
            assert ours.normalize(text) == hf.normalize_str(text), (config, text)
            norm, align = ours.normalize_aligned(text)
            assert norm == hf.normalize_str(text) and len(align) == len(norm)


@pytest.mark.slow
def test_every_code_point_matches_hf() -> None:
    assert _check(_all_code_points(1)) == []


def test_no_punctuation_is_alphanumeric() -> None:
    """bert_words_spaced passes chunks with str.isalnum() through unsplit; that needs this."""
    assert not [hex(cp) for lo, hi in tables.PUNCT_RANGES for cp in range(lo, hi + 1) if chr(cp).isalnum()]


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=60))
def test_spaced_split_equals_the_regex_split_on_cleaned_text(text: str) -> None:
    norm = BertNormalizer().normalize(text)
    assert bert_words_spaced(norm) == bert_words(norm)
