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
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from itertools import chain
from multiprocessing import get_all_start_methods, get_context
from pathlib import Path
from typing import Literal, NamedTuple

from .byte_table import BYTE_CHARS
from .errors import CorpusError
from .pretokenizers import PreTokenizer, compile_pattern, split_specials

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


class Document(NamedTuple):
    """One training document as raw bytes, with where it came from (for error messages).

    ``offset`` is the byte offset of ``data`` inside ``source`` (non-zero for ``lines=True``).
    A named tuple: a 10 MB file read with ``lines=True`` makes ~300,000 of them.
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

    ``-`` reads standard input. Lines end at ``\\n`` and keep it (a lone ``\\r`` does not end a
    line), as Hugging Face's ``train(files)`` reads them. Bytes are kept raw: decoding happens in :func:`count_words`, where byte-level
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
        parts = data.split(b"\n")  # lines end at \n only, as HF's reader has them
        file_lines = [part + b"\n" for part in parts[:-1]]
        if parts[-1]:
            file_lines.append(parts[-1])
        offset = 0
        for number, line in enumerate(file_lines, start=1):
            docs.append(Document(name, line, offset, number))
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
        raise _utf8_error(doc, exc.start) from None


def _utf8_error(doc: Document | str | bytes, start: int) -> CorpusError:
    data = doc.data if isinstance(doc, Document) else doc
    assert isinstance(data, bytes)
    where = doc.where(start) if isinstance(doc, Document) else f"byte offset {start}"
    return CorpusError(
        f"{where}: not valid UTF-8 (byte {data[start]:#04x}); character-level training needs "
        "UTF-8 text: train byte-level instead, or decode with errors='replace'"
    )


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

    Corpora above :data:`PARALLEL_THRESHOLD` characters are cut into batches that ``workers``
    forked processes decode, pre-tokenize and count; the batches are merged back in order, so the
    first-appearance order is the one a single pass gives. In-process when other threads run.
    """
    job = _Job(pre_tokenizer, tuple(special_tokens), byte_level, errors)
    batches, sources, n_docs, size = _batches(documents, job, _CHUNK_CHARS)
    parts: Iterable[Counter[str]] | None = None
    if workers > 1 and size > PARALLEL_THRESHOLD and len(batches) > 1:
        parts = _count_parallel(batches, job, workers)
    if parts is None:
        parts = (_count_batch(batch, job) for batch in batches)
    merged = _Merged(byte_level)
    try:
        merged.add_all(parts)
    except BrokenProcessPool:  # a worker died (killed, out of memory): count here instead
        merged = _Merged(byte_level)
        merged.add_all(_count_batch(batch, job) for batch in batches)
    except _BadBytes as bad:
        item, start = bad.args
        raise _utf8_error(sources[merged.batches_done][item], start) from None
    counts = merged.counts
    total = sum(counts.values())
    if byte_level:
        counts = {merged.names[word]: n for word, n in counts.items()}
    return WordCounts(counts, byte_level, documents=n_docs, total_words=total)


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


class _Job(NamedTuple):
    """What a counting worker needs besides its batch (picklable)."""

    pre_tokenizer: PreTokenizer
    specials: tuple[str, ...]
    byte_level: bool
    errors: DecodeErrors


class _BadBytes(Exception):
    """Raised by a worker: (item index in its batch, byte offset). The caller names the file."""


def _batches(
    documents: Iterable[Document | str | bytes], job: _Job, size: int
) -> tuple[list[list[str | bytes]], list[list[Document | str | bytes]], int, int]:
    """Group documents into batches of about ``size`` bytes/characters.

    Returns (batches, the document behind each batch item, number of documents, total size).
    Batches hold raw bytes (workers decode them; bytes pickle far faster than ``Document``s) or
    text. A document larger than a batch is decoded here, its special tokens cut out, and its
    text cut at safe points (:func:`_cut`) when the pre-tokenizer allows it, so one big file
    still keeps every worker busy.
    """
    splittable = job.pre_tokenizer.name in _SPLITTABLE
    batches: list[list[str | bytes]] = []
    sources: list[list[Document | str | bytes]] = []
    batch: list[str | bytes] = []
    origin: list[Document | str | bytes] = []
    batch_len = total = n_docs = 0
    for doc in documents:
        n_docs += 1
        raw = doc.data if isinstance(doc, Document) else doc
        total += len(raw)
        if len(raw) <= size or not splittable:
            items: Iterable[str | bytes] = (raw,)
        else:
            text = decode_document(doc, byte_level=job.byte_level, errors=job.errors)
            items = (
                part
                for segment, is_special in split_specials(text, job.specials)
                if not is_special
                for part in _cut(segment, size)
            )
        for item in items:
            batch.append(item)
            origin.append(doc)
            batch_len += len(item)
            if batch_len >= size:
                batches.append(batch)
                sources.append(origin)
                batch, origin, batch_len = [], [], 0
    if batch:
        batches.append(batch)
        sources.append(origin)
    return batches, sources, n_docs, total


def _texts(batch: list[str | bytes], job: _Job) -> Iterator[str]:
    """The batch's texts with special tokens cut out (raw bytes decoded as in decode_document)."""
    mode = "surrogateescape" if job.byte_level else job.errors
    for index, item in enumerate(batch):
        if type(item) is not str:
            try:
                item = item.decode("utf-8", mode)
            except UnicodeDecodeError as exc:
                raise _BadBytes(index, exc.start) from None
        if job.specials:
            yield from (seg for seg, is_special in split_specials(item, job.specials) if not is_special)
        else:
            yield item


def _count_batch(batch: list[str | bytes], job: _Job) -> Counter[str]:
    """Decode, cut out specials, pre-tokenize and count one batch (run in any process)."""
    return Counter(chain.from_iterable(map(_splitter(job.pre_tokenizer), _texts(batch, job))))


class _Merged:
    """Batch counts summed in batch order (first appearance kept). Byte-level also names each
    new piece in GPT-2 byte characters, while the workers are still counting later batches."""

    def __init__(self, byte_level: bool) -> None:
        self.byte_level = byte_level
        self.counts: dict[str, int] = {}
        self.names: dict[str, str] = {}
        self.batches_done = 0

    def add_all(self, parts: Iterable[Counter[str]]) -> None:
        counts, names, byte_level = self.counts, self.names, self.byte_level
        get = counts.get
        for part in parts:
            for word, n in part.items():
                old = get(word)
                if old is None:
                    counts[word] = n
                    if byte_level:
                        names[word] = _to_byte_chars(word)
                else:
                    counts[word] = old + n
            self.batches_done += 1


def _splitter(pre_tokenizer: PreTokenizer) -> Callable[[str], list[str]]:
    """``pre_tokenizer.split``, or straight ``findall`` for the built-in patterns (whose split is
    exactly that): one C call per segment matters when every line is a document."""
    if pre_tokenizer.name in _SPLITTABLE and pre_tokenizer.pattern is not None:
        return compile_pattern(pre_tokenizer.pattern).findall
    return pre_tokenizer.split


def _count_parallel(
    batches: list[list[str | bytes]], job: _Job, workers: int
) -> Iterator[Counter[str]] | None:
    """Count the batches on ``workers`` forked processes, yielding results in batch order;
    None when forking is not possible.

    Only ``fork`` is used: it needs no ``if __name__ == "__main__"`` guard in the caller's script
    and starts in milliseconds. It is unsafe once threads exist (the app trains in a worker
    thread), and absent on some platforms: then the caller counts in-process.
    """
    if threading.active_count() > 1 or "fork" not in get_all_start_methods():
        return None
    try:
        pool = ProcessPoolExecutor(max_workers=workers, mp_context=get_context("fork"))
    except OSError:
        return None
    return _results(pool, batches, job)


def _results(
    pool: ProcessPoolExecutor, batches: list[list[str | bytes]], job: _Job
) -> Iterator[Counter[str]]:
    with pool:
        yield from pool.map(_count_batch, batches, [job] * len(batches))


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
