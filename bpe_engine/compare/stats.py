"""Per-row statistics of the comparison view, from one encoding and its text.

The ratios answer "how much text does one token carry?" in the units people care about:
code points, graphemes (what a reader counts as one character: 👩‍👩‍👧 is 1 grapheme of 5 code
points) and UTF-8 bytes per token, tokens per whitespace word, the share of tokens that hold
only part of a character, and the share of unknown pieces -- text the model could not represent
at all (``Encoding.unknown``: WordPiece's ``[UNK]``, SentencePiece's ``<unk>``, and a symbol a
vocabulary without an unknown token cannot spell; the count ``encode`` prints). :func:`relative_cost` puts a row beside a baseline row (the
"Korean premium": how many tokens one text costs here against there).

Shannon and Rényi efficiency (α 2.5) say how evenly the row spends its tokens over the types it
uses. They are ``bpe-explorer metrics``'s figures, computed by the same functions
(:mod:`bpe_engine.metrics.efficiency`) over the same tokens -- the row's final ids, whether encoded
whole or stitched from cached lines, less the ones a post-processor added
(:func:`bpe_engine.metrics.encoded.text_ids`) -- so the app and the command never disagree.

>>> from bpe_engine.types import Encoding
>>> enc = Encoding("한 a", (1, 2, 3, 4), ("íķ", "ľ", "Ġ", "a"), ((0, 2), (2, 3), (3, 4), (4, 5)), (False,) * 4)
>>> s = row_stats(enc)
>>> s.tokens, s.chars, s.graphemes, s.bytes, s.words, s.partial_tokens
(4, 3, 3, 5, 2, 2)
>>> s.chars_per_token, s.bytes_per_token, s.tokens_per_word, s.partial_share
(0.75, 1.25, 2.0, 0.5)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from ..core.text_index import TextIndex, count_words, index_of
from ..inspect.partial import partial_flags
from ..types import Encoding


@dataclass(frozen=True, slots=True)
class RowStats:
    """Counts for one row; the ratios are ``None`` where the denominator is zero."""

    tokens: int
    chars: int
    bytes: int
    words: int
    partial_tokens: int
    special_tokens: int
    unk_tokens: int = 0
    added_tokens: int = 0
    """Tokens the tokenizer added of its own (BERT's ``[CLS]``/``[SEP]``): shown in the row, not
    in ``tokens`` -- the one rule of ``compare``, ``metrics`` and ``languages``: the text's own tokens."""
    graphemes: int | None = None
    observed_types: int = 0
    shannon_efficiency: float | None = None
    renyi_efficiency: float | None = None
    alpha: float | None = None
    """The Rényi order (None where the efficiencies were not computed: a hand-made row)."""

    @property
    def graphemes_per_token(self) -> float | None:
        return self.graphemes / self.tokens if self.tokens and self.graphemes is not None else None

    @property
    def chars_per_token(self) -> float | None:
        return self.chars / self.tokens if self.tokens else None

    @property
    def bytes_per_token(self) -> float | None:
        return self.bytes / self.tokens if self.tokens else None

    @property
    def tokens_per_word(self) -> float | None:
        return self.tokens / self.words if self.words else None

    @property
    def partial_share(self) -> float | None:
        return self.partial_tokens / self.tokens if self.tokens else None

    @property
    def unk_rate(self) -> float | None:
        return self.unk_tokens / self.tokens if self.tokens else None

    def as_dict(self) -> dict[str, int | float | None]:
        """Counts and ratios, JSON-ready."""
        return {
            "tokens": self.tokens,
            "chars": self.chars,
            "graphemes": self.graphemes,
            "bytes": self.bytes,
            "words": self.words,
            "partial_tokens": self.partial_tokens,
            "special_tokens": self.special_tokens,
            "unk_tokens": self.unk_tokens,
            "added_tokens": self.added_tokens,
            "chars_per_token": self.chars_per_token,
            "graphemes_per_token": self.graphemes_per_token,
            "bytes_per_token": self.bytes_per_token,
            "tokens_per_word": self.tokens_per_word,
            "partial_share": self.partial_share,
            "unk_rate": self.unk_rate,
            "observed_types": self.observed_types,
            "shannon_efficiency": self.shannon_efficiency,
            "renyi_efficiency": self.renyi_efficiency,
            "alpha": self.alpha,
        }


def count_graphemes(index: TextIndex) -> int:
    """Extended grapheme clusters (Unicode's user-perceived characters, the ``regex`` module's
    ``\\X``): ``👩‍👩‍👧`` and ``e`` + combining accent are one each, ``\\r\\n`` is one."""
    return len(index.grapheme_char_starts) - 1


@dataclass(frozen=True, slots=True)
class RelativeCost:
    """A row's tokens against the baseline row's on the same text: ``ratio`` 1.5 means the
    text costs 50% more tokens here (``None`` when the baseline has no tokens)."""

    tokens: int
    baseline_tokens: int

    @property
    def ratio(self) -> float | None:
        return self.tokens / self.baseline_tokens if self.baseline_tokens else None

    @property
    def extra(self) -> int:
        return self.tokens - self.baseline_tokens

    def label(self) -> str:
        """``×1.52 (+26)``; ``–`` without a ratio; ``baseline`` is the caller's to say."""
        if self.ratio is None:
            return "–"
        return f"×{self.ratio:.2f} ({self.extra:+,})"


def relative_cost(row: RowStats | None, baseline: RowStats | None) -> RelativeCost | None:
    """``row`` against ``baseline`` (None when either failed).

    >>> relative_cost(RowStats(30, 10, 10, 2, 0, 0), RowStats(20, 10, 10, 2, 0, 0)).label()
    '×1.50 (+10)'
    """
    if row is None or baseline is None:
        return None
    return RelativeCost(row.tokens, baseline.tokens)


def row_stats(
    encoding: Encoding,
    index: TextIndex | None = None,
    *,
    flags: Sequence[bool] | None = None,
    words: int | None = None,
) -> RowStats:
    """Statistics of one encoding; ``flags`` (partial flags) and ``words`` may be passed when
    already computed for the same text. Unknown pieces are the encoding's own marks, whether or
    not the vocabulary has an unknown token (a model without one showed "–" beside the 34
    unknown pieces ``encode`` counted)."""
    index = index or index_of(encoding.text)
    if flags is None:
        flags = partial_flags(encoding, index)
    types, shannon, renyi, alpha = _efficiencies(encoding)
    from ..metrics.encoded import added_tokens  # lazily, as _efficiencies (metrics reads this module)

    added = len(added_tokens(encoding))
    return RowStats(
        tokens=len(encoding.ids) - added,
        chars=index.n_chars,
        graphemes=count_graphemes(index),
        bytes=index.n_bytes,
        words=count_words(encoding.text) if words is None else words,
        partial_tokens=sum(flags),
        special_tokens=sum(encoding.special) - added,
        unk_tokens=sum(encoding.unknown),
        added_tokens=added,
        observed_types=types,
        shannon_efficiency=shannon,
        renyi_efficiency=renyi,
        alpha=alpha,
    )


def _efficiencies(encoding: Encoding) -> tuple[int, float | None, float | None, float]:
    """(observed types, Shannon efficiency, Rényi efficiency, α) of the text's tokens, as ``metrics``
    computes them.

    Imported here, not at the top: :mod:`bpe_engine.metrics` reads this module (its words are
    Compare's), and its efficiencies import numpy, which opening Compare does not wait for (the
    app imports it in its warm-up worker; see ``tui.lazy_tabs``).
    """
    from ..metrics.efficiency import DEFAULT_ALPHA, efficiencies
    from ..metrics.encoded import text_ids

    counts = Counter(text_ids(encoding)).values()
    shannon, renyi = efficiencies(counts, DEFAULT_ALPHA)
    return len(counts), shannon, renyi, DEFAULT_ALPHA
