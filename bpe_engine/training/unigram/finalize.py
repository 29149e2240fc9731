"""``FinalizeSentencePieces``: the vocabulary EM ends with, cut to ``vocab_size``.

Required characters come first whatever their score (one that EM dropped comes back at the lowest
score plus 0.0001 per character already brought back, so no two tie); then the best-scored pieces
until ``vocab_size`` minus the special pieces; the result is ordered by score, ties by text
(UTF-8 byte order, which is code-point order).

>>> from bpe_engine.training.unigram.config import UnigramTrainerConfig
>>> finalize_pieces([("▁a", -1.0), ("b", -2.0)], {"c": 3, "b": 5}, UnigramTrainerConfig(vocab_size=6))
[('▁a', -1.0), ('b', -2.0), ('c', -2.0)]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ...sentencepiece.scores import to_f32
from .config import UnigramTrainerConfig


def finalize_pieces(
    pieces: Sequence[tuple[str, float]], required_chars: Mapping[str, int], config: UnigramTrainerConfig
) -> list[tuple[str, float]]:
    scores = dict(pieces)
    min_score = min(s for _p, s in pieces)
    final: dict[str, float] = {}
    penalty = 0.0
    for c, _n in sorted(required_chars.items(), key=lambda kv: (-kv[1], kv[0])):
        if c in scores:
            final[c] = scores[c]
        else:
            final[c] = to_f32(min_score + penalty)
            penalty = to_f32(penalty + to_f32(0.0001))
    room = config.vocab_size - len(config.meta_pieces())
    for piece, score in sorted(pieces, key=lambda ps: (-ps[1], ps[0])):
        if piece in final:
            continue
        if len(final) == room:
            break
        final[piece] = score
    return sorted(final.items(), key=lambda ps: (-ps[1], ps[0]))
