"""Replay a loaded tokenizer's merges over a corpus as if it were training (same events).

A file has no counts, so a stepper walks the merges over the corpus and measures each one (pair
count, words changed, tokens fused); the consumer then gets ordinary batches and steps through a
loaded tokenizer exactly as through a trained one.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

from ...corpus.block_text import Text
from ...corpus.cut import CorpusCancelled, CorpusWords
from ...errors import BpeEngineError
from ...explore.stepper import Stepper
from ...types import ReplaysMerges
from ..steps import MergeStep
from .batching import BATCH_SECONDS, batched
from ...memory_budget import out_of_memory_line
from .events import Cancelled, Event, Failed, Finished, Started, Steps
from .session import never


def replay_events(
    tokenizer: ReplaysMerges,
    text: Text,
    *,
    cancelled: Callable[[], bool] = never,
    clock: Callable[[], float] = time.monotonic,
    batch_seconds: float = BATCH_SECONDS,
) -> Iterator[Event]:
    """Started, Steps..., Finished (carrying ``tokenizer`` itself) -- or Cancelled / Failed."""
    start = clock()
    done = 0
    try:
        merges = [(str(a), str(b), str(a) + str(b)) for a, b in tokenizer.merges]
        vocab = tokenizer.vocab
        pre = tokenizer.pre_tokenizer
        words = CorpusWords.from_text(text, pre, cancelled=cancelled)
        counter = Stepper.from_words(
            words, byte_level=tokenizer.capabilities.byte_level, merges=merges, end_of_word_suffix=pre.end_of_word_suffix,
            end_of_word=pre.end_of_word,
        )
        yield Started(len(merges), len(vocab) - len(merges), (), words)

        def measured() -> Iterator[MergeStep]:
            # forward only, on the words table: no undo log, no per-word report
            for rank, ((left, right, new), change) in enumerate(zip(merges, counter.replay(merges))):
                if cancelled():
                    return
                yield MergeStep(
                    rank, left, right, new, vocab.get(left, -1), vocab.get(right, -1), vocab.get(new, -1),
                    change.pair_count, change.words_changed, change.occurrences,
                )

        for batch in batched(measured(), seconds=batch_seconds, clock=clock):
            done += len(batch)
            yield Steps(batch, done, len(merges), done / max(clock() - start, 1e-9))
        if cancelled():
            yield Cancelled(done)
            return
        yield Finished(done, clock() - start, (), None, tokenizer)
    except CorpusCancelled:
        yield Cancelled(done)
    except BpeEngineError as exc:
        yield Failed(str(exc))
    except MemoryError:  # the input and the way out, as the command line says it
        yield Failed(out_of_memory_line())
    except Exception as exc:  # a loaded file's oddity is reported, never a crash
        yield Failed(f"internal error ({type(exc).__name__}): {exc}")
