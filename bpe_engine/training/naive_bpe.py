"""The tutorial BPE trainer: recount every pair before every merge. Slow on purpose, and readable.

It is the oracle for :mod:`bpe_engine.training.bpe` (same ids, same tie-break rules, same
``max_token_length`` and ``min_frequency`` rules) and the baseline of the speed-up benchmark.
Tokens are plain strings here, so every step can be read off in a debugger.

Each step:

1. count every adjacent pair over all words (weighted by word count), scanning words in order
   of first appearance and pairs left to right, so the dict's insertion order *is* first-seen
   order;
2. pick the best pair by the tie-break rule;
3. fuse it everywhere, left to right (``a a a`` -> ``aa a``).

One difference from HF is by design: when a merge reuses an existing token id, HF (and the
``hf`` rule of the incremental trainer) may fuse the new pair in two steps; this trainer always
fuses all occurrences at once. The two agree whenever no id is reused.

Both ``</w>`` conventions: *attached* glues it to a word's last symbol (``l o w</w>``), *separate*
makes it a symbol of its own (``l o w </w>``), which pairs like any other:

>>> from bpe_engine.pretokenizers import END_OF_WORD, END_OF_WORD_SEPARATE
>>> for pre in (END_OF_WORD, END_OF_WORD_SEPARATE):
...     cfg = BpeTrainerConfig(vocab_size=11, byte_level=False, pre_tokenizer=pre)
...     print([(s.left, s.right) for s in train_naive({"low": 3, "lower": 1}, cfg)][:3])
[('l', 'o'), ('lo', 'w</w>'), ('e', 'r</w>')]
[('l', 'o'), ('lo', 'w'), ('low', '</w>')]

>>> from bpe_engine.pretokenizers import NONE
>>> cfg = BpeTrainerConfig(vocab_size=7, byte_level=False, pre_tokenizer=NONE, tie_break="first-seen")
>>> [(s.left, s.right) for s in train_naive({"aaabdaaabac": 1}, cfg)]
[('a', 'a'), ('aa', 'a'), ('aaa', 'b')]
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..bpe.byte_table import BYTE_ALPHABET, token_str_to_bytes
from ..corpus import WordCounts
from .bpe import BpeTrainerConfig
from .bpe.tie_breaks import tie_rule
from .steps import MergeStep, why_of_ranking


def train_naive(corpus: WordCounts | Mapping[str, int], config: BpeTrainerConfig) -> list[MergeStep]:
    """All merge steps of a training, recounting all pairs before each merge."""
    counts = corpus.counts if isinstance(corpus, WordCounts) else corpus
    pre = config.pre_tokenizer
    suffix = pre.end_of_word_suffix or ""
    separate = bool(suffix) and pre.end_of_word == "separate"
    vocab, alphabet = _initial_vocab(counts, config, suffix, separate)
    words = _split_words(counts, alphabet, suffix, separate)
    initial = frozenset(symbol for symbols, _ in words for symbol in symbols)  # what words start as

    def length(token: str) -> int:
        """In characters (bytes for byte-level), ``</w>`` not counted."""
        return len(token) - len(suffix) if suffix and token.endswith(suffix) else len(token)

    def eligible(a: str, b: str) -> bool:
        if config.max_token_length is None or (a in initial and b in initial):
            return True  # pairs of starting symbols are always counted, as in HF
        return length(a) + length(b) < config.max_token_length

    def token_bytes(token: str) -> bytes:
        return token_str_to_bytes(token) if config.byte_level else token.encode("utf-8")

    steps: list[MergeStep] = []
    while len(vocab) < config.vocab_size:
        stats: dict[tuple[str, str], int] = {}
        for symbols, n in words:
            for pair in zip(symbols, symbols[1:]):
                stats[pair] = stats.get(pair, 0) + n
        if config.max_token_length is not None:
            stats = {pair: c for pair, c in stats.items() if eligible(*pair)}
        if not stats:
            break
        pick, key = _rule(config.tie_break, stats, vocab, token_bytes)
        best = pick(stats, key=key)
        ranked = sorted(stats, key=key, reverse=pick is max)  # stable either way: equal keys keep dict order
        assert ranked[0] == best
        count = stats[best]
        if count < 1 or count < config.min_frequency:
            break
        left, right = best
        new = left + right
        if new not in vocab:  # a merge yielding a known string reuses its id
            vocab[new] = len(vocab)
        changed = occurrences = 0
        for k, (symbols, n) in enumerate(words):
            merged, fused = fuse(symbols, left, right, new)
            if fused:
                words[k] = (merged, n)
                changed += 1
                occurrences += fused * n
        steps.append(
            MergeStep(
                rank=len(steps), left=left, right=right, new=new, left_id=vocab[left], right_id=vocab[right],
                new_id=vocab[new], count=count, words_changed=changed, occurrences=occurrences,
                why=why_of_ranking("count", [(p, stats[p]) for p in ranked], tie_rule(config.tie_break)),
            )
        )
    return steps


def _rule(
    name: str, stats: Mapping[tuple[str, str], int], vocab: Mapping[str, int], token_bytes: Callable[[str], bytes]
) -> tuple[Callable[..., tuple[str, str]], Callable[[tuple[str, str]], Any]]:
    """Each tie-break rule as the plain ``min`` or ``max`` that states it, and its key.

    ``first-seen`` is minbpe's ``max(stats, key=stats.get)``: ``max`` keeps the first of equal keys,
    and ``stats`` is filled in scanning order. ``greatest`` is ``max`` over ``(count, (left bytes,
    right bytes))``, as code that picks the best pair with ``max()`` over tuples of bytes.
    """
    if name == "first-seen":
        return max, stats.__getitem__
    if name == "greatest":
        return max, lambda p: (stats[p], (token_bytes(p[0]), token_bytes(p[1])))
    if name == "hf":
        return min, lambda p: (-stats[p], vocab[p[0]], vocab[p[1]])
    return min, lambda p: (-stats[p], token_bytes(p[0]), token_bytes(p[1]))


def fuse(symbols: Sequence[str], left: str, right: str, new: str) -> tuple[list[str], int]:
    """Replace every ``left right`` by ``new``, left to right: ``(['a','a','a'], a, a) -> ['aa','a']``."""
    out: list[str] = []
    fused = i = 0
    while i < len(symbols):
        if i + 1 < len(symbols) and symbols[i] == left and symbols[i + 1] == right:
            out.append(new)
            fused += 1
            i += 2
        else:
            out.append(symbols[i])
            i += 1
    return out, fused


def _initial_vocab(
    counts: Mapping[str, int], config: BpeTrainerConfig, suffix: str, separate: bool
) -> tuple[dict[str, int], frozenset[str]]:
    """Specials, then the alphabet by code point, then ``c</w>`` symbols by code point (or the
    one ``</w>`` symbol when it is separate)."""
    vocab: dict[str, int] = {}
    for token in config.special_tokens:
        vocab.setdefault(token, len(vocab))
    if config.byte_level:
        alphabet = list(BYTE_ALPHABET) if config.initial_alphabet == "all" else sorted(set("".join(counts)))
    else:
        freq: dict[str, int] = {}
        for word, n in counts.items():
            for ch in word:
                freq[ch] = freq.get(ch, 0) + n
        alphabet = sorted(freq)
        if config.limit_alphabet is not None:
            alphabet = sorted(sorted(freq, key=lambda c: (-freq[c], c))[: config.limit_alphabet])
    for ch in alphabet:
        vocab.setdefault(ch, len(vocab))
    if separate:
        vocab.setdefault(suffix, len(vocab))
    elif suffix:
        for ch in sorted({w[-1] for w in counts if w and w[-1] in alphabet}):
            vocab.setdefault(ch + suffix, len(vocab))
    return vocab, frozenset(alphabet)


def _split_words(
    counts: Mapping[str, int], alphabet: frozenset[str], suffix: str, separate: bool
) -> list[tuple[list[str], int]]:
    """Each word as its characters (those in the alphabet), then ``</w>``: glued to the last
    one, or appended as a symbol of its own."""
    words = []
    for word, n in counts.items():
        if n <= 0:
            continue
        symbols = [ch for ch in word if ch in alphabet]
        if suffix and word and word[-1] in alphabet:
            if separate:
                symbols.append(suffix)
            else:
                symbols[-1] += suffix
        words.append((symbols, n))
    return words
