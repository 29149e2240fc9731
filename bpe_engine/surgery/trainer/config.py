"""The "BPE from a base" trainer's settings: which base, how many merges, and ``train``'s BPE options.

Plain, picklable data -- ``base`` is a spec string (``cl100k_base``, a path), loaded on each side
of a process pipe by :func:`base_named` (cached: a built-in loads in a fraction of a second, but a
form re-reads its config on every keystroke). The front end (pre-tokenizer) and the level are
the base's: the corpus is cut as the base cuts it.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import ClassVar

from ...choices import TieBreak
from ...errors import BpeEngineError, ConfigError
from ...pretokenizers import PreTokenizer
from ...training.bpe.config import DEFAULT_MAX_TOKEN_LENGTH
from ..base import BpeBase, bpe_base
from ..extend import ExtendConfig, check_add

DEFAULT_ADD = 1000
_lock = threading.Lock()
_bases: dict[str, BpeBase] = {}


def base_named(spec: str) -> BpeBase:
    """The base ``spec`` names (loaded once per process); a ConfigError at the ``base`` field."""
    with _lock:
        hit = _bases.get(spec)
    if hit is not None:
        return hit
    from ...registry import load_tokenizer

    try:
        base = bpe_base(load_tokenizer(spec))
    except BpeEngineError as exc:
        raise ConfigError(str(exc), field="base") from None
    with _lock:
        _bases[spec] = base
    return base


@dataclass(frozen=True)
class ExtendTrainerConfig:
    """``base`` + ``add`` merges, with ``min_frequency``, ``max_token_length`` and ``tie_break`` as
    for BPE (:class:`~bpe_engine.surgery.extend.ExtendConfig` checks them)."""

    model: ClassVar[str] = "extend"
    continuing_prefix: ClassVar[str | None] = None

    base: str
    add: int = DEFAULT_ADD
    min_frequency: int = 0
    max_token_length: int | None = DEFAULT_MAX_TOKEN_LENGTH
    tie_break: TieBreak = "hf"

    def __post_init__(self) -> None:
        if not self.base.strip() or self.base == "none":
            raise ConfigError("choose the tokenizer to start from (cl100k_base, llama3, a saved directory ...)", field="base")
        self.extend_config()  # the BPE options, checked
        check_add(self.base_model(), self.add)

    def extend_config(self) -> ExtendConfig:
        return ExtendConfig(add=self.add, min_frequency=self.min_frequency, max_token_length=self.max_token_length, tie_break=self.tie_break)

    def base_model(self) -> BpeBase:
        return base_named(self.base)

    @property
    def front_end(self) -> PreTokenizer:
        """What cuts the corpus: the base's own pre-tokenizer."""
        return self.base_model().pre_tokenizer

    @property
    def byte_level(self) -> bool:
        return self.base_model().byte_level

    @property
    def vocab_size(self) -> int:
        """Ids in use after the extension (the base's, holes included, plus ``add``)."""
        return self.base_model().next_id + self.add
