"""GPT-2's two-file format: ``vocab.json`` (token -> id) and ``merges.txt`` (one merge per line).

``merges.txt`` optionally starts with ``#version: 0.2``; every other non-empty line is
``left right`` -- exactly two tokens separated by one space, in rank order. Tokens are in the
model alphabet (``Ġthe`` for byte-level), so a token can never contain a space; a line with more
or fewer fields means the file is corrupt or was written from a character-level model that kept
raw spaces.

>>> merges_text([("Ġ", "t"), ("h", "e")])
'#version: 0.2\\nĠ t\\nh e\\n'
>>> parse_merges("m.txt", "#version: 0.2\\nĠ t\\nh e\\n")
[('Ġ', 't'), ('h', 'e')]

The two files must agree: both halves of a merge and the token it makes must be in the
vocabulary. :func:`check_agreement` says which merge (and which line) breaks that.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import cast

from ..atomic import atomic_write_text
from ..core.json_files import line_of_key, parse_json, read_text
from ..errors import TokenizerFileError
from ..token_ids import check_file_id, id_problem

MERGES_HEADER = "#version: 0.2"


# --- vocab.json -----------------------------------------------------------------------------------
def read_vocab_json(path: str | Path) -> dict[str, int]:
    """Load ``vocab.json``; ids must be distinct non-negative integers."""
    text = read_text(path)
    return parse_vocab(path, text)


def parse_vocab(path: str | Path, text: str) -> dict[str, int]:
    """Validate the parsed object of a vocab.json ``text`` (see :func:`read_vocab_json`)."""
    data = parse_json(path, text)
    if not isinstance(data, dict):
        raise TokenizerFileError(path, f"expected a JSON object mapping token -> id, found {type(data).__name__}", line=1)
    return validate_vocab(path, data, text)


def validate_vocab(path: str | Path, data: Mapping[str, object], text: str = "") -> dict[str, int]:
    """Check every id by the rules of :mod:`bpe_engine.token_ids` (an integer from 0 to
    ``MAX_TOKEN_ID``, distinct); ``text`` (the raw JSON) locates errors."""
    seen: dict[int, str] = {}
    vocab: dict[str, int] = {}
    for token, value in data.items():
        if id_problem(value) is not None:
            check_file_id(path, value, what=f"token {token!r}", line=line_of_key(text, token))  # raises, naming the line
        token_id = cast(int, value)  # id_problem found nothing wrong: an int in range
        if token_id in seen:
            raise TokenizerFileError(
                path,
                f"duplicate id {token_id}: used by {seen[token_id]!r} and {token!r}; every token needs its own id",
                line=line_of_key(text, token),
            )
        seen[token_id] = token
        vocab[token] = token_id
    return vocab


def vocab_json_text(vocab: Mapping[str, int]) -> str:
    """vocab.json text, ordered by id (as GPT-2's encoder.json), non-ASCII kept readable."""
    ordered = dict(sorted(vocab.items(), key=lambda item: item[1]))
    return json.dumps(ordered, ensure_ascii=False, indent=None) + "\n"


def write_vocab_json(path: str | Path, vocab: Mapping[str, int]) -> None:
    """Atomically write ``vocab.json``."""
    atomic_write_text(path, vocab_json_text(vocab))


# --- merges.txt -----------------------------------------------------------------------------------
def read_merges_txt(path: str | Path) -> list[tuple[str, str]]:
    """Load ``merges.txt`` in rank order."""
    return parse_merges(path, read_text(path))


def parse_merges(path: str | Path, text: str) -> list[tuple[str, str]]:
    """Parse merges ``text``; a line without exactly two space-separated tokens is an error."""
    merges: list[tuple[str, str]] = []
    seen: dict[tuple[str, str], int] = {}
    for number, raw in enumerate(text.split("\n"), start=1):
        line = raw[:-1] if raw.endswith("\r") else raw
        if not line or (number == 1 and line.startswith("#version")):
            continue
        parts = line.split(" ")
        if len(parts) != 2 or not parts[0] or not parts[1]:
            raise TokenizerFileError(
                path,
                f"expected 'LEFT RIGHT' (two tokens, one space), found {len(parts)} field(s) in {line!r}; "
                "tokens may not contain spaces (byte-level models write a space as 'Ġ')",
                line=number,
            )
        pair = (parts[0], parts[1])
        if pair in seen:
            raise TokenizerFileError(path, f"merge {line!r} repeats line {seen[pair]}", line=number)
        seen[pair] = number
        merges.append(pair)
    return merges


def merges_text(merges: Sequence[tuple[str, str]]) -> str:
    """merges.txt text with the ``#version: 0.2`` header HF and GPT-2 tools expect.

    Written in one join and checked by counting: exactly one space per line and no stray line
    breaks means every token was writable (a per-token check costs seconds on 100k merges).
    """
    body = "\n".join(f"{left} {right}" for left, right in merges)
    if body.count(" ") != len(merges) or body.count("\n") != max(len(merges) - 1, 0) or "\r" in body or any(
        not left or not right for left, right in merges
    ):
        for left, right in merges:
            if not (merge_is_writable(left) and merge_is_writable(right)):
                raise TokenizerFileError(
                    "merges.txt",
                    f"cannot write merge ({left!r}, {right!r}): merges.txt tokens must be non-empty and contain "
                    "no space or line break (save as tokenizer.json instead)",
                )
    return f"{MERGES_HEADER}\n{body}\n" if merges else f"{MERGES_HEADER}\n"


def merge_is_writable(token: str) -> bool:
    """Whether ``token`` survives a merges.txt round trip (no space, no line break, non-empty)."""
    return bool(token) and not any(c in token for c in " \n\r")


def merges_writable(merges: Sequence[tuple[str, str]]) -> bool:
    """Whether every merge survives a merges.txt round trip (see :func:`merges_text`)."""
    try:
        merges_text(merges)
    except TokenizerFileError:
        return False
    return True


def write_merges_txt(path: str | Path, merges: Sequence[tuple[str, str]]) -> None:
    """Atomically write ``merges.txt``."""
    atomic_write_text(path, merges_text(merges))


# --- both together --------------------------------------------------------------------------------
def check_agreement(
    merges_path: str | Path,
    vocab: Mapping[str, int],
    merges: Sequence[tuple[str, str]],
    *,
    source_text: str | None = None,
    vocab_name: str = "vocab.json",
) -> None:
    """Every merge's halves and result must be in the vocabulary.

    The error names the merge's line in ``merges_path`` (found from ``source_text`` when given,
    otherwise counted assuming the usual header) so the user can see where the files part ways.
    """
    needed = {left for left, _ in merges} | {right for _, right in merges} | {left + right for left, right in merges}
    if needed <= vocab.keys():
        return  # the common case, checked with set operations
    lines = _merge_line_numbers(source_text) if source_text is not None else None
    for rank, (left, right) in enumerate(merges):
        for role, token in (("left half", left), ("right half", right), ("result", left + right)):
            if token not in vocab:
                line = lines[rank] if lines is not None and rank < len(lines) else None
                raise TokenizerFileError(
                    merges_path,
                    f"merge {left!r} + {right!r} (rank {rank}): its {role} {token!r} is not in {vocab_name}; "
                    "the vocabulary and merges files do not belong together",
                    line=line,
                )


def load_gpt2_files(vocab_path: str | Path, merges_path: str | Path) -> tuple[dict[str, int], list[tuple[str, str]]]:
    """Read and cross-check a ``vocab.json`` + ``merges.txt`` pair."""
    vocab = read_vocab_json(vocab_path)
    text = read_text(merges_path)
    merges = parse_merges(merges_path, text)
    check_agreement(merges_path, vocab, merges, source_text=text, vocab_name=Path(vocab_path).name)
    return vocab, merges


def _merge_line_numbers(text: str) -> list[int]:
    """1-based line number of each merge in ``text`` (mirrors :func:`parse_merges`' skipping)."""
    out = []
    for number, raw in enumerate(text.split("\n"), start=1):
        line = raw[:-1] if raw.endswith("\r") else raw
        if line and not (number == 1 and line.startswith("#version")):
            out.append(number)
    return out


__all__ = [
    "MERGES_HEADER",
    "check_agreement",
    "load_gpt2_files",
    "merge_is_writable",
    "merges_writable",
    "merges_text",
    "parse_merges",
    "parse_vocab",
    "read_merges_txt",
    "read_vocab_json",
    "validate_vocab",
    "vocab_json_text",
    "write_merges_txt",
    "write_vocab_json",
]
