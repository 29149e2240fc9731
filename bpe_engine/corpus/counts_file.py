"""The counts file: a corpus reduced to ``piece<TAB>count`` rows, the unit of scale-out.

Training needs only word -> count, so ``bpe-explorer count`` writes that table (on this machine
or a Dask cluster), ``count`` merges several, and ``train --from-counts`` trains from them with
exactly the merges of training on the text itself. The format, version 1::

    #bpe-explorer-counts {"version": 1, "pre_tokenizer": "gpt2", "level": "byte", ...}<TAB>1
    the<TAB>52341
     the<TAB>48113
    ...

- **Rows**: UTF-8 text, one row per line, each ``piece<TAB>count`` with a ``\\n`` line end.
- **Header**: the first row, whose piece is ``#bpe-explorer-counts `` and a JSON object:
  ``version``, ``pre_tokenizer`` (name) and ``pattern`` (for ``regex``), ``level`` (``byte`` or
  ``char``), ``specials`` (cut out before counting), ``lines`` (each line was a document),
  ``documents``, ``words`` (total), ``unique`` (each piece occurs once) and ``tool``. Its count
  is 1 so that every row of the file is a valid ``word<TAB>freq`` row: SentencePiece's
  ``--input_format=tsv`` reads the file as it is (the header is then one sentence of frequency
  1 among the others; ``count --no-header`` leaves it out). A file without the header is read
  too, with the pre-tokenizer and level the caller names.
- **Pieces**: the pre-tokenizer's pieces as raw text -- for byte-level counts the pieces' bytes,
  not GPT-2 byte characters -- escaped so that any byte string round-trips: ``\\\\`` for a
  backslash, ``\\t``, ``\\n``, ``\\r``, and ``\\xHH`` for every other control character (C0, DEL)
  and for every byte that is not part of valid UTF-8 (a byte-level piece may cut a character).
- **Counts**: decimal, from 1 to 2**63 - 1: 64-bit, like SentencePiece's frequencies. Sums of
  counts are exact Python integers everywhere (Hugging Face keeps pair counts in 32 bits and
  wraps past 2**32; see ``tests/test_counts_file.py``).
- **Order**: first appearance in the corpus; the ``first-seen`` tie-break depends on it, and it
  makes merging files deterministic (rows of later files append their new pieces).

>>> escape_piece(b" caf\\xc3\\xa9\\t\\\\\\xed\\x95")
' café\\\\t\\\\\\\\\\\\xed\\\\x95'
>>> unescape_piece(escape_piece(b" caf\\xc3\\xa9\\t\\\\\\xed\\x95").encode())
b' caf\\xc3\\xa9\\t\\\\\\xed\\x95'
"""

from __future__ import annotations

import codecs
import json
import re
import sys
from collections.abc import Iterator, Sequence
from contextlib import nullcontext
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import IO

from ..atomic import atomic_writer
from ..errors import CorpusError
from .counting import BYTE_DECODING_TABLE, WordCounts, add_part

FORMAT_VERSION = 1
HEADER_PREFIX = "#bpe-explorer-counts "
MAX_COUNT = 2**63 - 1

_BYTE_ENCODING_MAP = codecs.charmap_build(BYTE_DECODING_TABLE)
_NEEDS_ESCAPE = re.compile(rb"[\x00-\x1f\x7f\\]")
_CONTROLS = {c: f"\\x{c:02x}" for c in [*range(0x20), 0x7F]} | {0x09: "\\t", 0x0A: "\\n", 0x0D: "\\r"}
_ESCAPE = re.compile(rb"\\(x[0-9a-fA-F]{2}|[\\tnr])|\\")
_UNESCAPED = {b"\\": b"\\", b"t": b"\t", b"n": b"\n", b"r": b"\r"}


@dataclass(frozen=True)
class CountsHeader:
    """What a counts file says about how it was counted (the JSON of its header row)."""

    pre_tokenizer: str = "gpt2"
    pattern: str | None = None
    level: str = "byte"
    specials: tuple[str, ...] = ()
    lines: bool | None = None
    documents: int | None = None
    words: int | None = None
    unique: bool = False
    version: int = FORMAT_VERSION
    tool: str = ""

    @property
    def byte_level(self) -> bool:
        return self.level == "byte"

    def settings(self) -> tuple[str, str | None, str, tuple[str, ...]]:
        """What must agree for two files' counts to be added up."""
        return self.pre_tokenizer, self.pattern, self.level, self.specials

    def row(self) -> bytes:
        data = asdict(self)
        data["specials"] = list(self.specials)
        return f"{HEADER_PREFIX}{json.dumps(data, ensure_ascii=True)}\t1\n".encode("ascii")


# -- pieces -------------------------------------------------------------------------------------
def escape_piece(raw: bytes) -> str:
    """A piece's bytes as the text of its column (see the module docstring)."""
    if _NEEDS_ESCAPE.search(raw) is None:
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError:
            pass
    text = raw.replace(b"\\", b"\\\\").decode("utf-8", "backslashreplace")
    return text.translate(_CONTROLS)


def unescape_piece(column: bytes) -> bytes:
    """The piece's bytes from its column; a backslash that starts no escape is a :class:`ValueError`."""
    if b"\\" not in column:
        return column

    def one(match: re.Match[bytes]) -> bytes:
        code = match.group(1)
        if code is None:
            raise ValueError(f"a backslash that starts no escape in {column[:60]!r}")
        return bytes([int(code[1:], 16)]) if code[:1] == b"x" else _UNESCAPED[code]

    return _ESCAPE.sub(one, column)


def piece_bytes(word: str, *, byte_level: bool) -> bytes:
    """A counted word's raw bytes (byte-level words are stored in GPT-2 byte characters)."""
    if byte_level:
        return codecs.charmap_encode(word, "strict", _BYTE_ENCODING_MAP)[0]
    return word.encode("utf-8", "surrogateescape")


# -- writing ------------------------------------------------------------------------------------
def write_counts(
    target: str | Path, counts: WordCounts, header: CountsHeader | None, *, min_count: int = 1
) -> int:
    """Write ``counts`` (``-``: standard output), atomically for a file; the rows written.

    ``header=None`` leaves the header row out. Words below ``min_count`` are left out.
    """
    sink = nullcontext(sys.stdout.buffer) if str(target) == "-" else atomic_writer(target)
    rows = 0
    with sink as handle:
        if header is not None:
            handle.write(header.row())
        rows = _write_rows(handle, counts, min_count)
        handle.flush()
    return rows


def _write_rows(handle: IO[bytes], counts: WordCounts, min_count: int) -> int:
    byte_level = counts.byte_level
    lines: list[str] = []
    rows = 0
    for word, n in counts.counts.items():
        if n < min_count:
            continue
        if n > MAX_COUNT:
            raise CorpusError(f"the count of {word!r} ({n:,}) does not fit in 64 bits; counts files hold 1 to 2**63 - 1")
        try:
            raw = piece_bytes(word, byte_level=byte_level)
        except UnicodeEncodeError:
            raise CorpusError(f"the piece {word!r} holds a lone surrogate: it has no bytes to write") from None
        lines.append(f"{escape_piece(raw)}\t{n}\n")
        rows += 1
        if len(lines) >= 10_000:
            handle.write("".join(lines).encode("utf-8"))
            lines.clear()
    handle.write("".join(lines).encode("utf-8"))
    return rows


# -- reading ------------------------------------------------------------------------------------
def read_header(path: str | Path) -> CountsHeader | None:
    """The header of a counts file, or None when the file does not start with one."""
    try:
        with open(path, "rb") as handle:
            first = handle.readline(1 << 20)
    except OSError as exc:
        raise CorpusError(f"cannot read counts file {path}: {exc.strerror or exc}") from None
    return _parse_header(first, str(path))


def read_counts(
    paths: Sequence[str | Path], *, default: CountsHeader | None = None, min_count: int = 1
) -> tuple[WordCounts, CountsHeader]:
    """Add up counts files in order; the table and the header they share.

    Every file with a header must agree on pre-tokenizer, level and specials; a file without
    one is taken to match (``default`` describes them when no file has a header). Words whose
    total is below ``min_count`` are dropped -- while reading, when a single file says each
    piece occurs once in it (so only the kept words are ever held), else after adding up.
    """
    headers = [(str(p), read_header(p)) for p in paths]
    named = [(p, h) for p, h in headers if h is not None]
    header = named[0][1] if named else (default or CountsHeader())
    assert header is not None
    for path, other in named[1:]:
        assert other is not None
        if other.settings() != header.settings():
            raise CorpusError(
                f"{path} was counted with {_describe(other)} but {named[0][0]} with {_describe(header)}: "
                "counts add up only when pre-tokenizer, level and special tokens are the same"
            )
    filter_early = len(paths) == 1 and header.unique and min_count > 1
    table: dict[str, int] = {}
    for path, _ in headers:
        rows = _rows(path, header.byte_level)
        add_part(table, ((w, n) for w, n in rows if n >= min_count) if filter_early else rows)
    if min_count > 1 and not filter_early:
        table = {w: n for w, n in table.items() if n >= min_count}
    documents = sum(h.documents or 0 for _, h in named) if named else 0
    merged = replace(header, documents=documents or None, words=sum(table.values()), unique=True)
    return WordCounts(table, header.byte_level, documents=documents, total_words=merged.words or 0), merged


def _rows(path: str, byte_level: bool) -> Iterator[tuple[str, int]]:
    """(word, count) of every row after the header, words as the trainer stores them."""
    with open(path, "rb") as handle:
        for number, line in enumerate(handle, start=1):
            if number == 1 and line.startswith(HEADER_PREFIX.encode()):
                continue
            line = line.rstrip(b"\r\n") if line.endswith(b"\n") else line
            column, tab, count = line.rpartition(b"\t")
            if not tab or not column or not count.isdigit() or len(count) > 19:
                if not line:
                    continue
                raise CorpusError(
                    f"{path}, line {number}: expected piece<TAB>count (a count from 1 to 2**63 - 1); "
                    "counts files come from bpe-explorer count"
                )
            n = int(count)
            if not 1 <= n <= MAX_COUNT:
                raise CorpusError(f"{path}, line {number}: count {n} is outside 1 to 2**63 - 1 (64-bit)")
            try:
                raw = unescape_piece(column)
                word = codecs.charmap_decode(raw, "strict", BYTE_DECODING_TABLE)[0] if byte_level else raw.decode("utf-8")
            except ValueError as exc:  # bad escape, or bytes that are not UTF-8 in character-level counts
                raise CorpusError(f"{path}, line {number}: {exc}") from None
            yield word, n


def _parse_header(first: bytes, path: str) -> CountsHeader | None:
    if not first.startswith(HEADER_PREFIX.encode()):
        return None
    text = first.decode("utf-8", "replace").rstrip("\r\n")
    body = text[len(HEADER_PREFIX) :].rpartition("\t")[0]
    try:
        data = json.loads(body)
        if data.get("version") != FORMAT_VERSION:
            raise CorpusError(f"{path}: counts format version {data.get('version')!r}; this bpe-explorer reads version {FORMAT_VERSION}")
        data["specials"] = tuple(data.get("specials") or ())
        known = CountsHeader.__dataclass_fields__
        return CountsHeader(**{k: v for k, v in data.items() if k in known})
    except (ValueError, TypeError, AttributeError) as exc:
        raise CorpusError(f"{path}, line 1: unreadable counts header ({exc})") from None


def _describe(header: CountsHeader) -> str:
    pattern = f" {header.pattern!r}" if header.pattern else ""
    specials = f", specials {list(header.specials)}" if header.specials else ", no specials"
    return f"pre-tokenizer {header.pre_tokenizer}{pattern}, {header.level}-level{specials}"
