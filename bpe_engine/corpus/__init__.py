"""The front half shared by training and encoding: read documents, cut them into words, count them.

Training never looks at the corpus again after this step (the way Hugging Face's trainers work):
the whole corpus is reduced to a table word -> count, and every merge is computed on that table.

Words are kept in order of *first appearance*: the ``first-seen`` tie-break of the trainer needs
it, and it makes every later step deterministic.

Byte-level words are stored in the model alphabet (GPT-2 byte characters, ``Ġthe``), so a corpus
that is not valid UTF-8 still trains: its bytes are decoded with ``surrogateescape``, cut by the
pre-tokenizer, and each piece is encoded back to the exact original bytes.

The package has one module per seam:

- :mod:`.documents` -- reading files into documents, decoding them, naming a bad byte;
- :mod:`.counting` -- cutting documents into units of work and counting their words;
- :mod:`.parallel` -- running those units on several processes;
- :mod:`.stats` -- the size figures the corpus pane shows.

>>> from bpe_engine.pretokenizers import GPT2
>>> dict(count_words(["the cat", "the hat"], GPT2, byte_level=True).counts)
{'the': 2, 'Ġcat': 1, 'Ġhat': 1}
"""

from __future__ import annotations

from .counting import WordCounts, count_words
from .documents import DecodeErrors, Document, decode_document, read_documents
from .stats import CorpusStats, corpus_stats

__all__ = [
    "CorpusStats",
    "DecodeErrors",
    "Document",
    "WordCounts",
    "corpus_stats",
    "count_words",
    "decode_document",
    "read_documents",
]
