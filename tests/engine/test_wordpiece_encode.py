"""WordPiece encoding: ids, offsets and decoding identical to Hugging Face's BertWordPieceTokenizer."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe_engine.compare import row_stats
from bpe_engine.errors import ConfigError, SpecialTokenError
from bpe_engine.types import Tokenizer
from bpe_engine.wordpiece import WordPieceTokenizer, bert_base_uncased
from tests.oracles import require

tokenizers = require("tokenizers")
VOCAB = Path(__file__).parents[2] / "bpe_engine" / "data" / "bert-base-uncased-vocab.txt"


@pytest.fixture(scope="module")
def bert() -> WordPieceTokenizer:
    return bert_base_uncased()


@pytest.fixture(scope="module")
def hf():
    return tokenizers.BertWordPieceTokenizer(str(VOCAB), lowercase=True)


@pytest.fixture(scope="module")
def hf_plain():
    """HF's BERT pipeline without added tokens: ``[CLS]`` in text is ordinary text."""
    from tokenizers import Tokenizer as HfTokenizer
    from tokenizers import models, normalizers, pre_tokenizers

    tok = HfTokenizer(models.WordPiece.from_file(str(VOCAB), unk_token="[UNK]"))
    tok.normalizer = normalizers.BertNormalizer(lowercase=True)
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    return tok


def assert_same(bert: WordPieceTokenizer, hf, text: str) -> None:
    for add in (False, True):
        ours = bert.encode_offsets(text, special_mode="special", add_special_tokens=add)
        theirs = hf.encode(text, add_special_tokens=add)
        assert [t for t, _, _ in ours] == theirs.ids, text
        assert [(s, e) for _, s, e in ours] == theirs.offsets, text


def test_known_pieces(bert: WordPieceTokenizer) -> None:
    assert [bert.token_str(i) for i in bert.encode("unaffable", add_special_tokens=False)] == ["una", "##ffa", "##ble"]
    assert [bert.token_str(i) for i in bert.encode("한", add_special_tokens=False)] == ["ᄒ", "##ᅡ", "##ᆫ"]
    assert bert.encode("hello") == [101, 7592, 102], "[CLS] ... [SEP] by default, as HF's BERT tokenizer"
    assert bert.capabilities.adds_specials
    assert bert.vocab_size == 30522 and bert.unk_id == 100
    assert isinstance(bert, Tokenizer)


def test_english_corpus_matches_hf(bert, hf, alice_text: str) -> None:
    lines = [line for line in alice_text.splitlines() if line.strip()]
    for line in lines[:1500]:
        assert_same(bert, hf, line)
    assert bert.encode(alice_text[:20000], special_mode="special") == hf.encode(alice_text[:20000]).ids  # both defaults


def test_korean_corpus_matches_hf(bert, hf, korean_text: str) -> None:
    for line in korean_text.splitlines():
        assert_same(bert, hf, line)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=40))
def test_any_text_matches_hf(bert, hf, text: str) -> None:
    assert_same(bert, hf, text)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["[CLS]", "[SEP]", "[MASK]", "[unk]", "Ünaffable", "한국", "e\u0301", "中", " ", "!", "x" * 60, "ǅ", "İ", "\t", "\x00"]), max_size=8))
def test_special_tokens_and_accents_match_hf(bert, hf, hf_plain, parts: list[str]) -> None:
    text = "".join(parts)
    assert_same(bert, hf, text)
    assert bert.encode(text, special_mode="text", add_special_tokens=False) == hf_plain.encode(text, add_special_tokens=False).ids


def test_long_word_and_unknown_piece_become_one_unk(bert) -> None:
    assert bert.encode("a" * 101, add_special_tokens=False) == [bert.unk_id]
    assert bert.encode("a" * 100, add_special_tokens=False) != [bert.unk_id]
    assert bert.encode("hello \U0001F9D9world", add_special_tokens=False) == [7592, bert.unk_id]


def test_special_modes(bert) -> None:
    assert bert.encode("[CLS] hi", special_mode="special", add_special_tokens=False) == [101, 7632]
    assert 101 not in bert.encode("[CLS] hi", special_mode="text", add_special_tokens=False)
    assert bert.encode("[CLS] hi") == bert.encode("[CLS] hi", special_mode="text")  # DEFAULT_SPECIAL_MODE
    with pytest.raises(SpecialTokenError, match="mode 'special'"):
        bert.encode("[CLS] hi", special_mode="refuse")
    with pytest.raises(ConfigError):
        bert.encode("hi", special_mode="nope")  # type: ignore[arg-type]


def test_byte_spans_are_in_the_original_utf8(bert) -> None:
    text = "Çafé 한!"
    enc = bert.encode_detailed(text, add_special_tokens=True)
    raw = text.encode("utf-8")
    pieces = [raw[s:e].decode() for s, e in enc.byte_spans]
    assert enc.tokens == ("[CLS]", "cafe", "ᄒ", "##ᅡ", "##ᆫ", "!", "[SEP]")
    assert pieces == ["", "Çafé", "한", "한", "한", "!", ""]
    assert enc.special == (True, False, False, False, False, False, True)


def test_decode_matches_hf(bert, hf, alice_text: str) -> None:
    for line in alice_text.splitlines()[100:400]:
        ids = hf.encode(line).ids
        assert bert.decode(ids) == hf.decode(ids)  # both leave the special tokens out by default
        assert bert.decode(ids, skip_special_tokens=False) == hf.decode(ids, skip_special_tokens=False)
    assert bert.decode(bert.encode("unaffable")) == "unaffable"
    assert bert.decode([10**6]) == "\ufffd"
    with pytest.raises(ConfigError):
        bert.decode([10**6], errors="strict")


def test_token_bytes_drop_the_prefix(bert) -> None:
    assert bert.token_bytes(bert.token_to_id("##ing")) == b"ing"
    assert bert.token_bytes(101) == b"[CLS]"
    assert bert.token_str(2075) == "##ing"


def test_stats_show_korean_falling_apart(bert, korean_text: str, alice_text: str) -> None:
    def stats(text: str):  # noqa: ANN202 - the text's own tokens, without [CLS] and [SEP]
        return row_stats(bert.encode_detailed(text, add_special_tokens=False))

    assert stats(korean_text[:3000]).tokens_per_word > 2 * stats(alice_text[:3000]).tokens_per_word
    assert stats("hello \U0001F9D9 world").unk_rate == pytest.approx(1 / 3)
    assert stats("unaffable").tokens_per_word == 3.0
    added = row_stats(bert.encode_detailed("unaffable"))
    assert (added.tokens, added.added_tokens, added.special_tokens) == (3, 2, 0), "[CLS] and [SEP] counted beside the text's own"



def test_constructor_rejects_a_vocab_without_unk() -> None:
    with pytest.raises(ConfigError, match="UNK"):
        WordPieceTokenizer(["a", "##b"])
