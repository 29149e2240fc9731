"""A deliberately naive, readable BPE encoder: the oracle the fast encoder is tested against.

It follows tiktoken's ``_educational.py``: scan every adjacent pair, merge the best one, rebuild
the list, repeat. Quadratic and slow on purpose -- nothing here is clever, so it is easy to check
by eye. Tests compare it with :mod:`bpe_engine.bpe.encode` and with tiktoken itself.

>>> ranks = {b"h": 0, b"i": 1, b"hi": 2}
>>> encode_with_ranks("hi hi", ranks, pattern=r"\\w+|\\s")
Traceback (most recent call last):
...
KeyError: b' '
>>> encode_with_ranks("hihi", ranks, pattern=r"\\w+|\\s")
[2, 2]
"""

from __future__ import annotations

import regex


def bpe_by_ranks(ranks: dict[bytes, int], data: bytes) -> list[bytes]:
    """tiktoken's rule: merge the adjacent pair whose concatenated bytes has the lowest rank.

    >>> bpe_by_ranks({b"a": 0, b"b": 1, b"ab": 2}, b"abb")
    [b'ab', b'b']
    """
    parts = [bytes([b]) for b in data]
    while True:
        best_index = None
        best_rank = None
        for i in range(len(parts) - 1):
            rank = ranks.get(parts[i] + parts[i + 1])
            if rank is not None and (best_rank is None or rank < best_rank):
                best_index, best_rank = i, rank
        if best_index is None:
            return parts
        parts = parts[:best_index] + [parts[best_index] + parts[best_index + 1]] + parts[best_index + 2 :]


def bpe_by_merges(merges: list[tuple[str, str]], symbols: list[str]) -> list[str]:
    """Hugging Face's rule: apply the lowest-ranked *merge* present among adjacent pairs.

    >>> bpe_by_merges([("a", "b"), ("ab", "c")], ["a", "b", "c", "b"])
    ['abc', 'b']
    """
    rank = {pair: i for i, pair in enumerate(merges)}  # a pair listed twice keeps its last rank (HF)
    parts = list(symbols)
    while True:
        best_index = None
        best_rank = None
        for i in range(len(parts) - 1):
            r = rank.get((parts[i], parts[i + 1]))
            if r is not None and (best_rank is None or r < best_rank):
                best_index, best_rank = i, r
        if best_index is None:
            return parts
        parts = parts[:best_index] + [parts[best_index] + parts[best_index + 1]] + parts[best_index + 2 :]


def encode_with_ranks(text: str, ranks: dict[bytes, int], *, pattern: str) -> list[int]:
    """Encode ordinary text the way tiktoken does: regex pieces, then BPE by ranks.

    tiktoken first looks the whole piece up and uses it as one token if present, *before* any
    merging; that shortcut is part of its behaviour, so the oracle keeps it too.
    """
    ids = []
    for piece in regex.findall(pattern, text):
        data = piece.encode("utf-8")
        if data in ranks:
            ids.append(ranks[data])
        else:
            ids.extend(ranks[part] for part in bpe_by_ranks(ranks, data))
    return ids


def encode_with_merges(pieces: list[list[str]], vocab: dict[str, int], merges: list[tuple[str, str]]) -> list[int]:
    """Encode pieces already cut into initial symbols (byte characters, or characters with their
    ``▁``/``</w>`` markers) by a merge list; ids come from ``vocab``.

    >>> encode_with_merges([["l", "o", "w</w>"]], {"l": 0, "o": 1, "w</w>": 2, "lo": 3, "low</w>": 4},
    ...                    [("l", "o"), ("lo", "w</w>")])
    [4]
    """
    return [vocab[token] for symbols in pieces for token in bpe_by_merges(merges, symbols)]
