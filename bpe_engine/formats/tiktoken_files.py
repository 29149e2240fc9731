"""tiktoken's ``.tiktoken`` rank files: one ``BASE64(token bytes) RANK`` per line.

A rank is both the token's id and its merge priority: tiktoken encodes by repeatedly joining the
adjacent pair whose *concatenated bytes* have the lowest rank. A byte-level table must therefore
hold all 256 single bytes, or some text cannot be encoded at all; a table that lacks them is
rejected here with the missing bytes named, rather than failing later on the first odd character.
Ranks follow :mod:`bpe_engine.token_ids` (0 to ``MAX_TOKEN_ID``, distinct). A gap in the ranks is
only right where a special token takes the id (p50k_base's rank file skips 50256, which is
``<|endoftext|>``): :func:`rank_gaps` finds the others once the specials are known, and the
loader says so.

>>> tiktoken_text({b"a": 0, b" the": 1})
'YQ== 0\\nIHRoZQ== 1\\n'
>>> parse_tiktoken("x.tiktoken", "YQ== 0\\nIHRoZQ== 1\\n", require_all_bytes=False)
{b'a': 0, b' the': 1}
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Iterable, Mapping
from pathlib import Path

from ..atomic import atomic_write_text
from ..core.json_files import read_text
from ..errors import TokenizerFileError
from ..token_ids import check_file_id, id_problem


def read_tiktoken(path: str | Path, *, require_all_bytes: bool = True) -> dict[bytes, int]:
    """Load a ``.tiktoken`` file as ``{token bytes: rank}``."""
    return parse_tiktoken(path, read_text(path), require_all_bytes=require_all_bytes)


def parse_tiktoken(path: str | Path, text: str, *, require_all_bytes: bool = True) -> dict[bytes, int]:
    """Parse rank-file ``text``; every malformed line is an error naming its line number."""
    ranks: dict[bytes, int] = {}
    rank_line: dict[int, int] = {}
    token_line: dict[bytes, int] = {}
    for number, raw in enumerate(text.split("\n"), start=1):
        line = raw.strip()
        if not line:
            continue
        fields = line.split()
        if len(fields) != 2:
            raise TokenizerFileError(
                path, f"expected 'BASE64 RANK' (two fields), found {len(fields)} in {_short(line)}", line=number
            )
        encoded, rank_text = fields
        try:
            token = base64.b64decode(encoded, validate=True)
        except (binascii.Error, ValueError):
            raise TokenizerFileError(path, f"bad base64 token {_short(encoded)}", line=number) from None
        if not token:
            raise TokenizerFileError(path, "empty token (base64 of zero bytes)", line=number)
        try:
            rank = int(rank_text)
        except ValueError:
            raise TokenizerFileError(path, f"rank {_short(rank_text)} is not an integer", line=number) from None
        if id_problem(rank) is not None:
            check_file_id(path, rank, what=f"token {_short(encoded)}", line=number, kind="rank")
        if rank in rank_line:
            raise TokenizerFileError(
                path, f"duplicate rank {rank} (first on line {rank_line[rank]}); every token needs its own rank",
                line=number,
            )
        if token in token_line:
            raise TokenizerFileError(
                path, f"duplicate token {token!r} (first on line {token_line[token]}); each token may appear once",
                line=number,
            )
        rank_line[rank] = number
        token_line[token] = number
        ranks[token] = rank
    if require_all_bytes:
        check_all_single_bytes(path, ranks)
    return ranks


def rank_gaps(ranks: Mapping[bytes, int], special_ids: Iterable[int] = ()) -> list[int]:
    """Ids below the last rank that neither a rank nor a special token takes.

    Legitimate only where special tokens the file cannot name sit (p50k_base skips 50256 for
    ``<|endoftext|>``; a rank file saved from a model whose specials come first starts above 0),
    so a loader that finds some says so (:func:`rank_gap_note`) instead of staying silent.
    """
    top = max(ranks.values(), default=-1)
    taken = set(ranks.values()) | set(special_ids)
    if len(taken) > top and all(i in taken for i in range(top + 1)):
        return []
    return [i for i in range(top + 1) if i not in taken]


def rank_gap_note(path: str | Path, gaps: list[int]) -> str:
    """The note a loader shows for :func:`rank_gaps` (ids shown in ranges)."""
    runs: list[str] = []
    start = prev = gaps[0]
    for i in [*gaps[1:], None]:
        if i is not None and i == prev + 1:
            prev = i
            continue
        runs.append(str(start) if start == prev else f"{start}-{prev}")
        if i is not None:
            start = prev = i
    shown = ", ".join(runs[:4]) + (", ..." if len(runs) > 4 else "")
    return (
        f"{Path(path).name} has no rank for id(s) {shown} ({len(gaps):,} in all): a .tiktoken file cannot hold "
        "special tokens, which usually take such ids; load the directory it was saved in to get them "
        "(those ids cannot be decoded here)"
    )


def check_all_single_bytes(path: str | Path, ranks: Mapping[bytes, int]) -> None:
    """A byte-level table must rank every one of the 256 single bytes."""
    missing = [b for b in range(256) if bytes([b]) not in ranks]
    if missing:
        shown = ", ".join(f"0x{b:02X}" for b in missing[:8]) + (", ..." if len(missing) > 8 else "")
        raise TokenizerFileError(
            path,
            f"missing {len(missing)} of the 256 single bytes ({shown}); a byte-level rank table must "
            "contain every byte or some text cannot be encoded",
        )


def tiktoken_text(ranks: Mapping[bytes, int]) -> str:
    """Rank-file text, lines in rank order (as tiktoken's own files)."""
    return "".join(
        f"{base64.b64encode(token).decode('ascii')} {rank}\n"
        for token, rank in sorted(ranks.items(), key=lambda item: item[1])
    )


def write_tiktoken(path: str | Path, ranks: Mapping[bytes, int]) -> None:
    """Atomically write a ``.tiktoken`` file."""
    atomic_write_text(path, tiktoken_text(ranks))


def _short(text: str, limit: int = 40) -> str:
    return repr(text if len(text) <= limit else text[:limit] + "...")


__all__ = ["check_all_single_bytes", "rank_gap_note", "rank_gaps", "parse_tiktoken", "read_tiktoken", "tiktoken_text", "write_tiktoken"]
