"""The front half shared by training and encoding: read documents, cut them into words, count them.

Training never looks at the corpus again after this step (the way Hugging Face's trainers work):
the whole corpus is reduced to a table word -> count, and every merge is computed on that table.

Words are kept in order of *first appearance*: the ``first-seen`` tie-break of the trainer needs
it, and it makes every later step deterministic.

Byte-level words are stored in the model alphabet (GPT-2 byte characters, ``Ġthe``), so a corpus
that is not valid UTF-8 still trains: its bytes are decoded with ``surrogateescape``, cut by the
pre-tokenizer, and each piece is encoded back to the exact original bytes.

>>> from bpe_engine.pretokenizers import GPT2
>>> dict(count_words(["the cat", "the hat"], GPT2, byte_level=True).counts)
{'the': 2, 'Ġcat': 1, 'Ġhat': 1}
"""

from __future__ import annotations

import sys
import threading
from codecs import charmap_decode
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from multiprocessing import get_all_start_methods, get_context
from pathlib import Path
from typing import Literal

from .byte_table import BYTE_CHARS
from .errors import CorpusError
from .pretokenizers import PreTokenizer, split_specials

DecodeErrors = Literal["strict", "replace"]

PARALLEL_THRESHOLD = 1_000_000
"""Corpora larger than this many characters are pre-tokenized on several processes."""

_CHUNK_CHARS = 1 << 20
"""Target size of one unit of work: small enough that ``findall`` lists stay small in memory."""

# Pre-tokenizers whose pieces never cross "letter-or-digit, then a plain space": cutting the text
# there gives exactly the pieces of the whole text (see ``_cut``). Others are only split
# between documents and special tokens.
_SPLITTABLE = frozenset({"gpt2", "hf-gpt2", "cl100k", "o200k", "end-of-word"})

# bytes -> GPT-2 byte characters in one C call (the way cp1252 & co. decode)
_BYTE_DECODING_TABLE = "".join(BYTE_CHARS)


@dataclass(frozen=True, slots=True)
class Document:
    """One training document as raw bytes, with where it came from (for error messages).

    ``offset`` is the byte offset of ``data`` inside ``source`` (non-zero for ``lines=True``).
    """

    source: str
    data: bytes
    offset: int = 0
    line: int | None = None

    def where(self, byte_offset: int) -> str:
        """Human location of a byte inside this document: file, line (if any), byte offset."""
        line = f", line {self.line}" if self.line is not None else ""
        return f"{self.source}{line}, byte offset {self.offset + byte_offset}"


@dataclass(frozen=True)
class WordCounts:
    """The corpus reduced to word -> count, in order of first appearance.

    Byte-level words are in the GPT-2 byte alphabet (``' lower'`` is stored as ``'Ġlower'``);
    character-level words are plain text.
    """

    counts: Mapping[str, int]
    byte_level: bool
    documents: int = 0
    total_words: int = field(default=0)

    def __len__(self) -> int:
        return len(self.counts)


@dataclass(frozen=True, slots=True)
class CorpusStats:
    """What the corpus pane shows while the user types."""

    characters: int
    bytes: int
    words: int
    unique_words: int
    distinct_characters: int
    distinct_bytes: int


# -- reading ------------------------------------------------------------------------------------
def read_documents(paths: Sequence[str | Path], *, lines: bool = False) -> list[Document]:
    """Read files as documents: each file is one document, or each line with ``lines=True``.

    ``-`` reads standard input. Lines keep their line ending, as Hugging Face's ``train(files)``
    reads them. Bytes are kept raw: decoding happens in :func:`count_words`, where byte-level
    training can cope with invalid UTF-8 and character-level training can name the bad byte.
    """
    docs: list[Document] = []
    for p in paths:
        name = "<stdin>" if str(p) == "-" else str(p)
        try:
            data = sys.stdin.buffer.read() if str(p) == "-" else Path(p).read_bytes()
        except OSError as exc:
            raise CorpusError(f"cannot read corpus file {name}: {exc.strerror or exc}") from None
        if not lines:
            docs.append(Document(name, data))
            continue
        offset = 0
        for number, line in enumerate(data.splitlines(keepends=True), start=1):
            docs.append(Document(name, line, offset=offset, line=number))
            offset += len(line)
    return docs


def decode_document(doc: Document | str | bytes, *, byte_level: bool, errors: DecodeErrors = "strict") -> str:
    """The document as text for the pre-tokenizer.

    Byte-level: ``surrogateescape`` keeps every invalid byte as a lone surrogate, so the pieces
    encode back to the original bytes. Character-level: invalid UTF-8 raises
    :class:`CorpusError` naming the file and byte offset, unless ``errors="replace"``.
    """
    if isinstance(doc, str):
        return doc
    data = doc.data if isinstance(doc, Document) else doc
    if byte_level:
        return data.decode("utf-8", "surrogateescape")
    try:
        return data.decode("utf-8", errors)
    except UnicodeDecodeError as exc:
        where = doc.where(exc.start) if isinstance(doc, Document) else f"byte offset {exc.start}"
        raise CorpusError(
            f"{where}: not valid UTF-8 (byte {data[exc.start]:#04x}); character-level training needs "
            "UTF-8 text: train byte-level instead, or decode with errors='replace'"
        ) from None


# -- counting -----------------------------------------------------------------------------------
def count_words(
    documents: Iterable[Document | str | bytes],
    pre_tokenizer: PreTokenizer,
    special_tokens: Iterable[str] = (),
    *,
    byte_level: bool,
    workers: int = 2,
    errors: DecodeErrors = "strict",
) -> WordCounts:
    """Split out special tokens, pre-tokenize, and count the pieces (first appearance order).

    Corpora above :data:`PARALLEL_THRESHOLD` characters are cut into chunks that are counted on
    ``workers`` forked processes and merged back in chunk order, so the first-appearance order is
    the same as a single pass would give (in-process when other threads are running).
    """
    specials = tuple(special_tokens)
    segments: list[str] = []
    total_chars = 0
    n_docs = 0
    for doc in documents:
        n_docs += 1
        text = decode_document(doc, byte_level=byte_level, errors=errors)
        for segment, is_special in split_specials(text, specials):
            if not is_special:
                segments.append(segment)
                total_chars += len(segment)
    tasks = list(_tasks(segments, pre_tokenizer, _CHUNK_CHARS))
    del segments
    counts = None
    if workers > 1 and total_chars > PARALLEL_THRESHOLD and len(tasks) > 1:
        counts = _count_parallel(tasks, pre_tokenizer, workers)
    if counts is None:
        counts = Counter()
        for task in tasks:
            for segment in task:
                counts.update(pre_tokenizer.split(segment))
    total = sum(counts.values())
    if byte_level:
        counts = {_to_byte_chars(word): n for word, n in counts.items()}
    return WordCounts(dict(counts), byte_level, documents=n_docs, total_words=total)


def corpus_stats(text: str, pre_tokenizer: PreTokenizer) -> CorpusStats:
    """Size figures of ``text`` for the corpus pane (pieces as the pre-tokenizer cuts them)."""
    raw = text.encode("utf-8", "surrogateescape")
    pieces = pre_tokenizer.split(text)
    return CorpusStats(
        characters=len(text),
        bytes=len(raw),
        words=len(pieces),
        unique_words=len(set(pieces)),
        distinct_characters=len(set(text)),
        distinct_bytes=len(set(raw)),
    )


# -- private ------------------------------------------------------------------------------------
def _to_byte_chars(piece: str) -> str:
    """``' lower'`` -> ``'Ġlower'``; lone surrogates from invalid UTF-8 become their raw byte."""
    try:
        raw = piece.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError as exc:
        raise CorpusError(
            f"text holds a lone surrogate {piece[exc.start]!r} (U+{ord(piece[exc.start]):04X}) that is "
            "not an escaped byte; pass the corpus as bytes or clean the text"
        ) from None
    return charmap_decode(raw, "strict", _BYTE_DECODING_TABLE)[0]


def _count_task(segments: list[str], pre_tokenizer: PreTokenizer) -> Counter[str]:
    """Count the pieces of some text segments (one unit of work, run in any process)."""
    counts: Counter[str] = Counter()
    for segment in segments:
        counts.update(pre_tokenizer.split(segment))
    return counts


def _count_parallel(tasks: list[list[str]], pre_tokenizer: PreTokenizer, workers: int) -> Counter[str] | None:
    """Count the tasks on ``workers`` forked processes, merged in task order; None if not possible.

    Only ``fork`` is used: it needs no ``if __name__ == "__main__"`` guard in the caller's script
    and starts in milliseconds. It is unsafe once threads exist (the app trains in a worker
    thread), and absent on some platforms: then the caller counts in-process.
    """
    if threading.active_count() > 1 or "fork" not in get_all_start_methods():
        return None
    counts: Counter[str] = Counter()
    try:
        with ProcessPoolExecutor(max_workers=workers, mp_context=get_context("fork")) as pool:
            for part in pool.map(_count_task, tasks, [pre_tokenizer] * len(tasks)):
                counts.update(part)  # in task order: first appearance is preserved
    except (BrokenProcessPool, OSError):
        return None
    return counts


def _tasks(segments: list[str], pre_tokenizer: PreTokenizer, size: int) -> Iterator[list[str]]:
    """Group segments into units of about ``size`` characters, cutting long ones where safe."""
    splittable = pre_tokenizer.name in _SPLITTABLE
    batch: list[str] = []
    batch_len = 0
    for segment in segments:
        parts = _cut(segment, size) if splittable and len(segment) > size else [segment]
        for part in parts:
            batch.append(part)
            batch_len += len(part)
            if batch_len >= size:
                yield batch
                batch, batch_len = [], 0
    if batch:
        yield batch


def _cut(text: str, size: int) -> Iterator[str]:
    """Cut ``text`` into parts of about ``size`` characters at safe points (lazily).

    A safe point is a plain space right after a letter or digit. No piece of the GPT-2, cl100k,
    o200k or end-of-word patterns crosses it: a space may only *start* a non-whitespace piece,
    and whitespace pieces never hold a letter or digit. So the pieces of the parts, in order,
    are the pieces of the whole text.
    """
    start = 0
    n = len(text)
    while n - start > size:
        p = text.find(" ", start + size)
        while p != -1 and not text[p - 1].isalnum():
            p = text.find(" ", p + 1)
        if p == -1:
            break
        yield text[start:p]
        start = p
    yield text[start:]
