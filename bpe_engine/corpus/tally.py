"""Counting a whole corpus: plan its units, run them here or on both cores, fold them in order.

Two entry points share everything after planning:

- :func:`count_files` streams files (and standard input) block by block: the corpus is never
  held, only the word table and the few blocks in flight, so a corpus of any size counts in
  bounded memory. It watches the table grow and says early when it will not fit
  (:mod:`.table_size`).
- :func:`count_words` counts documents already in memory (the app's editor text, tests).

:func:`stream_texts` is the same streaming read for a counter of its own (WordPiece's BERT front
end): the files' text block by block, cut only at the cut points it is given.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import IO, NamedTuple

from ..bpe.normalizer import NormalForm
from ..errors import CorpusError
from ..pretokenizers import PreTokenizer
from . import parallel
from .blocks import BLOCK_BYTES, CutRule, cut_bytes, file_blocks, stdin_bytes, stream_blocks
from .counting import _LINES, BadBytes, Batch, CountJob, Part, Unit, WordCounts, count_unit, decoded_unit, merge_parts, unit_bytes
from .documents import DecodeErrors, Document, bad_utf8, file_size, is_stream, open_binary
from ..memory_budget import note_input
from ..text_files import check_input, corpus_failure
from .table_size import WAYS_OUT, WAYS_OUT_COUNTING, TableWatch, available_memory, uncut_limit

PARALLEL_THRESHOLD = 1_000_000
"""Corpora larger than this many bytes (characters) are counted on several processes."""


@dataclass(frozen=True)
class CountProgress:
    """How far counting is, for a progress bar: bytes done of total (None: standard input)."""

    done_bytes: int
    total_bytes: int | None
    unique_words: int
    warning: str | None = None


ProgressCallback = Callable[[CountProgress], None]


def count_files(
    paths: Sequence[str | Path],
    pre_tokenizer: PreTokenizer,
    special_tokens: Iterable[str] = (),
    *,
    byte_level: bool,
    lines: bool = False,
    workers: int = 2,
    errors: DecodeErrors = "strict",
    block_bytes: int = BLOCK_BYTES,
    min_word_count: int = 1,
    memory_budget: int | None = None,
    training: bool = True,
    progress: ProgressCallback | None = None,
    normalizer: NormalForm | None = None,
) -> WordCounts:
    """Count the words of files (``-``: standard input) without holding the corpus.

    Each file is one document, or each line with ``lines=True`` (lines end at ``\\n`` only, as
    Hugging Face's ``train(files)`` reads them). Every file is checked to open before counting
    starts. Words seen fewer than ``min_word_count`` times are left out of the result.
    ``memory_budget`` (bytes; default: the memory available now) is what the word table and the
    training after it may use (``training=False``: the table alone, for a counts file):
    :class:`.table_size.TableWatch` warns early through ``progress`` and stops with
    :class:`.table_size.WordTableTooLarge` before it runs out.
    """
    sources = [source_of(path) for path in paths]
    total = None if any(s.size is None for s in sources) else sum(s.size or 0 for s in sources)
    devices = [s.name for s in sources if s.kind.endswith("device")]
    endless = (
        f"{', '.join(devices)} {'is a device' if len(devices) == 1 else 'are devices'}, read as a stream that may never end, "
        "so counting stops at the memory limit (--memory-limit SIZE, default: what this process may still use); "
    )
    ways = endless + (WAYS_OUT if training else WAYS_OUT_COUNTING) if devices else None
    watch = TableWatch(total, memory_budget, min_count=min_word_count, training=training, ways_out=ways)
    job = CountJob(pre_tokenizer, tuple(special_tokens), byte_level, errors, lines, watch.uncut_limit, normalizer)
    units = _file_units(sources, job.rule, block_bytes)
    parts = run_units(units, job, workers, pool=total is None or total > PARALLEL_THRESHOLD)
    counts = _fold(parts, job, watch, total, progress)
    if min_word_count <= 1:
        return counts
    kept = {word: n for word, n in counts.counts.items() if n >= min_word_count}
    return WordCounts(kept, byte_level, documents=counts.documents, total_words=sum(kept.values()))


def count_words(
    documents: Iterable[Document | str | bytes],
    pre_tokenizer: PreTokenizer,
    special_tokens: Iterable[str] = (),
    *,
    byte_level: bool,
    workers: int = 2,
    errors: DecodeErrors = "strict",
    normalizer: NormalForm | None = None,
) -> WordCounts:
    """Split out special tokens, pre-tokenize, and count the pieces (first appearance order).
    ``normalizer`` (both functions): a Unicode form applied first, as a base tokenizer's encode does.

    Corpora above :data:`PARALLEL_THRESHOLD` are cut into batches that ``workers`` forked
    processes decode, pre-tokenize and count; the batches are merged back in order, so the
    first-appearance order is the one a single pass gives. In-process when other threads run.
    """
    job = CountJob(pre_tokenizer, tuple(special_tokens), byte_level, errors, normalizer=normalizer)
    batches, origins, size = _batches(documents, job.rule, BLOCK_BYTES)
    parts = run_units(batches, job, workers, pool=size > PARALLEL_THRESHOLD and len(batches) > 1)
    arrived = [0]
    try:
        return _fold(_recorded(parts, arrived), job, None, size, None)
    except BadBytes as bad:
        index, start = bad.args
        doc, offset = origins[arrived[0]][index]
        where = doc.where(offset + start) if isinstance(doc, Document) else f"byte offset {offset + start}"
        data = doc.data if isinstance(doc, Document) else doc
        assert isinstance(data, bytes)
        raise bad_utf8(where, data[offset + start]) from None


def stream_texts(
    paths: Sequence[str | Path],
    rule: CutRule,
    *,
    lines: bool = False,
    errors: DecodeErrors = "strict",
    block_bytes: int = BLOCK_BYTES,
    memory_budget: int | None = None,
) -> Iterator[str]:
    """The text of files (``-``: standard input), block by block, each block ending at a cut point
    of ``rule`` (or a file's end): a counter that gives the same words for the parts as for the
    whole holds one block at a time. ``lines=True`` yields each line (ending at ``\n``) as a text
    of its own. A byte that is not UTF-8 is named by file, line and offset. A stretch without a
    cut point stops at what ``memory_budget`` (default: the memory available now) can hold."""
    from ..pretokenizers import get_pretokenizer

    job = CountJob(get_pretokenizer("none"), (), False, errors, lines=True)  # one text per block
    sources = [source_of(path) for path in paths]
    if not rule.max_span:
        rule = replace(rule, max_span=uncut_limit(available_memory() if memory_budget is None else memory_budget))
    for unit in _file_units(sources, rule, block_bytes):
        assert not isinstance(unit, Batch)
        offset, data, _, _ = unit_bytes(unit, rule)
        for text in decoded_unit(unit, offset, data, job):
            yield from _LINES.findall(text) if lines else (text,)


def run_units(units: Iterable[Unit], job: CountJob, workers: int, *, pool: bool) -> Iterator[Part]:
    """:func:`count_unit` over the units, in order: on ``workers`` processes when ``pool``."""
    results = parallel.ordered_map(count_unit, units, job, workers) if pool and workers > 1 else None
    return results if results is not None else (count_unit(unit, job) for unit in units)


# -- private ------------------------------------------------------------------------------------
def _fold(
    parts: Iterable[Part], job: CountJob, watch: TableWatch | None, total: int | None, progress: ProgressCallback | None
) -> WordCounts:
    """Merge the parts in order, watching the table and reporting progress after each."""

    def after_each(done: int, table: dict[str, int]) -> None:
        warning = watch.update(done, table) if watch is not None else None
        if progress is not None:
            progress(CountProgress(done, total, len(table), warning))

    merged = merge_parts(parts, after_each)
    return WordCounts(merged.counts, job.byte_level, documents=merged.documents, total_words=sum(merged.counts.values()))


def _recorded(parts: Iterable[Part], arrived: list[int]) -> Iterator[Part]:
    """Pass parts through, counting how many arrived (to name the batch a bad byte is in)."""
    for part in parts:
        yield part
        arrived[0] += 1


class Source(NamedTuple):
    """A corpus to read: a file planned in blocks by its size, or a stream read as it comes."""

    name: str  # for messages
    path: str | None  # None: standard input
    size: int | None  # None: a stream (standard input, a pipe, a device)
    stream: IO[bytes] | None = None  # a pipe or device, opened when checked (it is read once)
    kind: str = "file"  # what the one reader found: "file", "a named pipe", "a character device", ...


def source_of(path: str | Path) -> Source:
    """Where to read ``path`` from; a file that does not open is a :class:`CorpusError` now,
    before any counting. A pipe (``<(zcat c.gz)``), a FIFO or a device has no size to plan
    blocks by (``st_size`` is 0: it was read as empty): it is a stream, like standard input."""
    if str(path) == "-":
        note_input("<stdin>", None, WAYS_OUT)
        return Source("<stdin>", None, None)
    name = str(path)
    try:
        if is_stream(name):
            kind = check_input(name, fail=corpus_failure(name), expected="a corpus file", streams=True).kind
            return Source(name, name, None, open_binary(name), kind)
        size = file_size(name)
        open_binary(name).close()  # checked by the one reader: a file, or a device named as a corpus
    except OSError as exc:
        raise CorpusError(f"cannot read corpus file {name}: {exc.strerror or exc}") from None
    return Source(name, name, size)


def _file_units(sources: list[Source], rule: CutRule, block_bytes: int) -> Iterator[Unit]:
    for source in sources:
        if source.size is None:
            try:
                handle = source.stream or stdin_bytes()
            except OSError as exc:
                raise CorpusError(f"cannot read corpus file {source.name}: {exc}") from None
            try:
                yield from stream_blocks(source.name, handle, rule, block_bytes)
            finally:
                if source.stream is not None:
                    source.stream.close()
        else:
            assert source.path is not None
            yield from file_blocks(source.name, source.path, source.size, rule, block_bytes)


def _batches(
    documents: Iterable[Document | str | bytes], rule: CutRule, size: int
) -> tuple[list[Batch], list[list[tuple[Document | str | bytes, int]]], int]:
    """Group documents into batches of about ``size`` bytes (characters for text).

    Returns (batches, the document and offset behind each batch item, total size). A document
    larger than a batch is cut at cut points (as a file block would be), so one big text still
    keeps every worker busy; text that is not valid UTF-8 (lone surrogates) stays whole.
    """
    batches: list[Batch] = []
    origins: list[list[tuple[Document | str | bytes, int]]] = []
    items: list[str | bytes] = []
    origin: list[tuple[Document | str | bytes, int]] = []
    batch_len = total = starts = 0
    for doc in documents:
        raw = doc.data if isinstance(doc, Document) else doc
        total += len(raw)
        starts += 1
        parts: Iterable[str | bytes] = (raw,)
        if len(raw) > size and rule.spaces:
            if isinstance(raw, str):
                try:
                    data = raw.encode("utf-8")
                except UnicodeEncodeError:
                    data = b""
            else:
                data = raw
            if data:
                parts = cut_bytes(data, rule, size)
        offset = 0
        for item in parts:
            items.append(item)
            origin.append((doc, offset))
            offset += len(item)
            batch_len += len(item)
            if batch_len >= size:
                batches.append(Batch(items, starts))
                origins.append(origin)
                items, origin, batch_len, starts = [], [], 0, 0
    if items or starts:
        batches.append(Batch(items, starts))
        origins.append(origin)
    return batches, origins, total
