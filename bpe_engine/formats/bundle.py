"""A saved tokenizer directory: every interoperable format plus ``bpe-explorer.json``.

``save_tokenizer`` writes, each file atomically:

* ``tokenizer.json`` -- always (Hugging Face; holds vocab, merges and specials in one file);
* ``vocab.json`` + ``merges.txt`` -- when every merge can be written in that format (no token
  with a space or line break; character-level models with raw whitespace cannot);
* ``NAME.tiktoken`` -- for byte-level models holding all 256 single bytes (ranks = ids);
* ``bpe-explorer.json`` -- last, a small versioned record of what the other files cannot say
  exactly (our pre-tokenizer name and regex, byte-level or not, specials), like minbpe's
  versioned ``.model`` header.

``load_saved`` reads ``bpe-explorer.json`` and ``tokenizer.json`` (or, failing that, vocab.json
+ merges.txt) back into the same :class:`BpeSpec`.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..atomic import atomic_write_text
from ..byte_table import CHAR_TO_BYTE
from ..errors import ConfigError, TokenizerFileError
from ..pretokenizers import PreTokenizer
from ._json import load_json
from .gpt2_files import load_gpt2_files, merges_text, merges_writable, write_vocab_json
from .hf_json import read_hf_json, write_hf_json
from .spec import BpeSpec, pretokenizer_from_settings, spec_from_tokenizer, split_specials_from_vocab
from .tiktoken_files import write_tiktoken

METADATA_FILE = "bpe-explorer.json"
FORMAT_NAME = "bpe-explorer"
FORMAT_VERSION = 1

# GPT-2 byte character -> the Latin-1 character of its byte: ``str.translate`` then
# ``encode("latin-1")`` maps a whole token to its bytes at C speed (100k tokens in milliseconds).
_TO_LATIN1 = {ord(c): b for c, b in CHAR_TO_BYTE.items()}


def save_tokenizer(
    tokenizer: Any, directory: str | Path, *, merge_counts: Sequence[int] | None = None
) -> list[Path]:
    """Save a BpeTokenizer (or a :class:`BpeSpec`) into ``directory``; returns the files written.

    ``merge_counts`` (the pair count of each merge when it was made, from training) is kept in
    bpe-explorer.json so ``bpe-explorer merges DIR`` can show it later.
    """
    if not isinstance(tokenizer, BpeSpec) and not hasattr(tokenizer, "merges"):
        return _save_wordpiece(tokenizer, Path(directory))
    spec = tokenizer if isinstance(tokenizer, BpeSpec) else spec_from_tokenizer(tokenizer)
    return save_spec(spec, directory, merge_counts=merge_counts)


def _save_wordpiece(tokenizer: Any, out: Path) -> list[Path]:
    """WordPiece models have no merges: their own package writes tokenizer.json and vocab.txt."""
    try:
        from .. import wordpiece
    except ImportError:  # pragma: no cover - the package ships with the engine
        wordpiece = None
    if wordpiece is None or not isinstance(tokenizer, wordpiece.WordPieceTokenizer):
        raise ConfigError(f"cannot save {type(tokenizer).__name__}: only BPE and WordPiece tokenizers can be saved")
    if out.exists() and not out.is_dir():
        raise TokenizerFileError(out, "exists and is not a directory; choose another --output")
    out.mkdir(parents=True, exist_ok=True)
    wordpiece.save_hf_json(tokenizer, out / "tokenizer.json")
    wordpiece.save_vocab_txt(tokenizer, out / "vocab.txt")
    return [out / "tokenizer.json", out / "vocab.txt"]


def save_spec(spec: BpeSpec, directory: str | Path, *, merge_counts: Sequence[int] | None = None) -> list[Path]:
    """Write every format ``spec`` fits (see module docstring), metadata last."""
    if merge_counts is not None and len(merge_counts) != len(spec.merges):
        raise ValueError(f"{len(merge_counts)} merge counts for {len(spec.merges)} merges")
    out = Path(directory)
    if out.exists() and not out.is_dir():
        raise TokenizerFileError(out, "exists and is not a directory; choose another --output")
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    files: dict[str, str | None] = {"tokenizer.json": "tokenizer.json", "vocab.json": None, "merges.txt": None, "tiktoken": None}

    write_hf_json(out / "tokenizer.json", spec)
    written.append(out / "tokenizer.json")
    merges_txt = merges_text(spec.merges) if merges_writable(spec.merges) else None
    if merges_txt is not None:
        write_vocab_json(out / "vocab.json", spec.full_vocab())
        atomic_write_text(out / "merges.txt", merges_txt)
        written += [out / "vocab.json", out / "merges.txt"]
        files["vocab.json"], files["merges.txt"] = "vocab.json", "merges.txt"
    ranks = tiktoken_ranks(spec)
    if ranks is not None:
        name = f"{_safe_file_stem(spec.name)}.tiktoken"
        write_tiktoken(out / name, ranks)
        written.append(out / name)
        files["tiktoken"] = name

    meta = metadata(spec, files)
    if merge_counts is not None:
        meta["merge_counts"] = [int(c) for c in merge_counts]
    atomic_write_text(out / METADATA_FILE, json.dumps(meta, ensure_ascii=False, indent=2) + "\n")
    written.append(out / METADATA_FILE)
    return written


def tiktoken_ranks(spec: BpeSpec) -> dict[bytes, int] | None:
    """``{token bytes: id}`` for a byte-level spec holding all 256 single bytes, else None.

    tiktoken treats a rank as merge priority, so the table is only written when ids grow with
    merge rank (every merge's result has a larger id than both halves), as our trainer assigns them.
    """
    if not spec.byte_level:
        return None
    ranks = {token.translate(_TO_LATIN1).encode("latin-1"): i for token, i in spec.vocab.items()}
    if len(ranks) != len(spec.vocab) or any(bytes([b]) not in ranks for b in range(256)):
        return None
    for left, right in spec.merges:
        new = spec.vocab[left + right]
        if new <= spec.vocab[left] or new <= spec.vocab[right]:
            return None
    return ranks


def metadata(spec: BpeSpec, files: dict[str, str | None]) -> dict[str, Any]:
    """The bpe-explorer.json record."""
    pre: PreTokenizer = spec.pre_tokenizer
    return {
        "format": FORMAT_NAME,
        "version": FORMAT_VERSION,
        "model": "bpe",
        "name": spec.name,
        "byte_level": spec.byte_level,
        "pre_tokenizer": {"name": pre.name, "pattern": pre.pattern},
        "special_tokens": dict(sorted(spec.special_tokens.items(), key=lambda item: item[1])),
        "unk_token": spec.unk_token,
        "rank_table": spec.rank_table,
        "vocab_size": len(spec.vocab) + len(spec.special_tokens),
        "merges": len(spec.merges),
        "files": files,
    }


def load_saved(directory: str | Path) -> BpeSpec:
    """Reload a directory written by :func:`save_spec`."""
    root = Path(directory)
    meta_path = root / METADATA_FILE
    meta = load_json(meta_path)
    _check_metadata(meta_path, meta)
    name = meta.get("name") if isinstance(meta.get("name"), str) else root.name
    pre_info = meta.get("pre_tokenizer") or {}
    pre = pretokenizer_from_settings(meta_path, pre_info.get("name"), pre_info.get("pattern"))
    specials = meta.get("special_tokens") or {}
    if not isinstance(specials, dict) or not all(isinstance(i, int) for i in specials.values()):
        raise TokenizerFileError(meta_path, "special_tokens must map token text to an integer id")

    if (root / "tokenizer.json").is_file():
        spec = read_hf_json(root / "tokenizer.json", name=name)
        vocab, merges = spec.full_vocab(), spec.merges
    elif (root / "vocab.json").is_file() and (root / "merges.txt").is_file():
        vocab, merges = load_gpt2_files(root / "vocab.json", root / "merges.txt")
    else:
        raise TokenizerFileError(root, "holds bpe-explorer.json but neither tokenizer.json nor vocab.json + merges.txt")
    for token, i in specials.items():
        if vocab.get(token, i) != i:
            raise TokenizerFileError(meta_path, f"special token {token!r} has id {i} here but {vocab[token]} in the vocab")
    spec = BpeSpec(
        name=name,
        vocab=split_specials_from_vocab(vocab, specials),
        merges=list(merges),
        pre_tokenizer=pre,
        byte_level=bool(meta.get("byte_level", True)),
        special_tokens=dict(specials),
        unk_token=meta.get("unk_token"),
        rank_table=bool(meta.get("rank_table", False)),
    )
    spec.validate(meta_path)  # the specials from the metadata may differ from the file's added tokens
    return spec


def load_merge_counts(directory: str | Path) -> list[int] | None:
    """The training counts saved beside the merges, or None (not a saved directory, or no counts)."""
    meta_path = Path(directory) / METADATA_FILE
    if not meta_path.is_file():
        return None
    meta = load_json(meta_path)
    _check_metadata(meta_path, meta)
    counts = meta.get("merge_counts")
    if counts is None:
        return None
    if not isinstance(counts, list) or not all(isinstance(c, int) and not isinstance(c, bool) for c in counts):
        raise TokenizerFileError(meta_path, "merge_counts must be a list of integers")
    return counts


def _check_metadata(path: Path, meta: Any) -> None:
    if not isinstance(meta, dict) or meta.get("format") != FORMAT_NAME:
        raise TokenizerFileError(path, f"not a {FORMAT_NAME} metadata file (\"format\" should be {FORMAT_NAME!r})")
    version = meta.get("version")
    if not isinstance(version, int) or version < 1:
        raise TokenizerFileError(path, f"bad version {version!r}; expected an integer >= 1")
    if version > FORMAT_VERSION:
        raise TokenizerFileError(
            path, f"written by a newer bpe-explorer (format version {version}, this one reads {FORMAT_VERSION}); upgrade"
        )
    if meta.get("model", "bpe") != "bpe":
        raise TokenizerFileError(path, f"model {meta.get('model')!r} is not a BPE model")


def _safe_file_stem(name: str) -> str:
    stem = "".join(c if c.isalnum() or c in "-_." else "_" for c in name).strip("._")
    return stem or "tokenizer"


__all__ = ["FORMAT_VERSION", "METADATA_FILE", "load_merge_counts", "load_saved", "metadata", "save_spec", "save_tokenizer", "tiktoken_ranks"]
