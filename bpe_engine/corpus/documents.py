"""Reading corpus files into documents, decoding them, and naming a bad byte by file, line and offset.

Bytes are kept raw until counting: byte-level training copes with invalid UTF-8, and
character-level training names the bad byte with where it came from.
"""

from __future__ import annotations

import os
import stat
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Literal, NamedTuple

from ..errors import CorpusError
from ..text_files import corpus_failure, open_input, read_input

DOCUMENT_BYTES_PER_BYTE = 3
"""Memory per byte of a file read as documents (its bytes, and its lines for ``lines=True``)."""

DecodeErrors = Literal["strict", "replace"]


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


def read_documents(paths: Sequence[str | Path], *, lines: bool = False) -> list[Document]:
    """Read files as documents: each file is one document, or each line with ``lines=True``.

    ``-`` reads standard input. Lines end at ``\\n`` and keep it (a lone ``\\r`` does not end a
    line), as Hugging Face's ``train(files)`` reads them. Bytes are kept raw: decoding happens in :func:`count_words`, where byte-level
    training can cope with invalid UTF-8 and character-level training can name the bad byte.
    """
    docs: list[Document] = []
    for p in paths:
        name = "<stdin>" if str(p) == "-" else str(p)
        if str(p) == "-":
            try:
                data = sys.stdin.buffer.read()
            except (OSError, ValueError, AttributeError) as exc:
                raise CorpusError(f"cannot read corpus file {name}: {getattr(exc, 'strerror', None) or exc}") from None
        else:
            data = read_input(p, fail=corpus_failure(p), expected="a corpus file", per_byte=DOCUMENT_BYTES_PER_BYTE)
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
        raise utf8_error(doc, exc.start) from None


def utf8_error(doc: Document | str | bytes, start: int) -> CorpusError:
    """Invalid UTF-8 at byte ``start`` of a document, named by :func:`bad_utf8`."""
    data = doc.data if isinstance(doc, Document) else doc
    assert isinstance(data, bytes)
    where = doc.where(start) if isinstance(doc, Document) else f"byte offset {start}"
    return bad_utf8(where, data[start])


def bad_utf8(where: str, byte: int) -> CorpusError:
    """The one message for invalid UTF-8 in character-level training: where, which byte, what to do."""
    return CorpusError(
        f"{where}: not valid UTF-8 (byte {byte:#04x}); character-level training needs "
        "UTF-8 text: train byte-level instead, or convert the file to UTF-8 first (e.g. with iconv)"
    )


def open_binary(path: str) -> IO[bytes]:
    """Open a corpus file for reading bytes: a local path through the one reader (a file, a
    pipe, a device named as a corpus; never a device behind a symlink), or a URL (``s3://...``)
    through ``fsspec`` where it is installed (it comes with the ``[dask]`` extra, for cluster
    workers)."""
    if "://" in path:
        try:
            import fsspec
        except ImportError:
            raise CorpusError(f"{path}: reading URLs needs fsspec (pip install 'bpe-explorer[dask]')") from None
        return fsspec.open(path, "rb").open()
    return open_input(path, fail=corpus_failure(path), expected="a corpus file", streams=True, ways=_CORPUS_WAYS)[1]


_CORPUS_WAYS = "--memory-limit SIZE stops counting early with the ways out; or train on a smaller corpus"


def is_stream(path: str | Path) -> bool:
    """Whether ``path`` is read as it comes rather than planned by its size: a pipe
    (``<(zcat c.gz)``), a FIFO, a device (``/dev/stdin``, ``/dev/zero``), a socket. Its ``st_size``
    is 0, and it can be read only once. False for a file, a directory, a URL or a missing path."""
    if str(path) == "-":
        return True
    if "://" in str(path):
        return False
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return not stat.S_ISREG(mode) and not stat.S_ISDIR(mode)


def file_size(path: str) -> int:
    """Size in bytes of a local file or a URL (through ``fsspec``)."""
    if "://" in path:
        import fsspec

        fs, inner = fsspec.core.url_to_fs(path)
        return int(fs.size(inner))
    return Path(path).stat().st_size
