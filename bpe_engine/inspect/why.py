""""Why this token", for every kind of tokenizer the explorer loads: one answer type, three stories.

* **Merges** (our BPE, tiktoken rank tables, SentencePiece BPE from piece scores, HF BPE): the
  merge tree that builds the token (:func:`bpe_engine.bpe.merge_tree.merge_tree_for`); a byte-fallback
  piece (``<0xED>``) is a leaf holding the byte it is.
* **Unigram** (SentencePiece Unigram): no merge builds a piece; Viterbi picked the most probable
  segmentation of the word. The answer is that segmentation with its log-probability and the next
  best ones with theirs (:func:`bpe_engine.sentencepiece.explain.unigram_choice_at`): the margin is
  why this one won.
* **Pipeline** (any Hugging Face ``tokenizer.json``): the stages the text went through -- the
  normalized text and the pre-tokenized pieces (:func:`bpe_engine.hf.explore.trace`) -- with the
  part that holds the token marked, beside the merge tree when the model is BPE.

Two additions any of them may carry: a Unigram run's *piece story* (when the piece entered, how its
score moved, how it left -- from the run's history) and the word's *other cuts* under subword
regularization (:func:`bpe_engine.explore.regularization.samples_at`: BPE-dropout or Unigram
sampling, whichever the model trains with).

Pure data; the inspector renders it. Computing it may take a moment (a Unigram n-best over a
long word, an HF merge index), so the app asks from a worker thread.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, cast

from ..bpe.merge_tree import merge_tree_for
from ..core.byte_table import token_str_to_bytes
from ..core.merge_node import MergeNode
from ..core.text_index import index_of
from ..display import decode_bytes_visibly, visible_text
from ..errors import BpeEngineError
from ..explore.regularization import WordSamples, samples_at
from ..types import Encoding, ScoresPieces, Tokenizer

if TYPE_CHECKING:
    from ..hf.pipeline import HfTokenizer
    from ..sentencepiece.tokenizer import SentencePieceTokenizer
    from ..training.unigram.history import PieceStory

N_BEST = 5
"""Alternatives shown after the best Unigram segmentation."""


@dataclass(frozen=True, slots=True)
class StagePart:
    """One part of a pipeline stage: its visible text, the original characters it came from,
    and whether it holds the selected token."""

    text: str
    chars: tuple[int, int]
    holds: bool


@dataclass(frozen=True, slots=True)
class Stage:
    name: str
    parts: tuple[StagePart, ...]


@dataclass(frozen=True)
class TokenWhy:
    """The answer for one token. ``tree``: its merges (None when none build it); ``unigram``: the
    Viterbi choice for its word (a :class:`~bpe_engine.sentencepiece.explain.UnigramChoice`);
    ``stages``: the HF pipeline's stages; ``note``: a sentence for a model with none of these."""

    tree: MergeNode | None = None
    unigram: Any = None
    stages: tuple[Stage, ...] = ()
    note: str = ""
    focus: int | None = None  # Unigram: which piece of the best segmentation is the token
    story: PieceStory | None = None  # a Unigram run's piece: when it entered, how its score moved
    samples: WordSamples | None = None  # the word's other segmentations under regularization


def explain(
    tokenizer: Tokenizer, encoding: Encoding, index: int, *,
    story_of: Callable[[str], PieceStory | None] | None = None,
    samples: int = 0, dropout: float = 0.1, alpha: float = 0.2,
) -> TokenWhy:
    """Why token ``index`` of ``encoding`` (made by ``tokenizer``) is what it is; with
    ``story_of`` (a Unigram run's history) the piece's story in training, and with ``samples``
    the word's segmentations under BPE-dropout ``dropout`` or Unigram sampling ``alpha``."""
    why = _explain(tokenizer, encoding, index)
    if not 0 <= index < len(encoding.ids):
        return why
    story = story_of(encoding.tokens[index]) if story_of is not None and not encoding.special[index] else None
    why = replace(why, story=story) if story is not None else why
    return with_samples(why, tokenizer, encoding, index, samples=samples, dropout=dropout, alpha=alpha)


def with_samples(
    why: TokenWhy, tokenizer: Tokenizer, encoding: Encoding, index: int, *, samples: int, dropout: float, alpha: float
) -> TokenWhy:
    """``why`` with the word's ``samples`` drawn segmentations added: the slow part of a why (the
    first draw builds the tokenizer's rank table), so a view can show :func:`explain`'s tree first."""
    if samples <= 0 or not 0 <= index < len(encoding.ids):
        return why
    return replace(why, samples=samples_at(tokenizer, encoding, index, dropout=dropout, alpha=alpha, n=samples))


def _explain(tokenizer: Tokenizer, encoding: Encoding, index: int) -> TokenWhy:
    if not 0 <= index < len(encoding.ids):
        return TokenWhy(note="no token selected")
    special = encoding.special[index]
    unknown = bool(encoding.unknown and encoding.unknown[index])
    stages = pipeline_stages(tokenizer, encoding, index)
    if unknown:
        return TokenWhy(stages=stages, note="an unknown piece: the vocabulary has no token for this text")
    unigram, focus = None, None
    if tokenizer.capabilities.explains == "unigram-choice" and not special:
        from ..sentencepiece.explain import unigram_choice_at, word_around

        try:
            # explains == "unigram-choice" is declared by SentencePiece's Unigram models only
            unigram = unigram_choice_at(cast("SentencePieceTokenizer", tokenizer), encoding, index, N_BEST)
        except (BpeEngineError, KeyError, IndexError, ValueError):
            unigram = None
        if unigram is not None:
            k = index - word_around(encoding, index)[0]
            focus = k if k < len(unigram.best.ids) and unigram.best.ids[k] == encoding.ids[index] else None
    tree = None
    if unigram is None:
        try:
            tree = merge_tree_for(tokenizer, encoding.ids[index], special=special)
        except (BpeEngineError, KeyError, IndexError, ValueError, AttributeError):
            tree = None
    note = ""
    if tree is None and unigram is None:
        note = _no_story(tokenizer)
    elif tree is not None and tree.children:
        note = _score_story(tokenizer, encoding.ids[index])
    note = " ".join(filter(None, (_normalizer_story(tokenizer, encoding, index), note)))
    return TokenWhy(tree, unigram, stages, note, focus)


def _normalizer_story(tokenizer: Tokenizer, encoding: Encoding, index: int) -> str:
    """For a model with a normalizer stage (Qwen's NFC): what it made of the token's text, when it
    changed it ("" otherwise)."""
    form = tokenizer.capabilities.normalizer
    if form is None:
        return ""
    import unicodedata

    start, end = encoding.byte_spans[index]
    text = encoding.text.encode("utf-8", "surrogatepass")[start:end].decode("utf-8", "replace")
    if not text or unicodedata.is_normalized(form, text):
        return ""
    return f"{visible_text(tokenizer.name)} puts text in {form} first: {visible_text(text)!r} became {visible_text(unicodedata.normalize(form, text))!r}."


def _score_story(tokenizer: Tokenizer, token_id: int) -> str:
    """For SentencePiece BPE, where the merge numbers come from: the piece scores ("" otherwise)."""
    if tokenizer.capabilities.merge_order != "piece-scores":
        return ""
    score = cast(ScoresPieces, tokenizer).piece_score(token_id)
    return (
        f"SentencePiece BPE keeps no merge list: the piece score is the merge priority (this piece: "
        f"{score:g}); merge n is the piece's place in score order among the merged pieces, the first being merge 1"
    )


def pipeline_stages(tokenizer: Tokenizer, encoding: Encoding, index: int) -> tuple[Stage, ...]:
    """The normalized text and pre-tokenized pieces of an HF pipeline, the parts holding token
    ``index`` marked; () for other tokenizers."""
    if not tokenizer.capabilities.traces_stages:
        return ()
    from ..hf.explore import trace

    try:
        t = trace(cast("HfTokenizer", tokenizer), encoding.text)  # traces_stages: a Hugging Face pipeline
    except BpeEngineError:
        return ()
    start, end = index_of(encoding.text).char_span(*encoding.byte_spans[index])
    byte_level = tokenizer.capabilities.byte_level

    def holds(s: int, e: int) -> bool:
        return s < end and e > start if end > start else s <= start < e

    normalized = tuple(StagePart(visible_text(text), (s, e), holds(s, e)) for text, s, e in t.normalized)
    pieces = tuple(StagePart(_piece_text(text, byte_level), (s, e), holds(s, e)) for text, s, e in t.pieces)
    return (Stage("normalized", normalized), Stage("pre-tokenized", pieces))


def _piece_text(piece: str, byte_level: bool) -> str:
    """A pre-tokenized piece as readable text (a byte-level piece is in GPT-2's byte alphabet)."""
    if byte_level:
        try:
            return decode_bytes_visibly(token_str_to_bytes(piece)).replace(" ", "␣")
        except KeyError:
            pass
    return visible_text(piece).replace(" ", "␣")


def _no_story(tokenizer: Tokenizer) -> str:
    explains = tokenizer.capabilities.explains
    if explains == "longest-match":
        return "WordPiece builds no token from merges: it takes the longest vocabulary entry that starts the rest of the word"
    if explains == "baseline":
        return "a baseline: every character (or whitespace word) is one token"
    return f"{visible_text(tokenizer.name)} is not built from merges (no merge tree)"


__all__ = ["N_BEST", "Stage", "StagePart", "TokenWhy", "explain", "pipeline_stages", "with_samples"]
