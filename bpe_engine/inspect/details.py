"""Everything the inspector shows about one token, computed once per encoding.

For each token: its id, its form in the model's alphabet, the bytes it stands for (hex, GPT-2
byte characters, each byte's UTF-8 role), its standalone decode or "incomplete", and the
characters it covers -- whole, or only some of their bytes. A token that holds part of a
character is described by *that part* ("bytes 1-2 of 3 of 한"), never by the whole character.

>>> from bpe_engine.types import Encoding
>>> enc = Encoding("한", (1, 2), ("íķ", "ľ"), ((0, 2), (2, 3)), (False, False))
>>> d = token_details(enc)[0]
>>> d.hex, d.byte_chars, d.standalone, d.pieces[0].describe()
('ED 95', 'íķ', None, 'bytes 1-2 of 3 of U+D55C')
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from ..core.byte_table import bytes_to_token_str
from ..core.text_index import TextIndex, index_of
from ..types import Encoding, Tokenizer
from .partial import group_of_token, partial_groups
from .utf8 import ByteRole, byte_roles, hex_bytes, standalone_decode


@dataclass(frozen=True, slots=True)
class CharPiece:
    """The bytes ``[byte_from, byte_to)`` of character ``char_index`` that a token holds."""

    char_index: int
    char: str
    byte_from: int
    byte_to: int
    char_len: int

    @property
    def whole(self) -> bool:
        return self.byte_from == 0 and self.byte_to == self.char_len

    @property
    def codepoint(self) -> str:
        return f"U+{ord(self.char):04X}"

    def describe(self) -> str:
        """``whole U+D55C`` or ``bytes 1-2 of 3 of U+D55C`` (1-based, as people count bytes).

        The character itself is left out: callers render ``char`` through the display helpers.
        """
        if self.whole:
            return f"whole {self.codepoint}"
        if self.byte_to - self.byte_from == 1:
            return f"byte {self.byte_from + 1} of {self.char_len} of {self.codepoint}"
        return f"bytes {self.byte_from + 1}-{self.byte_to} of {self.char_len} of {self.codepoint}"


@dataclass(frozen=True, slots=True)
class TokenDetail:
    """One token, down to its bytes.

    ``data`` is what the model says the token stands for (``token_bytes``); ``text_bytes`` the
    input bytes under ``byte_span``. They differ for normalising models (uncased WordPiece turns
    ``Hello`` into ``hello``) and for tokens whose id the model cannot map (``data_note`` says so).
    ``group`` is the index of the partial-character group the token belongs to, if any.
    ``unknown`` marks an unknown piece (see :class:`~bpe_engine.types.Encoding`): its ``data`` is
    the input it stands for, and ``data_note`` says so.
    """

    index: int
    id: int
    token: str
    data: bytes
    text_bytes: bytes
    byte_span: tuple[int, int]
    char_span: tuple[int, int]
    pieces: tuple[CharPiece, ...]
    special: bool
    group: int | None
    data_note: str = ""
    unknown: bool = False

    @property
    def hex(self) -> str:
        return hex_bytes(self.data)

    @property
    def byte_chars(self) -> str:
        """GPT-2's printable form of the bytes: ``Ġ`` for space, ``íķľ`` for 한."""
        return bytes_to_token_str(self.data)

    @property
    def roles(self) -> tuple[ByteRole, ...]:
        return byte_roles(self.data)

    @property
    def standalone(self) -> str | None:
        """The token's text on its own, or ``None`` when its bytes are not complete UTF-8."""
        return standalone_decode(self.data)

    @property
    def partial(self) -> bool:
        """True when the token holds only part of some character's bytes."""
        return any(not p.whole for p in self.pieces)


def token_details(encoding: Encoding, tokenizer: Tokenizer | None = None, index: TextIndex | None = None) -> list[TokenDetail]:
    """Details of every token of ``encoding`` (``tokenizer`` supplies ``token_bytes``; without it
    the input bytes under each span are used)."""
    return list(iter_token_details(encoding, tokenizer, index))


def iter_token_details(
    encoding: Encoding, tokenizer: Tokenizer | None = None, index: TextIndex | None = None
) -> Iterator[TokenDetail]:
    """:func:`token_details` one at a time, so a caller that prints them as it goes (the CLI on a
    multi-megabyte text) holds one page of details, not 600,000."""
    index = index or index_of(encoding.text)
    raw = encoding.text.encode("utf-8", "surrogatepass")
    groups = group_of_token(partial_groups(encoding, index), len(encoding.ids))
    for i, (tid, tok, (s, e), special, unknown) in enumerate(
        zip(encoding.ids, encoding.tokens, encoding.byte_spans, encoding.special, encoding.unknown, strict=True)
    ):
        text_bytes = raw[s:e]
        if unknown:
            data, note = text_bytes, "unknown piece: " + ("no id" if tid < 0 else f"the unknown token, id {tid}")
        else:
            data, note = _model_bytes(tokenizer, tid, text_bytes)
        yield TokenDetail(
            index=i,
            id=tid,
            token=tok,
            data=data,
            text_bytes=text_bytes,
            byte_span=(s, e),
            char_span=index.char_span(s, e),
            pieces=_pieces(index, s, e),
            special=special,
            group=groups[i],
            data_note=note,
            unknown=unknown,
        )


def _model_bytes(tokenizer: Tokenizer | None, token_id: int, fallback: bytes) -> tuple[bytes, str]:
    if tokenizer is None:
        return fallback, ""
    try:
        return tokenizer.token_bytes(token_id), ""
    except (KeyError, IndexError, ValueError, OverflowError):
        return fallback, f"id {token_id} is not in this tokenizer's vocabulary; showing the input bytes"


def _pieces(index: TextIndex, s: int, e: int) -> tuple[CharPiece, ...]:
    if e <= s:
        return ()
    first, last = index.char_span(s, e)
    starts = index.char_byte_starts
    text = index.text
    out = []
    for c in range(first, last):
        c0, c1 = starts[c], starts[c + 1]
        out.append(CharPiece(c, text[c], max(s, c0) - c0, min(e, c1) - c0, c1 - c0))
    return tuple(out)
