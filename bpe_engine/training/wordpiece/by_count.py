"""WordPiece merges chosen by frequency (``merge_by="count"``): Hugging Face's ``WordPieceTrainer``.

HF's ``WordPieceTrainer`` is its ``BpeTrainer`` with ``continuing_subword_prefix="##"``, whose
vocabulary then becomes a WordPiece model (``WordPiece::from_bpe``: the merges are dropped, the
vocabulary and its ids kept). That is what BERT-style vocabularies are trained with, and what this
module does, step for step:

1. the special tokens take the first ids, in the order given;
2. the alphabet follows, sorted by code point -- every character of the corpus, or the
   ``limit_alphabet`` most frequent (characters left out are skipped inside words, as HF does);
3. each word becomes symbols: its first character plain, every later one ``##c``. The ``##c``
   symbols take the next ids -- HF numbers them in the hash order of its word table, which changes
   from run to run (tokenizers#1794); we number them by code point, so a run is reproducible;
4. the merge loop is the BPE trainer's, with its ``hf`` tie-break and HF's bookkeeping (the pair
   index and the words table of :mod:`bpe_engine.training.bpe`): the most frequent pair wins,
   between equal counts the pair of smaller ids; merging ``a`` + ``##b`` gives ``ab`` and
   ``##a`` + ``##b`` gives ``##ab`` (the right token's prefix is dropped, HF's rule). Training stops
   at the vocabulary size, when no pair is left, or when the best count is below ``min_frequency``.

Unlike the likelihood score (:mod:`.by_score`), frequency makes the corpus's frequent words
tokens first, so the vocabulary encodes the corpus in few pieces. Words longer than
``max_input_chars_per_word`` are trained on, as HF's trainer does (the encoder maps them to
``[UNK]`` all the same).
"""

from __future__ import annotations

from collections.abc import Mapping

from ..bpe.pair_index import PairIndex
from ..bpe.setup import Vocabulary, refuse_lone_surrogates
from ..bpe.tie_breaks import HfRule, tie_rule
from ..steps import MergeStep, StepWhy
from ..word_table import Words
from .setup import WordPieceTrainerConfig, merged_token


class CountMerges:
    """HF's ``WordPieceTrainer`` merge loop over one corpus (see the module docstring)."""

    def __init__(self, word_counts: Mapping[str, int], config: WordPieceTrainerConfig) -> None:
        self.config = config
        notes: list[str] = []
        vocab = Vocabulary()
        for special in config.special_tokens:
            vocab.add(special, 1)
        alphabet = _alphabet(word_counts, config.limit_alphabet, notes)
        for ch in alphabet:
            vocab.add(ch, 1)
        prefix = config.continuing_prefix
        kept = set(alphabet)
        inner = sorted({ch for word in word_counts for ch in word[1:] if ch in kept})
        for ch in inner:
            vocab.add(prefix + ch, 1)
        plain = {ord(ch): chr(vocab.ids[ch]) for ch in alphabet}
        continued = {ord(ch): chr(vocab.ids[prefix + ch]) for ch in inner}
        symbols: list[str] = []
        counts: list[int] = []
        for word, n in word_counts.items():
            if n <= 0 or len(word) < 2:
                continue
            head = word[0].translate(plain) if word[0] in kept else ""
            ids = head + "".join(ch for ch in word[1:] if ch in kept).translate(continued)
            if len(ids) > 1:
                symbols.append(ids)
                counts.append(n)
        self.notes = tuple(notes)
        self.alphabet = tuple(vocab.tokens[len(config.special_tokens):])
        self._vocab = vocab
        self.initial_size = len(vocab)
        self._words = Words(symbols, counts)
        pair_counts, where = self._words.count_pairs()
        self._pairs = PairIndex(pair_counts, where, HfRule())
        self._stop = "size"
        self._rank = 0

    @property
    def tokens(self) -> list[str]:
        """Id -> token, as merged so far."""
        return self._vocab.tokens

    @property
    def ids(self) -> dict[str, int]:
        """Token -> id, as merged so far."""
        return self._vocab.ids

    def next(self) -> MergeStep | None:
        """Make the next merge, or None when training is over (:meth:`stop_note` says why)."""
        vocab, cfg = self._vocab, self.config
        if len(vocab) >= cfg.vocab_size:
            self._stop = "size"
            return None
        top = self._pairs.pop_best()
        if top is None or top[0] < 1:
            self._stop = "no-pair"
            return None
        count, pair, where = top
        if cfg.min_frequency > count:
            self._stop = "min-frequency"
            return None
        why = self._why(pair, count)  # before the merge changes any count
        left, right = ord(pair[0]), ord(pair[1])
        left_tok, right_tok = vocab.tokens[left], vocab.tokens[right]
        new = vocab.add(merged_token(left_tok, right_tok, cfg.continuing_prefix), 1)
        merge = self._words.merge(pair, chr(new), where)
        self._pairs.apply(merge)
        self._rank += 1
        return MergeStep(
            rank=self._rank - 1, left=left_tok, right=right_tok, new=vocab.tokens[new], left_id=left, right_id=right,
            new_id=new, count=count, words_changed=len(merge.changed), occurrences=merge.occurrences, why=why,
        )

    def _why(self, pair: str, count: int) -> StepWhy:
        found = self._pairs.contest(pair, count)
        tokens = self._vocab.tokens

        def spelled(p: str) -> tuple[str, str]:
            return tokens[ord(p[0])], tokens[ord(p[1])]

        runner_up = found.runner_up
        return StepWhy(
            "count", count, spelled(runner_up[0]) if runner_up else None, runner_up[1] if runner_up else None,
            tuple(map(spelled, found.tied)), found.tied_total, tie_rule("hf") if found.tied_total else None,
        )

    def stop_note(self, merges: int) -> str:
        """Why training stopped after ``merges`` merges, for the notes."""
        size, asked = len(self._vocab), self.config.vocab_size
        if self.initial_size >= asked:
            return f"the specials and alphabet alone ({self.initial_size}) fill the vocabulary size {asked}: no merges"
        if self._stop == "size":
            return f"reached the vocabulary size {asked} after {merges} merges"
        if self._stop == "min-frequency":
            return (
                f"stopped at {size} tokens after {merges} merges: no pair occurs at least "
                f"{self.config.min_frequency} times (the minimum frequency)"
            )
        return f"stopped at {size} tokens after {merges} merges: every word is a single token, no pair is left"


def _alphabet(word_counts: Mapping[str, int], limit: int | None, notes: list[str]) -> list[str]:
    """HF's ``compute_alphabet``: characters weighted by their words' counts, the ``limit`` most
    frequent kept (equal counts: the smaller code point stays, where HF's unstable sort is
    arbitrary), sorted by code point."""
    freq: dict[str, int] = {}
    for word, n in word_counts.items():
        if n > 0:
            for ch in word:
                freq[ch] = freq.get(ch, 0) + n
    refuse_lone_surrogates(freq)
    chars = sorted(freq)
    if limit is not None and len(chars) > limit:
        notes.append(f"limit_alphabet {limit}: {len(chars) - limit} rare characters dropped from the words")
        chars = sorted(sorted(chars, key=lambda c: (-freq[c], c))[:limit])
    return chars
