"""One inspector run, computed off the UI thread: the encoding and everything drawn from it.

Plain data for the pane (:class:`Inspected`); user errors become ``error``, never exceptions.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bpe_engine.compare.align import RowAlignment, align_row
from bpe_engine.core.text_index import clean_text, index_of
from bpe_engine.errors import BpeEngineError
from bpe_engine.inspect import PartialGroup, StreamStep, TokenDetail, partial_groups, stream_decode, token_details
from bpe_engine.special_text import find_special_text, special_text_note
from bpe_engine.types import Encoding, SpecialMode

from ..models import sources


@dataclass(frozen=True)
class Inspected:
    """One finished encoding, ready to draw."""

    generation: int
    spec: str
    name: str
    text: str
    notes: tuple[str, ...]
    details: tuple[TokenDetail, ...]
    groups: tuple[PartialGroup, ...]
    steps: tuple[StreamStep, ...]
    byte_level: bool
    tokenizer: Any
    error: str | None = None
    encoding: Encoding | None = None
    alignment: RowAlignment | None = None
    graphemes: int = 0


def encode_for_inspector(generation: int, text: str, spec: str, mode: SpecialMode, ours: Any) -> Inspected:
    """Everything the pane draws, computed off the UI thread; user errors become ``error``."""
    cleaned = clean_text(text)
    tok = sources.get(spec, ours)
    name = tok.name
    byte_level = tok.capabilities.byte_level
    index = index_of(cleaned.text)
    graphemes = len(index.grapheme_char_starts) - 1
    try:
        enc = tok.encode_detailed(cleaned.text, special_mode=mode)
    except BpeEngineError as exc:
        return Inspected(generation, spec, name, cleaned.text, cleaned.notes, (), (), (), byte_level, tok, str(exc), graphemes=graphemes)
    except Exception as exc:  # noqa: BLE001 - a loaded file's bug is shown, never crashes the app
        error = f"{name} failed: {type(exc).__name__}: {exc}"
        return Inspected(generation, spec, name, cleaned.text, cleaned.notes, (), (), (), byte_level, tok, error, graphemes=graphemes)
    details = tuple(token_details(enc, tok))
    groups = tuple(partial_groups(enc))
    steps = tuple(stream_decode([d.data for d in details]))
    found = find_special_text(cleaned.text, tok.special_tokens)
    special = special_text_note(found, mode, name, option="the <|…|> selector above:")
    notes = (*cleaned.notes, *enc.notes, *((special,) if special else ()))
    alignment = align_row(enc, index) if enc.text == cleaned.text else None
    return Inspected(generation, spec, name, enc.text, notes, details, groups, steps, byte_level, tok, None, enc, alignment, graphemes)
