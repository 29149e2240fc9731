"""What a corpus uses of a vocabulary: tokens never produced, tokens only seen inside longer ones,
and how the vocabulary in use grows with the corpus.

* **never used** -- ordinary tokens (special and unknown tokens left out) the corpus's encoding
  never holds;
* **only inside longer tokens** -- never-used tokens whose bytes do occur in the corpus, but only
  inside a longer token that was used (BPE's intermediate merges: ``ortun`` on the way to
  ``fortune``). These are the "under-trained" candidates of Land & Bartolo 2024 that a corpus
  search for the text alone would miss;
* **growth** -- distinct tokens seen after each slice of the corpus (characters read, tokens so far,
  distinct, share of the vocabulary): how fast a corpus exhausts the vocabulary.

The corpus is encoded slice by slice exactly as a whole (:mod:`bpe_engine.metrics.encoded`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from ..metrics.encoded import SLICE_CHARS, id_slices
from ..metrics.vocabulary import vocabulary_ids
from ..types import Tokenizer

GROWTH_POINTS = 32
"""About how many growth points a corpus gets (a slice is at least 4,096 characters)."""


@dataclass(frozen=True)
class GrowthPoint:
    characters: int
    tokens: int
    distinct: int
    share: float


@dataclass(frozen=True)
class CorpusUse:
    """How one corpus uses ``vocabulary`` ordinary tokens (see the module docstring)."""

    characters: int
    tokens: int
    vocabulary: int
    frequencies: dict[int, int]
    never_used: tuple[int, ...]
    only_inside: tuple[int, ...]
    growth: tuple[GrowthPoint, ...]

    @property
    def used(self) -> int:
        """Ordinary tokens the corpus holds at least once."""
        return self.vocabulary - len(self.never_used)


def corpus_use(
    tokenizer: Tokenizer, texts: Iterable[str], *, progress: Callable[[int], None] | None = None
) -> CorpusUse:
    """Encode ``texts`` (files, in order) and measure their use of the vocabulary.
    ``progress(characters)`` is called after every slice."""
    texts = list(texts)
    total = sum(map(len, texts))
    slice_chars = min(SLICE_CHARS, max(4096, total // GROWTH_POINTS))
    ordinary = set(vocabulary_ids(tokenizer)) - set(tokenizer.special_tokens.values()) - {tokenizer.unk_id}
    counts: Counter[int] = Counter()
    growth: list[GrowthPoint] = []
    read = tokens = 0
    for text in texts:
        before = read
        for done, ids in id_slices(tokenizer, text, slice_chars=slice_chars):
            counts.update(ids)
            tokens += len(ids)
            read = before + done
            distinct = sum(1 for i in counts if i in ordinary)
            growth.append(GrowthPoint(read, tokens, distinct, distinct / len(ordinary) if ordinary else 0.0))
            if progress is not None:
                progress(read)
    never = tuple(sorted(ordinary - counts.keys()))
    inside = _only_inside(tokenizer, never, [i for i in counts if i in ordinary])
    return CorpusUse(total, tokens, len(ordinary), dict(counts), never, inside, tuple(growth))


def _only_inside(tokenizer: Tokenizer, never: tuple[int, ...], used: list[int]) -> tuple[int, ...]:
    """The never-used ids whose bytes occur strictly inside a used token's bytes."""
    wanted: dict[bytes, int] = {}
    for i in never:
        wanted.setdefault(tokenizer.token_bytes(i), i)
    if not wanted:
        return ()
    shortest, longest = min(map(len, wanted)), max(map(len, wanted))
    found: set[int] = set()
    for data in {tokenizer.token_bytes(i) for i in used}:
        for size in range(shortest, min(longest, len(data) - 1) + 1):
            for start in range(len(data) - size + 1):
                hit = wanted.get(data[start : start + size])
                if hit is not None:
                    found.add(hit)
    return tuple(sorted(found))


__all__ = ["GROWTH_POINTS", "CorpusUse", "GrowthPoint", "corpus_use"]
