"""A corpus encoded exactly, a slice at a time: what the audit and the metrics read a file through.

Encoding a 10 MB file in one call holds millions of tokens' details at once. A tokenizer that
declares ``capabilities.line_safe`` encodes a text as the encodings of its lines laid end to end
(:mod:`bpe_engine.compare.segments`), so the text is cut at such line starts into slices of about
:data:`SLICE_CHARS` characters: the ids are exactly those of the whole text, memory stays bounded,
and a caller can watch the vocabulary grow as the corpus does. Other tokenizers get the text whole.

Tokens a post-processor adds (BERT's ``[CLS]``, a template's ``<s>``) are not the text's, so they
are left out: ``add_special_tokens=False`` for a tokenizer that declares ``adds_specials``, and
:func:`added_tokens` for detailed encodings -- the rule Compare's Stats view counts types by too, so
its efficiencies are these.

>>> from bpe_engine.catalog.openai import load_reference
>>> [len(ids) for _, ids in id_slices(load_reference("gpt2"), "one\\ntwo\\n" * 3, slice_chars=8)]
[4, 4, 4]
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, TypeVar

from ..corpus.blocks import cut_points
from ..errors import UnknownSymbolError
from ..types import Encoding, Tokenizer

T = TypeVar("T")

SLICE_CHARS = 1 << 18
"""Characters per slice (~256 K): small enough to bound memory, big enough that a slice's call
overhead does not show."""


def text_slices(tokenizer: Tokenizer, text: str, *, slice_chars: int = SLICE_CHARS) -> Iterator[str]:
    """``text`` in slices whose encodings, laid end to end, are the encoding of ``text``."""
    if not tokenizer.capabilities.line_safe or len(text) <= slice_chars:
        if text:
            yield text
        return
    start = 0
    for point in cut_points(text):
        if point - start >= slice_chars:
            yield text[start:point]
            start = point
    if start < len(text):
        yield text[start:]


def plain_ids(tokenizer: Tokenizer, text: str) -> list[int]:
    """The ids of ``text`` alone: special-token text as text, no tokens a post-processor adds.
    A symbol the vocabulary cannot spell (a character-level model without an unknown token) is
    :data:`~bpe_engine.types.UNKNOWN_ID`, as in a detailed encoding, instead of an error."""
    try:
        if tokenizer.capabilities.adds_specials:
            encode: Any = tokenizer.encode  # the declared contract of adds_specials (types.Capabilities)
            return list(encode(text, special_mode="text", add_special_tokens=False))
        return list(tokenizer.encode(text, special_mode="text"))
    except UnknownSymbolError:
        enc = tokenizer.encode_detailed(text, special_mode="text")
        return [i for i, special in zip(enc.ids, enc.special) if not special]


def id_slices(tokenizer: Tokenizer, text: str, *, slice_chars: int = SLICE_CHARS) -> Iterator[tuple[int, list[int]]]:
    """``(characters read so far, ids of the slice)`` for each slice of ``text``."""
    done = 0
    for piece in text_slices(tokenizer, text, slice_chars=slice_chars):
        done += len(piece)
        yield done, plain_ids(tokenizer, piece)


def added_tokens(enc: Encoding) -> list[int]:
    """The indices of the tokens a post-processor added: special tokens that cover no text.

    A special token spelled in the text (``special_mode="special"``) covers its characters and is
    the text's; with ``special_mode="text"`` no text becomes a special token, so every special token
    is an added one. Found with ``tuple.index`` (a C loop), not a Python pass over every token:
    Compare asks on every key.

    >>> from bpe_engine.registry import load_tokenizer
    >>> enc = load_tokenizer("bert-base-uncased").encode_detailed("a [SEP]", special_mode="special")
    >>> enc.tokens, added_tokens(enc)
    (('[CLS]', 'a', '[SEP]', '[SEP]'), [0, 3])
    """
    found: list[int] = []
    special, spans = enc.special, enc.byte_spans
    k = -1
    while True:
        try:
            k = special.index(True, k + 1)
        except ValueError:
            return found
        if spans[k][1] <= spans[k][0]:
            found.append(k)


def _without(items: Sequence[T], drop: list[int]) -> list[T]:
    """``items`` less the (ascending) indices ``drop``, a slice at a time."""
    out: list[T] = []
    start = 0
    for k in drop:
        out.extend(items[start:k])
        start = k + 1
    out.extend(items[start:])
    return out


def text_ids(enc: Encoding) -> Sequence[int]:
    """The ids of the tokens that stand for text (:func:`added_tokens` left out): what the
    efficiencies count, here and in Compare's Stats rows."""
    drop = added_tokens(enc)
    return _without(enc.ids, drop) if drop else enc.ids


def detailed_slices(
    tokenizer: Tokenizer, text: str, *, slice_chars: int = SLICE_CHARS
) -> Iterator[tuple[str, list[int], list[tuple[int, int]]]]:
    """``(slice text, ids, byte spans in the slice)`` for each slice, post-processor tokens left out."""
    for piece in text_slices(tokenizer, text, slice_chars=slice_chars):
        enc = tokenizer.encode_detailed(piece, special_mode="text")
        drop = added_tokens(enc)
        yield enc.text, _without(enc.ids, drop), _without(enc.byte_spans, drop)


__all__ = ["SLICE_CHARS", "added_tokens", "detailed_slices", "id_slices", "plain_ids", "text_ids", "text_slices"]
