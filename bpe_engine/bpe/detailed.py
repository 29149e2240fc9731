"""``BpeTokenizer.encode_detailed``: where each token came from, and what could not be encoded.

An :class:`~bpe_engine.types.Encoding` carries each token's byte span in the text, its special
flag and, for a symbol the vocabulary lacks, an unknown piece with a note saying why. Byte-level
tokens (specials included) spell the text's bytes in order, so their spans are running sums of
their lengths. Otherwise -- ``▁`` markers, a dropped ``</w>`` word break, unknown symbols -- spans
are mapped back through the pre-tokenizer's character spans piece by piece, so they stay right
when a piece is not a plain slice of the text.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import accumulate
from typing import TYPE_CHECKING

from ..errors import UnknownSymbolError
from ..pretokenizers import split_specials
from ..types import UNKNOWN_ID, Encoding
from .merge_table import MergeTable

if TYPE_CHECKING:
    from .model import BpeTokenizer

Span = tuple[int, int]
ByteAt = Callable[[int], int]
"""Character offset -> UTF-8 byte offset in one text (see :func:`byte_offsets`)."""


def detailed_encoding(tok: BpeTokenizer, text: str, allowed: frozenset[str]) -> Encoding:
    """``text`` (already surrogate-fixed for byte-level models) encoded with spans, special flags
    and unknown pieces; ``allowed`` are the special tokens encoded as such.

    Unknown pieces get one note per distinct symbol, in order of first appearance: independent of
    counts, so encodings stitched from segments (the app's Compare) carry the same notes as a whole one.
    """
    ids, spans, special, unknown_symbols = _token_spans(tok, text, allowed)
    if not unknown_symbols:
        tokens = tuple(map(tok._token_strs.__getitem__, ids))
        return Encoding(text=text, ids=tuple(ids), tokens=tokens, byte_spans=tuple(spans), special=tuple(special))
    tokens = tuple(unknown_symbols.get(n) or tok.token_str(i) for n, i in enumerate(ids))
    table = tok._table
    assert isinstance(table, MergeTable)  # rank tables hold every byte
    fix = f"it is encoded as the unknown token {tok.unk_token!r}" if tok.unk_token is not None else "it has no id"
    notes = tuple(f"unknown piece: {table.why_unknown(symbol)}; {fix}" for symbol in dict.fromkeys(unknown_symbols.values()))
    unknown = tuple(n in unknown_symbols for n in range(len(ids)))
    return Encoding(text, tuple(ids), tokens, tuple(spans), tuple(special), unknown, notes)


def _token_spans(
    tok: BpeTokenizer, text: str, allowed: frozenset[str]
) -> tuple[list[int], list[Span], list[bool], dict[int, str]]:
    """Ids, byte spans in ``text.encode()``, special flags and the unknown pieces (token index ->
    symbol), piece by piece (or as running sums where the tokens spell the text's bytes)."""
    encoding = tok._fast_encoding()
    pre = tok.pre_tokenizer
    tiles = tok.byte_level and pre.space_marker is None and pre.end_of_word_suffix is None
    unk = tok._table.unk_id if isinstance(tok._table, MergeTable) else None
    if encoding is not None or tiles:
        # Byte-level tokens (specials included) spell the text's bytes in order, so spans are
        # running sums -- unless an unknown symbol stands for a byte the vocabulary lacks.
        try:
            if encoding is not None:
                ids = encoding.encode(text, allowed_special=allowed, disallowed_special=())
            else:
                ids = tok._encode_python(text, allowed)
        except UnknownSymbolError:
            ids = None
        if ids is not None and (unk is None or unk not in ids):
            ends = list(accumulate(map(len, map(tok._id_bytes.__getitem__, ids))))  # type: ignore[arg-type]  # no hole: encoded
            specials = tok._special_ids
            return ids, list(zip([0, *ends[:-1]], ends)), [i in specials for i in ids], {}
    byte_at = byte_offsets(text)
    ids, spans, special = [], [], []
    unknown: dict[int, str] = {}
    start = 0
    segments = split_specials(text, allowed) if allowed else ([(text, False)] if text else [])
    for segment, is_special in segments:
        if is_special:
            ids.append(tok._specials[segment])
            spans.append((byte_at(start), byte_at(start + len(segment))))
            special.append(True)
        else:
            for piece, s, e in tok.pre_tokenizer.split_with_spans(segment):
                piece_ids = tok._piece_ids(piece)
                first = len(ids)
                ids += piece_ids
                spans += _piece_spans(tok, piece, piece_ids, start + s, start + e, byte_at, unknown, first)
                special += [False] * len(piece_ids)
        start += len(segment)
    return ids, spans, special, unknown


def _piece_spans(
    tok: BpeTokenizer, piece: str, ids: Sequence[int], s: int, e: int, byte_at: ByteAt, unknown: dict[int, str], first: int
) -> list[Span]:
    """Byte spans of one piece's tokens; ``[s, e)`` is the piece's character span in the text.

    Unknown pieces (the unk token, or :data:`UNKNOWN_ID`) stand for one symbol each; their
    symbols are recorded in ``unknown`` under their token index (``first`` + position)."""
    table = tok._table
    unk = table.unk_id if isinstance(table, MergeTable) else None
    # boundary[k] = text byte offset of the piece's k-th unit (bytes if byte-level, else chars)
    offset = len(piece) - (e - s)  # 1 when the pre-tokenizer prepended a ▁ that covers no text
    boundary: list[int] = []
    for ci, ch in enumerate(piece):
        x = s + ci - offset if ci >= offset else s
        base = byte_at(x)
        if tok.byte_level:
            width = byte_at(x + 1) - base if ci >= offset else 0  # a ▁ standing for a 1-byte space
            boundary += [base + min(d, width) for d in range(len(ch.encode("utf-8", "surrogatepass")))]
        else:
            boundary.append(base)
    boundary.append(byte_at(e))
    suffix = tok.pre_tokenizer.end_of_word_suffix or ""
    spans, k = [], 0
    for n, token_id in enumerate(ids):
        if token_id == unk or token_id == UNKNOWN_ID:
            width = 1
            assert isinstance(table, MergeTable)  # a rank table holds every byte: nothing unknown
            unknown[first + n] = table.symbol_at(piece, k)
        elif tok.byte_level:
            width = len(tok.token_bytes(token_id))
        else:
            width = len(tok.token_str(token_id)) - (len(suffix) if n == len(ids) - 1 else 0)
        spans.append((boundary[k], boundary[min(k + width, len(boundary) - 1)]))
        k += width
    return spans


def byte_offsets(text: str) -> ByteAt:
    """A function: character offset -> UTF-8 byte offset in ``text`` (identity for ASCII).

    >>> at = byte_offsets("a한b")
    >>> [at(i) for i in range(4)]
    [0, 1, 4, 5]
    """
    if text.isascii():
        return int
    table = [0]
    total = 0
    for ch in text:
        o = ord(ch)
        total += 1 if o < 0x80 else 2 if o < 0x800 else 3 if o < 0x10000 else 4
        table.append(total)
    return table.__getitem__
