"""What a PickyBPE run starts from, as ``pickybpe-bauwenst`` 1.3.1 builds it.

* **Words**: the corpus cut at whitespace, each word with ``▁`` in front (the ``whitespace``
  pre-tokenizer's pieces, without the lone ``▁`` a run of spaces leaves: 1.3.1 splits with
  ``str.split()``, which drops them, and every ``▁`` counts toward the frequency of the token ``▁``).
  Words keep the order they first appear in.
* **Characters are the atoms**, counted over the words; the rarest are dropped until dropping the
  next would cut more than ``1 - character_coverage`` of all characters (1.3.1's loop: rarest
  first, among equal counts the one seen last first). A dropped character is ``[UNK]`` in the words.
* **Ids**: ``[PAD] [UNK] [BOS] [EOS]`` at 0-3, then the kept characters by code point, then each
  merged token as it is first made. A token keeps its id when it is removed and restored; the
  final vocabulary numbers the tokens still present 0, 1, 2, ... in id order (1.3.1's ``id2int``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from ...pretokenizers import SPACE_MARKER
from ..word_table import Words
from .config import PICKY_SPECIALS, PickyConfig

UNK_ID = 1


@dataclass
class PickyVocab:
    """Every token ever made, by id: its string, frequency, parts and whether it is present.

    ``freq`` is 1.3.1's token frequency: a character's count, then what merges move (a merge of
    ``x y`` adds its occurrences to ``xy`` and takes them from ``x`` and ``y``) and removals give
    back to the parts. ``parts`` are the two tokens a merged token was first made of (what a removal
    splits it back into, walking down through parts that are absent themselves).
    """

    tokens: list[str] = field(default_factory=list)
    ids: dict[str, int] = field(default_factory=dict)
    freq: list[int] = field(default_factory=list)
    present: list[bool] = field(default_factory=list)
    parts: list[tuple[int, int] | None] = field(default_factory=list)
    atomic: list[bool] = field(default_factory=list)
    special: list[bool] = field(default_factory=list)

    def add(self, token: str, freq: int = 0, parts: tuple[int, int] | None = None, *, special: bool = False) -> int:
        tid = len(self.tokens)
        self.tokens.append(token)
        self.ids[token] = tid
        self.freq.append(freq)
        self.present.append(True)
        self.parts.append(parts)
        self.atomic.append(special or len(token) == 1)
        self.special.append(special)
        return tid

    def walk(self, tid: int) -> list[int]:
        """The present tokens ``tid`` stands for: itself if present (or atomic), else its parts' walks."""
        parts = self.parts[tid]
        if self.atomic[tid] or self.present[tid] or parts is None:
            return [tid]
        return self.walk(parts[0]) + self.walk(parts[1])

    def final_ids(self) -> dict[str, int]:
        """The tokens still present, numbered 0, 1, 2, ... in id order (1.3.1's ``id2int``)."""
        kept = [t for t, here in zip(self.tokens, self.present) if here]
        return {t: i for i, t in enumerate(kept)}

    def __len__(self) -> int:
        return len(self.tokens)


@dataclass
class PickyStart:
    vocab: PickyVocab
    words: Words
    alphabet: tuple[str, ...]
    dropped: tuple[str, ...]


def picky_words(counts: Mapping[str, int]) -> dict[str, int]:
    """The ``▁word`` pieces of the ``whitespace`` pre-tokenizer, without lone ``▁`` (see above)."""
    return {w: n for w, n in counts.items() if n > 0 and w != SPACE_MARKER}


def initial_state(counts: Mapping[str, int], config: PickyConfig) -> PickyStart:
    """Specials, the covered alphabet, and every word as a string of symbol ids."""
    words = picky_words(counts)
    chars: dict[str, int] = {}
    for word, n in words.items():  # first-seen order: the coverage loop's tie order depends on it
        for ch in word:
            chars[ch] = chars.get(ch, 0) + n
    kept = covered(chars, config.character_coverage)
    vocab = PickyVocab()
    for special in PICKY_SPECIALS:
        vocab.add(special, special=True)
    alphabet = sorted(kept)
    for ch in alphabet:
        vocab.add(ch, kept[ch])
    table = {ord(ch): chr(vocab.ids[ch]) for ch in alphabet}
    unk = chr(UNK_ID)
    symbols = ["".join(table.get(ord(ch), unk) for ch in word) for word in words]
    dropped = tuple(ch for ch in chars if ch not in kept)
    return PickyStart(vocab, Words(symbols, list(words.values())), tuple(alphabet), dropped)


def covered(chars: Mapping[str, int], coverage: float) -> dict[str, int]:
    """The characters that stay: drop the rarest while the dropped total stays within
    ``total - round(coverage * total)`` (1.3.1's ``_filter_atoms``, its rounding and order included)."""
    if coverage >= 1:
        return dict(chars)
    total = sum(chars.values())
    budget = total - round(coverage * total)
    by_count = sorted(chars.items(), key=lambda kv: kv[1], reverse=True)  # Counter.most_common(): stable
    kept = dict(chars)
    for ch, n in reversed(by_count):
        if budget - n < 0:
            break
        budget -= n
        del kept[ch]
    return kept
