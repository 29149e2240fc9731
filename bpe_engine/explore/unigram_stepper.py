"""The corpus at Unigram step k: each line segmented by the model as it stood after step k.

A Unigram run does not merge: its seed step proposes a large vocabulary, each EM step re-scores
every piece, each pruning round removes pieces. So the corpus at step ``k`` is what Viterbi makes
of it with the pieces and scores after step ``k`` (:class:`~bpe_engine.training.unigram.history.UnigramHistory`),
the SentencePiece encoder doing the segmenting -- with the run's own normalisation, so a line is
cut exactly as the trainer saw it. Lines are SentencePiece's sentences, so a window of whole lines
is segmented exactly as the whole corpus would be.

Building the model of a step takes a while on a big seed vocabulary (a trie of every piece), so
it is its own call (:meth:`UnigramStepper.prepare`, for a worker thread); :meth:`window` then draws
from it. The last few models are kept.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import replace
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

from ..corpus.block_text import Text
from ..inspect.text_index import index_of
from .train_stepper import Explains

if TYPE_CHECKING:
    from ..sentencepiece.tokenizer import SentencePieceTokenizer
    from ..training.unigram.config import UnigramTrainerConfig
    from ..training.unigram.history import PieceStory
    from ..training.unigram.steps import UnigramStep

KEEP_MODELS = 4


class UnigramStepper:
    """The segmentation of a corpus after ``step`` Unigram steps (0: before the seeds)."""

    initial_token_count: int | None = None  # before the seeds there is no model to count with
    explains: Explains = "lines"  # its steps are told by detail(): no merge, no words before -> after
    models_per_step: bool = True  # the model of every step is its own (EM re-scores every piece)

    def __init__(self, text: str, config: UnigramTrainerConfig, steps: Sequence[UnigramStep] = ()) -> None:
        from ..training.unigram.history import UnigramHistory

        self.characters = len(text)
        self.config = config
        self._history = UnigramHistory(steps)
        self._step = 0
        self._models: OrderedDict[int, SentencePieceTokenizer] = OrderedDict()
        self._lock = threading.Lock()

    # -- the step ----------------------------------------------------------------------------------
    @property
    def step(self) -> int:
        return self._step

    @property
    def available(self) -> int:
        return len(self._history)

    def feed(self, steps: Sequence[Any]) -> None:
        """Steps of the run that have arrived since the last call (under the lock: a worker may be
        reading a model or a story meanwhile)."""
        with self._lock:
            self._history.extend(steps)

    def detail(self) -> tuple[Any, ...]:
        """The current step's story (:func:`~bpe_engine.explore.unigram_detail.unigram_detail`)."""
        from .unigram_detail import unigram_detail

        return unigram_detail(self) if self._step else ()

    initial_types = None  # no counts before the seeds (there is no model yet)
    merges_at = None  # no merges: every step's model is its own (tokenizer_at)

    def seek(self, step: int, *, until: float | None = None) -> bool:  # noqa: ARG002 - one move, never sliced
        """Go to ``step`` (clamped); the model is built by :meth:`prepare` or the first :meth:`window`."""
        self._step = max(0, min(step, self.available))
        return True

    @property
    def token_count(self) -> int | None:
        """Tokens of the whole corpus under the model of this step, where the run counted them: the
        E-step right after a step segments every word with that step's model."""
        steps = self._history.steps
        if self._step < len(steps):
            following = steps[self._step]
            from ..training.unigram.steps import EmStep

            if isinstance(following, EmStep):  # this stepper's own trainer's steps
                return following.corpus_tokens
        return None

    # -- the model of a step ---------------------------------------------------------------------------
    def ready(self) -> bool:
        """Whether the current step's model is built (or the step has none: step 0)."""
        return self._step == 0 or self._step in self._models

    def prepare(self) -> None:
        """Build the current step's model (slow for a big seed vocabulary: call it off the UI thread)."""
        self.tokenizer_at(self._step)

    def tokenizer_at(self, step: int) -> SentencePieceTokenizer | None:
        """The model as it stood after ``step`` steps (None at step 0: before the seeds there is
        none). Safe from any thread; the last few are kept."""
        with self._lock:
            step = max(0, min(step, len(self._history)))
            if step == 0:
                return None
            model = self._models.get(step)
            if model is not None:
                self._models.move_to_end(step)
                return model
            pieces, last = self._history.model_at(step - 1), self._history.steps[step - 1]
        model = _tokenizer_of(pieces, last, self.config)
        with self._lock:
            self._models[step] = model
            while len(self._models) > KEEP_MODELS:
                self._models.popitem(last=False)
        return model

    # -- what the corpus view draws --------------------------------------------------------------------
    def window(self, text: Text, start: int, end: int) -> Iterator[tuple[int, int, tuple[str, ...]]]:
        """``(start, end, (piece,))`` for each token of the lines in ``text[start:end]``, cut by
        the step's model; nothing before the seeds."""
        model = self.tokenizer_at(self._step)
        if model is None:
            return
        pos = start
        for line in text[start:end].split("\n"):
            if line:
                encoding = model.encode_detailed(line)
                index = index_of(line)
                for piece, (b0, b1), special in zip(encoding.tokens, encoding.byte_spans, encoding.special):
                    if not special:
                        s, e = index.char_span(b0, b1)
                        yield pos + s, pos + e, (piece,)
            pos += len(line) + 1

    def highlight(self) -> str | None:
        """No one token is new at a Unigram step (EM re-scores every piece)."""
        return None

    def focus(self) -> int | None:
        """A Unigram step changes the whole corpus: the view stays where it is."""
        return None

    def pieces_before(self, index: int) -> list[str]:
        """The vocabulary step ``index`` (0-based) started from, in its order (a pruning step's
        ``removed`` and ``keep`` index into it)."""
        with self._lock:
            return [piece for piece, _ in self._history.model_at(index - 1)] if index else []

    def story(self, piece: str) -> PieceStory | None:
        """When ``piece`` entered, how its score moved, how it left (None: never a piece): a copy
        made under the lock, the caller's own (the UI thread goes on feeding the history)."""
        with self._lock:
            story = self._history.story(piece)
            return None if story is None else replace(story, scores=list(story.scores))

    @property
    def steps(self) -> list[UnigramStep]:
        return self._history.steps


def _tokenizer_of(pieces: list[tuple[str, float]], step: UnigramStep, config: UnigramTrainerConfig) -> SentencePieceTokenizer:
    """A SentencePiece model of ``pieces`` with the run's normalisation: the final step's pieces
    as they are (specials included); an earlier step's after the meta pieces, all normal."""
    from ..sentencepiece import SentencePieceTokenizer, parse_model_bytes
    from ..sentencepiece.model_proto import PieceType
    from ..training.unigram.model_file import model_proto_bytes
    from ..training.unigram.steps import FinalStep

    if isinstance(step, FinalStep):
        full, types = pieces, [PieceType(t) for t in step.types]
    else:
        meta = config.meta_pieces()
        taken = {piece for piece, _ in meta.values()}
        ordinary = iter([(p, s) for p, s in pieces if p not in taken])
        full, types = [], []
        for token_id in range(len(meta) + len(pieces)):
            if token_id in meta:
                piece, kind = meta[token_id]
                full.append((piece, 0.0))
                types.append(kind)
                continue
            nxt = next(ordinary, None)
            if nxt is None:
                break
            full.append(nxt)
            types.append(PieceType.NORMAL)
    data = model_proto_bytes(full, types, config.replace(hard_vocab_limit=False))
    return SentencePieceTokenizer(parse_model_bytes(data, f"unigram step {step.index + 1}"), name=f"unigram step {step.index + 1}")


__all__ = ["UnigramStepper"]
