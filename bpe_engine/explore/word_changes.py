"""What a merge changed, word by word: the records a stepper keeps and the ones it reports.

A stepper's undo log keeps, per applied merge, only the ids of the words it rewrote (an
:class:`UndoEntry`: memory and garbage-collector friendly on big corpora). What the app shows --
each word's tokens before and after -- is spelled out from an entry on demand
(:func:`spell_out`): the "after" form is the word now, the "before" form is the merge's new token
split again, or the word's old symbols where it held that token already (two merges can make
the same string).

Also here: a word's symbols before any merge (:func:`initial_symbols`), in the model's alphabet.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Protocol

from ..core.byte_table import BYTE_CHARS
from ..pretokenizers import EndOfWord, mark_word_end
from .segmentation import CorpusSegmentation


class MergeLike(Protocol):
    """The three strings of a merge rule; :class:`~bpe_engine.types.MergeStep` has them."""

    @property
    def left(self) -> str: ...

    @property
    def right(self) -> str: ...

    @property
    def new(self) -> str: ...


@dataclass(frozen=True, slots=True)
class WordChange:
    """One distinct word rewritten by a merge: its symbols before and after, and its count."""

    word_id: int
    count: int
    before: tuple[str, ...]
    after: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class StepChange:
    """What one step did. ``rank`` is the merge's 0-based rank; ``occurrences`` is how many
    tokens were fused, weighted by word counts (the corpus lost exactly that many tokens);
    ``pair_count`` is the pair's weighted frequency just before the merge."""

    rank: int
    words_changed: int
    occurrences: int
    pair_count: int
    changes: tuple[WordChange, ...]


@dataclass(frozen=True, slots=True)
class UndoEntry:
    """One undo-log entry: which words merge ``rank`` changed (ids only) and its totals;
    ``kept`` holds the old symbols of the words that held the new token before."""

    rank: int
    word_ids: array
    occurrences: int
    pair_count: int
    kept: dict[int, str] | None


def before_after(seg: CorpusSegmentation, merge: tuple[str, str, str], entry: UndoEntry) -> Iterator[tuple[int, str, str]]:
    """``(word id, symbols before, symbols after)`` of each word the entry's merge changed, the
    segmentation standing just after that merge."""
    left, right, new = merge
    pair, new_symbol = seg.symbol(left) + seg.symbol(right), seg.symbol(new)
    symbols = seg.words.symbols
    for wid in entry.word_ids:
        after = symbols[wid]
        before = entry.kept.get(wid) if entry.kept else None
        if before is None:  # the word did not hold the new token before: split it again
            before = after.replace(new_symbol, pair)
        yield wid, before, after


def spell_out(seg: CorpusSegmentation, merge: tuple[str, str, str], entry: UndoEntry, counts: list[int]) -> StepChange:
    """An undo entry spelled out: each word's tokens before and after its merge."""
    tokens = seg.as_tokens
    changes = tuple(
        WordChange(wid, counts[wid], tokens(before), tokens(after)) for wid, before, after in before_after(seg, merge, entry)
    )
    return StepChange(entry.rank, len(changes), entry.occurrences, entry.pair_count, changes)


def initial_symbols(
    piece: str,
    *,
    byte_level: bool,
    end_of_word_suffix: str | None = None,
    end_of_word: EndOfWord = "attached",
    continuing_prefix: str | None = None,
) -> tuple[str, ...]:
    """A word's symbols before any merge, in the model's alphabet.

    Byte-level: one GPT-2 byte character per UTF-8 byte (``" a"`` -> ``('Ġ', 'a')``).
    Character-level: one symbol per character; ``continuing_prefix`` (WordPiece's ``##``) is
    glued to every symbol but the first, and ``end_of_word_suffix`` marks the word's end
    (:func:`~bpe_engine.pretokenizers.mark_word_end`: ``</w>`` attached or separate).

    >>> initial_symbols("low", byte_level=False, end_of_word_suffix="</w>")
    ('l', 'o', 'w</w>')
    >>> initial_symbols("low", byte_level=False, end_of_word_suffix="</w>", end_of_word="separate")
    ('l', 'o', 'w', '</w>')
    >>> initial_symbols("한", byte_level=True)
    ('í', 'ķ', 'ľ')
    """
    if byte_level:
        symbols = [BYTE_CHARS[b] for b in piece.encode("utf-8")]
    else:
        symbols = list(piece)
    if continuing_prefix and len(symbols) > 1:
        symbols[1:] = [continuing_prefix + s for s in symbols[1:]]
    return tuple(mark_word_end(symbols, end_of_word_suffix, end_of_word))
