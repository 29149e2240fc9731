"""A toy trainer, added the way any trainer is added: this package and one registration line.

It is a small but real trainer -- character-level BPE that recounts every pair at every step (the
textbook loop) -- with its own config, its own option (``--toy-min-count`` / the form's "min
count"), its own step kind (``toy merge``, with its own columns), and its own saved directory
(``toy.json``, record ``model: toy``). Nothing outside this package knows it: the tests register
:data:`.spec.SPEC` (:func:`registered`) and then find it in ``train --model toy``, in the Train
form, in the runner (a thread and the child process), in the step list, and in a saved directory.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from bpe_engine.training.registry import TrainerSpec, register, unregister


@contextmanager
def registered() -> Iterator[TrainerSpec]:
    """The toy, registered for the duration (the one registration line a plug-in would add)."""
    from .spec import SPEC

    register(SPEC)
    try:
        yield SPEC
    finally:
        unregister(SPEC.name)
