"""UTF-8 byte roles and the streaming decoder: hand-checked cases plus a chunking property."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bpe_engine.inspect import byte_role, byte_roles, hex_bytes, standalone_decode, stream_decode


def test_byte_roles_by_bit_pattern() -> None:
    assert [r.label for r in byte_roles("a한🙂".encode())] == [
        "ASCII",
        "lead of 3",
        "continuation",
        "continuation",
        "lead of 4",
        "continuation",
        "continuation",
        "continuation",
    ]
    assert byte_role(0xC3).label == "lead of 2"
    # C0/C1 (overlong leads) and F5..FF never occur in UTF-8
    assert {byte_role(b).kind for b in (0xC0, 0xC1, 0xF5, 0xFF)} == {"invalid"}
    assert byte_role(0x9C).hex == "9C"


def test_hex_and_standalone_decode() -> None:
    assert hex_bytes("한".encode()) == "ED 95 9C"
    assert standalone_decode(b"\xed\x95") is None
    assert standalone_decode(b"\x9c") is None
    assert standalone_decode(" 한".encode()) == " 한"
    assert hex_bytes(b"") == ""


def test_korean_split_waits_then_completes() -> None:
    steps = stream_decode([b"\xed\x95", b"\x9c", b"\xea", b"\xb5\xad!"])
    assert [s.emitted for s in steps] == ["", "한", "", "국!"]
    assert [s.pending for s in steps] == [b"\xed\x95", b"", b"\xea", b""]
    assert steps[0].status == "waiting for 1 more byte (2/3)"
    assert steps[2].status == "waiting for 2 more bytes (1/3)"
    assert steps[1].status == "1 character complete"
    assert steps[3].status == "2 characters complete"


def test_emoji_four_bytes_over_three_tokens() -> None:
    steps = stream_decode([b"\xf0\x9f", b"\x99", b"\x82"])
    assert [s.waiting for s in steps] == [True, True, False]
    assert steps[1].expected == 4 and steps[2].emitted == "🙂"


def test_incomplete_tail_is_flushed_as_replacement() -> None:
    steps = stream_decode([b"ok", b"\xed\x95"])
    assert len(steps) == 3
    flush = steps[-1]
    assert flush.index == -1 and flush.emitted == "\ufffd" and flush.invalid == 1 and not flush.waiting


def test_invalid_bytes_are_counted_but_literal_replacement_chars_are_not() -> None:
    bad = stream_decode([b"\xff", b"a"])[0]
    assert bad.emitted == "\ufffd" and bad.invalid == 1
    literal = stream_decode(["\ufffd".encode()])[0]
    assert literal.emitted == "\ufffd" and literal.invalid == 0 and literal.status == "1 character complete"


def test_empty_input() -> None:
    assert stream_decode([]) == []
    assert stream_decode([b""])[0].status == "nothing to emit"


@given(st.text(st.characters(blacklist_categories=("Cs",)), max_size=30), st.lists(st.integers(0, 200), max_size=10))
def test_any_chunking_of_valid_text_decodes_to_the_text(text: str, cuts: list[int]) -> None:
    raw = text.encode()
    points = sorted({c % (len(raw) + 1) for c in cuts} | {0, len(raw)})
    chunks = [raw[a:b] for a, b in zip(points, points[1:])]
    steps = stream_decode(chunks)
    assert "".join(s.emitted for s in steps) == text
    assert not any(s.invalid for s in steps)
    # pending bytes are always a proper prefix of one character
    for s in steps:
        assert len(s.pending) < max(s.expected, 1) or not s.pending
