"""Counting words: cut documents into units of work, pre-tokenize and count each, merge in order."""

from __future__ import annotations

from codecs import charmap_decode
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from itertools import chain
from typing import NamedTuple

from ..byte_table import BYTE_CHARS
from ..errors import CorpusError
from ..pretokenizers import PreTokenizer, split_specials
from . import parallel
from .documents import DecodeErrors, Document, decode_document, utf8_error

PARALLEL_THRESHOLD = 1_000_000
"""Corpora larger than this many characters are pre-tokenized on several processes."""

_CHUNK_CHARS = 1 << 20
"""Target size of one unit of work: small enough that ``findall`` lists stay small in memory."""

# bytes -> GPT-2 byte characters in one C call (the way cp1252 & co. decode)
_BYTE_DECODING_TABLE = "".join(BYTE_CHARS)


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
        parts = parallel.count_parallel(_count_batch, batches, job, workers)
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
        raise utf8_error(sources[merged.batches_done][item], start) from None
    counts = merged.counts
    total = sum(counts.values())
    if byte_level:
        counts = {merged.names[word]: n for word, n in counts.items()}
    return WordCounts(counts, byte_level, documents=n_docs, total_words=total)


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
    # Only a pre-tokenizer that declares it (``safe_to_cut``) has its big texts cut (``_cut``);
    # others are split between documents and special tokens only.
    splittable = job.pre_tokenizer.safe_to_cut
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
    return Counter(chain.from_iterable(map(job.pre_tokenizer.splitter(), _texts(batch, job))))


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
