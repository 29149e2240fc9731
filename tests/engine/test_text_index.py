"""TextIndex against slow references: prefix re-encoding and tiktoken's own character offsets."""

from __future__ import annotations

import regex
from hypothesis import given
from hypothesis import strategies as st

from bpe_engine.core.text_index import TextIndex, clean_text
from tests.engine.test_inspect_fixtures import hand_tokenizer

TEXTS = ["", "abc", "한국어", "a🙂b", "👨\u200d👩\u200d👧", "e\u0301", "\x1b[31m\u202e", "\n\t"]
# Any code point except surrogates (they cannot be UTF-8; clean_text handles them separately).
text_strategy = st.text(st.characters(blacklist_categories=("Cs",)), max_size=40)


def _slow_byte_starts(text: str) -> list[int]:
    return [len(text[:i].encode()) for i in range(len(text) + 1)]


@given(text_strategy)
def test_char_byte_starts_match_prefix_encoding(text: str) -> None:
    assert list(TextIndex(text).char_byte_starts) == _slow_byte_starts(text)


@given(text_strategy)
def test_byte_to_char_and_boundaries_match_slow_reference(text: str) -> None:
    idx = TextIndex(text)
    raw = text.encode()
    starts = set(_slow_byte_starts(text))
    for b in range(len(raw) + 1):
        # the character holding byte b = how many whole characters end before it
        assert idx.char_at_byte(b) == len(raw[:b].decode("utf-8", "ignore"))
        assert idx.is_char_boundary(b) == (b in starts)


def test_char_span_covers_touched_characters() -> None:
    idx = TextIndex("a한b")  # bytes: a | ED 95 9C | b
    assert idx.char_span(0, 1) == (0, 1)
    assert idx.char_span(1, 3) == (1, 2)  # part of 한
    assert idx.char_span(3, 5) == (1, 3)  # end of 한 and b
    assert idx.char_span(2, 2) == (1, 1)  # empty span sits in its character
    assert idx.char_bytes(1) == (1, 4)


def test_character_offsets_agree_with_tiktoken_decode_with_offsets() -> None:
    tok = hand_tokenizer()
    for text in TEXTS[1:] + ["hello 한국 world 🙂🙂"]:
        enc = tok.encode_detailed(text)
        _, offsets = tok.enc.decode_with_offsets(list(enc.ids))
        idx = TextIndex(text)
        assert [idx.char_at_byte(s) for s, _ in enc.byte_spans] == offsets, text


def test_graphemes_group_zwj_family_and_combining_marks() -> None:
    family = "👨\u200d👩\u200d👧"
    idx = TextIndex(f"a{family}e\u0301")
    assert idx.grapheme_char_starts == (0, 1, 6, 8)
    assert idx.grapheme_byte_boundaries == frozenset({0, 1, 1 + len(family.encode()), 1 + len(family.encode()) + 3})


def test_clean_text_replaces_lone_surrogates_one_for_one() -> None:
    cleaned = clean_text("a\ud800b\udfffc")
    assert cleaned.text == "a\ufffdb\ufffdc"
    assert cleaned.surrogates_replaced == 2
    assert "2 lone surrogates" in cleaned.notes[0]
    assert clean_text("plain").notes == ()


def test_empty_text() -> None:
    idx = TextIndex("")
    assert idx.n_chars == 0 and idx.n_bytes == 0
    assert idx.char_span(0, 0) == (0, 0)
    assert idx.is_char_boundary(0)


@given(text_strategy)
def test_chars_before_byte_counts_the_characters_a_prefix_touches(text: str) -> None:
    idx = TextIndex(text)
    raw = text.encode()
    for b in range(len(raw) + 1):
        assert idx.chars_before_byte[b] == sum(1 for start in _slow_byte_starts(text)[:-1] if start < b)


@given(st.text(max_size=40))
def test_grapheme_starts_are_the_clusters_starts(text: str) -> None:
    """Lone surrogates included: every character is in exactly one cluster."""
    expected = (*(m.start() for m in regex.finditer(r"\X", text)), len(text))
    assert TextIndex(text).grapheme_char_starts == expected
