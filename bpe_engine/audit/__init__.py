"""The vocabulary audit: which tokens a tokenizer can produce, why some never are, and what a corpus uses.

- :mod:`.vocabulary` -- :func:`audit_vocabulary`, Land & Bartolo's decode-then-encode categories
  for every id (``ok``, ``undecodable``, ``unreachable_single``, ``unreachable_multi``,
  ``special``; shapes ``single_byte``, ``utf8_fragment``);
- :mod:`.unreachable` -- :func:`explain_unreachable`: the stage (normalizer, pre-tokenizer,
  merges) that keeps a token from its own text, and a longer text that does produce it;
- :mod:`.corpus_use` -- :func:`corpus_use`: tokens a corpus never uses, those it only holds inside
  longer tokens, and the vocabulary in use as the corpus grows.

Every id of a tokenizer and its bytes (what the audit walks) is :mod:`bpe_engine.metrics.vocabulary`.
"""

from __future__ import annotations

from .corpus_use import CorpusUse, GrowthPoint, corpus_use
from .unreachable import Unreachable, explain_unreachable
from .vocabulary import CATEGORIES, PARTITION, AuditCancelled, VocabularyAudit, audit_vocabulary

__all__ = [
    "CATEGORIES",
    "PARTITION",
    "AuditCancelled",
    "CorpusUse",
    "GrowthPoint",
    "Unreachable",
    "VocabularyAudit",
    "audit_vocabulary",
    "corpus_use",
    "explain_unreachable",
]
