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
  unknown token left out), and ``zipf_exponent``.

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
from .encoded import detailed_slices


@dataclass
class TextMetrics:
    """Counts of one text (or of several added up); the ratios are properties."""

    name: str
    tokens: int = 0
    characters: int = 0
    bytes: int = 0
    words: int = 0
    continued_words: int = 0
    frequencies: Counter[int] = field(default_factory=Counter)

    def add(self, other: TextMetrics) -> None:
        self.tokens += other.tokens
        self.characters += other.characters
        self.bytes += other.bytes
        self.words += other.words
        self.continued_words += other.continued_words
        self.frequencies.update(other.frequencies)

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
        }


def measure_text(tokenizer: Tokenizer, text: str, name: str = "", *, progress: Callable[[int], None] | None = None) -> TextMetrics:
    """Encode ``text`` and count (see the module docstring)."""
    out = TextMetrics(name)
    for piece, ids, spans in detailed_slices(tokenizer, text):
        raw_len, words, continued = _words(piece, spans)
        out.tokens += len(ids)
        out.characters += len(piece)
        out.bytes += raw_len
        out.words += words
        out.continued_words += continued
        out.frequencies.update(ids)
        if progress is not None:
            progress(len(piece))
    return out


def _words(text: str, spans: Sequence[tuple[int, int]]) -> tuple[int, int, int]:
    """(UTF-8 length, words, words covered by 2+ tokens) of one slice."""
    codes = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
    widths = 1 + (codes >= 0x80).astype(np.int64) + (codes >= 0x800) + (codes >= 0x10000)
    byte_at = np.concatenate(([0], np.cumsum(widths)))
    found = word_spans(text)
    if not found:
        return int(byte_at[-1]), 0, 0
    chars = np.array(found, dtype=np.int64)
    word_start, word_end = byte_at[chars[:, 0]], byte_at[chars[:, 1]]
    token = np.array([s for s in spans if s[1] > s[0]] or [(0, 0)], dtype=np.int64)
    starts, ends = np.sort(token[:, 0]), np.sort(token[:, 1])
    # tokens overlapping [ws, we): those starting before we, less those ending by ws (which start before it too)
    overlapping = np.searchsorted(starts, word_end, "left") - np.searchsorted(ends, word_start, "right")
    return int(byte_at[-1]), len(found), int(np.count_nonzero(overlapping >= 2))


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
    each = [measure_text(tokenizer, text, name) for name, text in texts]
    total = TextMetrics("total")
    for m in each:
        total.add(m)
    return each, total


__all__ = ["Premium", "TextMetrics", "language_premium", "measure_files", "measure_text"]
