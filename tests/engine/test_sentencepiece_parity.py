"""SentencePiece models trained here, every configuration: ids, pieces, spans and decode equal
``sentencepiece``'s on the test corpora, whole and line by line, and on hypothesis text."""

from __future__ import annotations

from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe_engine.sentencepiece import load_model
from tests.oracles import require
from tests.sentencepiece_builds import CONFIGS, corpus_slice, sp_builds  # noqa: F401 - the fixture

spm = require("sentencepiece")


@cache
def _pair(path: str):
    return load_model(path), spm.SentencePieceProcessor(model_file=path)


@pytest.fixture(params=sorted(CONFIGS))
def pair(request, sp_builds):  # noqa: F811 - pytest fixture injection
    return _pair(str(sp_builds[request.param].path))


def test_corpus_lines_and_whole_texts_match_sentencepiece(pair, alice_text, korean_text):
    ours, ref = pair
    lines = [line for line in (alice_text + "\n" + korean_text).splitlines()]
    expected = ref.encode(lines)
    mismatches = [line for line, ids in zip(lines, expected, strict=True) if ours.encode(line) != ids]
    assert mismatches == []
    for whole in (alice_text[:40000], korean_text[:20000], corpus_slice()[-3000:]):
        ids = ref.encode(whole)
        assert ours.encode(whole) == ids
        assert [ours.token_str(i) for i in ids] == [ref.id_to_piece(i) for i in ids]
        assert ours.decode(ids) == ref.decode(ids)


def test_detailed_spans_are_sentencepiece_spans(pair, alice_text, korean_text):
    ours, ref = pair
    for text in [*alice_text.splitlines()[200:400], *korean_text.splitlines()[:150], "  ① ﬁ ＡＢ  e\u0301  한국어 \x07 "]:
        proto = ref.encode_as_immutable_proto(text)
        encoding = ours.encode_detailed(text)
        assert list(encoding.ids) == [p.id for p in proto.pieces]
        assert list(encoding.byte_spans) == _expected_spans(ours, text, proto)


def _expected_spans(ours, text: str, proto) -> list[tuple[int, int]]:
    """SentencePiece's begin/end (its Python API gives characters; we give UTF-8 bytes), except
    that byte pieces of a character left as it was get one byte each (ours is finer there)."""
    raw = text.encode("utf-8")
    byte_at = [len(text[:i].encode("utf-8")) for i in range(len(text) + 1)]
    spans = [(byte_at[p.begin], byte_at[p.end]) for p in proto.pieces]
    out = list(spans)
    i = 0
    while i < len(spans):
        if ours.piece_type(proto.pieces[i].id).name != "BYTE":
            i += 1
            continue
        j = i
        while spans[j] == (spans[i][0], spans[i][0]) and j + 1 < len(spans):
            j += 1
        begin, end = spans[j]
        group = range(i, j + 1)
        data = bytes(int(proto.pieces[k].piece[3:5], 16) for k in group)
        if raw[begin:end] == data:
            for n, k in enumerate(group):
                out[k] = (begin + n, begin + n + 1)
        i = j + 1
    return out


_ALPHABET = st.sampled_from(
    list("aAbZz ,.!?'09") + ["  ", "   ", "\t", "\n", "\r\n", "\x00", "\x07", "\x1b", "\x7f", "\u00a0", "\u3000"]
    + ["가", "한", "국", "어", "ᄀ", "\u1161", "\u11a8", "漢", "字", "か", "ｶ", "ｱ", "①", "㈜", "ﬁ", "Å", "ß", "İ"]
    + ["e\u0301", "\u0301", "\u0308", "👩", "\u200d", "👩\u200d👩\u200d👧", "🇰🇷", "\ufe0f", "\u200b", "\u202e", "▁"]
    + ["Alice", "대한민국", "<sep>", "<ctl>", "<s>", "</s>", "<unk>", "<0x41>", "\U0001d400", "\U00020000"]
)
_TEXT = st.lists(_ALPHABET, max_size=24).map("".join)


@settings(max_examples=400)
@given(name=st.sampled_from(sorted(CONFIGS)), text=_TEXT)
def test_hypothesis_text_matches_sentencepiece(sp_builds, name, text):  # noqa: F811
    ours, ref = _pair(str(sp_builds[name].path))
    ids = ref.encode(text)
    assert ours.encode(text) == ids
    assert list(ours.encode_detailed(text).ids) == ids
    assert ours.decode(ids) == ref.decode(ids)
