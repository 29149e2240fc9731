"""Saying early that a word table will not fit in memory, and what to do about it.

Streaming bounds the memory of *reading* a corpus; what remains is the word table, and the
training built on it, which grow with the number of distinct words. A 10 GB corpus of varied
text can hold tens of millions of them. Rather than let the machine swap or the kernel kill the
process after an hour, :class:`TableWatch` follows the table while counting runs:

- it projects the final number of distinct words from the growth so far (Heaps' law,
  ``words ~ bytes ** beta`` with ``beta`` fitted on the run) and *warns* once, early, when the
  projection would not fit;
- it *stops* counting with :class:`WordTableTooLarge` as soon as the table already counted would
  not fit once training starts -- long before the table itself fills memory.

Both say the ways out: ``--min-word-count`` (only words seen that often are trained on), a
sample of the lines, or counting on a cluster and training ``--from-counts``.

Memory per distinct word, measured on en_10mb (83,000 words of 8 characters on average; the
incremental trainer at 8,000 merges): the table ~175 bytes, the training on it ~630 more. The
watch counts every character of every distinct word, not a sampled average: one word of 200 MB
costs what 25 million words of 8 characters cost.

A stretch of text with no place to cut it into blocks (a file of one huge word, ``/dev/zero``, a
whole document under a pre-tokenizer that cannot cut) is held whole while it is counted, so the
table comes too late to see it: :func:`uncut_limit` bounds such a stretch by the budget, and
reading stops with :class:`UncutTooLarge` as soon as it is passed, before it is read.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import islice

from ..errors import CorpusError
from ..memory_budget import available_memory, binding_limit
from ..memory_budget import size_text as _size

TABLE_BYTES_PER_WORD = 120
TABLE_BYTES_PER_CHAR = 7
TRAINING_BYTES_PER_WORD = 450
TRAINING_BYTES_PER_CHAR = 20
"""Bytes per distinct word (and per character of it) of the table and of training on it."""

HELD_BYTES_PER_BYTE = 64
"""Bytes of memory per byte of a stretch counted whole and trained on: 50 measured for a 10 MB
text held whole by the whitespace pre-tokenizer (each piece a string in a list and a Counter);
~14 reported for a 200 MB file of one word through training."""

DEFAULT_BETA = 0.75
"""Heaps' exponent until the run gives two points to fit it (typical of web text: 0.6-0.8)."""

_SAMPLE = "a sample of the lines (e.g. every 10th: awk 'NR % 10 == 0' corpus.txt > sample.txt)"
_CLUSTER = "count on a cluster (bpe-explorer count --engine dask --scheduler ADDRESS ... -o counts.tsv)"
WAYS_OUT = (
    f"ways out: --min-word-count K (train only on words seen K times or more), train on {_SAMPLE}, or "
    f"{_CLUSTER} and train --from-counts counts.tsv --min-word-count K; --memory-limit SIZE if more memory is free"
)
WAYS_OUT_COUNTING = f"ways out: {_CLUSTER}, or count {_SAMPLE}; --memory-limit SIZE if more memory is free"


class WordTableTooLarge(CorpusError):
    """The word table counted so far would not fit in memory once training starts."""


class UncutTooLarge(CorpusError):
    """A stretch of a corpus that cannot be cut into blocks would not fit in memory counted whole."""


def uncut_limit(budget: int | None, per_byte: int = HELD_BYTES_PER_BYTE) -> int:
    """Bytes a stretch without a cut point may span within ``budget`` (0: no bound known), when
    holding it costs ``per_byte`` bytes of memory per byte."""
    return 0 if budget is None else max(1, budget // per_byte)


def uncut_too_large(
    name: str,
    offset: int,
    span: int,
    limit: int,
    *,
    why: str,
    ways: str,
    exact: bool = False,
    per_byte: int = HELD_BYTES_PER_BYTE,
    held: str = "counted whole",
) -> UncutTooLarge:
    """The one message for a stretch past :func:`uncut_limit`: where, how big (``exact``, or at
    least), why it has no cut point, the ways out. ``per_byte`` and ``held``: what holding it
    whole costs and means for the caller (streamed encoding holds a block to encode it).

    >>> print(uncut_too_large("z", 0, 2**23, 2**22, why="no line break", ways="--lines"))
    z: 8.0 MiB or more from byte offset 0 with no place to cut it into blocks (no line break): counted whole it needs ~512.0 MiB or more, more than the 256.0 MiB available; ways out: --lines, or --memory-limit SIZE if more memory is free
    """
    more = "" if exact else " or more"
    return UncutTooLarge(
        f"{name}: {_size(span)}{more} from byte offset {offset:,} with no place to cut it into blocks ({why}): {held} "
        f"it needs ~{_size(span * per_byte)}{more}, more than the {_size(limit * per_byte)} available; "
        f"ways out: {ways + ', or ' if ways else ''}--memory-limit SIZE if more memory is free"
    )


@dataclass(frozen=True, slots=True)
class Costs:
    """Bytes per distinct word and per character of it: of the table, and of training on it."""

    table_per_word: float = TABLE_BYTES_PER_WORD
    table_per_char: float = TABLE_BYTES_PER_CHAR
    training_per_word: float = TRAINING_BYTES_PER_WORD
    training_per_char: float = TRAINING_BYTES_PER_CHAR


def training_bytes(words: int, average_chars: float, trained_fraction: float = 1.0, costs: Costs | None = None) -> int:
    """Estimated bytes of a table of ``words`` distinct words and of training on a fraction."""
    c = costs or Costs()
    table = words * (c.table_per_word + c.table_per_char * average_chars)
    training = words * trained_fraction * (c.training_per_word + c.training_per_char * average_chars)
    return int(table + training)


class TableWatch:
    """Follows a growing word table against a memory budget (see the module docstring).
    ``costs`` and ``ways_out`` let another trainer (Unigram) use it with its own figures."""

    def __init__(
        self,
        total_bytes: int | None,
        budget: int | None,
        *,
        min_count: int = 1,
        training: bool = True,
        costs: Costs | None = None,
        ways_out: str | None = None,
    ) -> None:
        self.total_bytes = total_bytes
        self.training = training
        self.ways_out = ways_out or (WAYS_OUT if training else WAYS_OUT_COUNTING)
        self.costs = costs or Costs()
        self.budget = available_memory() if budget is None else budget
        self._bound = f" ({binding_limit()})" if budget is None else " (--memory-limit)"
        self.min_count = min_count
        self._samples: list[tuple[int, int]] = []
        self._warned = False
        self._measured_at = 0
        self._kept = 1.0
        self._words = 0  # distinct words seen by the last update
        self._chars = 0  # their characters, every one counted
        self._average_chars = 8.0  # per distinct word: counted by update, or told to check

    @property
    def uncut_limit(self) -> int:
        """Bytes a stretch without a cut point may span (see :func:`uncut_limit`)."""
        return uncut_limit(self.budget)

    def update(self, done_bytes: int, table: dict[str, int]) -> str | None:
        """Check after a part was merged: raise if the table will not fit, or return a warning once."""
        if self.budget is None or not table:
            return None
        words = len(table)
        if words > self._words:  # new words come last (first-appearance order): O(new words)
            self._chars += sum(map(len, islice(reversed(table), words - self._words)))
            self._words = words
            self._average_chars = self._chars / words
        if self.min_count > 1 and words >= 2 * self._measured_at:  # amortised O(1): a pass each time the table doubles
            self._measure(table)
        return self.check(done_bytes, words)

    def check(self, done_bytes: int, words: int, average_chars: float | None = None) -> str | None:
        """:meth:`update` for a table known by its size (and its words' average length)."""
        if self.budget is None or not words:
            return None
        if average_chars is not None:
            self._average_chars = average_chars
        self._samples.append((done_bytes, words))
        need = self._need(words)
        if need > self.budget:
            raise WordTableTooLarge(
                f"the word table will not fit in memory: {words:,} distinct words after {_size(done_bytes)}"
                f"{self._of_total()} would need ~{_size(need)}{self._purpose()}, more than the {_size(self.budget)} "
                f"available{self._bound}; " + self.ways_out
            )
        if self._warned or self.total_bytes is None or done_bytes >= self.total_bytes or len(self._samples) < 4:
            return None
        projected_words = int(words * (self.total_bytes / done_bytes) ** self._beta())
        projected = self._need(projected_words)
        if projected <= self.budget:
            return None
        self._warned = True
        return (
            f"the word table may not fit in memory: {words:,} distinct words after {_size(done_bytes)}"
            f"{self._of_total()} project to ~{projected_words:,} and ~{_size(projected)}{self._purpose()}, more than "
            f"the {_size(self.budget)} available{self._bound} (counting goes on, and stops as soon as it is sure); " + self.ways_out
        )

    def _need(self, words: int) -> int:
        return training_bytes(words, self._average_chars, self._kept if self.training else 0.0, self.costs)

    def _purpose(self) -> str:
        return " to train" if self.training else ""

    def _measure(self, table: dict[str, int]) -> None:
        """The share of words kept by ``--min-word-count``, from a sample of the table."""
        self._measured_at = len(table)
        sample = list(islice(table.values(), 0, None, max(1, len(table) // 4096)))
        self._kept = sum(1 for n in sample if n >= self.min_count) / len(sample)

    def _beta(self) -> float:
        """Heaps' exponent from the growth between a quarter of the bytes read so far and now."""
        done, words = self._samples[-1]
        early = next(((d, w) for d, w in self._samples if d >= done / 4), None)
        if early is None or early[0] >= done or early[1] >= words:
            return DEFAULT_BETA
        beta = math.log(words / early[1]) / math.log(done / early[0])
        return min(max(beta, 0.3), 1.0)

    def _of_total(self) -> str:
        return "" if self.total_bytes is None else f" of {_size(self.total_bytes)}"
