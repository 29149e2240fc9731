"""Per language and tokenizer: the figures of ``bpe-explorer languages`` (and of Compare's Languages view).

For one tokenizer and parallel texts (the shipped UDHR declarations, or a FLORES-style corpus), each
text's parts encoded exactly and on their own (:class:`~bpe_engine.metrics.spans.PartEncoder`):

* ``tokens``, ``characters`` (code points), ``bytes`` (UTF-8); ``bytes_per_token``, ``chars_per_token``;
* ``premium``: the text's tokens over the reference text's (English) on the parts both have --
  Petrov et al. 2023's tokenization premium, ``tokens(L) / tokens(eng)`` on parallel text;
* ``fertility``: tokens per unit, the unit fitting the script (:mod:`.scripts`, :mod:`.units`);
  ``continued_rate``: the share of units spread over two or more tokens;
* ``unknown_share``, ``byte_fallback_share`` (:mod:`bpe_engine.metrics.token_shares`), and
  ``unreliable`` when they exceed :data:`~bpe_engine.metrics.token_shares.UNRELIABLE_SHARE`;
* ``words_unclear``: the unit is whitespace words, but they average more than
  :data:`LONG_WORD_CHARS` characters -- the script does not put spaces between words (Amharic's
  declaration separates words with ``፡``), so tokens per word says little.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Protocol

import numpy as np

from ...types import Tokenizer
from ..spans import PartEncoder, byte_offsets, covered_by_several
from ..token_shares import TokenShares, share, unreliable
from .scripts import UnitKind, unit_kind
from .units import part_units

LONG_WORD_CHARS = 15.0
"""Whitespace "words" longer than this on average are not words (English averages ~5, Finnish ~8,
Inuktitut's long words ~11; Amharic's ``፡``-separated lines and Thai or Burmese phrases run far past)."""


class ParallelText(Protocol):
    """One language's text in numbered parts that line up with the other languages' parts."""

    @property
    def code(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def script(self) -> str: ...
    @property
    def parts(self) -> tuple[tuple[int, str], ...]: ...


@dataclass(frozen=True)
class Units:
    """A text's fertility units as byte spans in its parts laid end to end."""

    kind: UnitKind
    starts: np.ndarray
    ends: np.ndarray
    characters: int

    @classmethod
    def of(cls, text: ParallelText) -> Units:
        kind = unit_kind(text.script)
        parts = [t for _, t in text.parts]
        starts, ends = part_units(parts, kind)
        at = byte_offsets("".join(parts))
        return cls(kind, at[starts], at[ends], len(at) - 1)

    @property
    def count(self) -> int:
        return len(self.starts)


@dataclass(frozen=True)
class LanguageFigures:
    """One text through one tokenizer (the counts; the ratios are properties)."""

    code: str
    name: str
    script: str
    unit: UnitKind
    tokens: int
    characters: int
    bytes: int
    units: int
    continued: int
    unknown: int
    byte_fallback: int
    shared_tokens: int
    reference_tokens: int

    @property
    def premium(self) -> float | None:
        return share(self.shared_tokens, self.reference_tokens)

    @property
    def bytes_per_token(self) -> float | None:
        return share(self.bytes, self.tokens)

    @property
    def chars_per_token(self) -> float | None:
        return share(self.characters, self.tokens)

    @property
    def fertility(self) -> float | None:
        return share(self.tokens, self.units)

    @property
    def continued_rate(self) -> float | None:
        return share(self.continued, self.units)

    @property
    def unknown_share(self) -> float | None:
        return share(self.unknown, self.tokens)

    @property
    def byte_fallback_share(self) -> float | None:
        return share(self.byte_fallback, self.tokens)

    @property
    def unreliable(self) -> bool:
        return unreliable(self.unknown, self.byte_fallback, self.tokens)

    @property
    def words_unclear(self) -> bool:
        return self.unit == "word" and (not self.units or self.characters / self.units > LONG_WORD_CHARS)

    def as_dict(self) -> dict[str, object]:
        """The JSON object of ``languages --json``."""
        return {
            "code": self.code, "name": self.name, "script": self.script, "unit": self.unit,
            "tokens": self.tokens, "characters": self.characters, "bytes": self.bytes, "units": self.units,
            "premium": self.premium, "bytes_per_token": self.bytes_per_token, "chars_per_token": self.chars_per_token,
            "fertility": self.fertility, "continued_rate": self.continued_rate,
            "unknown_share": self.unknown_share, "byte_fallback_share": self.byte_fallback_share,
            "unreliable": self.unreliable, "words_unclear": self.words_unclear,
            "reference_tokens": self.reference_tokens, "shared_tokens": self.shared_tokens,
        }  # fmt: skip


class LanguageMeter:
    """Measures parallel texts with one tokenizer against a reference text (English)."""

    def __init__(self, tokenizer: Tokenizer, reference: ParallelText, units: dict[str, Units] | None = None) -> None:
        """``units``: a cache of each text's units by code, shared by the meters of several
        tokenizers (the units do not depend on the tokenizer)."""
        self.encoder = PartEncoder(tokenizer)
        self.shares = TokenShares.of(tokenizer)
        self.reference = reference
        self._units: dict[str, Units] = {} if units is None else units

    @cached_property
    def _reference_tokens(self) -> dict[int, int]:
        return self._part_tokens(self.reference)

    def _part_tokens(self, text: ParallelText) -> dict[int, int]:
        encoded = self.encoder.encode([t for _, t in text.parts])
        return {n: k for (n, _), k in zip(text.parts, encoded.part_tokens, strict=True)}

    def units(self, text: ParallelText) -> Units:
        if text.code not in self._units:
            self._units[text.code] = Units.of(text)
        return self._units[text.code]

    def measure(self, text: ParallelText) -> LanguageFigures:
        encoded = self.encoder.encode([t for _, t in text.parts])
        units = self.units(text)
        unknown, byte = self.shares.count(encoded.ids)
        reference = self._reference_tokens
        mine = dict(zip((n for n, _ in text.parts), encoded.part_tokens, strict=True))
        shared = [n for n in mine if n in reference]
        return LanguageFigures(
            text.code, text.name, text.script, units.kind,
            tokens=len(encoded.ids), characters=units.characters, bytes=encoded.n_bytes, units=units.count,
            continued=covered_by_several(units.starts, units.ends, encoded), unknown=unknown, byte_fallback=byte,
            shared_tokens=sum(mine[n] for n in shared), reference_tokens=sum(reference[n] for n in shared),
        )  # fmt: skip

    def measure_all(self, texts: Iterable[ParallelText]) -> list[LanguageFigures]:
        return [self.measure(t) for t in texts]


def by_premium(figures: Sequence[LanguageFigures]) -> list[LanguageFigures]:
    """Sorted by premium with the scripts grouped: each script's languages together, cheapest
    first, the groups in the order of their cheapest language (no premium: last)."""
    def key(f: LanguageFigures) -> float:
        return f.premium if f.premium is not None else float("inf")

    best: dict[str, float] = {}
    for f in figures:
        best[f.script] = min(best.get(f.script, float("inf")), key(f))
    return sorted(figures, key=lambda f: (best[f.script], f.script, key(f), f.code))


__all__ = ["LONG_WORD_CHARS", "LanguageFigures", "LanguageMeter", "ParallelText", "Units", "by_premium"]
