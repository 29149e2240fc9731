"""The one way a corpus *text* is read: the app's command-line files, ctrl+o, and any CLI command
that takes a text file all go through :func:`read_text_file`.

Same bytes everywhere: the file is decoded as UTF-8 exactly as stored -- CRLF stays CRLF (as
Hugging Face's trainers read files, and as ``bpe-explorer train`` counts them), a BOM stays a
BOM (the app shows it as ``<BOM>``). Python's ``read_text`` translates newlines; that made ctrl+o
train different merges than the command line on the same file.

A file that is not UTF-8 text gets one message that says what to do, in the wording the training
reader uses (:func:`bpe_engine.corpus.documents.utf8_error`): which byte, where, and the way out.

>>> import tempfile, pathlib
>>> p = pathlib.Path(tempfile.mkdtemp()) / "crlf.txt"
>>> _ = p.write_bytes(b"a\\r\\nb")
>>> read_text_file(p)
'a\\r\\nb'
"""

from __future__ import annotations

from pathlib import Path

from .corpus.block_text import BlockText
from .display import visible_text
from .errors import CorpusError

BINARY_SNIFF = 8192  # bytes looked at for a NUL: text files have none, binary files almost always do


def read_text_file(path: str | Path) -> str:
    """The file's text, byte for byte; :class:`CorpusError` (one line, with the fix) otherwise."""
    shown, data = _text_bytes(path)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise _not_utf8(shown, data, exc) from None


def read_text_blocks(path: str | Path) -> BlockText:
    """:func:`read_text_file` as a :class:`~bpe_engine.corpus.block_text.BlockText`: the same
    text and the same errors, decoded a part at a time and held in blocks -- what the app keeps
    of a corpus (one emoji made a whole 50 MB file 200 MB as one ``str``)."""
    shown, data = _text_bytes(path)
    try:
        return BlockText.decode(data)
    except UnicodeDecodeError as exc:
        raise _not_utf8(shown, data, exc) from None


def _text_bytes(path: str | Path) -> tuple[str, bytes]:
    """The file's name as shown in messages, and its bytes once checked to be no binary file."""
    shown = visible_text(str(path))
    try:
        data = Path(path).expanduser().read_bytes()
    except IsADirectoryError:
        raise CorpusError(f"{shown} is a directory: open a text file") from None
    except OSError as exc:
        raise CorpusError(f"cannot read {shown}: {exc.strerror or exc}") from None
    nul = data.find(b"\x00", 0, BINARY_SNIFF)
    if nul >= 0:
        raise CorpusError(
            f"{shown} looks like a binary file (NUL byte at offset {nul}), not text; open a UTF-8 text file, "
            f"or train byte-level on its raw bytes with: bpe-explorer train {shown} --vocab-size N -o DIR"
        )
    return shown, data


def _not_utf8(shown: str, data: bytes, exc: UnicodeDecodeError) -> CorpusError:
    return CorpusError(
        f"{shown}: not valid UTF-8 (byte {data[exc.start]:#04x} at offset {exc.start}); the explorer needs "
        f"UTF-8 text: convert it first (e.g. iconv -f latin1 -t utf-8), or train byte-level on its raw bytes "
        f"with: bpe-explorer train {shown} --vocab-size N -o DIR"
    )
