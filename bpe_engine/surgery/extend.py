"""Extend a base BPE with merges learnt on a corpus: resume training from its merge list.

Semantics (docs/training.md, "Extending a tokenizer"): replay the base's merges in order on the new
corpus's counts, then go on with the same loop as ``train`` -- SuperBPE's ``do_train_extend``.
Here the replay is the base's own encoding of each distinct word (:meth:`BpeBase.word_encoder
<bpe_engine.surgery.base.BpeBase.word_encoder>`), which gives the same segmentation for every merge
list without id reuse and is what a rank table's tiktoken rule gives anyway -- seconds for
cl100k where replaying 100,000 merges one by one over the words would take minutes. From that
state :meth:`BpeTraining.resume <bpe_engine.training.bpe.BpeTraining.resume>` counts the pairs and
runs the trainer's own merge loop, tie-break rules and stop rules: nothing is re-implemented.

Every base token keeps its id and bytes, specials keep theirs, and new tokens take ids from
:attr:`BpeBase.next_id` on. A tiktoken-style base stays a rank table (new ranks after the old: their
merges apply after every base merge, as in the training); a merge-list base gets the new merges
after its own.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace

from ..bpe.byte_table import token_str_to_bytes
from ..bpe.model import BpeTokenizer
from ..choices import TIE_BREAKS, VOCAB_SIZE_MAX, TieBreak, values
from ..corpus import WordCounts
from ..errors import ConfigError
from ..training.bpe.config import DEFAULT_MAX_TOKEN_LENGTH, BpeTrainerConfig
from ..training.bpe.setup import BpeInitialState
from ..training.bpe.training import BpeTraining
from ..training.steps import MergeStep
from ..training.word_table import Words
from .base import BpeBase

MAX_ID = VOCAB_SIZE_MAX
"""New ids stop below this, the bound every trainer puts on a vocabulary."""


@dataclass(frozen=True)
class ExtendConfig:
    """How many merges to add, and ``train``'s BPE options with their meaning there."""

    add: int
    min_frequency: int = 0
    max_token_length: int | None = DEFAULT_MAX_TOKEN_LENGTH
    tie_break: TieBreak = "hf"

    def __post_init__(self) -> None:
        if self.add < 1:
            raise ConfigError(f"the number of merges to add must be at least 1, got {self.add:,}", field="add")
        if self.tie_break not in values(TIE_BREAKS):
            raise ConfigError(f"unknown tie-break {self.tie_break!r}; choose one of: {', '.join(values(TIE_BREAKS))}", field="tie_break")
        if self.min_frequency < 0:
            raise ConfigError(f"the minimum frequency must be 0 or more, got {self.min_frequency}", field="min_frequency")
        if self.max_token_length is not None and self.max_token_length < 1:
            raise ConfigError(f"the longest token must be at least 1 (or no limit), got {self.max_token_length}", field="max_token_length")


@dataclass(frozen=True)
class StartFacts:
    """What the base makes of the corpus before any new merge."""

    words: int  # distinct words counted
    tokens: int  # tokens the base spends on the corpus
    unspellable: int  # distinct words the base cannot spell (left out of training)


class Extension:
    """One extension run: the base's segmentation of the corpus, then new merges one at a time.

    ``steps()`` yields each new merge (ranked after the base's merges); :meth:`tokenizer` is the
    extended model after the merges made so far.
    """

    def __init__(self, base: BpeBase, corpus: WordCounts, config: ExtendConfig) -> None:
        if corpus.byte_level != base.byte_level:
            kind = "byte-level" if corpus.byte_level else "character-level"
            raise ConfigError(f"the word counts are {kind}, but {base.name!r} is not: count the corpus with the base's settings")
        top = base.next_id + config.add
        if top > MAX_ID:
            raise ConfigError(
                f"--add {config.add:,} would take ids up to {top - 1:,}: {base.name!r} already uses ids up to "
                f"{base.next_id - 1:,}, and ids stop below {MAX_ID:,}; add at most {max(MAX_ID - base.next_id, 0):,}",
                field="add",
            )
        self.base = base
        self.config = config
        encode = base.word_encoder()
        symbols: list[str] = []
        counts: list[int] = []
        tokens = unspellable = 0
        for word, n in corpus.counts.items():
            if n <= 0:
                continue
            ids = encode(word)
            if ids is None:
                unspellable += 1
                continue
            tokens += n * len(ids)
            if len(ids) > 1:
                symbols.append("".join(map(chr, ids)))
                counts.append(n)
        self.start = StartFacts(len(corpus.counts), tokens, unspellable)
        notes = []
        if unspellable:
            notes.append(f"{unspellable:,} distinct words hold a symbol {base.name!r} has no id for; they were left out")
        if base.unbuilt:
            notes.append(
                f"{len(base.unbuilt):,} ranks of {base.name!r} have no pair (no two lower ranks build them; first: "
                f"{base.unbuilt[0]}): they stay whole-piece tokens, as tiktoken reaches them"
            )
        vocab = base.vocabulary()
        alphabet = tuple(t for t, i in base.vocab.items() if i not in base.merged_ids)
        state = BpeInitialState(vocab, alphabet, Words(symbols, counts), notes, base.merged_ids, corpus_empty=not corpus.counts)
        trainer_config = BpeTrainerConfig(
            vocab_size=top,
            byte_level=base.byte_level,
            pre_tokenizer=base.pre_tokenizer,
            min_frequency=config.min_frequency,
            max_token_length=config.max_token_length,
            tie_break=config.tie_break,
        )
        self.training = BpeTraining.resume(state, trainer_config)
        self._base_merges = len(base.merges)

    @property
    def notes(self) -> list[str]:
        return self.training.notes

    @property
    def target_merges(self) -> int:
        return self.config.add

    @property
    def new_merges(self) -> list[tuple[str, str]]:
        return self.training.merges

    def steps(self) -> Iterator[MergeStep]:
        """Each new merge, numbered after the base's merges (rank = base merges + k)."""
        offset = self._base_merges
        for step in self.training.steps():
            yield replace(step, rank=offset + step.rank)

    def new_tokens(self) -> dict[str, int]:
        """Tokens the new merges added (a merge that spells a base token reuses its id, as HF)."""
        first = self.base.next_id
        return {t: i for t, i in self.training.vocab.items() if i >= first}

    def tokenizer(self, name: str | None = None) -> BpeTokenizer:
        """The extended model after the merges so far."""
        return extended_tokenizer(self.base, self.training.merges, self.new_tokens(), name or f"{self.base.name}+{len(self.training.merges)}")


def extended_tokenizer(base: BpeBase, merges: list[tuple[str, str]], new: dict[str, int], name: str) -> BpeTokenizer:
    """The base with ``merges`` after its own and ``new`` tokens at their ids."""
    tok = base.tokenizer
    specials = base.specials or None
    if base.rank_table:
        ranks = dict(tok.mergeable_ranks or {})
        for token, i in new.items():
            ranks[token_str_to_bytes(token)] = i
        return BpeTokenizer.from_ranks(
            name=name, mergeable_ranks=ranks, pre_tokenizer=tok.pre_tokenizer, special_tokens=specials, normalizer=base.normalizer
        )
    last: dict[tuple[str, str], int] = {}
    merged = [*base.merges, *merges]
    for rank, pair in enumerate(merged):
        last[pair] = rank
    return BpeTokenizer(
        name=name,
        vocab={**base.vocab, **new},
        merges=[pair for rank, pair in enumerate(merged) if last[pair] == rank],
        pre_tokenizer=tok.pre_tokenizer,
        byte_level=base.byte_level,
        special_tokens=specials,
        unk_token=base.unk_token,
    )


def extend(base: BpeBase, corpus: WordCounts, config: ExtendConfig, name: str | None = None) -> tuple[BpeTokenizer, list[MergeStep], Extension]:
    """Run an extension to the end: the extended tokenizer, its new steps, and the run."""
    run = Extension(base, corpus, config)
    steps = list(run.steps())
    return run.tokenizer(name), steps, run
