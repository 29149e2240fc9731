"""UTF-8 byte roles and an incremental decoder that says when each character completes.

UTF-8 spends 1 to 4 bytes per character. The first byte says how many follow (its leading 1-bits),
the others are continuation bytes ``10xxxxxx``. Byte-level BPE cuts wherever a merge ends, so a
token can end in the middle of a character; these helpers make that visible.

>>> [r.label for r in byte_roles("a한".encode())]
['ASCII', 'lead of 3', 'continuation', 'continuation']
"""

from __future__ import annotations

import codecs
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Literal

ByteRoleKind = Literal["ascii", "lead", "continuation", "invalid"]


@dataclass(frozen=True, slots=True)
class ByteRole:
    """One byte and its part in UTF-8: ``seq_len`` is the character length a lead byte announces."""

    value: int
    kind: ByteRoleKind
    seq_len: int = 1

    @property
    def hex(self) -> str:
        return f"{self.value:02X}"

    @property
    def label(self) -> str:
        if self.kind == "ascii":
            return "ASCII"
        if self.kind == "lead":
            return f"lead of {self.seq_len}"
        if self.kind == "continuation":
            return "continuation"
        return "invalid in UTF-8"


def byte_role(value: int) -> ByteRole:
    """Classify one byte by its bit pattern (C0, C1 and F5..FF can never appear in UTF-8)."""
    if value < 0x80:
        return ByteRole(value, "ascii", 1)
    if value < 0xC0:
        return ByteRole(value, "continuation", 0)
    if 0xC2 <= value < 0xE0:
        return ByteRole(value, "lead", 2)
    if 0xE0 <= value < 0xF0:
        return ByteRole(value, "lead", 3)
    if 0xF0 <= value < 0xF5:
        return ByteRole(value, "lead", 4)
    return ByteRole(value, "invalid", 0)


_ROLES: tuple[ByteRole, ...] = tuple(byte_role(b) for b in range(256))


def byte_roles(data: bytes) -> tuple[ByteRole, ...]:
    """The role of every byte of ``data``."""
    return tuple(_ROLES[b] for b in data)


def hex_bytes(data: bytes) -> str:
    """``ED 95 9C`` -- bytes as upper-case hex pairs separated by spaces."""
    return data.hex(" ").upper()


def standalone_decode(data: bytes) -> str | None:
    """The text ``data`` decodes to on its own, or ``None`` when it is not complete UTF-8.

    >>> standalone_decode("한".encode()), standalone_decode(b"\\xed\\x95")
    ('한', None)
    """
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


@dataclass(frozen=True, slots=True)
class StreamStep:
    """What an incremental UTF-8 decoder does when one more token's bytes arrive.

    ``emitted`` is the text that became complete with this token (possibly finishing a character
    begun by earlier tokens); ``pending`` the bytes still waiting for the rest of their character,
    which needs ``expected`` bytes in total. ``invalid`` counts U+FFFD produced for bytes that can
    never become valid. The final flush (``index == -1``) reports leftovers at the end of input.
    """

    index: int
    data: bytes
    emitted: str
    pending: bytes
    expected: int
    invalid: int

    @property
    def waiting(self) -> bool:
        return bool(self.pending)

    @property
    def status(self) -> str:
        """A one-line human description such as ``waiting for 1 more byte (2/3)``."""
        if self.pending:
            missing = max(self.expected - len(self.pending), 1)
            plural = "s" if missing != 1 else ""
            return f"waiting for {missing} more byte{plural} ({len(self.pending)}/{self.expected})"
        if self.invalid:
            return f"{self.invalid} invalid byte sequence{'s' if self.invalid != 1 else ''} -> U+FFFD"
        if not self.emitted:
            return "nothing to emit"
        n = len(self.emitted)
        return f"{n} character{'s' if n != 1 else ''} complete"


class StreamDecoder:
    """Feed bytes chunk by chunk; each :meth:`feed` returns a :class:`StreamStep`.

    A thin, inspectable wrapper over Python's incremental UTF-8 decoder (``errors="replace"``):
    the decoder's buffered bytes are exactly the "waiting for more bytes" state.
    """

    def __init__(self) -> None:
        self._dec = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._count = 0

    def feed(self, data: bytes, *, final: bool = False) -> StreamStep:
        before = self._dec.getstate()[0]
        out = self._dec.decode(data, final=final)
        pending = self._dec.getstate()[0]
        consumed = before + data
        # Every U+FFFD the decoder emits for invalid input; genuine U+FFFD text is valid UTF-8
        # (EF BF BD), so subtract those that were literally present in the consumed bytes.
        literal = consumed[: len(consumed) - len(pending)].count("\ufffd".encode())
        invalid = max(out.count("\ufffd") - literal, 0)
        expected = _ROLES[pending[0]].seq_len if pending else 0
        step = StreamStep(-1 if final else self._count, data, out, pending, expected, invalid)
        if not final:
            self._count += 1
        return step


def stream_decode(chunks: Iterable[bytes]) -> list[StreamStep]:
    """Decode ``chunks`` one at a time and report each step, plus a final flush when bytes remain.

    >>> [s.emitted for s in stream_decode([b"\\xed\\x95", b"\\x9c!"])]
    ['', '한!']
    >>> stream_decode([b"\\xed\\x95"])[0].status
    'waiting for 1 more byte (2/3)'
    """
    return list(iter_stream_decode(chunks))


def iter_stream_decode(chunks: Iterable[bytes]) -> Iterator[StreamStep]:
    """:func:`stream_decode` one step at a time (the CLI streams it for texts of any length)."""
    dec = StreamDecoder()
    step = None
    for chunk in chunks:
        step = dec.feed(chunk)
        yield step
    if step is not None and step.pending:
        yield dec.feed(b"", final=True)

