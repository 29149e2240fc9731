"""What WordPiece training starts from: the config, the corpus as word -> count, the alphabet.

The starting state here is the score rule's, shared by its incremental trainer (:mod:`.by_score`)
and its naive oracle (:mod:`.naive`), so the tests compare exactly the part that differs: the merge
loop. (The frequency rule, :mod:`.by_count`, starts as HF's trainer does.)

Alphabet: every character kept after ``limit_alphabet`` (most frequent first, ties by code point)
enters the vocabulary in both forms, ``c`` and ``##c``, so any word over the alphabet encodes.
Words with a character outside the alphabet, or longer than ``max_input_chars_per_word``, encode
to ``[UNK]`` whatever the vocabulary, so they are left out of training (the notes say how many).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import ClassVar

from ...choices import WORDPIECE_MERGE_BY, ModelName, WordPieceMergeBy, values
from ...corpus import WordCounts
from ...errors import ConfigError
from ...pretokenizers import PreTokenizer
from ...wordpiece.bert_normalizer import BertNormalizer
from ...wordpiece.bert_pretokenizer import bert_words, bert_words_spaced
from ...wordpiece.front_end import BertFrontEnd
from ...wordpiece.model import BERT_SPECIALS
from ..bpe.config import check_vocab_size
from ..bpe.setup import refuse_lone_surrogates


@dataclass(frozen=True)
class WordPieceTrainerConfig:
    """Everything that decides the vocabulary. Same config + same corpus -> the same vocabulary.

    ``pre_tokenizer=None`` (the default) is BERT's front end: ``normalizer`` then BERT's
    whitespace/punctuation split, the same front end the trained tokenizer encodes with. Any
    :class:`~bpe_engine.pretokenizers.PreTokenizer` may be given instead (the app does, to step
    through merges on its own pieces); then no normaliser runs.

    ``merge_by``: ``"count"`` (HF's ``WordPieceTrainer``: the most frequent pair) or ``"score"``
    (count(ab) / (count(a) count(b))); see :mod:`.trainer`. ``min_frequency`` defaults to 2, as in
    HF's ``BertWordPieceTokenizer.train``.
    """

    model: ClassVar[ModelName] = "wordpiece"
    byte_level: ClassVar[bool] = False  # WordPiece merges characters

    vocab_size: int = 30_000
    merge_by: WordPieceMergeBy = "count"
    min_frequency: int = 2
    limit_alphabet: int | None = None
    special_tokens: tuple[str, ...] = BERT_SPECIALS
    unk_token: str = "[UNK]"
    continuing_prefix: str = "##"
    max_input_chars_per_word: int = 100
    pre_tokenizer: PreTokenizer | None = None
    normalizer: BertNormalizer = field(default_factory=BertNormalizer)

    def __post_init__(self) -> None:
        check_vocab_size(self.vocab_size)
        if self.merge_by not in values(WORDPIECE_MERGE_BY):
            raise ConfigError(
                f"unknown merge rule {self.merge_by!r}; choose one of: {', '.join(values(WORDPIECE_MERGE_BY))}", field="merge_by"
            )
        if self.min_frequency < 0:
            raise ConfigError(f"the minimum frequency must be 0 or more, got {self.min_frequency}", field="min_frequency")
        if self.limit_alphabet is not None and self.limit_alphabet < 0:
            raise ConfigError(f"limit_alphabet must be >= 0 or None, got {self.limit_alphabet}")
        if self.max_input_chars_per_word < 1:
            raise ConfigError(f"max_input_chars_per_word must be >= 1, got {self.max_input_chars_per_word}")
        if not self.continuing_prefix:
            raise ConfigError("continuing_prefix must not be empty (WordPiece marks word-inner pieces with it, e.g. '##')")
        if isinstance(self.special_tokens, str):
            raise ConfigError("special_tokens must be a sequence of strings, not one string")
        object.__setattr__(self, "special_tokens", tuple(dict.fromkeys(self.special_tokens)))
        if self.unk_token not in self.special_tokens:
            raise ConfigError(
                f"the unknown token {self.unk_token!r} must be one of the special tokens "
                f"{list(self.special_tokens)}: WordPiece encodes unmatchable words to it", field="unk_token"
            )

    @property
    def front_end(self) -> PreTokenizer | BertFrontEnd:
        """What cuts the corpus into the words this trainer counts: the pre-tokenizer when one is
        given, else BERT's normaliser and split (the words :func:`count_bert_words` counts)."""
        return self.pre_tokenizer if self.pre_tokenizer is not None else BertFrontEnd(self.normalizer)


@dataclass(frozen=True)
class WordPieceInitialState:
    """What both trainers start from: the vocabulary before any merge and the words as symbols."""

    tokens: tuple[str, ...]
    words: tuple[tuple[str, ...], ...]
    counts: tuple[int, ...]
    notes: tuple[str, ...]


def count_bert_words(texts: Iterable[str], normalizer: BertNormalizer | None = None) -> dict[str, int]:
    """Normalise and BERT-pre-tokenize ``texts``; word -> count in order of first appearance.

    >>> count_bert_words(["Hello, hello!"])
    {'hello': 2, ',': 1, '!': 1}
    """
    norm = normalizer or BertNormalizer()
    counts: Counter[str] = Counter()
    split = bert_words_spaced if norm.clean_text else bert_words
    for text in texts:
        counts.update(split(norm.normalize(text)))
    return dict(counts)


def word_counts_for(corpus: WordCounts | Mapping[str, int] | Iterable[str], config: WordPieceTrainerConfig) -> Mapping[str, int]:
    """Word -> count from counts already made, or from raw texts with the config's front end."""
    if isinstance(corpus, WordCounts):
        if corpus.byte_level:
            raise ConfigError("WordPiece trains on characters: count the words with byte_level=False")
        return corpus.counts
    if isinstance(corpus, Mapping):
        return corpus
    if isinstance(corpus, str):
        corpus = [corpus]
    if config.pre_tokenizer is None:
        return count_bert_words(corpus, config.normalizer)
    counts: dict[str, int] = {}
    for text in corpus:
        for piece in config.pre_tokenizer.split(text):
            counts[piece] = counts.get(piece, 0) + 1
    return counts


def initial_state(word_counts: Mapping[str, int], config: WordPieceTrainerConfig) -> WordPieceInitialState:
    """Specials, then the alphabet (both forms, sorted by code point), and every usable word."""
    prefix = config.continuing_prefix
    char_counts: dict[str, int] = {}
    for word, n in word_counts.items():
        for ch in word:
            char_counts[ch] = char_counts.get(ch, 0) + n
    refuse_lone_surrogates(char_counts)
    ranked = sorted(char_counts, key=lambda ch: (-char_counts[ch], ch))
    limit = config.limit_alphabet
    kept = set(ranked if limit is None else ranked[:limit])
    notes: list[str] = []
    if len(kept) < len(ranked):
        notes.append(f"limit_alphabet={limit}: dropped {len(ranked) - len(kept)} rare characters")
    words: list[tuple[str, ...]] = []
    counts: list[int] = []
    skipped_chars = skipped_long = 0
    for word, n in word_counts.items():
        if not word or n <= 0:
            continue
        if len(word) > config.max_input_chars_per_word:
            skipped_long += 1
            continue
        if any(ch not in kept for ch in word):
            skipped_chars += 1
            continue
        words.append((word[0], *(prefix + ch for ch in word[1:])))
        counts.append(n)
    if skipped_chars:
        notes.append(f"{skipped_chars} distinct words hold a character outside the alphabet: they encode to {config.unk_token}, not trained on")
    if skipped_long:
        notes.append(
            f"{skipped_long} distinct words are longer than {config.max_input_chars_per_word} characters: "
            f"they encode to {config.unk_token}, not trained on"
        )
    tokens = list(config.special_tokens)
    seen = set(tokens)
    for tok in sorted(s for ch in kept for s in (ch, prefix + ch)):
        if tok not in seen:
            seen.add(tok)
            tokens.append(tok)
    return WordPieceInitialState(tuple(tokens), tuple(words), tuple(counts), tuple(notes))


def merged_token(left: str, right: str, prefix: str) -> str:
    """``a`` + ``##b`` -> ``ab``; ``##a`` + ``##b`` -> ``##ab``."""
    return left + (right[len(prefix):] if right.startswith(prefix) else right)
