"""Incremental BPE training: Hugging Face's ``BpeTrainer`` algorithm, in pure Python.

The corpus is first reduced to word -> count (:mod:`bpe_engine.corpus`); then, as in HF's
``do_train``:

1. special tokens take the first ids, in the order given;
2. the alphabet follows, sorted by code point (byte-level: the GPT-2 byte characters, all 256 or
   only those seen; that order is GPT-2's rank order of single bytes);
3. every word becomes a string of symbol ids (``chr(id)``: compact, and ``str.find`` /
   ``str.replace`` fuse a pair left to right in C);
4. pairs are counted once, with the words they occur in, and pushed on a lazy max-heap;
5. each merge pops the best pair, fuses it in the words that hold it, and applies the pair-count
   changes those words report (see :func:`merge_word`). The corpus is never recounted.

When a merge yields a token string already in the vocabulary (``a`` + ``bc`` after ``ab`` + ``c``),
the existing id is reused and the vocabulary does not grow, exactly like HF. Training stops when
the vocabulary reaches ``vocab_size``, when no pair is left, or when the best count is below
``min_frequency``.

Tie-break rules (what decides between pairs of equal count):

``hf``
    the smaller ``(left_id, right_id)`` -- exactly HF ``tokenizers``. This rule also keeps HF's
    bookkeeping to the letter: a heap entry carries the words where its pair was formed, so after
    an id reuse a pair may be merged in two steps, and the count of a merged pair is not reset.
    That is what makes the merge list equal to HF's rank for rank.
``lexicographic``
    the smaller ``(left, right)`` compared by the tokens' bytes (raw bytes for byte-level, UTF-8
    for character-level, which is code point order).
``first-seen``
    the pair met first when scanning the current segmentation: words in order of first
    appearance, pairs left to right -- what minbpe gets from ``max()`` over an insertion-ordered
    dict. Kept incrementally: a pair's first position (word index, character offset) only grows
    and its count only shrinks until a merge forms it anew (then it is pushed again), so a lazy
    heap checked at pop time stays exact.

``lexicographic`` and ``first-seen`` fuse every occurrence of the chosen pair at once, like the
naive trainer in :mod:`bpe_engine.reference_trainer`.

``max_token_length`` follows HF's ``word.rs``: a pair formed by a merge is not counted when its
merged length (in characters, bytes for byte-level, ``</w>`` not counted) would reach the limit.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from heapq import heapify, heappop, heappush
from typing import TYPE_CHECKING, Literal

from .byte_table import BYTE_ALPHABET, token_str_to_bytes
from .corpus import Document, WordCounts, count_words
from .errors import ConfigError
from .pretokenizers import GPT2, PreTokenizer
from .stepwise import StepwiseTraining
from .types import MergeStep

if TYPE_CHECKING:  # pragma: no cover
    from .bpe_model import BpeTokenizer

TieBreak = Literal["hf", "lexicographic", "first-seen"]
TIE_BREAKS: tuple[str, ...] = ("hf", "lexicographic", "first-seen")

_U64 = 1 << 64
_ID_PAIR_MASK = (1 << 42) - 1
MAX_VOCAB_SIZE = 1_000_000
"""Symbols are stored as ``chr(id)``, so ids must stay below U+10FFFF."""


@dataclass(frozen=True)
class BpeTrainerConfig:
    """Everything that decides the merges. Same config + same corpus -> the same merges.

    ``vocab_size`` counts special tokens, alphabet and merged tokens (HF's meaning).
    ``initial_alphabet`` (byte-level): all 256 byte characters, or only those in the corpus.
    ``limit_alphabet`` (character-level): keep that many characters, the most frequent; among
    equal counts the smaller code point stays (HF leaves that tie to an unstable sort). Dropped
    characters are skipped inside words, as HF does.
    ``min_frequency``: stop when the best pair occurs fewer times.
    ``max_token_length``: see the module docstring (HF's rule: merged length must stay below it).
    ``tie_break``: ``hf``, ``lexicographic`` or ``first-seen`` (module docstring).
    The pre-tokenizer's ``end_of_word_suffix`` (``</w>``) is glued to each word's last symbol.
    """

    vocab_size: int
    byte_level: bool = True
    pre_tokenizer: PreTokenizer = GPT2
    initial_alphabet: Literal["all", "seen"] = "all"
    limit_alphabet: int | None = None
    min_frequency: int = 0
    special_tokens: tuple[str, ...] = ()
    max_token_length: int | None = None
    tie_break: TieBreak = "hf"

    def __post_init__(self) -> None:
        if not 0 <= self.vocab_size <= MAX_VOCAB_SIZE:
            raise ConfigError(f"vocab_size must be between 0 and {MAX_VOCAB_SIZE:,}, got {self.vocab_size}")
        if self.tie_break not in TIE_BREAKS:
            raise ConfigError(f"unknown tie-break {self.tie_break!r}; choose one of: {', '.join(TIE_BREAKS)}")
        if self.initial_alphabet not in ("all", "seen"):
            raise ConfigError(f"initial_alphabet must be 'all' or 'seen', got {self.initial_alphabet!r}")
        if self.limit_alphabet is not None and (self.byte_level or self.limit_alphabet < 0):
            raise ConfigError("limit_alphabet is for character-level training and must be >= 0")
        if self.max_token_length is not None and self.max_token_length < 1:
            raise ConfigError(f"max_token_length must be >= 1, got {self.max_token_length}")
        if self.min_frequency < 0:
            raise ConfigError(f"min_frequency must be >= 0, got {self.min_frequency}")
        if isinstance(self.special_tokens, str):
            raise ConfigError("special_tokens must be a sequence of strings, not one string")
        object.__setattr__(self, "special_tokens", tuple(self.special_tokens))


@dataclass(frozen=True)
class TrainResult:
    """A finished training: the tokenizer, every merge step, and what the user should know."""

    tokenizer: BpeTokenizer
    steps: tuple[MergeStep, ...]
    notes: tuple[str, ...]


def merge_word(
    symbols: list[int], left: int, right: int, new: int, *, lengths: Mapping[int, int] | None = None,
    max_length: int | None = None,
) -> tuple[list[int], list[tuple[tuple[int, int], int]]]:
    """Fuse every ``left right`` in ``symbols`` (left to right) and report the pair-count changes.

    A pure mirror of HF's ``Word::merge``; the trainer runs the same steps inlined, on words
    stored as strings (:meth:`BpeTraining._apply`).
    With ``max_length``, a new pair is reported only if its merged length is below it
    (``lengths`` gives each id's length; 1 when missing).

    Merging ``l l`` in ``hello`` (h=0 e=1 l=2 o=3, ll=4): ``(e,l) -1, (e,ll) +1, (l,o) -1,
    (ll,o) +1``.

    >>> merge_word([0, 1, 2, 2, 3], 2, 2, 4)
    ([0, 1, 4, 3], [((1, 2), -1), ((1, 4), 1), ((2, 3), -1), ((4, 3), 1)])
    """
    length = (lambda t: lengths.get(t, 1)) if lengths is not None else (lambda t: 1)
    limit = max_length if max_length is not None else float("inf")
    new_len = length(left) + length(right)
    out: list[int] = []
    changes: list[tuple[tuple[int, int], int]] = []
    i, n = 0, len(symbols)
    while i < n:
        if symbols[i] == left and i + 1 < n and symbols[i + 1] == right:
            if out:
                prev = out[-1]
                changes.append(((prev, left), -1))
                if length(prev) + new_len < limit:
                    changes.append(((prev, new), 1))
            out.append(new)
            if i + 2 < n:
                nxt = symbols[i + 2]
                changes.append(((right, nxt), -1))
                if length(nxt) + new_len < limit:
                    changes.append(((new, nxt), 1))
            i += 2
        else:
            out.append(symbols[i])
            i += 1
    return out, changes


def train(
    corpus: WordCounts | Iterable[Document | str | bytes], config: BpeTrainerConfig, *, workers: int = 2
) -> TrainResult:
    """Run a training to the end (documents are counted first with the config's pre-tokenizer)."""
    training = BpeTraining(corpus, config, workers=workers)
    steps = tuple(training.steps())
    return TrainResult(training.tokenizer(), steps, tuple(training.notes))


class BpeTraining(StepwiseTraining):
    """One training run, advanced one merge at a time by :meth:`steps` (a UI can stop anywhere).

    ``vocab``, ``merges`` and :meth:`tokenizer` always reflect the merges made so far.
    """

    def __init__(
        self, corpus: WordCounts | Iterable[Document | str | bytes], config: BpeTrainerConfig, *, workers: int = 2
    ) -> None:
        if not isinstance(corpus, WordCounts):
            corpus = count_words(
                corpus, config.pre_tokenizer, config.special_tokens, byte_level=config.byte_level, workers=workers
            )
        if corpus.byte_level != config.byte_level:
            kind = "byte-level" if corpus.byte_level else "character-level"
            raise ConfigError(f"the word counts are {kind} but the config says byte_level={config.byte_level}")
        self.config = config
        self.notes: list[str] = []
        self.merges: list[tuple[str, str]] = []
        self.steps_done: list[MergeStep] = []
        self._id_to_tok: list[str] = []
        self._tok_to_id: dict[str, int] = {}
        self._finished = False
        self._stop = "size"
        self._stop_count = 0
        self._empty = not corpus.counts
        self._build(corpus.counts)

    # -- public API ------------------------------------------------------------------------------
    @property
    def vocab(self) -> dict[str, int]:
        """Token -> id for the merges made so far (a copy)."""
        return dict(self._tok_to_id)

    @property
    def alphabet(self) -> tuple[str, ...]:
        return self._alphabet

    def tokenizer(self, name: str | None = None) -> BpeTokenizer:
        """A tokenizer from the merges so far.

        A pair merged twice (possible after an id reuse, see the module docstring) keeps its
        last rank, as HF's model does.
        """
        from .bpe_model import BpeTokenizer  # late: the trainer works before the model is loaded

        last: dict[tuple[str, str], int] = {}
        for rank, pair in enumerate(self.merges):
            last[pair] = rank
        merges = [pair for rank, pair in enumerate(self.merges) if last[pair] == rank]
        specials = {t: self._tok_to_id[t] for t in self.config.special_tokens}
        unk = "<unk>" if not self.config.byte_level and "<unk>" in specials else None
        return BpeTokenizer(
            name=name or f"bpe-{len(self._tok_to_id)}",
            vocab=dict(self._tok_to_id),
            merges=merges,
            pre_tokenizer=self.config.pre_tokenizer,
            byte_level=self.config.byte_level,
            special_tokens=specials or None,
            unk_token=unk,
        )

    # -- setup (HF do_train steps 1-4) -----------------------------------------------------------
    def _add_token(self, token: str) -> int:
        tid = self._tok_to_id.get(token)
        if tid is None:
            tid = len(self._id_to_tok)
            self._id_to_tok.append(token)
            self._tok_to_id[token] = tid
        return tid

    def _build(self, counts: Mapping[str, int]) -> None:
        cfg = self.config
        for special in cfg.special_tokens:  # 1. specials first, in the order given
            self._add_token(special)
        alphabet = self._compute_alphabet(counts)  # 2. alphabet by code point
        for ch in alphabet:
            self._add_token(ch)
        self._alphabet = tuple(alphabet)
        suffix = cfg.pre_tokenizer.end_of_word_suffix
        lengths = [0] * len(self._id_to_tok)  # in characters (bytes), the suffix not counted
        for tid, tok in enumerate(self._id_to_tok):
            lengths[tid] = len(tok)
        # 3. words as strings of symbol ids (chr(id)): compact, and str.find/str.replace fuse a pair
        # left to right in C. Characters left out of the alphabet are skipped (HF does).
        char_id = {ch: chr(self._tok_to_id[ch]) for ch in alphabet}
        end_id: dict[str, str] = {}
        if suffix:  # "o</w>" symbols: ids after the alphabet, by code point
            for ch in sorted({w[-1] for w in counts if w and w[-1] in char_id}):
                end_id[ch] = chr(self._add_token(ch + suffix))
                if len(lengths) < len(self._id_to_tok):
                    lengths.append(1)
        table = {ord(ch): sym for ch, sym in char_id.items()}
        complete = cfg.limit_alphabet is None  # every character of every word is in the alphabet
        words: list[str] = []
        word_counts: list[int] = []
        for word, n in counts.items():
            if n <= 0:
                continue
            ends_known = bool(word) and word[-1] in char_id  # else no </w>: the character was dropped
            if not complete:
                word = "".join(ch for ch in word if ch in char_id)
            ids = word.translate(table)
            if suffix and ends_known:
                ids = ids[:-1] + end_id[word[-1]]
            if len(ids) > 1:  # single symbols never change: keeping them would only cost memory
                words.append(ids)
                word_counts.append(n)
        self._words = words
        self._counts = word_counts
        self._lengths = lengths
        self._initial_size = len(self._id_to_tok)
        if not counts:
            self.notes.append("empty corpus: the vocabulary is the alphabet only")
        if cfg.vocab_size < self._initial_size:
            self.notes.append(
                f"vocab_size {cfg.vocab_size} is below alphabet + specials ({self._initial_size}): "
                f"the vocabulary has {self._initial_size} tokens"
            )
        self._count_pairs()  # 4.

    def _compute_alphabet(self, counts: Mapping[str, int]) -> list[str]:
        cfg = self.config
        if cfg.byte_level:
            if cfg.initial_alphabet == "all":
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
        limit = cfg.limit_alphabet
        if limit is not None and len(chars) > limit:
            # Keep the most frequent; among equal counts the smaller code point stays (HF leaves
            # that tie to an unstable sort, so it is not deterministic there).
            kept = sorted(chars, key=lambda c: (-freq[c], c))[:limit]
            dropped = len(chars) - limit
            self.notes.append(f"limit_alphabet {limit}: {dropped} rare characters dropped from the words")
            chars = sorted(kept)
        return chars

    def _count_pairs(self) -> None:
        """Count every adjacent pair once, with the words it occurs in (ascending word order)."""
        words, counts = self._words, self._counts
        # A pair's key is its two id characters: hashing is cheap, and comparing keys compares
        # (left_id, right_id), which is HF's tie-break.
        pair_counts: dict[str, int] = {}
        where: dict[str, list[int]] = {}
        get = pair_counts.get
        for i, w in enumerate(words):
            c = counts[i]
            for key in map(str.__add__, w[:-1], w[1:]):
                pair_counts[key] = get(key, 0) + c
                lst = where.get(key)
                if lst is None:
                    where[key] = [i]
                elif lst[-1] != i:
                    lst.append(i)
        self._pair_counts = pair_counts
        self._index: dict[str, list[int]] = {} if self.config.tie_break == "hf" else where
        # Word lists in heap entries are tuples: the garbage collector stops tracking tuples of
        # ints, so its passes do not walk hundreds of thousands of them.
        heap: list[tuple] = [
            self._entry(pair_counts[k], k, tuple(lst)) for k, lst in where.items() if pair_counts[k] > 0
        ]
        heapify(heap)
        self._heap = heap

    # -- the merge loop (HF do_train step 5) -----------------------------------------------------
    def _entry(self, count: int, key: str, pos: Sequence[int]) -> tuple:
        """A heap entry; the smallest is the best pair under the tie-break rule.

        ``hf`` packs (-count, left_id, right_id) into one int: one integer comparison per heap
        step instead of a tuple walk (ids are below 2**21, see :data:`MAX_VOCAB_SIZE`).
        """
        mode = self.config.tie_break
        if mode == "hf":
            return ((-count << 42) | (ord(key[0]) << 21) | ord(key[1]), key, pos)
        if mode == "lexicographic":
            return (-count, self._tok_bytes(ord(key[0])), self._tok_bytes(ord(key[1])), key)
        first = self._first_occurrence(key)
        assert first is not None  # an entry is only made for a pair that occurs
        return (-count, first[0], first[1], key)

    def _tok_bytes(self, tid: int) -> bytes:
        tok = self._id_to_tok[tid]
        return token_str_to_bytes(tok) if self.config.byte_level else tok.encode("utf-8")

    def _first_occurrence(self, key: str) -> tuple[int, int] | None:
        """(word index, character offset) of the pair's first occurrence; prunes the index."""
        lst = self._index.get(key)
        if not lst:
            return None
        lengths = self._lengths
        for at, wi in enumerate(lst):
            w = self._words[wi]
            j = w.find(key)
            if j >= 0:
                del lst[:at]
                return wi, sum(lengths[ord(ch)] for ch in w[:j])
        lst.clear()
        return None

    def _pop_best(self) -> tuple[int, str, Sequence[int]] | None:
        """Pop until an entry is current: ``(count, pair key, words)`` or None when empty.

        As HF does, a stale entry is pushed back with the current count and its own word list.
        """
        heap, pair_counts = self._heap, self._pair_counts
        mode = self.config.tie_break
        while heap:
            top = heappop(heap)
            key = top[-1] if mode != "hf" else top[1]
            cur = pair_counts.get(key, 0)
            if mode == "hf":
                stored = -(top[0] >> 42)
                cur_u = cur if cur >= 0 else cur + _U64  # HF casts the i32/i64 count to u64
                if stored != cur_u:
                    heappush(heap, ((-cur_u << 42) | (top[0] & _ID_PAIR_MASK), key, top[2]))
                    continue
                return stored, key, top[2]
            if cur <= 0:
                continue
            if -top[0] != cur or (mode == "first-seen" and self._first_occurrence(key) != (top[1], top[2])):
                heappush(heap, self._entry(cur, key, []))
                continue
            return cur, key, self._index.pop(key, [])
        return None

    def _next(self) -> MergeStep | None:
        cfg = self.config
        if len(self._tok_to_id) >= cfg.vocab_size:
            self._stop = "size"
            return None
        top = self._pop_best()
        if top is None:
            self._stop = "no-pair"
            return None
        count, key, pos = top
        if count < 1 or cfg.min_frequency > count:
            self._stop = "min-frequency" if count >= 1 else "no-pair"
            self._stop_count = count
            return None
        hf = cfg.tie_break == "hf"
        left, right = ord(key[0]), ord(key[1])
        left_tok, right_tok = self._id_to_tok[left], self._id_to_tok[right]
        new_tok = left_tok + right_tok
        new = self._tok_to_id.get(new_tok)
        if new is None:
            new = self._add_token(new_tok)
            self._lengths.append(self._lengths[left] + self._lengths[right])
        words_changed, occurrences, gained = self._apply(key, chr(new), pos)
        if not hf:
            self._pair_counts[key] = 0  # every occurrence is fused
        self._push_gained(gained)
        rank = len(self.merges)
        self.merges.append((left_tok, right_tok))
        step = MergeStep(
            rank=rank, left=left_tok, right=right_tok, new=new_tok, left_id=left, right_id=right,
            new_id=new, count=count, words_changed=words_changed, occurrences=occurrences,
        )
        self.steps_done.append(step)
        return step

    def _apply(self, pair: str, newc: str, pos: Sequence[int]) -> tuple[int, int, dict[str, tuple[int, ...]]]:
        """Fuse ``pair`` into ``newc`` in the words of ``pos`` and update the pair counts.

        The same steps as :func:`merge_word`, with the changes summed per neighbour symbol before
        they touch the pair-count table: an occurrence's left neighbour ``p`` turns ``(p, left)``
        into ``(p, new)``, its right neighbour ``n`` turns ``(right, n)`` into ``(new, n)``. The left
        neighbour is the new symbol when the previous occurrence ended right there (HF's
        ``symbols[i - 1]`` after the in-place merge); the right one is always the original.
        Returns (words changed, occurrences fused, words where each new pair was formed).
        """
        words, counts = self._words, self._counts
        # neighbour -> [summed count, word index, word index, ...] (each index once, ascending)
        lefts: dict[str, list[int]] = {}
        rights: dict[str, list[int]] = {}
        lefts_get, rights_get = lefts.get, rights.get
        words_changed = occurrences = 0
        for i in pos:
            w = words[i]
            j = w.find(pair)
            if j < 0:
                continue
            c = counts[i]
            last = len(w) - 2
            end = -1
            fused = 0
            while j >= 0:
                if j:
                    p = newc if j == end else w[j - 1]
                    e = lefts_get(p)
                    if e is None:
                        lefts[p] = [c, i]
                    else:
                        e[0] += c
                        if e[-1] != i:
                            e.append(i)
                end = j + 2
                if j < last:
                    nx = w[end]
                    e = rights_get(nx)
                    if e is None:
                        rights[nx] = [c, i]
                    else:
                        e[0] += c
                        if e[-1] != i:
                            e.append(i)
                fused += 1
                j = w.find(pair, end)
            words[i] = w.replace(pair, newc)
            words_changed += 1
            occurrences += fused * c
        gained = self._count_changes(pair, newc, lefts, rights)
        return words_changed, occurrences, gained

    def _count_changes(
        self, pair: str, newc: str, lefts: dict[str, list[int]], rights: dict[str, list[int]]
    ) -> dict[str, tuple[int, ...]]:
        """Apply the summed changes of one merge; return each gained pair with its words.

        With ``max_token_length``, a gained pair is not counted when its merged length would
        reach the limit (HF's ``word.rs``); the lost pair is uncounted all the same.
        """
        pc = self._pair_counts
        get = pc.get
        max_len = self.config.max_token_length
        lengths = self._lengths
        new_len = lengths[ord(newc)]
        gained: dict[str, tuple[int, ...]] = {}
        lc, rc = pair[0], pair[1]
        for sym, entry in lefts.items():  # (sym, left) -> (sym, new)
            lost = sym + lc
            pc[lost] = get(lost, 0) - entry[0]
            if max_len is None or lengths[ord(sym)] + new_len < max_len:
                won = sym + newc
                pc[won] = get(won, 0) + entry[0]
                gained[won] = tuple(entry[1:])
        for sym, entry in rights.items():  # (right, sym) -> (new, sym)
            lost = rc + sym
            pc[lost] = get(lost, 0) - entry[0]
            if max_len is None or lengths[ord(sym)] + new_len < max_len:
                won = newc + sym
                pc[won] = get(won, 0) + entry[0]
                old = gained.get(won)
                # (new, new) comes from both sides once a reused id is in the words
                gained[won] = tuple(entry[1:]) if old is None else tuple(sorted({*old, *entry[1:]}))
        return gained

    def _push_gained(self, gained: dict[str, tuple[int, ...]]) -> None:
        heap, pc = self._heap, self._pair_counts
        if self.config.tie_break == "hf":
            for key, lst in gained.items():
                cnt = pc[key]
                if cnt > 0:
                    heappush(heap, ((-cnt << 42) | (ord(key[0]) << 21) | ord(key[1]), key, lst))
            return
        index = self._index
        for key, lst in gained.items():
            old = index.get(key)
            if old:
                old.extend(lst)
                if old[-len(lst) - 1] >= lst[0]:  # a reused id formed the pair again: re-sort
                    old[:] = sorted(set(old))
            else:
                index[key] = list(lst)
            cnt = pc[key]
            if cnt > 0:
                heappush(heap, self._entry(cnt, key, []))

    def _note_stop(self) -> None:
        size = len(self._tok_to_id)
        reason = self._stop
        asked = self.config.vocab_size
        if reason == "no-pair" and size < asked and not self._empty:
            self.notes.append(f"no pair left after {len(self.merges)} merges: the vocabulary has {size} tokens (asked {asked})")
        elif reason == "min-frequency":
            self.notes.append(
                f"stopped after {len(self.merges)} merges: the best pair occurs {self._stop_count} times, below "
                f"min_frequency {self.config.min_frequency}; the vocabulary has {size} tokens (asked {asked})"
            )
