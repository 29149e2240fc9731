"""A trained Scaffold-BPE model: BPE with every merge, then each scaffold broken back into its parts.

Encoding runs the whole merge list (scaffolds included: the longer tokens are built through them),
then replaces every scaffold in the result by the two tokens that first made it, again and again
until none is left -- the paper's "demolition". The ids are the final vocabulary's: every token
that is not a scaffold, numbered in the order it was made.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from ...types import DEFAULT_SPECIAL_MODE, Capabilities, Encoding, SpecialMode


@dataclass(frozen=True)
class ScaffoldModelState:
    """Plain data: the BPE model of every merge (a :class:`MergeModelState`) and the scaffolds' ids."""

    bpe: Any
    scaffolds: frozenset[int]
    parts: tuple[tuple[int, int, int], ...]
    """``(token, left, right)``: the merge that first made each merged token."""
    config: Any = None
    """The run's :class:`~.config.ScaffoldConfig` (the saved directory records it)."""

    @property
    def model(self) -> str:
        return "scaffold"

    def build(self) -> ScaffoldTokenizer:
        return ScaffoldTokenizer(self)


class ScaffoldTokenizer:
    """The :class:`~bpe_engine.types.Tokenizer` of a Scaffold-BPE run."""

    notes: tuple[str, ...] = ()

    def __init__(self, state: ScaffoldModelState) -> None:
        self._bpe = state.bpe.build()
        inner = self._bpe.capabilities
        self.capabilities = Capabilities(
            family="bpe", byte_level=inner.byte_level, explains="none", line_safe=inner.line_safe, space_safe=inner.space_safe
        )
        self.name = f"scaffold-{self._bpe.name}"
        self._scaffolds = state.scaffolds
        self._parts = {t: (a, b) for t, a, b in state.parts}
        every = set(self._bpe.vocab.values()) | set(self._bpe.special_tokens.values())
        kept = sorted(every - state.scaffolds)
        self._final = {internal: final for final, internal in enumerate(kept)}
        self._internal = kept

    # -- the vocabulary --------------------------------------------------------------------------
    @property
    def vocab_size(self) -> int:
        return len(self._internal)

    @property
    def unk_token(self) -> str | None:
        return self._bpe.unk_token

    @property
    def unk_id(self) -> int | None:
        unk = self._bpe.unk_id
        return None if unk is None else self._final[unk]

    @property
    def special_tokens(self) -> dict[str, int]:
        return {t: self._final[i] for t, i in self._bpe.special_tokens.items()}

    @property
    def vocab(self) -> dict[str, int]:
        return {self._bpe.token_str(i): f for i, f in self._final.items()}

    def token_str(self, token_id: int) -> str:
        return self._bpe.token_str(self._to_internal(token_id))

    def token_bytes(self, token_id: int) -> bytes:
        return self._bpe.token_bytes(self._to_internal(token_id))

    def is_scaffold(self, token: str) -> bool:
        """Whether ``token`` (as the model spells it) was made and then left as a scaffold."""
        internal = self._bpe.vocab.get(token)
        return internal is not None and internal in self._scaffolds

    # -- encoding --------------------------------------------------------------------------------
    def encode(self, text: str, *, special_mode: SpecialMode = DEFAULT_SPECIAL_MODE, add_special_tokens: bool = True) -> list[int]:
        return list(self.encode_detailed(text, special_mode=special_mode).ids)

    def encode_detailed(
        self, text: str, *, special_mode: SpecialMode = DEFAULT_SPECIAL_MODE, add_special_tokens: bool = True
    ) -> Encoding:
        inner = self._bpe.encode_detailed(text, special_mode=special_mode)
        ids: list[int] = []
        tokens: list[str] = []
        spans: list[tuple[int, int]] = []
        special: list[bool] = []
        unknown: list[bool] = []
        for internal, token, (start, end), sp, unk in zip(inner.ids, inner.tokens, inner.byte_spans, inner.special, inner.unknown):
            if sp or unk or internal not in self._scaffolds:
                ids.append(self._final.get(internal, internal))
                tokens.append(token)
                spans.append((start, end))
                special.append(sp)
                unknown.append(unk)
                continue
            at = start
            for piece in self._demolish(internal):
                width = len(self._bpe.token_bytes(piece))
                ids.append(self._final[piece])
                tokens.append(self._bpe.token_str(piece))
                spans.append((at, min(at + width, end)))
                special.append(False)
                unknown.append(False)
                at += width
        return Encoding(inner.text, tuple(ids), tuple(tokens), tuple(spans), tuple(special), tuple(unknown), inner.notes)

    def _demolish(self, internal: int) -> list[int]:
        if internal not in self._scaffolds:
            return [internal]
        left, right = self._parts[internal]
        return self._demolish(left) + self._demolish(right)

    def decode(self, ids: Sequence[int], *, errors: Literal["replace", "strict"] = "replace") -> str:
        return self._bpe.decode([self._to_internal(i) for i in ids], errors=errors)

    def _to_internal(self, token_id: int) -> int:
        if not 0 <= token_id < len(self._internal):
            from ...errors import ConfigError

            raise ConfigError(f"id {token_id} is outside {self.name!r}'s vocabulary (0..{len(self._internal) - 1})")
        return self._internal[token_id]
