"""What BPE training starts from -- HF's ``do_train`` steps 1 to 3: special tokens, the alphabet,
the end-of-word symbols, and every word as a string of symbols (:class:`~bpe_engine.training.word_table.Words`).

Ids: special tokens first, in the order given; then the alphabet by code point (byte-level: the
GPT-2 byte characters, all 256 or only those seen -- that order is GPT-2's rank order of single
bytes); then the end-of-word symbols: for ``</w>`` *attached*, one ``c</w>`` per character that
ends a word, by code point (HF numbers them in hash order, which varies from run to run); for
*separate*, the one symbol ``</w>``.

Lengths (for ``max_token_length``) are in characters -- bytes for byte-level -- and ``</w>`` does
not count: ``c</w>`` has length 1 and a separate ``</w>`` length 0.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from ...bpe.byte_table import BYTE_ALPHABET
from ...errors import CorpusError
from ..word_table import Words
from .config import BpeTrainerConfig


@dataclass
class Vocabulary:
    """Token <-> id, and each id's length in characters; grows as merges add tokens."""

    tokens: list[str] = field(default_factory=list)
    ids: dict[str, int] = field(default_factory=dict)
    lengths: list[int] = field(default_factory=list)

    def add(self, token: str, length: int) -> int:
        """The token's id, a new one when it is not in the vocabulary yet."""
        tid = self.ids.get(token)
        if tid is None:
            tid = len(self.tokens)
            self.tokens.append(token)
            self.ids[token] = tid
            self.lengths.append(length)
        return tid

    def __len__(self) -> int:
        return len(self.tokens)


@dataclass
class BpeInitialState:
    """Where the merge loop starts: the vocabulary, the alphabet, every word as symbols.

    ``merged``: ids of tokens earlier merges made, when training resumes from a base
    (:meth:`BpeTraining.resume <bpe_engine.training.bpe.BpeTraining.resume>`); empty from scratch.
    """

    vocab: Vocabulary
    alphabet: tuple[str, ...]
    words: Words
    notes: list[str]
    merged: frozenset[int] = frozenset()
    corpus_empty: bool = False


def initial_state(counts: Mapping[str, int], config: BpeTrainerConfig) -> BpeInitialState:
    """Specials, alphabet and end-of-word symbols as ids, and the words as symbol strings.

    Characters left out of the alphabet (``limit_alphabet``) are skipped inside words, as HF does.
    Words of one symbol are dropped: they hold no pair and never change.
    """
    notes: list[str] = []
    vocab = Vocabulary()
    for special in config.special_tokens:  # 1. specials first, in the order given
        vocab.add(special, len(special))
    alphabet = compute_alphabet(counts, config, notes)  # 2. alphabet by code point
    for ch in alphabet:
        vocab.add(ch, 1)
    char_id = {ord(ch): chr(vocab.ids[ch]) for ch in alphabet}
    pre = config.pre_tokenizer
    suffix = pre.end_of_word_suffix or ""  # "": no end-of-word marking
    separate = bool(suffix) and pre.end_of_word == "separate"
    end_id: dict[str, str] = {}
    if separate:
        end_symbol = chr(vocab.add(suffix, 0))
    elif suffix:  # "o</w>" symbols, by code point
        for ch in sorted({w[-1] for w in counts if w and ord(w[-1]) in char_id}):
            end_id[ch] = chr(vocab.add(ch + suffix, 1))
    complete = config.limit_alphabet is None  # every character of every word is in the alphabet
    symbols: list[str] = []
    word_counts: list[int] = []
    for word, n in counts.items():  # 3. words as strings of symbol ids
        if n <= 0:
            continue
        ends_known = bool(word) and ord(word[-1]) in char_id  # else no </w>: the character was dropped
        if not complete:
            word = "".join(ch for ch in word if ord(ch) in char_id)
        ids = word.translate(char_id)
        if suffix and ends_known:
            ids = ids + end_symbol if separate else ids[:-1] + end_id[word[-1]]
        if len(ids) > 1:
            symbols.append(ids)
            word_counts.append(n)
    if not counts:
        notes.append("empty corpus: the vocabulary is the alphabet only")
    if config.vocab_size < len(vocab):
        notes.append(
            f"vocab_size {config.vocab_size} is below alphabet + specials ({len(vocab)}): "
            f"the vocabulary has {len(vocab)} tokens"
        )
    return BpeInitialState(vocab, tuple(alphabet), Words(symbols, word_counts), notes, corpus_empty=not counts)


def drop_uncounted_pairs(
    counts: dict[str, int], where: dict[str, list[int]], merged: frozenset[int], lengths: list[int], max_length: int
) -> None:
    """Leave out the pairs HF's ``word.rs`` never counts: one that holds a merged token and whose
    merged length reaches ``max_length`` (HF checks only pairs a merge forms; the corpus's first
    pairs, of two initial symbols, are counted whatever their length)."""
    for pair in [p for p in where if (ord(p[0]) in merged or ord(p[1]) in merged)]:
        if lengths[ord(pair[0])] + lengths[ord(pair[1])] >= max_length:
            del where[pair]
            counts.pop(pair, None)


def compute_alphabet(counts: Mapping[str, int], config: BpeTrainerConfig, notes: list[str]) -> list[str]:
    """The starting symbols, sorted by code point (HF's ``compute_alphabet``)."""
    if config.byte_level:
        if config.initial_alphabet == "all":
            return list(BYTE_ALPHABET)
        seen: set[str] = set()
        for word in counts:
            seen.update(word)
        return sorted(seen)
    freq: dict[str, int] = {}
    for word, n in counts.items():
        for ch in word:
            freq[ch] = freq.get(ch, 0) + n
    chars = sorted(freq)
    refuse_lone_surrogates(chars)
    limit = config.limit_alphabet
    if limit is not None and len(chars) > limit:
        # Keep the most frequent; among equal counts the smaller code point stays (HF leaves
        # that tie to an unstable sort, so it is not deterministic there).
        kept = sorted(chars, key=lambda c: (-freq[c], c))[:limit]
        notes.append(f"limit_alphabet {limit}: {len(chars) - limit} rare characters dropped from the words")
        chars = sorted(kept)
    return chars


def refuse_lone_surrogates(chars: Iterable[str]) -> None:
    """Character-level tokens are saved and encoded as UTF-8, which has no lone surrogates
    (U+D800-U+DFFF: what ``surrogateescape`` makes of invalid bytes). Say so now, not at save."""
    bad = [ch for ch in chars if "\ud800" <= ch <= "\udfff"]
    if bad:
        raise CorpusError(
            f"the corpus holds a lone surrogate U+{ord(bad[0]):04X} ({len(bad)} distinct; what undecodable bytes "
            "become), which is not text: character-level training needs valid Unicode; train byte-level (it keeps "
            "such bytes exactly), or remove them from the text"
        )
