"""Keep the cyclic garbage collector from stalling the screen: while a worker trains, and after
something big and long-lived was built.

Training allocates millions of small, long-lived containers (heap entries, word tuples, the
stepper's index). Each time CPython decides on a full collection it walks *every* tracked object,
holding the GIL: measured on 1 MB, 50-180 ms per pass, several per run, on whichever thread
happened to allocate -- usually the UI loop. Reference counting still frees almost all garbage, so
the app pauses the cyclic collector for the duration of a run and afterwards *freezes* what
survived (moves it to the permanent generation) instead of paying one more full pass.

The same full pass, ~24 ms at 120x40 after Inspect had loaded gpt2, fell in the middle of a tab
switch (1 switch in 4 took ~70 ms instead of ~40). So whatever is built once and kept -- a
corpus cut, a reference tokenizer, a mounted pane -- is frozen as soon as it is built
(:func:`freeze_what_lives`): the collector's later passes only walk what came after.

Runs overlap briefly (an exclusive worker cancels the old run while a new one starts), so the
pause is counted: the collector comes back when the last run ends.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_lock = threading.Lock()
_active = 0
_was_enabled = True


@contextmanager
def collector_paused() -> Iterator[None]:
    """Disable cyclic GC while the block runs; freeze survivors and restore it after the last."""
    global _active, _was_enabled
    with _lock:
        if _active == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _active += 1
    try:
        yield
    finally:
        with _lock:
            _active -= 1
            if _active == 0:
                gc.freeze()
                if _was_enabled:
                    gc.enable()


def freeze_what_lives() -> None:
    """Move every object alive now to the permanent generation, where full collections never walk.
    Call right after a big structure meant to stay was built. Garbage is collected first, so none
    is frozen with it: that pass walks only what came after the last freeze, the new structure
    included, once."""
    with _lock:
        if _active == 0:  # a run going freezes on its own when it ends
            gc.collect()
            gc.freeze()
