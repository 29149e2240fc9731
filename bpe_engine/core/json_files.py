"""Reading the JSON and text of tokenizer files so that every failure names the file and line.

``json.load`` reports a truncated file as a bare ``JSONDecodeError``; here it becomes a
:class:`~bpe_engine.errors.TokenizerFileError` carrying the path, the 1-based line and the column.
Semantic errors found after parsing (a duplicate id, a merge the vocabulary lacks) are pinned to a
line by finding the offending key in the raw text, so ``vocab.json`` errors still say where to look.
"""

from __future__ import annotations

import errno
import json
import os
import re
from pathlib import Path
from typing import Any

from ..errors import TokenizerFileError
from .text_files import Fail, read_input

JSON_BYTES_PER_BYTE = 5
"""Memory per byte of a JSON tokenizer file while it is parsed: 4 measured for a 135 MB
``tokenizer.json`` of 1,000,000 added tokens (its text and the parsed objects)."""
TOKENIZER_WAYS = "use a smaller tokenizer file, or run where more memory is free"


def read_file_bytes(path: str | Path, *, expected: str = "a file", per_byte: float = JSON_BYTES_PER_BYTE) -> bytes:
    """The file's bytes through the one reader (:func:`bpe_engine.core.text_files.read_input`): a
    missing path, a directory, a device or a file too large for the memory left is a
    TokenizerFileError.

    ``expected`` names what the caller wanted (``"a vocab.txt file"``) so that pointing a loader
    at a directory says what to point it at instead; ``per_byte`` is the memory parsing it takes.
    """
    return read_input(
        path,
        fail=tokenizer_failure(path),
        expected=expected,
        per_byte=per_byte,
        ways=TOKENIZER_WAYS,
    )


def tokenizer_failure(path: str | Path) -> Fail:
    """The one reader's refusals as :class:`TokenizerFileError` naming ``path`` (a missing file
    is ``file not found``, as the loaders have always said)."""
    missing = os.strerror(errno.ENOENT)
    return lambda reason: TokenizerFileError(path, "file not found" if reason == missing else reason)


def read_text(path: str | Path) -> str:
    """The file's UTF-8 text; a missing, unreadable or non-UTF-8 file is a TokenizerFileError."""
    data = read_file_bytes(path)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise TokenizerFileError(path, f"not valid UTF-8 (byte offset {exc.start})", line=line) from None


def parse_json(path: str | Path, text: str, *, unique_keys: bool = True) -> Any:
    """Parse ``text`` (read from ``path``) keeping duplicate object keys detectable.

    Objects are returned as dicts, but a key repeated inside one object is an error: ``json``
    would silently keep the last value, which hides a corrupted vocabulary. ``unique_keys=False``
    skips that check, for formats whose vocabulary is a *list* (Tekken's 150,000 small objects,
    where the check would double the parse time and the loader checks ranks and bytes itself).
    """

    def no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        out = dict(pairs)  # in C: a million small objects (added tokens) cost no Python loop
        if len(out) == len(pairs):
            return out
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise TokenizerFileError(
                    path, f"key {key!r} appears twice; each token may appear once", line=line_of_key(text, key, 2)
                )
            seen.add(key)
        return out  # pragma: no cover - a shorter dict has a repeated key

    try:
        return json.loads(text, object_pairs_hook=no_duplicates if unique_keys else None)
    except json.JSONDecodeError as exc:
        hint = " (the file looks truncated)" if exc.pos >= len(text.rstrip()) else ""
        raise TokenizerFileError(
            path, f"invalid JSON at column {exc.colno}: {exc.msg}{hint}", line=exc.lineno
        ) from None
    except RecursionError:
        depth, at = deepest_nesting(text)
        raise TokenizerFileError(
            path, f"invalid JSON: nested {depth:,} levels deep, more than a JSON reader follows", line=text.count("\n", 0, at) + 1
        ) from None


_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')


def deepest_nesting(text: str) -> tuple[int, int]:
    """(the deepest nesting of lists and objects in JSON ``text``, where it is first reached).

    >>> deepest_nesting('{"a": [[1], "]]"]}')
    (3, 7)
    """
    depth = deepest = at = 0
    for match in _TOKENS.finditer(text):
        token = match.group()
        if token in "[{":
            depth += 1
            if depth > deepest:
                deepest, at = depth, match.start()
        elif token in "]}":
            depth -= 1
    return deepest, at


def load_json(path: str | Path, *, unique_keys: bool = True) -> Any:
    """:func:`read_text` then :func:`parse_json`."""
    return parse_json(path, read_text(path), unique_keys=unique_keys)


def line_of_key(text: str, key: str, occurrence: int = 1) -> int | None:
    """1-based line of the ``occurrence``-th appearance of ``"key":`` in JSON ``text``.

    Tries both the raw and the ASCII-escaped spelling of the key (GPT-2's encoder.json escapes
    non-ASCII). Returns None when the key cannot be found (exotic escaping).
    """
    for spelling in dict.fromkeys((json.dumps(key, ensure_ascii=False), json.dumps(key))):
        pos = -1
        for _ in range(occurrence):
            pos = _find_key(text, spelling, pos + 1)
            if pos < 0:
                break
        if pos >= 0:
            return text.count("\n", 0, pos) + 1
    return None


def _find_key(text: str, spelling: str, start: int) -> int:
    """Position of ``spelling`` used as an object key (followed by optional spaces and ``:``)."""
    while True:
        pos = text.find(spelling, start)
        if pos < 0:
            return -1
        rest = text[pos + len(spelling) : pos + len(spelling) + 64].lstrip()
        if rest.startswith(":"):
            return pos
        start = pos + 1
