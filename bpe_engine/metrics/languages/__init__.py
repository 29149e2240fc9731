"""Which tokenizer is fair to my language: per-language figures on parallel text.

- :mod:`.udhr` -- the Universal Declaration of Human Rights in 532 declarations, shipped as
  package data and read on first use;
- :mod:`.parallel_corpus` -- any parallel corpus laid out as one file per language (FLORES-200);
- :mod:`.scripts`, :mod:`.units` -- a text's script, and the unit its fertility counts (words,
  characters, syllables: tokka-bench's rules);
- :mod:`.figures` -- per language and tokenizer: tokens, the premium against English (Petrov et
  al. 2023), bytes and characters per token, fertility, continued units, unknown and byte-fallback
  shares; sorted by premium with the scripts grouped.
"""

from __future__ import annotations

from .figures import LanguageFigures, LanguageMeter, ParallelText, Units, by_premium
from .parallel_corpus import CorpusText, find_reference, parallel_warnings, read_corpus
from .scripts import script_name, text_script, unit_kind
from .udhr import ENGLISH, Declaration, declarations, find, select

__all__ = [
    "ENGLISH", "CorpusText", "Declaration", "LanguageFigures", "LanguageMeter", "ParallelText", "Units",
    "by_premium", "declarations", "find", "find_reference", "parallel_warnings", "read_corpus", "script_name",
    "select", "text_script", "unit_kind",
]  # fmt: skip
