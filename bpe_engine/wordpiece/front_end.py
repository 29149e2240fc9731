"""BERT's front end as a pre-tokenizer: the words WordPiece training counts, with where each came from.

The command line trains WordPiece on BERT's normalised, whitespace-and-punctuation-split words
(:func:`~bpe_engine.training.wordpiece.setup.count_bert_words`). The app cuts its corpus into words
to step through the merges and to draw them, so it needs those same words *with their spans in
the original text*: :class:`BertFrontEnd` gives them, through the normaliser's alignment. The
words it yields are the words ``count_bert_words`` counts (a test checks them on the corpora and
on generated text), so the app and the CLI train the same vocabulary.

>>> [(w, s, e) for w, s, e in BertFrontEnd().split_with_spans("Héllo, WORLD")]
[('hello', 0, 5), (',', 5, 6), ('world', 7, 12)]
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from .bert_normalizer import BertNormalizer
from .bert_pretokenizer import bert_pieces


@dataclass(frozen=True)
class BertFrontEnd:
    """Normaliser then BERT's split; reads like a :class:`~bpe_engine.pretokenizers.PreTokenizer`
    to the corpus cutter and the stepper (it declares the same attributes)."""

    normalizer: BertNormalizer = field(default_factory=BertNormalizer)
    name: str = "bert"
    description: str = "BERT's front end: normalise (lowercase, strip accents), split at whitespace and punctuation"
    pattern: None = None
    space_marker: None = None
    end_of_word_suffix: None = None
    end_of_word: str = "attached"
    keeps_unmatched: bool = True
    safe_to_cut: bool = False  # normalisation may join or split characters across a cut
    trusted: bool = True
    line_safe: bool = True  # whitespace and punctuation always end a word
    tiktoken_compatible: bool = False

    def split_with_spans(self, text: str) -> Iterator[tuple[str, int, int]]:
        """Each word and its ``[start, end)`` characters in ``text`` (before normalisation)."""
        norm, align = self.normalizer.normalize_aligned(text)
        for word, start, end in bert_pieces(norm):
            yield word, align[start], align[end - 1] + 1

    def pieces(self, text: str) -> list[tuple[str, int, int]]:
        return list(self.split_with_spans(text))

    def split(self, text: str) -> list[str]:
        return [word for word, _, _ in self.split_with_spans(text)]


__all__ = ["BertFrontEnd"]
