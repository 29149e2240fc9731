"""Run one text through several tokenizers and line the results up: the comparison's data.

:func:`compare` is what the CLI and the app call. A row whose tokenizer fails (special-token
text under ``refuse``, a broken loaded file) keeps its place with an error message instead of
an encoding, so one bad row never hides the others.

>>> from bpe_engine.compare.baselines import CharacterTokenizer, WhitespaceWordTokenizer
>>> c = compare("hi you", [CharacterTokenizer(), WhitespaceWordTokenizer()])
>>> [(r.name, r.stats.tokens) for r in c.rows], c.disagreements
([('characters', 6), ('whitespace words', 2)], (1, 4, 5))
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import accumulate

from ..core.text_index import TextIndex, clean_text, count_words, index_of
from ..errors import BpeEngineError, UnknownSymbolError
from ..inspect.partial import partial_flags
from ..types import DEFAULT_SPECIAL_MODE, Encoding, SpecialMode, Tokenizer
from .align import RowAlignment, align_row, disagreements
from .segments import SegmentCache
from .stats import RowStats, row_stats


@dataclass(frozen=True, slots=True)
class CompareRow:
    """One tokenizer's result; ``error`` is set (and the rest ``None``) when it failed."""

    name: str
    encoding: Encoding | None
    alignment: RowAlignment | None
    stats: RowStats | None
    partial: tuple[bool, ...]
    byte_level: bool
    seconds: float
    error: str | None = None


@dataclass(frozen=True, slots=True)
class Comparison:
    """All rows on one character axis of ``text`` (``notes`` says what cleaning changed)."""

    text: str
    notes: tuple[str, ...]
    special_mode: SpecialMode
    rows: tuple[CompareRow, ...]
    disagreements: tuple[int, ...]
    index: TextIndex


def compare(
    text: str,
    tokenizers: Sequence[Tokenizer],
    *,
    special_mode: SpecialMode = DEFAULT_SPECIAL_MODE,
    cache: SegmentCache | None = None,
) -> Comparison:
    """Encode ``text`` with every tokenizer and align the rows on its characters.

    Lone surrogates are replaced by U+FFFD first (one for one, so offsets hold) and reported in
    ``notes``; every row sees the same cleaned text. With a ``cache``, rows re-encode only the
    lines they have not seen (see :mod:`bpe_engine.compare.segments`): what the app does as you type.
    """
    cleaned = clean_text(text)
    index = index_of(cleaned.text)
    words = count_words(cleaned.text)
    rows = tuple(_row(tok, cleaned.text, index, words, special_mode, cache) for tok in tokenizers)
    aligned = [r.alignment for r in rows if r.alignment is not None]
    return Comparison(cleaned.text, cleaned.notes, special_mode, rows, disagreements(aligned), index)


def _encode(tok: Tokenizer, text: str, mode: SpecialMode) -> Encoding:
    """``encode_detailed``, with a shortcut for byte-level models.

    A byte-level model's tokens tile the text's UTF-8 exactly, so the spans follow from the
    token lengths; ``encode`` plus one ``token_bytes`` per id is several times faster than the
    general per-piece span mapping. The tiling is checked, and anything else takes the general path.
    """
    if not tok.capabilities.byte_level:
        return tok.encode_detailed(text, special_mode=mode)
    try:
        ids = tok.encode(text, special_mode=mode)
    except UnknownSymbolError:  # no id to give: encode_detailed shows it as an unknown piece
        return tok.encode_detailed(text, special_mode=mode)
    lengths = [len(b) for b in map(tok.token_bytes, ids)]
    if sum(lengths) != len(text.encode("utf-8")):
        return tok.encode_detailed(text, special_mode=mode)
    ends = list(accumulate(lengths))
    special_ids = set(tok.special_tokens.values())
    return Encoding(
        text=text,
        ids=tuple(ids),
        tokens=tuple(map(tok.token_str, ids)),
        byte_spans=tuple(zip([0, *ends[:-1]], ends)),
        special=tuple(i in special_ids for i in ids),
    )


def _row(tok: Tokenizer, text: str, index: TextIndex, words: int, mode: SpecialMode, cache: SegmentCache | None) -> CompareRow:
    name = tok.name
    byte_level = tok.capabilities.byte_level
    start = time.perf_counter()
    try:
        stitched = cache.row(tok, text, mode, _encode) if cache is not None else None
        if stitched is not None:
            enc, alignment, flags = stitched
        else:
            enc = _encode(tok, text, mode)
            if enc.text != text:
                raise BpeEngineError(f"{name} returned an encoding of different text; its offsets cannot be aligned")
            flags = partial_flags(enc, index)
            alignment = align_row(enc, index)
        stats = row_stats(enc, index, flags=flags, words=words)
    except BpeEngineError as exc:
        return CompareRow(name, None, None, None, (), byte_level, time.perf_counter() - start, str(exc))
    except Exception as exc:  # noqa: BLE001 - a loaded or user tokenizer must not take the view down
        message = f"{name} failed: {type(exc).__name__}: {exc}"
        return CompareRow(name, None, None, None, (), byte_level, time.perf_counter() - start, message)
    return CompareRow(name, enc, alignment, stats, flags, byte_level, time.perf_counter() - start)
