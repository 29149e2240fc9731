"""Where a new comparison starts to draw differently from the last one.

Typing into Compare re-encodes only the edited line (:class:`bpe_engine.compare.segments.SegmentCache`),
so every row's tokens before the edit are the ones drawn a key ago. The aligned rows keep the
blocks that end before that point instead of laying them out again: laying out a block asks each
row which token owns every character (``RowAlignment.token_of_char``, built over the whole text),
~45 % of the UI thread's time for a key typed into a 5 KB text in a py-spy profile.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from itertools import compress, count
from operator import le, ne

from bpe_engine.compare import Comparison


def _common_prefix(a: Sequence[object], b: Sequence[object]) -> int:
    """How many leading items ``a`` and ``b`` share: the index of the first difference, found by
    iterators that run in C (slicing halves, or a Python loop, cost ~25 % of a key on 5 KB)."""
    return next(compress(count(), map(ne, a, b)), min(len(a), len(b)))


def unchanged_before(old: Comparison, new: Comparison, upto: int) -> int:
    """An offset ``<= upto`` before which ``new`` draws exactly as ``old`` did: the same text and,
    in every row, the same tokens (byte spans, special and unknown flags) up to there -- so a
    block ending before it shows the same cells, its cut column at the end included. Typing
    re-encodes only the edited line, so the blocks above the edit come out the same. Only what
    lies before ``upto`` (where the blocks drawn so far end) is compared. 0 when a row differs as
    a whole (rows changed or failed, tokens out of text order)."""
    if len(old.rows) != len(new.rows) or old.special_mode != new.special_mode:
        return 0
    limit = _common_prefix(old.text[:upto], new.text[:upto])
    for row_a, row_b in zip(old.rows, new.rows, strict=True):
        ea, eb, aa, ab = row_a.encoding, row_b.encoding, row_a.alignment, row_b.alignment
        if ea is None or eb is None or aa is None or ab is None or row_a.name != row_b.name:
            return 0
        starts_a, starts_b = aa.token_starts, ab.token_starts
        if not (all(map(le, starts_a, starts_a[1:])) and all(map(le, starts_b, starts_b[1:]))):
            return 0  # overlapping tokens: a later token could own an earlier character
        n = max(bisect_right(starts_a, limit), bisect_right(starts_b, limit))  # tokens starting by limit
        unknown_a = ea.unknown[:n] or (False,) * min(n, len(ea.special))
        unknown_b = eb.unknown[:n] or (False,) * min(n, len(eb.special))
        if ea.byte_spans[:n] == eb.byte_spans[:n] and ea.special[:n] == eb.special[:n] and unknown_a == unknown_b:
            same = n
        else:
            same = min(
                _common_prefix(ea.byte_spans[:n], eb.byte_spans[:n]),
                _common_prefix(ea.special[:n], eb.special[:n]),
                _common_prefix(unknown_a, unknown_b),
            )
        for starts in (starts_a, starts_b):
            if same < len(starts):
                limit = min(limit, starts[same])
    return limit
