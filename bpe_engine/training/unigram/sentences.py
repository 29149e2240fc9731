"""The corpus as SentencePiece's trainer sees it (``TrainerInterface::LoadSentences``).

Each input line is a sentence (lines end at ``\\n``; a ``\\r`` stays and normalizes to a space).
Empty lines are dropped; a line longer than ``max_sentence_length`` *bytes* is skipped -- read in
bounded blocks and never held whole, so a 2 GB line costs one block of memory; a line holding
``▅`` (U+2585, SentencePiece's unknown marker) is skipped. Then each sentence is normalized
(charsmap, whitespace options, ``▁`` for spaces), every special piece's text becomes a tab, and
empty results are removed the way SentencePiece removes them (swapped with the last sentence,
which is not looked at again). Character coverage keeps the most frequent characters (required
ones first) until ``character_coverage`` of all characters is covered -- compared in ``float``, as
SentencePiece does -- and every other character becomes ``▅``.
"""

from __future__ import annotations

import codecs
import re
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path

import numpy as np

from ...corpus.table_size import Costs, TableWatch
from ...errors import ConfigError, CorpusError
from ...sentencepiece.model_proto import NormalizerSettings
from ...sentencepiece.scores import to_f32
from ...sentencepiece.spec_normalizer import SpecNormalizer
from ...text_files import corpus_failure, open_input
from .config import UnigramTrainerConfig
from .pieces import UNK_CHAR
from .words import Units, unit_counts

BLOCK = 1 << 20
UNIGRAM_COSTS = Costs(table_per_word=100, table_per_char=10, training_per_word=100, training_per_char=190)
"""Bytes per distinct word and per character of it: the word table (a counter entry and its
string), and training on it (the seeds' suffix sort, then ~4 lattice edges per character at the
first E-step). Peak RSS less the interpreter's ~31 MiB was 195-217 bytes per distinct word
character on en_10mb (1.9M characters: 368 MiB), its first 3 MB and ko_all (0.2M: 47 MiB)."""
WAYS_OUT = (
    "ways out: train on the first N sentences (--input-sentence-size N --shuffle-input-sentence false), "
    "or on a sample of the lines; --memory-limit SIZE if more memory is free"
)


def _per_byte_replace(err: UnicodeError) -> tuple[str, int]:
    if not isinstance(err, UnicodeDecodeError):  # a handler for decoding only (the sentence reader below)
        raise err
    return "\ufffd", err.start + 1  # SentencePiece turns each invalid byte into one U+FFFD


codecs.register_error("bpe_explorer_sp", _per_byte_replace)


@dataclass(frozen=True, slots=True)
class LoadedCorpus:
    """What training starts from.

    ``units``: the words with counts (:data:`~.words.Units`), when training splits sentences at
    ``▁`` and the seeds are made from words (the default); else ``None``. ``sentences``: the
    normalized sentences in SentencePiece's order -- kept only when ``units`` is None or when asked
    (``keep_sentences``). Characters outside the kept alphabet are ``▅`` in both.
    ``required_chars``: kept character -> count, in the order they were chosen; ``dropped_chars``:
    the characters coverage replaced, most frequent first; ``chars``: the characters left (but
    ``▅``) with counts, most frequent first.
    """

    sentences: list[str]
    units: Units | None
    required_chars: dict[str, int]
    dropped_chars: dict[str, int]
    too_long: int
    skipped_unk: int
    coverage: float
    chars: list[tuple[str, int]]


def read_lines(paths: Iterable[str | Path], max_bytes: int, stats: dict[str, int] | None = None) -> Iterator[bytes]:
    """Lines of the files (without ``\\n``), those over ``max_bytes`` bytes skipped unread.

    >>> import io, tempfile, os
    >>> d = tempfile.mkdtemp(); p = os.path.join(d, "c.txt")
    >>> _ = open(p, "wb").write(b"ab\\n" + b"x" * 50 + b"\\ncd")
    >>> s = {}; list(read_lines([p], 10, s)), s["too_long"]
    ([b'ab', b'cd'], 1)
    """
    if stats is not None:
        stats.setdefault("too_long", 0)
    for path in paths:
        with open_input(path, fail=corpus_failure(path), expected="a corpus file", streams=True)[1] as handle:
            carry = b""
            skipping = False
            while True:
                block = handle.read(BLOCK)
                if not block:
                    break
                lines = block.split(b"\n")
                for k, line in enumerate(lines):
                    last = k == len(lines) - 1
                    if skipping:
                        if not last:
                            skipping = False
                        continue
                    if k == 0 and carry:
                        line = carry + line
                        carry = b""
                    if last:
                        carry = line
                        if len(carry) > max_bytes:
                            carry, skipping = b"", True
                            if stats is not None:
                                stats["too_long"] += 1
                        break
                    if len(line) > max_bytes:
                        if stats is not None:
                            stats["too_long"] += 1
                        continue
                    yield line
            if carry:
                yield carry


@cache
def nmt_nfkc_charsmap() -> bytes:
    """SentencePiece's ``nmt_nfkc`` rules (package data; see ``bpe_engine/data/PROVENANCE.md``)."""
    return resources.files("bpe_engine").joinpath("data/sp_nmt_nfkc.charsmap").read_bytes()


def normalizer_settings(config: UnigramTrainerConfig) -> NormalizerSettings:
    charsmap = nmt_nfkc_charsmap() if config.normalization_rule_name == "nmt_nfkc" else b""
    return NormalizerSettings(
        name=config.normalization_rule_name,
        charsmap=charsmap,
        add_dummy_prefix=config.add_dummy_prefix,
        remove_extra_whitespaces=config.remove_extra_whitespaces,
        escape_whitespaces=True,
    )


def load_corpus(
    lines: Iterable[bytes | str],
    config: UnigramTrainerConfig,
    *,
    memory_limit: int | None = None,
    total_bytes: int | None = None,
    keep_sentences: bool = False,
) -> LoadedCorpus:
    """Select, normalize and cover the sentences, as ``LoadSentences`` does (see the module).

    Sentences are normalized and cut into words a batch at a time (:meth:`SpecNormalizer.normalize_lines`,
    :func:`~.words.unit_counts`); in the default mode only the words are kept. A
    :class:`~bpe_engine.corpus.table_size.TableWatch` follows them against ``memory_limit``
    (default: the memory available now; ``total_bytes`` lets it project) and stops with one line
    when training would not fit."""
    normalizer = SpecNormalizer(normalizer_settings(config), treat_whitespace_as_suffix=config.treat_whitespace_as_suffix)
    meta = sorted({p for p, _k in config.meta_pieces().values()}, key=lambda s: (-len(s), s))
    meta_re = re.compile("|".join(map(re.escape, meta)))
    by_word = seeds_from_words(config)
    keep = keep_sentences or not by_word
    watch = TableWatch(total_bytes, memory_limit, costs=UNIGRAM_COSTS, ways_out=WAYS_OUT)
    unk_bytes = UNK_CHAR.encode()
    sentences: list[str] = []
    units: Counter[str] = Counter()
    histogram = np.zeros(0, np.int64)
    loaded = skipped_unk = too_long = done = 0
    limit = config.input_sentence_size
    batch: list[str] = []
    batch_bytes = 0

    def flush() -> None:
        nonlocal histogram, batch_bytes
        normalized = normalizer.normalize_lines(batch)
        if any("\n" in p for p in meta):
            normalized = [meta_re.sub("\t", t) for t in normalized]
        else:
            normalized = meta_re.sub("\t", "\n".join(normalized)).split("\n")
        histogram = _add_codes(histogram, "".join(normalized))
        if keep:
            sentences.extend(normalized)
        if by_word:
            unit_counts(normalized, config, into=units)
            watch.update(done, units)
        else:
            watch.check(done, len(sentences), int(histogram.sum()) / max(len(sentences), 1))
        batch.clear()
        batch_bytes = 0

    for raw in lines:
        data = raw.encode("utf-8", "surrogatepass") if isinstance(raw, str) else raw
        done += len(data) + 1
        if not data:
            continue
        if len(data) > config.max_sentence_length:
            too_long += 1
            continue
        if unk_bytes in data:
            skipped_unk += 1
            continue
        batch.append(data.decode("utf-8", "bpe_explorer_sp"))
        batch_bytes += len(data)
        loaded += 1
        if limit and loaded >= limit:
            break
        if batch_bytes >= BLOCK:
            flush()
    flush()
    if not loaded:
        raise CorpusError("the corpus holds no sentence to train on (every line is empty, too long or holds ▅)")
    i = 0
    while i < len(sentences):  # SentencePiece's removal of empty sentences, order included
        if not sentences[i]:
            sentences[i] = sentences[-1]
            sentences.pop()
        i += 1
    counts = {chr(c): int(histogram[c]) for c in np.flatnonzero(histogram).tolist()}
    return _cover(sentences, units if by_word else None, counts, config, too_long, skipped_unk)


def seeds_from_words(config: UnigramTrainerConfig) -> bool:
    """Whether seeds come from the ``▁`` words (the default) rather than whole sentences."""
    return config.split_by_whitespace and not config.treat_whitespace_as_suffix and not config.allow_whitespace_only_pieces


def _add_codes(histogram: np.ndarray, text: str) -> np.ndarray:
    """``histogram`` with the code points of ``text`` counted in."""
    codes = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), np.uint32)
    found = np.bincount(codes)
    if len(found) > len(histogram):
        found[: len(histogram)] += histogram
        return found
    histogram[: len(found)] += found
    return histogram


def _cover(
    sentences: list[str],
    units: Counter[str] | None,
    counts: dict[str, int],
    config: UnigramTrainerConfig,
    too_long: int,
    skipped_unk: int,
) -> LoadedCorpus:
    counts.pop("\0", None)
    if " " in counts:
        raise CorpusError("space must not be included in normalized string")
    required = {c for c in config.required_chars if c != "\0"}
    total = sum(counts.values())
    order = sorted(
        ((c in required, counts.get(c, 0), c) for c in set(counts) | required),
        key=lambda t: (not t[0], -t[1], t[2]),
    )
    target = to_f32(config.character_coverage)
    kept: dict[str, int] = {}
    done = 0
    coverage = 0.0
    for k, (_req, count, c) in enumerate(order):
        coverage = to_f32(1.0 * done / total) if total else float("nan")
        if coverage >= target:
            break
        done += count
        if c != "\t":
            kept[c] = count
    else:
        k = len(order)
    coverage = done / total if total else 1.0
    if UNK_CHAR in kept:
        raise ConfigError(f"required_chars must not hold {UNK_CHAR} (SentencePiece's unknown marker)")
    dropped = {c: n for _r, n, c in order[k:]} | ({"\t": counts["\t"]} if "\t" in counts else {})
    if len(kept) + len(config.meta_pieces()) > config.vocab_size:
        raise ConfigError(
            f"vocab_size {config.vocab_size} is smaller than the required characters plus special pieces "
            f"({len(kept) + len(config.meta_pieces())}): increase vocab_size or decrease character_coverage"
        )
    unknown = [c for c in counts if c not in kept]
    if unknown:
        sentences = _replace_chars(sentences, set(unknown))
        if units is not None:  # words that differ only in dropped characters become one
            merged: Counter[str] = Counter()
            for new_unit, n in zip(_replace_chars(list(units), set(unknown)), units.values()):
                merged[new_unit] += n
            units = merged
    chars = sorted(((c, n) for c, n in kept.items() if n > 0 and c != UNK_CHAR), key=lambda kv: (-kv[1], kv[0]))
    return LoadedCorpus(sentences, units, kept, dropped, too_long, skipped_unk, coverage, chars)


def _replace_chars(texts: list[str], unknown: set[str]) -> list[str]:
    """Every character in ``unknown`` becomes ``▅``: one substitution over all texts joined by a
    separator none of them holds (one by one if there is none)."""
    pattern = re.compile("|".join(map(re.escape, sorted(unknown))))
    for sep in ("\n", "\0", "\x01"):
        joined = sep.join(texts)
        if sep not in unknown and joined.count(sep) == len(texts) - 1:
            return pattern.sub(UNK_CHAR, joined).split(sep)
    return [pattern.sub(UNK_CHAR, s) for s in texts]
