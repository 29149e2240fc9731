"""Presets: a few option values that belong together, named once for the form and ``train``.

``multilingual`` is for a corpus of many scripts. GPT-2's regex, the default pre-tokenizer, cuts
combining marks off their letters (Devanagari's vowel signs: ``म ◌ा नव``), which no merge mends: a
BPE trained so gives Hindi 2.81 times English's tokens where o200k's regex gives 1.41
(:mod:`bpe_engine.pretokenizer_fit` says when a corpus is hit). So: o200k's pattern for the merge
trainers; for Unigram every character kept (``character_coverage`` 1.0: SentencePiece's default
0.9995 turns the rarest characters of a large script into ``<unk>``) and byte fallback (a character
never seen is spelled in bytes, not lost to ``<unk>``).

A preset sets only what the user did not set: an option given on the command line (or changed in
the form afterwards) wins.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ..choices import Choice
from ..errors import ConfigError


@dataclass(frozen=True)
class Preset:
    """A named set of raw option values per trainer (option name -> value, as the form and the
    CLI spell them)."""

    name: str
    label: str
    help: str
    values: Mapping[str, Mapping[str, str]]

    @property
    def choice(self) -> Choice[str]:
        return Choice(self.name, self.label, self.help)

    def for_model(self, model: str) -> dict[str, str]:
        """The values this preset sets for trainer ``model`` (empty: it has none for it)."""
        return dict(self.values.get(model, {}))


PRESETS: tuple[Preset, ...] = (
    Preset(
        "multilingual",
        "multilingual",
        "many scripts: o200k's pattern (keeps vowel signs with their letters); Unigram: character coverage 1.0, byte fallback",
        {
            "bpe": {"pretok": "o200k"},
            "wordpiece": {"pretok": "o200k"},
            "unigram": {"coverage": "1.0", "byte_fallback": "true"},
        },
    ),
)


def preset(name: str) -> Preset:
    """The preset called ``name``; an unknown one names those there are."""
    found = next((p for p in PRESETS if p.name == name), None)
    if found is None:
        raise ConfigError(f"unknown preset {name!r}; presets: {', '.join(p.name for p in PRESETS)}", field="preset")
    return found


__all__ = ["PRESETS", "Preset", "preset"]
