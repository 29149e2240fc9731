"""Everything shown to a user passes through bpe_engine.display: nothing reaches the terminal raw."""

from __future__ import annotations

import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from bpe_engine.display import decode_bytes_visibly, token_label, token_str_label, visible_text

DANGEROUS = {chr(c) for c in range(0x20)} | {"\x7f"} | {chr(c) for c in range(0x80, 0xA0)}


def test_escape_sequences_are_shown_not_executed() -> None:
    assert visible_text("\x1b]8;;http://x\x07link") == "␛]8;;http://x␇link"
    assert visible_text("\x9b31m") == "<U+009B>31m"


def test_bidi_and_zero_width_are_named() -> None:
    assert visible_text("a\u202eb\u200bc\u200dd\ufeff") == "a<RLO>b<ZWSP>c<ZWJ>d<BOM>"


def test_newlines_kept_only_when_asked() -> None:
    assert visible_text("a\nb\tc") == "a↵b⇥c"
    assert visible_text("a\nb", keep_newlines=True) == "a\nb"


def test_lone_surrogate_visible() -> None:
    assert visible_text("x\udc80") == "x<U+DC80>"


def test_printable_text_unchanged() -> None:
    text = "한국어 café 👍🏽 [bold]not markup[/bold]"
    assert visible_text(text) == text


def test_partial_utf8_bytes_as_hex() -> None:
    assert decode_bytes_visibly("한".encode()[:2]) == "<0xED><0x95>"
    assert decode_bytes_visibly(b"a\xffb") == "a<0xFF>b"


def test_token_labels() -> None:
    assert token_label(b" hello", byte_level=True) == "Ġhello"
    assert token_label(b" hello", byte_level=False) == "␣hello"
    assert token_label(b"\n\n", byte_level=True) == "↵↵"
    assert token_label("\u0301".encode(), byte_level=True) == "◌\u0301"
    assert token_str_label("▁the") == "▁the"


@given(st.text())
def test_visible_text_never_contains_controls_or_format_chars(text: str) -> None:
    out = visible_text(text)
    for ch in out:
        assert ch not in DANGEROUS
        assert unicodedata.category(ch) not in ("Cf", "Cs", "Zl", "Zp")


@given(st.binary())
def test_token_label_total(data: bytes) -> None:
    out = token_label(data, byte_level=True)
    assert all(ch not in DANGEROUS for ch in out)
