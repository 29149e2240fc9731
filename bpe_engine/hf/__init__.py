"""Any Hugging Face ``tokenizer.json``, exact: normalisers, pre-tokenizers, models, added tokens,
post-processors and decoders, each ported from ``tokenizers`` with its alignment rules.

:func:`load_tokenizer_json` is the entry point; :class:`HfTokenizer` is the general pipeline.
One module per stage: :mod:`.normalizers`, :mod:`.pre_tokenizers`, :mod:`.bpe` and
:mod:`.models`, :mod:`.added_tokens`, :mod:`.post_processors`, :mod:`.decoders`; the pipeline in
:mod:`.pipeline` (fast path) and :mod:`.aligned` (offsets); validation in :mod:`.schema` and
:mod:`.loader`.
"""

from __future__ import annotations

from .loader import hf_tokenizer_from_dict, load_tokenizer_json
from .pipeline import HfTokenizer

__all__ = ["HfTokenizer", "hf_tokenizer_from_dict", "load_tokenizer_json"]
