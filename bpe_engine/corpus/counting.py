"""Counting words: one function counts one unit of work; units are merged in order.

:func:`count_unit` is *the* counting function: the in-process path, the local process pool
(:mod:`.parallel`) and a Dask cluster (:mod:`.dask_engine`) all run it, only scheduled
differently. A unit is a block of a file (read by the worker itself, see :mod:`.blocks`), a block
of standard input, or a batch of in-memory documents. Its result is a :class:`Part`: word -> count
in order of first appearance within the unit, byte-level words already in the GPT-2 byte alphabet.

Merging parts in unit order (:func:`add_part`) keeps first-appearance order over the corpus, and
that merge is associative, so a tree reduction (Dask's) gives the same table as a left fold.
"""

from __future__ import annotations

import re
from codecs import charmap_decode
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from itertools import chain
from typing import NamedTuple

from ..bpe.byte_table import BYTE_CHARS
from ..bpe.normalizer import NormalForm
from ..errors import CorpusError
from ..pretokenizers import PreTokenizer, split_specials
from .blocks import BLOCK_BYTES, CutRule, DataBlock, FileBlock, cut_bytes, read_file_block
from .documents import DecodeErrors, bad_utf8, open_binary
from .fast_split import splitter

# bytes -> GPT-2 byte characters in one C call (the way cp1252 & co. decode)
BYTE_DECODING_TABLE = "".join(BYTE_CHARS)

_SEGMENT_BYTES = 1 << 14
"""Whole-document blocks are decoded in segments of about this size (see :func:`_decoded`)."""

_LINES = re.compile(r"[^\n]*\n|[^\n]+")
"""Lines that end at ``\\n`` only (and keep it), as Hugging Face's ``train(files)`` reads them."""


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


class CountJob(NamedTuple):
    """Everything a unit needs besides its data (picklable: sent to workers with every unit)."""

    pre_tokenizer: PreTokenizer
    specials: tuple[str, ...]
    byte_level: bool
    errors: DecodeErrors = "strict"
    lines: bool = False
    max_span: int = 0  # bytes a stretch without a cut point may span (CutRule.max_span)
    normalizer: NormalForm | None = None  # a base's Unicode form (Qwen's NFC), applied before anything else

    @property
    def rule(self) -> CutRule:
        return CutRule.for_job(self.pre_tokenizer, self.specials, lines=self.lines, max_span=self.max_span)


class Part(NamedTuple):
    """What counting a unit (or merging several) gives: word -> count, documents and bytes seen."""

    counts: dict[str, int]
    documents: int
    size: int


class Batch(NamedTuple):
    """In-memory documents (or pieces of one, cut at cut points): raw bytes or text."""

    items: list[str | bytes]
    documents: int


class BadBytes(Exception):
    """Raised by a worker counting a :class:`Batch`: (item index, byte offset); the caller names it."""


Unit = FileBlock | DataBlock | Batch


# -- the counting function ---------------------------------------------------------------------
def count_unit(unit: Unit, job: CountJob) -> Part:
    """Read (for a file block), decode, cut out specials, pre-tokenize and count one unit."""
    split = splitter(job.pre_tokenizer)
    if isinstance(unit, Batch):
        pieces = chain.from_iterable(map(split, _without_specials(map(_normalizer(job), _batch_texts(unit, job)), job)))
        return _named(Counter(pieces), job, unit.documents, sum(map(len, unit.items)))
    offset, data, at_end, first = unit_bytes(unit, job.rule)
    texts = decoded_unit(unit, offset, data, job)
    documents = _lines_in(data, at_end) if job.lines else int(first)
    segments = _LINES.findall(texts[0]) if job.lines else texts
    pieces = chain.from_iterable(map(split, _without_specials(map(_normalizer(job), segments), job)))
    return _named(Counter(pieces), job, documents, len(data))


def add_part(table: dict[str, int], part: Mapping[str, int] | Iterable[tuple[str, int]]) -> None:
    """Add ``part`` (a table, or (word, count) pairs) into ``table``; words new to the table go
    after the ones it has, so first-appearance order is kept."""
    get = table.get
    for word, n in part.items() if isinstance(part, Mapping) else part:
        table[word] = get(word, 0) + n


def merge_parts(parts: Iterable[Part], after_each: Callable[[int, dict[str, int]], None] | None = None) -> Part:
    """Parts merged in the order given (associative: any grouping gives the same table).

    ``after_each(bytes so far, table so far)`` runs after every part (progress, the table watch).
    """
    table: dict[str, int] = {}
    documents = size = 0
    for part in parts:
        add_part(table, part.counts)
        documents += part.documents
        size += part.size
        if after_each is not None:
            after_each(size, table)
    return Part(table, documents, size)


# -- private ------------------------------------------------------------------------------------
def unit_bytes(unit: FileBlock | DataBlock, rule: CutRule) -> tuple[int, bytes, bool, bool]:
    """A block's (offset in its file, bytes, is it the file's last, is it the file's first)."""
    if isinstance(unit, FileBlock):
        with open_binary(unit.path) as handle:
            offset, data = read_file_block(unit, rule, handle)
        return offset, data, offset + len(data) >= unit.size, unit.start == 0
    return unit.offset, unit.data, unit.at_end, unit.offset == 0


def _named(counts: Counter[str], job: CountJob, documents: int, size: int) -> Part:
    """The part, byte-level words renamed into the GPT-2 byte alphabet (inlined: per word)."""
    if not job.byte_level:
        return Part(dict(counts), documents, size)
    table = BYTE_DECODING_TABLE
    try:
        named = {charmap_decode(word.encode("utf-8", "surrogateescape"), "strict", table)[0]: n for word, n in counts.items()}
    except UnicodeEncodeError:
        named = {_to_byte_chars(word): n for word, n in counts.items()}  # raises, naming the character
    return Part(named, documents, size)


def decoded_unit(unit: FileBlock | DataBlock, offset: int, data: bytes, job: CountJob) -> list[str]:
    """The block as text: one string for ``--lines`` (cut into lines next), else segments of
    about :data:`_SEGMENT_BYTES` cut at cut points, so the ASCII ones take the fast splitter."""
    mode = "surrogateescape" if job.byte_level else job.errors
    rule = job.rule
    chunks = cut_bytes(data, rule, _SEGMENT_BYTES) if rule.spaces and not job.lines else (data,)
    texts: list[str] = []
    pos = 0
    for chunk in chunks:
        try:
            texts.append(chunk.decode("utf-8", mode))
        except UnicodeDecodeError as exc:
            at = pos + exc.start
            raise bad_utf8(_where(unit, offset + at, data, at), data[at]) from None
        pos += len(chunk)
    return texts


def _lines_in(data: bytes, at_end: bool) -> int:
    """Documents of ``--lines`` in a block: its newlines, plus a last line without one."""
    return data.count(b"\n") + (1 if at_end and data and not data.endswith(b"\n") else 0)


def _where(unit: FileBlock | DataBlock, offset: int, data: bytes, local: int) -> str:
    """File, line and byte offset of a bad byte (a file's lines are counted only then)."""
    if isinstance(unit, DataBlock):
        line = unit.line + data.count(b"\n", 0, local)
    else:
        line = 1 + _newlines_before(unit.path, offset)
    return f"{unit.name}, line {line}, byte offset {offset}"


def _newlines_before(path: str, offset: int) -> int:
    count = 0
    with open_binary(path) as handle:
        while offset > 0:
            chunk = handle.read(min(offset, BLOCK_BYTES))
            if not chunk:
                break
            count += chunk.count(b"\n")
            offset -= len(chunk)
    return count


def _without_specials(segments: Iterable[str], job: CountJob) -> Iterable[str]:
    if not job.specials:
        return segments
    return (seg for text in segments for seg, is_special in split_specials(text, job.specials) if not is_special)


def _normalizer(job: CountJob) -> Callable[[str], str]:
    """What a text goes through before specials are cut out and it is pre-tokenized: the job's
    Unicode normal form, as the tokenizer's ``encode`` applies it first (cut points fall after a
    newline or a space, where no composition or reordering crosses)."""
    form = job.normalizer
    if form is None:
        return str
    from ..bpe.normalizer import normalize

    return lambda text: normalize(text, form)


def _batch_texts(batch: Batch, job: CountJob) -> Iterator[str]:
    """The batch's texts, raw bytes decoded as for a block (specials are cut out after)."""
    mode = "surrogateescape" if job.byte_level else job.errors
    for index, item in enumerate(batch.items):
        if not isinstance(item, str):
            try:
                item = item.decode("utf-8", mode)
            except UnicodeDecodeError as exc:
                raise BadBytes(index, exc.start) from None
        yield item


def _to_byte_chars(piece: str) -> str:
    """``' lower'`` -> ``'Ġlower'``; lone surrogates from invalid UTF-8 become their raw byte."""
    try:
        raw = piece.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError as exc:
        raise CorpusError(
            f"text holds a lone surrogate {piece[exc.start]!r} (U+{ord(piece[exc.start]):04X}) that is "
            "not an escaped byte; pass the corpus as bytes or clean the text"
        ) from None
    return charmap_decode(raw, "strict", BYTE_DECODING_TABLE)[0]
