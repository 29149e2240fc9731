"""Inspector data for SentencePiece models: why a token is what it is.

* BPE: the merge tree of a piece, shaped like :mod:`bpe_engine.bpe.merge_tree`'s trees (so the
  existing inspector renders it). SentencePiece stores no merge list -- a piece's score is its
  merge priority -- so the tree is what the encoder itself does with the piece's own text: every
  merge in score order, recorded. A node's ``rank`` is the piece's place among the model's merged
  pieces ordered by score (0 = merged first in training). Byte pieces (``<0x41>``) are leaves
  holding the byte they are; a piece the encoder cannot build from its own text is ``added``.
* Unigram: the best segmentation of a word with its log-probability, and the next best ones
  with theirs (n-best) -- the margin is why Viterbi chose it.

>>> from bpe_engine.sentencepiece.model_proto import PieceType
>>> from bpe_engine.sentencepiece.bpe import BpeModel
>>> m = BpeModel(["<unk>", "a", "b", "ab", "abb"], [0.0, -3.0, -4.0, -1.0, -2.0],
...              [PieceType.UNKNOWN] + [PieceType.NORMAL] * 4)
>>> tree = bpe_tree(m, "abb", lambda p: p.encode(), {"ab": 0, "abb": 1})
>>> [(n.token, n.rank) for n in (tree, *tree.children)]
[('abb', 1), ('ab', 0), ('b', None)]
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..core.merge_node import MergeNode
from ..types import Encoding
from .bpe import BpeModel
from .model_proto import PieceType, byte_of_piece
from .nbest import nbest_paths
from .spec_normalizer import SPACE

if TYPE_CHECKING:
    from .tokenizer import SentencePieceTokenizer


def bpe_tree(model: BpeModel, piece: str, to_bytes: Callable[[str], bytes], ranks: Mapping[str, int]) -> MergeNode:
    """The merge tree of ``piece`` (a NORMAL piece of ``model``), as the encoder builds it."""
    symbols, frozen = model.initial_symbols(piece)
    nodes = [MergeNode(s, to_bytes(s), "base" if len(s) == 1 else "added") for s in symbols]
    trace: list[tuple[str, str, float]] = []
    model.merge(list(symbols), list(frozen), trace)
    for left, right, _score in trace:
        i = next(k for k in range(len(nodes) - 1) if nodes[k].token == left and nodes[k + 1].token == right)
        joined = left + right
        nodes[i : i + 2] = [MergeNode(joined, to_bytes(joined), "merge", ranks.get(joined), (nodes[i], nodes[i + 1]))]
    if len(nodes) == 1 and nodes[0].token == piece:
        return nodes[0]
    return MergeNode(piece, to_bytes(piece), "added", ranks.get(piece))


def merge_ranks(pieces: list[str], scores: list[float], mergeable: list[bool]) -> dict[str, int]:
    """Each merged piece's place in score order (ties by id): its merge number."""
    order = sorted((i for i, ok in enumerate(mergeable) if ok and len(pieces[i]) > 1), key=lambda i: (-scores[i], i))
    return {pieces[i]: rank for rank, i in enumerate(order)}


@dataclass(frozen=True, slots=True)
class ScoredPiece:
    """One piece of a Unigram segmentation and its log-probability (unknown: the penalty score)."""

    id: int
    piece: str
    score: float
    unknown: bool


@dataclass(frozen=True, slots=True)
class UnigramSegmentation:
    """A way to cut a word into pieces; ``score`` is the sum of their log-probabilities.

    ``pieces`` are the lattice nodes (a run of unknown characters is one piece, as encode reports
    it); ``ids`` are the token ids encode gives for them (unknown characters as byte pieces when
    the model has byte fallback)."""

    pieces: tuple[ScoredPiece, ...]
    score: float
    ids: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class UnigramChoice:
    """Why Viterbi chose ``best`` for ``normalized``: the ``alternatives`` that follow it in
    score order. ``margin`` is how much more likely (in log-probability) the choice is than the
    runner-up (None when there is no other way to cut the word)."""

    text: str
    normalized: str
    best: UnigramSegmentation
    alternatives: tuple[UnigramSegmentation, ...]

    @property
    def margin(self) -> float | None:
        return self.best.score - self.alternatives[0].score if self.alternatives else None


def word_around(encoding: Encoding, index: int) -> tuple[int, int]:
    """Token indices ``[first, end)`` of the word holding token ``index``: back to the token that
    starts with ``▁`` (or the text's start), forward to before the next one. Special tokens end
    words."""
    tokens, special = encoding.tokens, encoding.special
    first = index
    while first > 0 and not tokens[first].startswith(SPACE) and not special[first - 1] and not special[first]:
        first -= 1
    end = index + 1
    while end < len(tokens) and not tokens[end].startswith(SPACE) and not special[end]:
        end += 1
    return first, end


# -- for a loaded tokenizer ------------------------------------------------------------------------
def merge_tree_of(tok: SentencePieceTokenizer, token_id: int, *, special: bool = False) -> MergeNode | None:
    """The merge tree of one piece of a SentencePiece tokenizer (None for Unigram pieces, which
    no merge builds: see :func:`unigram_choice`)."""
    piece, kind, data = tok.token_str(token_id), tok.piece_type(token_id), tok.token_bytes(token_id)
    if special or kind in (PieceType.CONTROL, PieceType.UNKNOWN):
        return MergeNode(piece, data, "special")
    if kind is PieceType.BYTE:
        return MergeNode(piece, data, "base")
    if tok.bpe is None:
        return None
    if kind is not PieceType.NORMAL:
        return MergeNode(piece, data, "added")
    if len(piece) == 1:
        return MergeNode(piece, data, "base")
    return bpe_tree(tok.bpe, piece, _text_bytes, tok.merge_ranks)


def unigram_choice(tok: SentencePieceTokenizer, text: str, n: int = 5, *, normalized: bool = False) -> UnigramChoice | None:
    """Best segmentation of ``text`` (normalized first unless ``normalized``) and the ``n`` next
    best, with log-probabilities; None for BPE models."""
    model = tok.unigram
    if model is None:
        return None
    norm = text if normalized else tok.normalizer.normalize(text)
    paths = nbest_paths(model, norm, n + 1) if norm else [([], 0.0)]
    segmentations = [
        UnigramSegmentation(_scored_pieces(tok, norm, path), score, tuple(model.ids(path, norm))) for path, score in paths
    ]
    return UnigramChoice(text, norm, segmentations[0], tuple(segmentations[1:]))


def normalized_word_at(encoding: Encoding, index: int) -> tuple[str, str]:
    """The word holding token ``index`` of ``encoding``: its original text, and the normalized
    text its pieces spell (byte pieces joined back into characters) -- what Viterbi cut."""
    first, end = word_around(encoding, index)
    parts: list[str] = []
    pending = bytearray()
    for i in range(first, end):
        byte = byte_of_piece(encoding.tokens[i]) if not encoding.unknown[i] else None
        if byte is not None:
            pending.append(byte)
            continue
        if pending:
            parts.append(pending.decode("utf-8", "replace"))
            pending.clear()
        parts.append(encoding.tokens[i])
    parts.append(pending.decode("utf-8", "replace"))
    original = encoding.text.encode("utf-8")[encoding.byte_spans[first][0] : encoding.byte_spans[end - 1][1]]
    return original.decode("utf-8", "replace"), "".join(parts)


def unigram_choice_at(tok: SentencePieceTokenizer, encoding: Encoding, index: int, n: int = 5) -> UnigramChoice | None:
    """:func:`unigram_choice` for the word holding token ``index`` of ``encoding``."""
    original, word = normalized_word_at(encoding, index)
    choice = unigram_choice(tok, word, n, normalized=True)
    if choice is None:
        return None
    return UnigramChoice(original, choice.normalized, choice.best, choice.alternatives)


def _scored_pieces(tok: SentencePieceTokenizer, text: str, path: list[tuple[int, int, int]]) -> tuple[ScoredPiece, ...]:
    model = tok.unigram
    assert model is not None
    out: list[ScoredPiece] = []
    for start, end, pid in path:
        unknown = pid == tok.unk_id and model._ids.get(text[start:end]) != pid
        score = model.lattice.unk_score if unknown else (model.lattice.by_chars[pid] or 0.0)
        if unknown and out and out[-1].unknown:
            last = out.pop()
            out.append(ScoredPiece(pid, last.piece + text[start:end], last.score + score, True))
        else:
            out.append(ScoredPiece(pid, text[start:end], score, unknown))
    return tuple(out)


def _text_bytes(piece: str) -> bytes:
    return piece.replace(SPACE, " ").encode("utf-8")


__all__ = [
    "ScoredPiece",
    "UnigramSegmentation",
    "UnigramChoice",
    "bpe_tree",
    "merge_ranks",
    "merge_tree_of",
    "unigram_choice",
    "normalized_word_at",
    "unigram_choice_at",
    "word_around",
]
