"""A base for test doubles of the :class:`~bpe_engine.types.Tokenizer` protocol.

A double declares what the real thing declares -- its capabilities, its special tokens, its
unknown token -- so the code under test reads the same declared attributes it reads from a
real tokenizer (nothing is probed). Subclasses override what their test is about.
"""

from __future__ import annotations

from bpe_engine.types import Capabilities


class TokenizerDouble:
    """No special tokens, no unknown token, no notes; a baseline unless ``capabilities`` is set."""

    name = "double"
    capabilities = Capabilities(family="baseline")
    unk_token: str | None = None
    unk_id: int | None = None
    notes: tuple[str, ...] = ()

    @property
    def special_tokens(self) -> dict[str, int]:
        return {}
