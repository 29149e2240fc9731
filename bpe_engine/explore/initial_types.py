"""Each token type's count before the first merge, as a value a worker may call on its own.

Compare's curve follows the Rényi efficiency merge by merge from these counts
(:func:`bpe_engine.compare.curve.efficiency_curve`). They come from the stepper's initial words,
but the stepper itself is the UI thread's (it moves, its token table grows), so the counts are made
from copies taken when the stepper is built -- the words' initial symbols (an immutable tuple), the
counts and the alphabet -- and computed once, on first call, under a lock.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Sequence


class InitialTypes:
    """``initial_types()`` -> token -> count before any merge (computed once; safe from any thread)."""

    def __init__(self, initial: tuple[str, ...], counts: Sequence[int], tokens: Sequence[str]) -> None:
        self._initial = initial
        self._counts = tuple(counts)
        self._tokens = tuple(tokens)  # the alphabet: every symbol of an initial word has its token here
        self._lock = threading.Lock()
        self._cached: dict[str, int] | None = None

    def __call__(self) -> dict[str, int]:
        with self._lock:
            if self._cached is None:
                by_symbol: Counter[str] = Counter()
                for word, n in zip(self._initial, self._counts):
                    for symbol, times in Counter(word).items():
                        by_symbol[symbol] += times * n
                self._cached = {self._tokens[ord(s)]: c for s, c in by_symbol.items()}
            return self._cached


__all__ = ["InitialTypes"]
