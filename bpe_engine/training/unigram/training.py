"""``UnigramTraining``: SentencePiece's ``unigram::Trainer::Train`` as resumable steps.

1. load the sentences (:mod:`.sentences`), 2. seed pieces (:mod:`.seeds`), 3. split sentences into
``▁`` words with counts, 4. EM: ``num_sub_iterations`` E/M steps (:mod:`.em`), stop when the
vocabulary is at most ``1.1 x vocab_size``, else prune (:mod:`.prune`) and repeat, 5. finalize
(:mod:`.finalize`). Each step is yielded as a frozen value (:mod:`.steps`) as soon as it is done;
stop consuming and the work stops. The result equals ``sentencepiece`` 0.2.1 trained with
``num_threads=1``.

>>> t = UnigramTraining(["ab ab abc", "abc b a"] * 20, UnigramTrainerConfig(vocab_size=8, hard_vocab_limit=False))
>>> [type(s).__name__ for s in t.steps()][:3]
['SeedStep', 'EmStep', 'EmStep']
>>> t.finished, [p for p, _s in t.pieces]
(True, ['<unk>', '<s>', '</s>', '▁abc', 'b', 'c', 'a', '▁'])
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from ...sentencepiece.model_proto import PieceType
from .config import UnigramTrainerConfig
from .em import e_step, m_step
from .finalize import finalize_pieces
from .lattice import Lattices, build_lattices
from .matching import PieceIndex
from .prune import REMOVED_BY_LOSS, prune
from .seeds import make_seeds
from .sentences import load_corpus, read_lines
from ..steps import StepWhy
from .steps import EmStep, FinalStep, PruneStep, SeedStep, UnigramStep, f32_bytes, i32_bytes
from .words import word_counts, word_table

if TYPE_CHECKING:
    from ..runner.model_state import SentencePieceModelState

F32 = np.float32


class UnigramTraining:
    """Train on ``lines`` (str or bytes, one sentence each; or pass ``files=``).

    Use: ``for step in training.steps(): ...`` (resumable: a new ``steps()`` goes on where the last
    stopped); ``finished``; ``notes`` (what was skipped, why training stopped); ``total_steps``
    (an estimate for a progress bar, refined as training goes); ``pieces`` (the final vocabulary,
    ``(piece, score)`` in id order) and ``model_bytes()`` / ``tokenizer()`` when finished.
    """

    def __init__(
        self,
        lines: Iterable[str | bytes] | None = None,
        config: UnigramTrainerConfig | None = None,
        *,
        files: Iterable[str | Path] | None = None,
        memory_limit: int | None = None,
    ) -> None:
        self.config = (config or UnigramTrainerConfig()).validate()
        self._stats: dict[str, int] = {}
        self._total_bytes: int | None = None
        if files is not None:
            files = list(files)
            self._total_bytes = sum(os.path.getsize(f) for f in files)
            lines = read_lines(files, self.config.max_sentence_length, self._stats)
        if lines is None:
            raise ValueError("give lines or files")
        self._lines = lines
        self._memory_limit = memory_limit
        self.notes: list[str] = []
        self.pieces: list[tuple[str, float]] = []
        self.types: list[PieceType] = []
        self._index = 0
        self._finished = False
        self._gen: Iterator[UnigramStep] | None = None
        self._estimate = 0

    @property
    def finished(self) -> bool:
        return self._finished

    @property
    def total_steps(self) -> int:
        """Steps in all (seed + EM steps + pruning rounds + final): an estimate until finished."""
        if self._finished:
            return self._index
        return max(self._estimate, self._index + 1)

    def steps(self) -> Iterator[UnigramStep]:
        if self._gen is None:
            self._gen = self._run()
        for step in self._gen:
            yield step

    @property
    def target_steps(self) -> int:
        """The runner's name for :attr:`total_steps` (:class:`~bpe_engine.training.protocol.Training`)."""
        return self.total_steps

    @property
    def initial_size(self) -> int:
        """0: the first step (the seeds) makes the vocabulary."""
        return 0

    def model_state(self) -> SentencePieceModelState:
        """The finished model as its ``.model`` bytes (and its tokenizer.json), picklable."""
        from ..runner.model_state import SentencePieceModelState

        return SentencePieceModelState(self.model_bytes(), f"unigram-{len(self.pieces)}", tokenizer_json=self.tokenizer_json())

    def run(self) -> list[tuple[str, float]]:
        """Train to the end; the final pieces."""
        for _ in self.steps():
            pass
        return self.pieces

    # -- the algorithm -----------------------------------------------------------------------------
    def _next_index(self) -> int:
        self._index += 1
        return self._index - 1

    def _run(self) -> Iterator[UnigramStep]:
        cfg = self.config
        corpus = load_corpus(self._lines, cfg, memory_limit=self._memory_limit, total_bytes=self._total_bytes)
        too_long = corpus.too_long + self._stats.get("too_long", 0)
        if too_long:
            self.notes.append(f"skipped {too_long} sentence(s) longer than max_sentence_length={cfg.max_sentence_length} bytes")
        if corpus.skipped_unk:
            self.notes.append(f"skipped {corpus.skipped_unk} sentence(s) holding ▅ (U+2585)")
        seeds = make_seeds(corpus.sentences, cfg, chars=corpus.chars, units=corpus.units)
        if corpus.units is not None:
            table = word_table(corpus.units)
        elif cfg.split_by_whitespace:
            table = word_counts(corpus.sentences, cfg)
        else:
            table = [(s, 1) for s in corpus.sentences if s]
        required = corpus.required_chars
        seed_step_facts = ("".join(corpus.required_chars), "".join(corpus.dropped_chars), corpus.coverage)
        del corpus  # EM needs the distinct words only
        pieces = list(seeds.pieces)
        scores = seeds.scores.astype(F32)
        shrink = math.log(cfg.shrinking_factor)
        rounds = max(1, math.ceil(math.log(cfg.desired_vocab_size / max(len(pieces), 1)) / shrink)) if len(pieces) > cfg.desired_vocab_size else 1
        self._estimate = 2 + rounds * (cfg.num_sub_iterations + 1)
        yield SeedStep(
            self._next_index(), tuple(pieces), f32_bytes(scores), seeds.num_chars, seeds.candidates,
            *seed_step_facts,
            _best_score_why(pieces, scores, (
                f"{seeds.num_chars} characters cover {seed_step_facts[2]:.4%} of the text (character_coverage "
                f"{cfg.character_coverage}); {seeds.candidates:,} substrings occur twice or more with two "
                f"different followers; the best {len(pieces) - seeds.num_chars:,} by occurrences x length are seeds"
            )),
        )
        counts = np.array([c for _w, c in table], np.int64)
        lattices = build_lattices([w for w, _c in table], PieceIndex(pieces))
        del table, seeds
        alive = np.arange(len(pieces))  # seed index of each current piece
        rnd = 0
        while True:
            for sub in range(cfg.num_sub_iterations):
                lattices, ids = _narrowed(lattices, alive, len(pieces))
                expected, obj, ntokens, corpus_tokens = e_step(lattices, ids, scores, counts)
                keep, scores = m_step(expected)
                before = len(alive)
                alive = alive[keep]
                yield EmStep(
                    self._next_index(), rnd, sub, before, len(alive), obj, ntokens, corpus_tokens, i32_bytes(keep), f32_bytes(scores),
                    StepWhy("log-likelihood", -float(obj), note=(
                        f"E-step: objective {obj:.4f}, {ntokens:,} tokens in the best segmentation; M-step: "
                        f"{before - len(alive):,} pieces expected fewer than 0.5 times removed, scores = "
                        "Digamma(expected count) - Digamma(total)"
                    )),
                )
            if len(alive) <= cfg.desired_vocab_size:
                break
            current = [pieces[i] for i in alive]
            plen = lengths_of(current)
            own = build_lattices(current, PieceIndex(current))
            lattices, ids = _narrowed(lattices, alive, len(pieces))
            result = prune(plen, scores, own, lattices, ids, counts, cfg)
            yield self._prune_step(rnd, current, scores, result)
            alive = alive[result.keep]
            scores = scores[result.keep]
            rnd += 1
            self._estimate = max(self._estimate, self._index + cfg.num_sub_iterations + 2)
        scored = [(pieces[i], float(s)) for i, s in zip(alive.tolist(), scores.tolist())]
        final = finalize_pieces(scored, required, cfg)
        restored = tuple(c for c in required if c not in {p for p, _s in scored})
        self.pieces, self.types = _with_specials(final, cfg)
        self._finished = True
        yield FinalStep(
            self._next_index(), tuple(p for p, _s in self.pieces), f32_bytes(np.array([s for _p, s in self.pieces])),
            tuple(int(t) for t in self.types), restored,
            _best_score_why([p for p, _s in scored], np.array([s for _p, s in scored], F32), (
                f"{len(scored)} pieces after EM (at most 1.1 x vocab_size); the best by score fill the "
                f"{cfg.vocab_size - len(cfg.meta_pieces())} places left by the special pieces, every required character kept"
            )),
        )

    def _prune_step(self, rnd: int, current: list[str], scores: np.ndarray, r) -> PruneStep:
        candidates = set(r.candidates.tolist())
        by_loss_kept = [i for i in r.keep.tolist() if i in candidates]
        loss_of = dict(zip(r.candidates.tolist(), r.candidate_losses.tolist()))
        best = max(by_loss_kept, key=lambda i: (loss_of[i], -i), default=None)
        low = by_loss_kept[-1] if by_loss_kept else None
        out = [i for i, why in zip(r.removed.tolist(), r.reasons.tolist()) if why == REMOVED_BY_LOSS]
        runner = None
        if out and low is not None:
            top_out = min(out, key=lambda i: (-loss_of[i], i))
            tie = loss_of[top_out] == loss_of[low]
            runner = ((current[top_out], loss_of[top_out]), (current[low], loss_of[low]), tie)
        note = (
            f"kept {len(r.keep):,} of {len(current):,}: pieces with no other segmentation first, then by loss "
            f"down to {r.threshold:.6g}"
        )
        if runner:
            note += f"; first out {runner[0][0]!r} ({runner[0][1]:.6g}) vs last in {runner[1][0]!r} ({runner[1][1]:.6g})"
            if runner[2]:
                note += " -- a tie in float, broken by the lower id (the piece ordered first)"
        if runner:
            (gone, gone_loss), tie = runner[0], runner[2]
            why = StepWhy(
                "loss", float(r.threshold), (gone,), gone_loss, ((gone,),) if tie else (), 1 if tie else 0,
                "the lower id (the piece ordered first)" if tie else None, note,
            )
        else:
            why = StepWhy("loss", float(r.threshold), note=note)
        return PruneStep(
            self._next_index(), rnd, len(current), len(r.keep), i32_bytes(r.keep), i32_bytes(r.removed),
            f32_bytes(r.losses), r.reasons.astype("i1").tobytes(), r.threshold,
            (current[best], loss_of[best]) if best is not None else None,
            (current[low], loss_of[low]) if low is not None else None,
            runner, why,
        )

    # -- outputs -------------------------------------------------------------------------------------
    def model_bytes(self) -> bytes:
        """The trained model as a serialized ``ModelProto`` (what ``sentencepiece`` loads)."""
        from .model_file import model_proto_bytes

        self._require_finished()
        return model_proto_bytes(self.pieces, self.types, self.config)

    def tokenizer_json(self) -> str:
        """The model as a Hugging Face ``tokenizer.json`` (same ids on ordinary text)."""
        from ...formats.hf_unigram import unigram_tokenizer_json
        from .sentences import normalizer_settings

        self._require_finished()
        return unigram_tokenizer_json(
            self.pieces, self.types, normalizer_settings(self.config), unk_id=self.config.unk_id,
            byte_fallback=self.config.byte_fallback,
        )

    def save(self, directory: str | Path, name: str, steps: Sequence[UnigramStep] | None = None) -> list[Path]:
        """``DIR/NAME.model``, ``tokenizer.json``, the ``steps`` of the run in ``training.jsonl``
        (when given) and ``bpe-explorer.json``, atomically."""
        from ...formats.unigram_dir import save_unigram_dir

        return save_unigram_dir(directory, name, self.model_bytes(), self.tokenizer_json(), steps)

    def tokenizer(self, name: str = "unigram"):
        """The model as a :class:`~bpe_engine.sentencepiece.SentencePieceTokenizer` (no file)."""
        from ...sentencepiece import SentencePieceTokenizer, parse_model_bytes

        return SentencePieceTokenizer(parse_model_bytes(self.model_bytes(), name), name=name)

    def _require_finished(self) -> None:
        if not self._finished:
            raise RuntimeError("training has not finished: consume steps() or call run() first")


def _best_score_why(pieces: list[str], scores: np.ndarray, note: str) -> StepWhy:
    """A step whose vocabulary is ranked by score: the best piece's score, the second as runner-up."""
    if not len(pieces):
        return StepWhy("score", 0.0, note=note)
    order = np.argsort(-scores, kind="stable")[:2]
    second = (pieces[order[1]],) if len(order) > 1 else None
    return StepWhy("score", float(scores[order[0]]), second, float(scores[order[1]]) if second else None, note=note)


def lengths_of(texts: list[str]) -> np.ndarray:
    return np.fromiter(map(len, texts), np.int64, len(texts))


def _narrowed(lattices: Lattices, alive: np.ndarray, n_seeds: int) -> tuple[Lattices, np.ndarray]:
    """The lattices without the pieces that are gone, and each seed's current id (-1: gone)."""
    ids = np.full(n_seeds + 1, -1, np.int64)  # the last for a character that is no piece
    ids[alive] = np.arange(len(alive))
    keep = (lattices.k == 1) | (ids[lattices.seed] >= 0)
    return lattices.select(keep), ids[:-1]


def _with_specials(final: list[tuple[str, float]], cfg: UnigramTrainerConfig) -> tuple[list[tuple[str, float]], list[PieceType]]:
    """``Serialize``: special pieces at their ids (score 0), the trained ones around them."""
    meta = cfg.meta_pieces()
    pieces: list[tuple[str, float]] = []
    types: list[PieceType] = []
    k = 0
    for i in range(cfg.vocab_size):
        if i in meta:
            pieces.append((meta[i][0], 0.0))
            types.append(meta[i][1])
        elif k < len(final):
            pieces.append(final[k])
            types.append(PieceType.NORMAL)
            k += 1
    if cfg.hard_vocab_limit and len(pieces) != cfg.vocab_size:
        from ...errors import ConfigError

        raise ConfigError(
            f"Vocabulary size too high ({cfg.vocab_size}). Please set it to a value <= {len(pieces)} "
            "(or hard_vocab_limit=false)"
        )
    return pieces, types


def train_pieces(lines: Iterable[str | bytes], config: UnigramTrainerConfig) -> list[tuple[str, float]]:
    """The trained (non-special) pieces with scores, in order (as the reference returns them)."""
    t = UnigramTraining(lines, config)
    t.run()
    meta = config.meta_pieces()
    return [p for i, p in enumerate(t.pieces) if i not in meta]
