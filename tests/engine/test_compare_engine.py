"""Comparison data: alignment on the character axis, hand-checked statistics, failing rows."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bpe_engine.compare import align_row, compare, disagreements, row_stats
from bpe_engine.compare.align import _owners
from bpe_engine.compare.baselines import CharacterTokenizer, WhitespaceWordTokenizer
from bpe_engine.core.text_index import count_words
from bpe_engine.types import Encoding
from tests.engine.test_inspect_fixtures import EOT, hand_tokenizer
from tests.fakes import TokenizerDouble


def test_align_korean_split_marks_the_character_not_a_boundary() -> None:
    enc = hand_tokenizer().encode_detailed("한국 a")  # [ED 95][9C EA][B5 AD][ ][a]
    row = align_row(enc)
    assert sorted(row.boundaries) == [0, 2, 3, 4]
    assert row.split_chars == frozenset({0, 1})
    assert row.token_of_char == (0, 1, 3, 4)


def test_disagreements_between_characters_and_words() -> None:
    c = compare("ab  cd", [CharacterTokenizer(), WhitespaceWordTokenizer()])
    chars, words = c.rows
    assert words.alignment is not None and sorted(words.alignment.boundaries) == [0, 2, 4, 6]
    assert words.alignment.token_of_char == (0, 0, -1, -1, 1, 1)
    assert c.disagreements == (1, 3, 5)


def test_stats_hand_checked_korean() -> None:
    # "한국 a": 4 chars, 8 bytes, 2 words; tokens [ED 95][9C EA][B5 AD][ ][a]
    c = compare("한국 a", [hand_tokenizer(), CharacterTokenizer(), WhitespaceWordTokenizer()])
    hand, chars, words = (r.stats for r in c.rows)
    assert hand is not None and chars is not None and words is not None
    assert (hand.tokens, hand.chars, hand.bytes, hand.words, hand.partial_tokens) == (5, 4, 8, 2, 3)
    assert hand.chars_per_token == 0.8 and hand.bytes_per_token == 1.6
    assert hand.tokens_per_word == 2.5 and hand.partial_share == 0.6
    assert hand.unk_tokens == 0 and hand.unk_rate == 0.0
    assert (chars.tokens, chars.partial_share, chars.tokens_per_word) == (4, 0.0, 2.0)
    assert (words.tokens, words.chars_per_token, words.bytes_per_token) == (2, 2.0, 4.0)


def test_stats_hand_checked_english_and_emoji() -> None:
    # "hello world 🙂": hand tokens hello|Ġwo|r|l|d|Ġ|F0 9F|99|82 = 9 tokens; 13 chars, 16 bytes
    c = compare("hello world 🙂", [hand_tokenizer()])
    s = c.rows[0].stats
    assert s is not None
    assert (s.tokens, s.chars, s.bytes, s.words, s.partial_tokens) == (9, 13, 16, 3, 3)
    assert s.tokens_per_word == 3.0 and round(s.bytes_per_token, 4) == round(16 / 9, 4)


def test_unknown_pieces_are_counted_from_the_encoding_with_or_without_an_unknown_token() -> None:
    """The count ``encode`` prints (its ``unknown`` marks): the [UNK] of a vocabulary that has one,
    and a symbol a vocabulary without one cannot spell (Stats showed "–" beside 34 of them)."""
    enc = Encoding("a b c d", (5, 1, 5, 7), ("a", "[UNK]", "c", "d"), ((0, 1), (2, 3), (4, 5), (6, 7)), (False,) * 4,
                   unknown=(False, True, False, False))
    assert row_stats(enc).unk_tokens == 1 and row_stats(enc).unk_rate == 0.25
    from bpe_engine.pretokenizers import WHITESPACE
    from bpe_engine.training.bpe import BpeTrainerConfig, train

    no_unk = train(["low lower lowest"], BpeTrainerConfig(vocab_size=20, byte_level=False, pre_tokenizer=WHITESPACE)).tokenizer
    text = "low 한국어 lower"
    marked = sum(no_unk.encode_detailed(text).unknown)
    row = compare(text, [no_unk]).rows[0]
    assert marked == 3 and row.stats is not None and row.stats.unk_tokens == marked
    assert row.stats.unk_rate == marked / row.stats.tokens


def test_special_token_modes_change_counts_and_refuse_is_a_row_error() -> None:
    tok = hand_tokenizer()
    text = f"hello{EOT}"
    special = compare(text, [tok], special_mode="special").rows[0]
    as_text = compare(text, [tok], special_mode="text").rows[0]
    refused = compare(text, [tok, CharacterTokenizer()], special_mode="refuse")
    assert special.stats is not None and as_text.stats is not None
    assert special.stats.special_tokens == 1 and as_text.stats.special_tokens == 0
    assert special.stats.tokens < as_text.stats.tokens
    assert refused.rows[0].error is not None and "special-token mode" in refused.rows[0].error
    assert refused.rows[0].stats is None
    assert refused.rows[1].stats is not None  # the other rows still show


def test_a_crashing_tokenizer_is_a_row_error_not_a_crash() -> None:
    class Broken(TokenizerDouble):
        name = "broken"

        def encode_detailed(self, text: str, *, special_mode: str = "refuse") -> Encoding:
            raise IndexError("id 99999 out of range")

    c = compare("abc", [Broken(), CharacterTokenizer()])  # type: ignore[list-item]
    assert c.rows[0].error == "broken failed: IndexError: id 99999 out of range"
    assert c.rows[1].stats is not None and c.rows[1].stats.tokens == 3


def test_bad_input_is_kept_visible_and_aligned() -> None:
    text = "\x1b[31m\u202eab\u200b\ud800 " + "x" * 5000
    c = compare(text, [CharacterTokenizer(), WhitespaceWordTokenizer(), hand_tokenizer()], special_mode="text")
    assert c.text[9] == "\ufffd" and len(c.text) == len(text)
    assert c.notes and "surrogate" in c.notes[0]
    assert all(r.error is None for r in c.rows)
    chars = c.rows[0].stats
    assert chars is not None and chars.chars == len(text)


def test_empty_text_has_no_tokens_and_undefined_ratios() -> None:
    c = compare("", [CharacterTokenizer(), WhitespaceWordTokenizer(), hand_tokenizer()])
    for row in c.rows:
        assert row.stats is not None and row.stats.tokens == 0
        assert row.stats.chars_per_token is None and row.stats.tokens_per_word is None
    assert c.disagreements == ()


def test_count_words_and_disagreements_with_one_row() -> None:
    assert count_words(" a\tb\n\nc ") == 3 and count_words("") == 0
    assert disagreements([align_row(CharacterTokenizer().encode_detailed("ab"))]) == ()


@given(st.data())
def test_owner_runs_match_a_slow_per_character_fill(data: st.DataObject) -> None:
    n = data.draw(st.integers(0, 12))
    starts = sorted(data.draw(st.lists(st.integers(0, n), max_size=8)))
    ends = [min(n, s + data.draw(st.integers(0, 3))) for s in starts]
    slow = [-1] * n
    for t in range(len(starts) - 1, -1, -1):  # first covering token wins
        for c in range(starts[t], ends[t]):
            slow[c] = t
    assert _owners(starts, ends, n) == tuple(slow)
    assert _owners(starts[::-1], ends[::-1], n) == tuple(
        next((t for t, (s, e) in enumerate(zip(starts[::-1], ends[::-1])) if s <= c < e), -1) for c in range(n)
    )


def test_byte_level_shortcut_matches_encode_detailed() -> None:
    from bpe_engine.catalog.openai import load_reference
    from bpe_engine.compare.rows import _encode

    text = "Hello 한국어 👩‍👩‍👧 <|endoftext|>  \n\n x"
    for name in ("gpt2", "cl100k_base"):
        tok = load_reference(name)
        for mode in ("text", "special"):
            assert _encode(tok, text, mode) == tok.encode_detailed(text, special_mode=mode)


def _slow_alignment(enc: Encoding) -> tuple[list[int], list[int], set[int], set[int]]:
    """Token starts, ends, boundaries and split characters, one byte at a time."""
    raw = enc.text.encode()
    first = [len(enc.text[:i].encode()) for i in range(len(enc.text) + 1)]

    def holder(b: int) -> int:  # the character holding byte b (n_chars at the end)
        return max(i for i, start in enumerate(first) if start <= b) if b < len(raw) else len(enc.text)

    starts = [holder(s) for s, _ in enc.byte_spans]
    ends = [holder(e - 1) + 1 if e > s else holder(s) for s, e in enc.byte_spans]
    edges = {x for span in enc.byte_spans for x in span}
    return starts, ends, {holder(b) for b in edges if b in first}, {holder(b) for b in edges if b not in first}


@given(st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=30), st.data())
def test_alignment_of_tokens_cut_anywhere_in_the_bytes(text: str, data: st.DataObject) -> None:
    """Byte-level rows cut characters anywhere (and may hold empty tokens): the lookups of the
    non-ASCII path against a byte-by-byte reference."""
    n = len(text.encode())
    cuts = sorted(data.draw(st.lists(st.integers(0, n), max_size=12)))
    edges = [0, *cuts, n]
    spans = tuple(zip(edges, edges[1:]))
    enc = Encoding(text, tuple(range(len(spans))), tuple("t" for _ in spans), spans, tuple(False for _ in spans))
    row = align_row(enc)
    starts, ends, bounds, split = _slow_alignment(enc)
    assert (list(row.token_starts), list(row.token_ends)) == (starts, ends)
    assert (set(row.boundaries), set(row.split_chars)) == (bounds, split)
