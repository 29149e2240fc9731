"""BpeTokenizer on hand-built merge lists and on the references: merges, ids, specials, decode, spans."""

from __future__ import annotations

import functools

import pytest
import tiktoken
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe_engine.bpe.model import BpeTokenizer
from bpe_engine.bpe.naive_encode import encode_with_merges
from bpe_engine.catalog.openai import load_reference, reference_ranks
from bpe_engine.core.byte_table import BYTE_TO_CHAR
from bpe_engine.errors import ConfigError, CorpusError, SpecialTokenError
from bpe_engine.pretokenizers import END_OF_WORD, GPT2, NONE, WHITESPACE
from bpe_engine.types import Tokenizer

BYTE_VOCAB = {BYTE_TO_CHAR[b]: b for b in range(256)}  # ids = byte values, as in minbpe


def byte_tokenizer(merges: list[tuple[str, str]], **kw: object) -> BpeTokenizer:
    """A byte-level merge list whose new tokens get ids 256, 257, ... (shared when a merge
    spells a string that already has an id, like HF's trainer)."""
    vocab = dict(BYTE_VOCAB)
    for left, right in merges:
        vocab.setdefault(left + right, len(vocab))
    kw.setdefault("pre_tokenizer", GPT2)
    return BpeTokenizer(name="tiny", vocab=vocab, merges=merges, byte_level=True, **kw)  # type: ignore[arg-type]


def test_minbpe_golden() -> None:
    """minbpe's test: "aaabdaaabac" trained for 3 merges encodes to [258, 100, 258, 97, 99]."""
    tok = byte_tokenizer([("a", "a"), ("aa", "a"), ("aaa", "b")], pre_tokenizer=NONE)
    assert isinstance(tok, Tokenizer)
    assert tok.encode("aaabdaaabac") == [258, 100, 258, 97, 99]
    assert tok.decode([258, 100, 258, 97, 99]) == "aaabdaaabac"
    assert tok.with_backend("python").encode("aaabdaaabac") == [258, 100, 258, 97, 99]


def test_merge_rank_not_byte_rank_and_shared_ids() -> None:
    """Two merges spell "abc": they share one id; the lowest *merge* applies first."""
    merges = [("b", "c"), ("a", "b"), ("a", "bc"), ("ab", "c")]
    tok = byte_tokenizer(merges)
    abc = tok.id_of("abc")
    assert abc == 258 and tok.vocab_size == 259
    assert tok.encode("abc") == [abc]  # b+c first (rank 0), then a+bc (rank 2)
    assert tok.encode("ab") == [tok.id_of("ab")]
    assert tok.token_str(abc) == "abc" and tok.merges == merges


def test_merge_list_without_a_bridging_merge_stops() -> None:
    """(b, c) before (a, b) and no (a, bc): "abc" stays [a, bc] even though "abc" is a token --
    the merge-list rule, unlike tiktoken's byte-rank rule."""
    tok = byte_tokenizer([("b", "c"), ("a", "b"), ("ab", "c")])
    assert tok.encode("abc") == [ord("a"), tok.id_of("bc")]
    assert tok.encode("abd") == [tok.id_of("ab"), ord("d")]


def test_end_of_word_char_level() -> None:
    vocab = {c: i for i, c in enumerate(["l", "o", "w", "e", "r", "w</w>", "r</w>"])}
    merges = [("l", "o"), ("lo", "w</w>"), ("e", "r</w>"), ("lo", "w"), ("low", "er</w>")]
    for left, right in merges:
        vocab[left + right] = len(vocab)
    tok = BpeTokenizer(name="eow", vocab=vocab, merges=merges, pre_tokenizer=END_OF_WORD, byte_level=False)
    ids = tok.encode("low lower")
    assert [tok.token_str(i) for i in ids] == ["low</w>", "lower</w>"]
    assert tok.decode(ids) == "low lower"
    assert tok.encode("lowlow") == [vocab["low"], vocab["low</w>"]]
    detailed = tok.encode_detailed("low  lower")
    assert detailed.byte_spans == ((0, 3), (5, 10))
    assert tok.decode_with_offsets(ids) == ("low lower", [0, 4])
    prefix = tok.with_merge_prefix(3)
    assert [prefix.token_str(i) for i in prefix.encode("lower")] == ["lo", "w", "er</w>"]
    assert "lower</w>" not in prefix.vocab and "er</w>" in prefix.vocab


def test_whitespace_char_level_spans_and_decode() -> None:
    vocab = {"▁": 0, "h": 1, "i": 2, "é": 3, "▁h": 4, "▁hi": 5}
    tok = BpeTokenizer(
        name="sp", vocab=vocab, merges=[("▁", "h"), ("▁h", "i")], pre_tokenizer=WHITESPACE, byte_level=False
    )
    enc = tok.encode_detailed("hi hié")
    assert enc.tokens == ("▁hi", "▁hi", "é")
    assert enc.byte_spans == ((0, 2), (2, 5), (5, 7))  # the prepended ▁ covers no text
    assert tok.decode(list(enc.ids)) == "hi hié"
    assert tok.decode_with_offsets(list(enc.ids)) == ("hi hié", [0, 2, 5])


def test_unknown_character_raises_or_uses_unk() -> None:
    vocab = {"a": 0, "b": 1, "<unk>": 2}
    strict = BpeTokenizer(name="ab", vocab=vocab, merges=[], pre_tokenizer=NONE, byte_level=False)
    with pytest.raises(CorpusError, match=r"character 'z' \(U\+007A\).*unknown token"):
        strict.encode("abz")
    lenient = BpeTokenizer(name="ab", vocab=vocab, merges=[], pre_tokenizer=NONE, byte_level=False, unk_token="<unk>")
    assert lenient.encode("azb") == [0, 2, 1]
    assert lenient.encode_detailed("aé").byte_spans == ((0, 1), (1, 3))


def test_byte_level_alphabet_of_seen_bytes_only() -> None:
    vocab = {BYTE_TO_CHAR[b]: i for i, b in enumerate(b"ab ")}
    tok = BpeTokenizer(name="seen", vocab=vocab, merges=[], pre_tokenizer=GPT2, byte_level=True)
    assert tok.encode("ab ba") == [0, 1, 2, 1, 0]
    with pytest.raises(CorpusError, match="byte 0x63.*256-byte alphabet"):
        tok.encode("abc")
    assert tok.tiktoken_status()[0] is None


@pytest.mark.parametrize(
    ("vocab", "merges", "message"),
    [
        ({"a": 0, "b": 1}, [("a", "b")], "'ab' is not in the vocabulary"),
        ({"a": 0, "b": 0}, [], "ids must be unique"),
        ({"a": 0, "b": 1}, [], "special token '<s>' has id 1, which vocabulary token 'b' already uses"),
    ],
)
def test_inconsistent_models_are_config_errors(vocab: dict[str, int], merges: list[tuple[str, str]], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        BpeTokenizer(
            name="bad", vocab=vocab, merges=merges, pre_tokenizer=NONE, byte_level=False, special_tokens={"<s>": 1}
        )


def test_pair_listed_twice_keeps_its_last_rank_like_hf() -> None:
    """HF builds its merge map with later entries overwriting earlier ones."""
    merges = [("a", "b"), ("b", "c"), ("a", "b")]
    tok = byte_tokenizer(merges, pre_tokenizer=NONE, backend="python")
    assert tok.encode("abc") == [ord("a"), tok.id_of("bc")]  # (a, b) now ranks after (b, c)
    assert tok.merges == merges
    assert encode_with_merges([list("abc")], tok.vocab, merges) == tok.encode("abc")


# -- special tokens ------------------------------------------------------------------------------
def test_special_modes_like_tiktoken() -> None:
    tok = load_reference("cl100k_base").with_backend("python")
    text = "a<|endoftext|>b<|fim_prefix|>"
    with pytest.raises(SpecialTokenError, match=r"'<\|endoftext\|>'.*mode 'special'"):
        tok.encode(text, special_mode="refuse")
    with pytest.raises(SpecialTokenError, match="mode 'text'"):
        tok.encode_detailed(text, special_mode="refuse")
    as_text = tok.encode(text, special_mode="text")
    assert tok.encode(text) == as_text and tok.encode_detailed(text).ids == tuple(as_text)  # DEFAULT_SPECIAL_MODE
    assert 100257 not in as_text and tok.decode(as_text) == text
    assert tok.encode(text, special_mode="special") == [64, 100257, 65, 100258]
    assert tok.encode(text, allowed_special={"<|endoftext|>"}, disallowed_special=()) == [64, 100257, 65] + tok.encode(
        "<|fim_prefix|>", special_mode="text"
    )
    with pytest.raises(SpecialTokenError, match="fim_prefix"):
        tok.encode(text, allowed_special={"<|endoftext|>"})
    assert tok.encode_ordinary(text) == as_text
    with pytest.raises(ConfigError, match="not a special token"):
        tok.encode("x", allowed_special={"<|im_start|>"})
    with pytest.raises(ConfigError, match="special_mode"):
        tok.encode("x", special_mode="maybe")  # type: ignore[arg-type]


def test_encode_detailed_special_flags_and_spans() -> None:
    tok = load_reference("gpt2").with_backend("python")
    enc = tok.encode_detailed("한 <|endoftext|>!", special_mode="special")
    assert enc.ids == (47991, 250, 220, 50256, 0)
    assert enc.byte_spans == ((0, 2), (2, 3), (3, 4), (4, 17), (17, 18))
    assert enc.special == (False, False, False, True, False)
    assert enc.tokens[2:4] == ("Ġ", "<|endoftext|>")


# -- decoding ------------------------------------------------------------------------------------
def test_decode_errors_and_token_lookups() -> None:
    tok = load_reference("gpt2")
    assert tok.decode([47991]) == "\ufffd"
    with pytest.raises(UnicodeDecodeError):
        tok.decode([47991], errors="strict")
    assert tok.token_str(995) == "Ġworld" and tok.token_bytes(995) == b" world"
    assert tok.id_of("Ġworld") == 995 and tok.id_of("<|endoftext|>") == 50256 and tok.id_of("ĠĠnope") is None
    assert tok.token_str(50256) == "<|endoftext|>"
    with pytest.raises(ConfigError, match="not in tokenizer 'gpt2'"):
        tok.decode([50257])
    with pytest.raises(ConfigError, match="not in tokenizer"):
        tok.token_str(-2)
    with pytest.raises(ConfigError, match="unknown piece"):
        tok.token_str(-1)


@functools.cache
def plain_tiktoken(name: str) -> tiktoken.Encoding:
    pattern = load_reference(name).pre_tokenizer.pattern
    return tiktoken.Encoding(name, pat_str=pattern, mergeable_ranks=reference_ranks(name), special_tokens={})


@pytest.mark.parametrize("name", ["gpt2", "cl100k_base"])
@settings(max_examples=150, deadline=None)
@given(text=st.text(alphabet=st.sampled_from(list("ab 한🙂é\n'sS1")), max_size=30))
def test_offsets_and_spans_match_tiktoken(name: str, text: str) -> None:
    tok = load_reference(name).with_backend("python")
    theirs = plain_tiktoken(name)
    ids = tok.encode(text)
    assert tok.decode_with_offsets(ids) == theirs.decode_with_offsets(ids)
    assert tok.decode_tokens_bytes(ids) == theirs.decode_tokens_bytes(ids)
    enc = tok.encode_detailed(text)
    data = text.encode()
    assert [data[s:e] for s, e in enc.byte_spans] == tok.decode_tokens_bytes(ids)


# -- merge prefixes --------------------------------------------------------------------------------
@pytest.mark.parametrize("k", [0, 1, 50, 5000])
def test_rank_table_prefix_equals_truncated_tiktoken(k: int, alice_text: str) -> None:
    tok = load_reference("gpt2").with_backend("python")
    prefix = tok.with_merge_prefix(k)
    ranks = {t: r for t, r in reference_ranks("gpt2").items() if r < 256 + k}
    truncated = tiktoken.Encoding("t", pat_str=tok.pre_tokenizer.pattern, mergeable_ranks=ranks, special_tokens={})
    text = alice_text[:3000] + " 한국어 🙂"
    assert prefix.encode(text) == truncated.encode(text)
    assert prefix.merge_count == k and len(prefix.merges) == k and len(prefix.vocab) == 256 + k
    assert prefix.tiktoken_status()[0] is None  # prefixes always run the pure-Python encoder


def test_merge_list_prefix_equals_shorter_merge_list() -> None:
    merges = [("a", "a"), ("aa", "a"), ("aaa", "b"), ("b", "d")]
    full = byte_tokenizer(merges)
    for k in range(len(merges) + 1):
        shorter = byte_tokenizer(merges[:k])
        assert full.with_merge_prefix(k).encode("aaabdaaabac bd") == shorter.encode("aaabdaaabac bd")
        assert full.with_merge_prefix(k).vocab == shorter.vocab
    assert full.with_merge_prefix(99).merge_count == 4
    with pytest.raises(ConfigError):
        full.with_merge_prefix(-1)


# -- the naive oracle ----------------------------------------------------------------------------
MERGES = [("b", "c"), ("a", "b"), ("a", "bc"), ("ab", "c"), ("c", "c"), ("cc", "cc"), ("ab", "ab"), ("a", "a")]


@settings(max_examples=200, deadline=None)
@given(text=st.text(alphabet="abc d", max_size=300))
def test_fast_merge_encoder_equals_naive_oracle(text: str) -> None:
    """Short pieces (list algorithm) and long ones (heap) both equal the quadratic oracle."""
    tok = byte_tokenizer(MERGES, pre_tokenizer=NONE, backend="python")
    pieces = [[BYTE_TO_CHAR[b] for b in text.encode()]] if text else []
    assert tok.encode(text) == encode_with_merges(pieces, tok.vocab, MERGES)


def test_byte_level_over_marked_pieces_maps_spans_and_decodes() -> None:
    """Byte-level BPE on ▁-marked pieces: the 3-byte ▁ stands for a 1-byte space (or nothing)."""
    merges = [("â", "ĸ"), ("âĸ", "ģ"), ("âĸģ", "h")]  # UTF-8 of ▁ is e2 96 81 = "âĸģ"
    tok = byte_tokenizer(merges, pre_tokenizer=WHITESPACE)
    enc = tok.encode_detailed("hi hi")
    assert enc.tokens == ("âĸģh", "i", "âĸģh", "i")
    assert enc.byte_spans == ((0, 1), (1, 2), (2, 4), (4, 5))
    assert tok.decode(list(enc.ids)) == "hi hi"


def test_special_may_share_its_id_with_its_own_vocab_entry() -> None:
    """HF lists specials in the vocab too; that is the same token, not a clash."""
    tok = BpeTokenizer(
        name="hf", vocab={"<s>": 0, "a": 1}, merges=[], pre_tokenizer=NONE, byte_level=False, special_tokens={"<s>": 0}
    )
    assert tok.encode("<s>a", special_mode="special") == [0, 1]
    assert tok.vocab_size == 2
    assert tok.mergeable_ranks is None
    assert load_reference("gpt2").mergeable_ranks is reference_ranks("gpt2")
