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

from ...errors import ConfigError, CorpusError
from ...sentencepiece.model_proto import NormalizerSettings
from ...sentencepiece.scores import to_f32
from ...sentencepiece.spec_normalizer import SpecNormalizer
from .config import UnigramTrainerConfig
from .pieces import UNK_CHAR, WS

BLOCK = 1 << 20
BYTES_PER_CHAR_KEPT = 24
"""Rough peak bytes per kept character until seeds are made (text, code points, suffix sort)."""


def _per_byte_replace(err: UnicodeDecodeError) -> tuple[str, int]:
    return "\ufffd", err.start + 1  # SentencePiece turns each invalid byte into one U+FFFD


codecs.register_error("bpe_explorer_sp", _per_byte_replace)


@dataclass(frozen=True, slots=True)
class LoadedCorpus:
    """What training starts from.

    ``sentences``: normalized sentences in SentencePiece's order (characters outside the kept
    alphabet already ``▅``); ``required_chars``: kept character -> count, in the order they were
    chosen; ``dropped_chars``: the characters coverage replaced, most frequent first.
    """

    sentences: list[str]
    required_chars: dict[str, int]
    dropped_chars: dict[str, int]
    too_long: int
    skipped_unk: int
    coverage: float


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
        with open(path, "rb") as handle:
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
    lines: Iterable[bytes | str], config: UnigramTrainerConfig, *, memory_limit: int | None = None
) -> LoadedCorpus:
    """Select, normalize and cover the sentences, as ``LoadSentences`` does (see the module)."""
    normalizer = SpecNormalizer(normalizer_settings(config), treat_whitespace_as_suffix=config.treat_whitespace_as_suffix)
    meta = sorted({p for p, _k in config.meta_pieces().values()}, key=lambda s: (-len(s), s))
    meta_re = re.compile("|".join(map(re.escape, meta)))
    unk_bytes = UNK_CHAR.encode()
    sentences: list[str] = []
    skipped_unk = too_long = 0
    kept_chars = 0
    limit = config.input_sentence_size
    for raw in lines:
        data = raw.encode("utf-8", "surrogatepass") if isinstance(raw, str) else raw
        if not data:
            continue
        if len(data) > config.max_sentence_length:
            too_long += 1
            continue
        if unk_bytes in data:
            skipped_unk += 1
            continue
        text = data.decode("utf-8", "bpe_explorer_sp")
        sentences.append(meta_re.sub("\t", normalizer.normalize(text)))
        kept_chars += len(sentences[-1])
        if memory_limit is not None and kept_chars * BYTES_PER_CHAR_KEPT > memory_limit:
            raise CorpusError(
                f"the corpus is too large to train on in {memory_limit / 2**30:.1f} GiB "
                f"(stopped after {len(sentences):,} sentences): train on its first N sentences "
                "(input_sentence_size=N with shuffle_input_sentence=false) or raise --memory-limit"
            )
        if limit and len(sentences) >= limit:
            break
    if not sentences:
        raise CorpusError("the corpus holds no sentence to train on (every line is empty, too long or holds ▅)")
    i = 0
    while i < len(sentences):  # SentencePiece's removal of empty sentences, order included
        if not sentences[i]:
            sentences[i] = sentences[-1]
            sentences.pop()
        i += 1
    return _cover(sentences, config, too_long, skipped_unk)


def _cover(sentences: list[str], config: UnigramTrainerConfig, too_long: int, skipped_unk: int) -> LoadedCorpus:
    counts: Counter[str] = Counter()
    for s in sentences:
        counts.update(s)
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
        table = str.maketrans({c: UNK_CHAR for c in unknown})
        sentences = [s.translate(table) for s in sentences]
    return LoadedCorpus(sentences, kept, dropped, too_long, skipped_unk, coverage)


def split_into_words(text: str, config: UnigramTrainerConfig) -> list[str]:
    """``SplitIntoWords``: a word starts at each ``▁`` (at a run of them with
    ``allow_whitespace_only_pieces``), or ends after it with ``treat_whitespace_as_suffix``.

    >>> from bpe_engine.training.unigram.config import UnigramTrainerConfig as C
    >>> split_into_words("▁a▁▁b", C()), split_into_words("a▁b▁", C(treat_whitespace_as_suffix=True))
    (['▁a', '▁', '▁b'], ['a▁', 'b▁'])
    """
    splitter = _splitter(config.treat_whitespace_as_suffix, config.allow_whitespace_only_pieces)
    return [w for w in splitter.split(text) if w]


@cache
def _splitter(suffix: bool, ws_runs: bool) -> re.Pattern[str]:
    if suffix:
        return re.compile(f"(?<={WS})(?=[^{WS}])" if ws_runs else f"(?<={WS})(?=.)", re.S)
    return re.compile(f"(?<=.)(?<!{WS})(?={WS})" if ws_runs else f"(?<=.)(?={WS})", re.S)


def word_counts(sentences: Iterable[str], config: UnigramTrainerConfig) -> list[tuple[str, int]]:
    """``SplitSentencesByWhitespace``: words with counts, most frequent first, then by text."""
    counts: Counter[str] = Counter()
    splitter = _splitter(config.treat_whitespace_as_suffix, config.allow_whitespace_only_pieces)
    for s in sentences:
        counts.update(splitter.split(s))
    counts.pop("", None)
    return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
