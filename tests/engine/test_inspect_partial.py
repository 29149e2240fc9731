"""Partial-character grouping and per-token details on Korean, emoji and ZWJ sequences."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bpe_engine.core.text_index import TextIndex
from bpe_engine.inspect import partial_flags, partial_groups, token_details
from bpe_engine.types import Encoding
from tests.engine.test_inspect_fixtures import hand_tokenizer


def _cut(text: str, cuts: list[int]) -> Encoding:
    """An encoding of ``text`` whose tokens end at the given byte offsets (a synthetic tokenizer)."""
    raw = text.encode()
    points = sorted({c for c in cuts if 0 < c < len(raw)} | {0, len(raw)})
    spans = tuple(zip(points, points[1:]))
    return Encoding(text, tuple(range(len(spans))), tuple(raw[a:b].hex() for a, b in spans), spans, (False,) * len(spans))


def test_korean_in_two_tokens_is_one_group() -> None:
    enc = hand_tokenizer().encode_detailed("한")
    groups = partial_groups(enc)
    assert [(g.tokens, g.chars, g.byte_span) for g in groups] == [((0, 2), (0, 1), (0, 3))]
    assert partial_flags(enc) == (True, True)


def test_group_is_transitive_across_a_token_that_crosses_characters() -> None:
    # 한국 -> [ED 95][9C EA][B5 AD]: the middle token ends 한 and starts 국
    enc = hand_tokenizer().encode_detailed("한국 a")
    groups = partial_groups(enc)
    assert [(g.tokens, g.chars) for g in groups] == [((0, 3), (0, 2))]
    assert partial_flags(enc)[3:] == (False, False)


def test_details_never_give_a_partial_token_the_whole_character() -> None:
    tok = hand_tokenizer()
    details = token_details(tok.encode_detailed("한국"), tok)
    first, middle, last = details
    assert first.hex == "ED 95" and first.standalone is None and first.partial
    assert [p.describe() for p in first.pieces] == ["bytes 1-2 of 3 of U+D55C"]
    assert [p.describe() for p in middle.pieces] == ["byte 3 of 3 of U+D55C", "byte 1 of 3 of U+AD6D"]
    assert [p.describe() for p in last.pieces] == ["bytes 2-3 of 3 of U+AD6D"]
    assert first.char_span == (0, 1) and middle.char_span == (0, 2)
    assert {d.group for d in details} == {0}
    assert [r.label for r in middle.roles] == ["continuation", "lead of 3"]
    assert first.byte_chars == "íķ"


def test_whole_tokens_have_whole_pieces_and_a_standalone_decode() -> None:
    tok = hand_tokenizer()
    hello, world = token_details(tok.encode_detailed("hello 🙂"), tok)[:2]
    assert hello.token == "hello" and hello.standalone == "hello" and not hello.partial and hello.group is None
    assert world.byte_chars == "Ġ" and world.pieces[0].whole


def test_emoji_split_inside_its_four_bytes() -> None:
    enc = hand_tokenizer().encode_detailed("🙂")  # F0 9F | 99 | 82
    assert enc.byte_spans == ((0, 2), (2, 3), (3, 4))
    assert [(g.tokens, g.chars) for g in partial_groups(enc)] == [((0, 3), (0, 1))]


def test_zwj_family_split_at_code_points_is_partial_only_as_a_grapheme() -> None:
    family = "👨\u200d👩\u200d👧"
    raw = family.encode()
    # cut only between code points: man | ZWJ woman | ZWJ girl
    enc = _cut(family, [4, 4 + 3 + 4])
    assert partial_groups(enc) == []
    assert partial_flags(enc) == (False, False, False)
    graphemes = partial_groups(enc, unit="grapheme")
    assert [(g.tokens, g.chars, g.byte_span) for g in graphemes] == [((0, 3), (0, 5), (0, len(raw)))]
    assert partial_flags(enc, unit="grapheme") == (True, True, True)


def test_combining_accent_split_from_its_base() -> None:
    enc = _cut("ae\u0301b", [2])  # "ae" | "\u0301b"
    assert partial_groups(enc) == []
    assert [(g.tokens, g.chars) for g in partial_groups(enc, unit="grapheme")] == [((0, 2), (0, 4))]


def test_tokens_covering_whole_characters_form_no_group() -> None:
    enc = _cut("한국어", [3, 6])
    assert partial_groups(enc) == [] and partial_flags(enc) == (False, False, False)


def test_empty_and_zero_width_tokens() -> None:
    assert partial_groups(Encoding("", (), (), (), ())) == []
    enc = Encoding("한", (0, 1), ("▁", "한"), ((0, 0), (0, 3)), (False, False))
    assert partial_flags(enc) == (False, False)
    assert token_details(enc)[0].pieces == ()


def test_unknown_id_falls_back_to_input_bytes_with_a_note() -> None:
    tok = hand_tokenizer()
    enc = Encoding("a", (10**9,), ("?",), ((0, 1),), (False,))
    detail = token_details(enc, tok)[0]
    assert detail.data == b"a" and "not in this tokenizer's vocabulary" in detail.data_note


def _slow_partial(text: str, enc: Encoding) -> list[bool]:
    """A token is partial iff the text bytes before its start or end do not decode strictly."""
    raw = text.encode()

    def boundary(b: int) -> bool:
        try:
            raw[:b].decode()
            return True
        except UnicodeDecodeError:
            return False

    return [e > s and not (boundary(s) and boundary(e)) for s, e in enc.byte_spans]


@given(st.text(st.characters(blacklist_categories=("Cs",)), max_size=20), st.lists(st.integers(0, 80), max_size=12))
def test_flags_and_groups_match_slow_reference(text: str, cuts: list[int]) -> None:
    enc = _cut(text, cuts)
    flags = partial_flags(enc)
    assert list(flags) == _slow_partial(text, enc)
    groups = partial_groups(enc)
    grouped = {t for g in groups for t in range(*g.tokens)}
    assert grouped == {t for t, f in enumerate(flags) if f}
    idx = TextIndex(text)
    for g in groups:
        # a group starts and ends on character boundaries: together its tokens hold whole characters
        assert idx.is_char_boundary(g.byte_span[0]) and idx.is_char_boundary(g.byte_span[1])
        assert text.encode()[slice(*g.byte_span)].decode() == text[slice(*g.chars)]
