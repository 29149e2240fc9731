"""The numbers people judge tokenizers by, measured on files: ``bpe-explorer metrics`` and ``overlap``.

- :mod:`.encoded` -- a corpus encoded exactly, a slice at a time (bounded memory; line-safe
  tokenizers are cut at line starts, others get the text whole);
- :mod:`.efficiency` -- Shannon and Rényi efficiency (Zouhar et al. 2023, exactly as the
  ``tokenization-scorer`` package defines them) and a Zipf fit, from token counts;
- :mod:`.text_metrics` -- per text: tokens, characters/bytes per token, fertility, continued-word
  rate, the efficiencies, vocabulary use; the language premium of parallel texts (Petrov et al. 2023);
- :mod:`.overlap` -- two vocabularies' shared tokens by bytes (Jaccard), weighted by a corpus;
- :mod:`.vocabulary` -- every id of a tokenizer and the bytes it stands for (what the audit and
  overlap walk).
"""

from __future__ import annotations

from .efficiency import DEFAULT_ALPHA, efficiencies, renyi_efficiency, shannon_efficiency, shannon_entropy, zipf_exponent
from .encoded import detailed_slices, id_slices, plain_ids, text_slices
from .overlap import Overlap, vocabulary_overlap
from .text_metrics import Premium, TextMetrics, language_premium, measure_files, measure_text

__all__ = [
    "DEFAULT_ALPHA",
    "Overlap",
    "Premium",
    "TextMetrics",
    "detailed_slices",
    "efficiencies",
    "id_slices",
    "language_premium",
    "measure_files",
    "measure_text",
    "plain_ids",
    "renyi_efficiency",
    "shannon_efficiency",
    "shannon_entropy",
    "text_slices",
    "vocabulary_overlap",
    "zipf_exponent",
]
