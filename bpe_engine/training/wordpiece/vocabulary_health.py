"""Is a trained WordPiece vocabulary usable? Two checks against the corpus it was trained on.

A WordPiece vocabulary can look fine -- the asked size, no error -- and still be useless: the
likelihood score (``merge_by="score"``) spends it on pairs of rare symbols, so on 1 MB of English
at 8,000 tokens "the" is not a token, and on English + Korean (BERT's uncased front end splits
Hangul into jamo) nearly the whole vocabulary is jamo fragments the encoder never emits. So, when
training ends, the trainer says so in its notes when

1. **frequent words are not single tokens**: of the :data:`FREQUENT` most frequent words (two or
   more characters, a letter or digit among them), more than :data:`SPLIT_AT` are split -- checked
   once the training has made :data:`MIN_MERGES` merges (as is the second), since a tiny vocabulary splits everything
   (HF's rule makes all ten tokens within 400 on English; the score rule leaves "the" split at 8,000);
2. **much of the vocabulary is never used**: more than :data:`UNUSED_SHARE` of the non-special tokens never occur
   when the corpus's words are encoded (greedy longest match, as the tokenizer encodes), over the
   :data:`WORDS_CHECKED` most frequent distinct words -- the corpus's mass, in bounded time.

Each warning names what to try. Both are plain counts over the word table: no sampling, the same
answer every run.
"""

from __future__ import annotations

from collections.abc import Mapping
from heapq import nlargest
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from ...wordpiece.model import WordPieceTokenizer
    from .setup import WordPieceTrainerConfig

FREQUENT = 10
"""How many of the most frequent words the first check looks at."""
SPLIT_AT = 0
"""More split words than this among them is a warning: any of them split is one."""
MIN_MERGES = 200
"""Merges a vocabulary needs before the first check means anything."""
WORDS_CHECKED = 50_000
"""Distinct words the second check encodes (the most frequent: nearly all of a corpus's tokens)."""
UNUSED_SHARE = 1 / 3
"""More of the vocabulary than this never used is a warning. Measured at 8,000 tokens: HF's rule
leaves 4-6 % unused on English and on English + Korean, the score rule 49-51 %."""
SHOWN = 3
"""Split words a warning spells out."""


def vocabulary_warnings(
    tokenizer: WordPieceTokenizer, word_counts: Mapping[str, int], config: WordPieceTrainerConfig, merges: int
) -> list[str]:
    """The notes a training that made ``merges`` merges adds when its vocabulary looks unusable
    (empty when it looks fine)."""
    ranked = nlargest(WORDS_CHECKED, word_counts.items(), key=lambda item: item[1])  # stable: first seen wins ties
    warnings = []
    hint = (
        "; the score rule favours pairs of rare symbols: merge by count (Hugging Face's WordPieceTrainer) "
        "makes frequent words tokens first"
        if config.merge_by == "score"
        else "; a larger vocabulary, or a corpus of more of this text, gives them tokens of their own"
    )
    frequent = [w for w, _ in ranked if len(w) > 1 and any(c.isalnum() for c in w)][:FREQUENT]
    split = [(w, tokenizer.tokenize_word(w)) for w in frequent]
    split = [(w, pieces) for w, pieces in split if len(pieces) > 1]
    if merges >= MIN_MERGES and len(split) > SPLIT_AT:
        shown = ", ".join(f"{w!r} -> {' '.join(pieces)}" for w, pieces in split[:SHOWN])
        warnings.append(
            f"degenerate vocabulary: {len(split)} of the {len(frequent)} most frequent words are not single tokens "
            f"({shown}){hint}"
        )
    used: set[int] = set()
    for word, _ in ranked:
        used.update(tid for tid, _, _ in tokenizer.word_pieces(word))
    specials = set(tokenizer.special_tokens.values())
    ordinary = tokenizer.vocab_size - len(specials)
    unused = ordinary - len(used - specials)
    if merges >= MIN_MERGES and unused > ordinary * UNUSED_SHARE:
        scope = "the corpus is encoded" if len(ranked) == len(word_counts) else f"its {len(ranked):,} most frequent words are encoded"
        warnings.append(
            f"much of the vocabulary is unused: {unused:,} of its {ordinary:,} tokens ({unused / ordinary:.0%}) never occur when "
            f"{scope}{hint}"
        )
    return warnings
