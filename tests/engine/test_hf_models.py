"""HF models from tokenizer.json -- BPE with each option, WordPiece, WordLevel -- against HF."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

from bpe_engine.bpe.encode import merge_pair_ranks
from bpe_engine.hf.bpe import HfBpeModel
from tests.hf_oracle import TRICKY, assert_parity, ours, texts


def _trained(alice_text: str, korean_text: str, model, trainer, pre) -> Tokenizer:  # type: ignore[no-untyped-def]
    tok = Tokenizer(model)
    tok.pre_tokenizer = pre
    tok.train_from_iterator([alice_text[:20000], korean_text[:6000]], trainer)
    return tok


@pytest.fixture(scope="module")
def bpe_variants(alice_text: str, korean_text: str) -> dict[str, Tokenizer]:
    ws = pre_tokenizers.Whitespace()
    out = {
        "prefix": _trained(alice_text, korean_text, models.BPE(unk_token="[UNK]", continuing_subword_prefix="##"),
                           trainers.BpeTrainer(vocab_size=600, special_tokens=["[UNK]"], continuing_subword_prefix="##"), ws),
        "suffix": _trained(alice_text, korean_text, models.BPE(unk_token="[UNK]", end_of_word_suffix="</w>"),
                           trainers.BpeTrainer(vocab_size=600, special_tokens=["[UNK]"], end_of_word_suffix="</w>"), ws),
        "unk": _trained(alice_text, korean_text, models.BPE(unk_token="[UNK]"),
                        trainers.BpeTrainer(vocab_size=400, special_tokens=["[UNK]"], limit_alphabet=40), ws),
        "fuse_unk": _trained(alice_text, korean_text, models.BPE(unk_token="[UNK]", fuse_unk=True),
                             trainers.BpeTrainer(vocab_size=400, special_tokens=["[UNK]"], limit_alphabet=40), ws),
        "no_unk": _trained(alice_text, korean_text, models.BPE(),
                           trainers.BpeTrainer(vocab_size=400, limit_alphabet=40), ws),
    }
    # byte fallback: <0xNN> tokens for every byte, a small alphabet so most characters fall back
    fallback = _trained(alice_text, korean_text, models.BPE(unk_token="<unk>", byte_fallback=True),
                        trainers.BpeTrainer(vocab_size=700, special_tokens=["<unk>"] + [f"<0x{b:02X}>" for b in range(256)],
                                            limit_alphabet=60), pre_tokenizers.Metaspace())
    fallback.decoder = decoders.Sequence([decoders.Metaspace(), decoders.ByteFallback(), decoders.Fuse()])
    out["byte_fallback"] = fallback
    ignore = _trained(alice_text, korean_text, models.BPE(ignore_merges=True),
                      trainers.BpeTrainer(vocab_size=800, initial_alphabet=pre_tokenizers.ByteLevel.alphabet()),
                      pre_tokenizers.ByteLevel(add_prefix_space=False))
    ignore.decoder = decoders.ByteLevel()
    out["ignore_merges"] = ignore
    return out


@pytest.mark.parametrize("variant", ["prefix", "suffix", "unk", "fuse_unk", "no_unk", "byte_fallback", "ignore_merges"])
def test_bpe_options_equal_hf(variant: str, bpe_variants: dict[str, Tokenizer], alice_text: str, korean_text: str) -> None:
    hf = bpe_variants[variant]
    tok = ours(hf)
    assert tok.encode(alice_text, special_mode="special") == hf.encode(alice_text).ids
    assert tok.encode(korean_text, special_mode="special") == hf.encode(korean_text).ids
    for text in [*TRICKY, alice_text[5000:6500], korean_text[2000:2600]]:
        assert_parity(hf, tok, text)


@settings(max_examples=40)
@given(texts)
def test_bpe_options_on_any_text(bpe_variants: dict[str, Tokenizer], text: str) -> None:
    for variant in ("prefix", "fuse_unk", "byte_fallback", "ignore_merges"):
        hf = bpe_variants[variant]
        assert_parity(hf, _cached(variant, hf), text)


_OURS: dict[str, object] = {}


def _cached(name: str, hf: Tokenizer):  # type: ignore[no-untyped-def]
    return _OURS.setdefault(name, ours(hf))


def test_wordpiece_and_wordlevel_equal_hf(alice_text: str, korean_text: str) -> None:
    wp = _trained(alice_text, korean_text, models.WordPiece(unk_token="[UNK]", max_input_chars_per_word=12),
                  trainers.WordPieceTrainer(vocab_size=500, special_tokens=["[UNK]"]), pre_tokenizers.BertPreTokenizer())
    wp.decoder = decoders.WordPiece()
    wl = _trained(alice_text, korean_text, models.WordLevel(unk_token="[UNK]"),
                  trainers.WordLevelTrainer(vocab_size=500, special_tokens=["[UNK]"]), pre_tokenizers.Whitespace())
    for hf in (wp, wl):
        tok = ours(hf)
        assert tok.encode(alice_text, special_mode="special") == hf.encode(alice_text).ids
        for text in [*TRICKY, alice_text[:1500], korean_text[:500]]:
            assert_parity(hf, tok, text)


def test_wordlevel_without_unk_fails_like_hf() -> None:
    hf = Tokenizer(models.WordLevel({"a": 0}, unk_token="[UNK]"))
    hf.pre_tokenizer = pre_tokenizers.Whitespace()
    with pytest.raises(Exception, match="(?i)unk"):
        hf.encode("b")
    from bpe_engine.errors import ConfigError

    with pytest.raises(ConfigError, match="WordLevel"):
        ours(hf).encode("b")


@settings(max_examples=200)
@given(st.lists(st.integers(0, 5), max_size=40))
def test_offset_merge_loop_gives_the_shared_loops_ids(symbols: list[int]) -> None:
    """``HfBpeModel.tokenize`` runs its own loop to keep lengths; it must agree with bpe_encode's."""
    vocab = {c: i for i, c in enumerate("abcdef")}
    merges = [("a", "b"), ("b", "c"), ("ab", "c"), ("c", "c"), ("a", "a"), ("aa", "ab"), ("cc", "cc"), ("e", "f")]
    for left, right in merges:
        vocab.setdefault(left + right, len(vocab))
    model = HfBpeModel(vocab, merges)
    piece = "".join("abcdef"[s] for s in symbols)
    ids = [vocab[c] for c in piece]
    expected = merge_pair_ranks(ids, model.pair_rank, model.new_id, model.stride) if len(ids) > 1 else ids
    assert [i for i, _, _ in model.tokenize(piece)] == list(expected) == list(model.encode_piece(piece))


def test_unknown_pieces_are_flagged_and_explained() -> None:
    from bpe_engine.errors import ConfigError
    from bpe_engine.types import UNKNOWN_ID

    with_unk = Tokenizer(models.BPE({"a": 0, "b": 1, "[UNK]": 2}, [], unk_token="[UNK]", fuse_unk=True))
    enc = ours(with_unk).encode_detailed("abxyb")
    assert enc.ids == tuple(with_unk.encode("abxyb").ids) == (0, 1, 2, 1)
    assert enc.unknown == (False, False, True, False) and enc.tokens[2] == "xy"
    assert "unknown token '[UNK]'" in enc.notes[0]
    dropping = Tokenizer(models.BPE({"a": 0, "b": 1}, []))
    enc = ours(dropping).encode_detailed("axb")
    assert enc.ids == tuple(dropping.encode("axb").ids) == (0, 1)
    assert "1 character(s)" in enc.notes[0] and "leaves them out" in enc.notes[0]
    no_unk = Tokenizer(models.WordLevel({"a": 0}, unk_token="[UNK]"))
    no_unk.pre_tokenizer = pre_tokenizers.Whitespace()
    tok = ours(no_unk)
    assert tok.encode_detailed("a b").ids == (0, UNKNOWN_ID) and tok.encode_detailed("a b").unknown == (False, True)
    with pytest.raises(ConfigError, match="WordLevel"):
        tok.encode("a b")
    for bad in ([UNKNOWN_ID], [-5], [10**9]):
        with pytest.raises(ConfigError, match="id"):
            tok.decode(bad)
