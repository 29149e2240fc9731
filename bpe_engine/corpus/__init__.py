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
- :mod:`.blocks` -- where a corpus may be cut into blocks counted apart, reading one block;
- :mod:`.counting` -- the one function that counts a unit of work, and the ordered merge;
- :mod:`.parallel` -- running units on several processes, in order, few in flight;
- :mod:`.tally` -- counting a whole corpus (streamed files, or documents in memory);
- :mod:`.table_size` -- saying early when the word table will not fit in memory;
- :mod:`.stats` -- the size figures the corpus pane shows.

>>> from bpe_engine.pretokenizers import GPT2
>>> dict(count_words(["the cat", "the hat"], GPT2, byte_level=True).counts)
{'the': 2, 'Ġcat': 1, 'Ġhat': 1}
"""

from __future__ import annotations

from .counting import WordCounts
from .documents import DecodeErrors, Document, decode_document, read_documents
from .stats import CorpusStats, corpus_stats, stats_of_words
from .tally import CountProgress, count_files, count_words, stream_texts

__all__ = [
    "CorpusStats",
    "CountProgress",
    "DecodeErrors",
    "Document",
    "WordCounts",
    "corpus_stats",
    "stats_of_words",
    "count_files",
    "count_words",
    "stream_texts",
    "decode_document",
    "read_documents",
]
