"""PrecompiledCharsmap: every built-in SentencePiece rule set, applied as SentencePiece applies it
(oracle: ``sentencepiece.SentencePieceNormalizer``), plus the shortest-prefix lookup Hugging Face's
``Precompiled`` normalizer makes, and clear errors for broken blobs."""

from __future__ import annotations

import io
import struct
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe_engine.errors import ConfigError
from bpe_engine.sentencepiece import PrecompiledCharsmap, parse_model_bytes
from tests.oracles import require

spm = require("sentencepiece")

RULES = ("nmt_nfkc", "nfkc", "nmt_nfkc_cf", "nfkc_cf", "identity")


@cache
def charsmap_blob(rule: str) -> bytes:
    """The charsmap SentencePiece writes into a model trained with ``rule``."""
    buffer = io.BytesIO()
    spm.SentencePieceTrainer.train(
        sentence_iterator=iter(["a b c d e f g h i j k l m n o p"] * 20), model_writer=buffer, vocab_size=30,
        normalization_rule_name=rule, minloglevel=2, num_threads=1, model_type="char",
    )
    return parse_model_bytes(buffer.getvalue()).normalizer.charsmap


@cache
def pair(rule: str) -> tuple[PrecompiledCharsmap, object]:
    return PrecompiledCharsmap.from_bytes(charsmap_blob(rule)), spm.SentencePieceNormalizer(rule_name=rule)


_CHARS = st.one_of(
    st.characters(codec="utf-8", exclude_characters="\x00"),
    st.sampled_from(["e\u0301", "A\u0300\u0316", "\u1100\u1161\u11a8", "\u1100", "\u1161", "\u11a8", "ｶﾞ", "ﾞ", "①", "㈜", "ﬁ"]),
    st.sampled_from(["\u00a8", "\u3000", "\t", "\n", "\r", " ", "  ", "\u200b", "\u00ad", "\U0001d400", "\U0002f800"]),
)


@pytest.mark.parametrize("rule", RULES)
def test_whole_corpora_normalize_like_sentencepiece(rule, alice_text, korean_text):
    ours, ref = pair(rule)
    text = alice_text[:30000] + korean_text[:10000] + "ＡＢＣ ｶﾞｷﾞ ① ㈜ ﬁ e\u0301 \u1100\u1161\u11a8 \U0001d400"
    assert ours.normalize(text) == ref.normalize(text)
    assert "".join(unit[2] for unit in ours.units(text)) == ref.normalize(text)
    assert ours.is_identity == (rule == "identity")


@settings(max_examples=300)
@given(rule=st.sampled_from(RULES), text=st.lists(_CHARS, max_size=20).map("".join))
def test_hypothesis_text_normalizes_like_sentencepiece(rule, text):
    ours, ref = pair(rule)
    assert ours.normalize(text) == ref.normalize(text)
    assert "".join(unit[2] for unit in ours.units(text)) == ref.normalize(text)


_LINE_CHARS = st.one_of(_CHARS.filter(lambda c: "\n" not in c), st.sampled_from([" ", "  ", "\t", "\u3000", "▁"]))


@settings(max_examples=200)
@given(
    rule=st.sampled_from(RULES),
    lines=st.lists(st.lists(_LINE_CHARS, max_size=12).map("".join), max_size=8),
    options=st.tuples(st.booleans(), st.booleans(), st.booleans()),
)
def test_lines_normalized_together_equal_each_line_normalized_alone(rule, lines, options):
    from bpe_engine.sentencepiece.model_proto import NormalizerSettings
    from bpe_engine.sentencepiece.spec_normalizer import SpecNormalizer

    prefix, remove, suffix = options
    settings_ = NormalizerSettings(rule, charsmap_blob(rule), prefix, remove, True)
    normalizer = SpecNormalizer(settings_, treat_whitespace_as_suffix=suffix)
    assert normalizer.normalize_lines(lines) == [normalizer.normalize(line) for line in lines]
    charsmap = pair(rule)[0]
    assert charsmap.normalize_lines(lines) == [charsmap.normalize(line) for line in lines]


def test_units_are_longest_matches_and_cover_the_input():
    ours, _ref = pair("nfkc")
    units = list(ours.units("xe\u0301①"))
    assert units == [(0, 1, "x"), (1, 3, "é"), (3, 4, "1")]


def test_transform_is_the_shortest_prefix_rule_as_hugging_face_looks_it_up():
    tokenizers = require("tokenizers")
    blob = charsmap_blob("nmt_nfkc")
    ours = PrecompiledCharsmap.from_bytes(blob)
    hf = tokenizers.normalizers.Precompiled(blob)
    for ch in ["①", "ﬁ", "Ａ", "a", "\u3000", "\x07", "한", "e"]:
        found = ours.transform(ch)
        assert (ch if found is None else found) == hf.normalize_str(ch)
    # The shortest rule wins in this lookup; SentencePiece's own scan takes the longest.
    assert ours.transform("ｶﾞ") == "カ" and ours.match("ｶﾞ", 0) == (2, "ガ")
    assert ours.transform("e\u0301") == "é" and ours.transform("") is None


def test_broken_blobs_say_what_is_wrong():
    with pytest.raises(ConfigError, match="shorter than its 4-byte header"):
        PrecompiledCharsmap.from_bytes(b"\x01\x02")
    with pytest.raises(ConfigError, match="claims"):
        PrecompiledCharsmap.from_bytes(struct.pack("<I", 4096) + b"\0" * 16)
    with pytest.raises(ConfigError, match="multiple of 1024"):
        PrecompiledCharsmap.from_bytes(struct.pack("<I", 100) + b"\0" * 200)
    with pytest.raises(ConfigError, match="NUL-terminated"):
        PrecompiledCharsmap.from_bytes(struct.pack("<I", 1024) + b"\0" * 1024 + b"abc")


def test_a_trie_of_garbage_never_crashes_or_reads_out_of_range():
    blob = struct.pack("<I", 1024) + bytes(range(256)) * 4 + b"x\0"
    charsmap = PrecompiledCharsmap.from_bytes(blob)
    text = "".join(map(chr, range(1, 400)))
    assert isinstance(charsmap.normalize(text), str)
