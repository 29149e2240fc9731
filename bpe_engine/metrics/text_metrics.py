"""The numbers of ``bpe-explorer metrics``: one tokenizer on one or more texts, file by file and in all.

For each text (a file), encoded exactly in slices (:mod:`.encoded`), post-processor tokens left out:

* ``tokens``, ``characters`` (code points), ``bytes`` (UTF-8), ``words`` (whitespace-separated, as
  Compare counts them: :func:`bpe_engine.core.text_index.count_words`);
* ``chars_per_token``, ``bytes_per_token``; ``tokens_per_word`` -- the *fertility* (Rust et al.
  2021), tokens over words as Compare's Stats view has it;
* ``continued_word_rate`` -- the share of words whose characters are spread over two or more
  tokens (Rust et al.'s "proportion of continued words");
* ``shannon_efficiency``, ``renyi_efficiency`` (order ``alpha``) and ``observed_types``: Zouhar et
  al. 2023 as ``tokenization-scorer`` defines them (:mod:`.efficiency`), over the token ids;
* ``vocabulary_use`` -- ordinary token types seen over the ordinary vocabulary (specials and the
  unknown token left out), and ``zipf_exponent``;
* ``unknown``, ``byte_fallback`` and their shares of the tokens
  (:mod:`bpe_engine.metrics.token_shares`), ``unreliable`` when they pass 5 % -- a count made of
  ``[UNK]`` says nothing of how well the vocabulary spells the text -- and ``words_unclear`` when the
  whitespace words average over 15 characters (a script that does not space its words: tokens per
  word means little there).

The text is encoded with ``encode`` and the spans are read off the tokens' bytes
(:class:`~bpe_engine.metrics.spans.PartEncoder`): the byte-level built-ins stay on tiktoken's exact
path, ``encode_detailed`` is asked only where the tokens' bytes do not spell the text.

:func:`language_premium` puts parallel texts (one content, several languages) side by side: each
one's tokens over the first's (Petrov et al. 2023, "Language Model Tokenizers Introduce Unfairness
Between Languages").
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from ..core.text_index import word_spans
from ..types import Tokenizer
from .efficiency import efficiencies, zipf_exponent
from .encoded import text_slices
from .languages.figures import LONG_WORD_CHARS
from .languages.units import part_units
from .spans import PartEncoder, byte_offsets, covered_by_several
from .token_shares import TokenShares, share, unreliable


@dataclass
class TextMetrics:
    """Counts of one text (or of several added up); the ratios are properties."""

    name: str
    tokens: int = 0
    characters: int = 0
    bytes: int = 0
    words: int = 0
    continued_words: int = 0
    unknown: int = 0
    byte_fallback: int = 0
    frequencies: Counter[int] = field(default_factory=Counter)

    def add(self, other: TextMetrics) -> None:
        self.tokens += other.tokens
        self.characters += other.characters
        self.bytes += other.bytes
        self.words += other.words
        self.continued_words += other.continued_words
        self.unknown += other.unknown
        self.byte_fallback += other.byte_fallback
        self.frequencies.update(other.frequencies)

    @property
    def unreliable(self) -> bool:
        """Unknown and byte-fallback tokens make up more than 5 % of the count."""
        return unreliable(self.unknown, self.byte_fallback, self.tokens)

    @property
    def words_unclear(self) -> bool:
        """Whitespace words averaging over 15 characters: not words of this script."""
        return bool(self.characters) and (not self.words or self.characters / self.words > LONG_WORD_CHARS)

    def as_dict(self, *, alpha: float, ordinary: frozenset[int]) -> dict[str, object]:
        """The JSON object of ``metrics --json`` (``ordinary``: the vocabulary's ordinary ids)."""
        counts = list(self.frequencies.values())
        seen = sum(1 for i in self.frequencies if i in ordinary)
        shannon, renyi = efficiencies(counts, alpha)
        return {
            "name": self.name,
            "tokens": self.tokens,
            "characters": self.characters,
            "bytes": self.bytes,
            "words": self.words,
            "chars_per_token": _ratio(self.characters, self.tokens),
            "bytes_per_token": _ratio(self.bytes, self.tokens),
            "tokens_per_word": _ratio(self.tokens, self.words),
            "continued_word_rate": _ratio(self.continued_words, self.words),
            "observed_types": len(self.frequencies),
            "shannon_efficiency": shannon,
            "renyi_efficiency": renyi,
            "alpha": alpha,
            "vocabulary_use": _ratio(seen, len(ordinary)),
            "zipf_exponent": zipf_exponent(counts),
            "unknown": self.unknown,
            "byte_fallback": self.byte_fallback,
            "unknown_share": share(self.unknown, self.tokens),
            "byte_fallback_share": share(self.byte_fallback, self.tokens),
            "unreliable": self.unreliable,
            "words_unclear": self.words_unclear,
        }


def measure_text(
    tokenizer: Tokenizer,
    text: str,
    name: str = "",
    *,
    progress: Callable[[int], None] | None = None,
    encoder: PartEncoder | None = None,
    shares: TokenShares | None = None,
) -> TextMetrics:
    """Encode ``text`` and count (see the module docstring). ``encoder`` and ``shares`` may be
    passed to reuse them over several texts of one tokenizer."""
    encoder = encoder or PartEncoder(tokenizer)
    shares = shares or TokenShares.of(tokenizer)
    out = TextMetrics(name)
    for piece in text_slices(tokenizer, text):
        encoded = encoder.encode([piece])
        starts, ends = part_units([piece], "word")
        at = byte_offsets(piece)
        unknown, byte = shares.count(encoded.ids)
        out.tokens += len(encoded.ids)
        out.characters += len(piece)
        out.bytes += encoded.n_bytes
        out.words += len(starts)
        out.continued_words += covered_by_several(at[starts], at[ends], encoded)
        out.unknown += unknown
        out.byte_fallback += byte
        ids, counts = np.unique(encoded.ids, return_counts=True)
        out.frequencies.update(dict(zip(ids.tolist(), counts.tolist(), strict=True)))
        if progress is not None:
            progress(len(piece))
    return out


def _ratio(top: int, bottom: int) -> float | None:
    return top / bottom if bottom else None


@dataclass(frozen=True)
class Premium:
    """One parallel text's tokens against the first's (``premium`` 1.0 for the first)."""

    name: str
    tokens: int
    premium: float | None


def language_premium(measured: Sequence[TextMetrics]) -> list[Premium]:
    """Each text's tokens relative to the first text's (Petrov et al. 2023).

    >>> [p.premium for p in language_premium([TextMetrics("en", tokens=100), TextMetrics("ko", tokens=238)])]
    [1.0, 2.38]
    """
    base = measured[0].tokens if measured else 0
    return [Premium(m.name, m.tokens, _ratio(m.tokens, base)) for m in measured]


def measure_files(tokenizer: Tokenizer, texts: Sequence[tuple[str, str]]) -> tuple[list[TextMetrics], TextMetrics]:
    """Each (name, text) measured, and the totals over all of them."""
    encoder, shares = PartEncoder(tokenizer), TokenShares.of(tokenizer)
    each = [measure_text(tokenizer, text, name, encoder=encoder, shares=shares) for name, text in texts]
    total = TextMetrics("total")
    for m in each:
        total.add(m)
    return each, total


__all__ = ["Premium", "TextMetrics", "language_premium", "measure_files", "measure_text"]
