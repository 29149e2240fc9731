"""A saved tokenizer directory: every interoperable format plus ``bpe-explorer.json``.

``save_tokenizer`` writes, into a fresh directory that then replaces the target in one step
(:mod:`bpe_engine.formats.saved_dir` says what a reader can rely on):

* ``tokenizer.json`` -- Hugging Face; holds vocab, merges and specials in one file. Always, but
  for a model whose ``</w>`` is a separate symbol, which HF's BPE cannot express;
* ``vocab.json`` + ``merges.txt`` -- when every merge can be written in that format (no token
  with a space or line break: byte-level models always can; a character-level model over raw
  spaces cannot, nor one with a merge across a line break); :func:`skipped_formats` says which
  merge kept a format out;
* ``NAME.tiktoken`` -- for byte-level models holding all 256 single bytes (ranks = ids);
* ``bpe-explorer.json`` -- last, a small versioned record of what the other files cannot say
  exactly (our pre-tokenizer name and regex, byte-level or not, specials) and the manifest (size
  and sha256 of every other file), like minbpe's versioned ``.model`` header.

WordPiece models write ``vocab.txt`` (and ``tokenizer.json`` when their front end has one) the
same way. ``load_saved`` reads ``bpe-explorer.json`` and ``tokenizer.json`` (or, failing that,
vocab.json + merges.txt) back into the same :class:`BpeSpec`; every field of the record is
type-checked, and a wrong one is one error naming the file and the field.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from ..bpe.byte_table import CHAR_TO_BYTE
from ..display import visible_text
from ..errors import ConfigError, TokenizerFileError
from ..pretokenizers import PreTokenizer
from ..token_ids import check_file_id
from ..training.steps import MergeStep
from .gpt2_files import load_gpt2_files, merge_is_writable, merges_text, merges_writable, write_vocab_json
from .hf_json import read_hf_json, write_hf_json
from .saved_dir import FORMAT_NAME, METADATA_FILE, check_save_target, read_consistently, read_metadata, save_directory
from .spec import BpeSpec, pretokenizer_from_settings, spec_from_tokenizer, split_specials_from_vocab
from .tiktoken_files import write_tiktoken
from .transformers_files import Role, special_roles, write_transformers_files
from .training_log import LOG_FILE, counts_of, log_text, read_training_log

FORMAT_VERSION = 2
"""2: the record carries a manifest and the directory is replaced as a whole (1: neither)."""

# GPT-2 byte character -> the Latin-1 character of its byte: ``str.translate`` then
# ``encode("latin-1")`` maps a whole token to its bytes at C speed (100k tokens in milliseconds).
_TO_LATIN1 = {ord(c): b for c, b in CHAR_TO_BYTE.items()}


def save_tokenizer(
    tokenizer: Any, directory: str | Path, *, steps: Sequence[MergeStep] | None = None, name: str | None = None
) -> list[Path]:
    """Save a tokenizer (or a :class:`BpeSpec`) into ``directory`` in every format its model fits;
    returns the files written. ``name`` names it in the files (default: its own name; the app
    passes the directory's, so a model saved as ``app-sen`` is called ``app-sen`` when loaded).

    ``steps`` (the training's merges, each with its count and why) are kept in ``training.jsonl``
    (:mod:`.training_log`) so ``bpe-explorer merges DIR`` can show them later -- for WordPiece, whose
    vocab.txt keeps no merges, the only record of them.
    """
    if isinstance(tokenizer, BpeSpec):
        return save_spec(replace(tokenizer, name=name or tokenizer.name), directory, steps=steps)
    caps = tokenizer.capabilities
    if caps.replays_merges:
        spec = spec_from_tokenizer(tokenizer)
        return save_spec(replace(spec, name=name or spec.name), directory, steps=steps)
    if caps.family == "wordpiece":
        return _save_wordpiece(tokenizer, Path(directory), name or tokenizer.name, steps)
    if caps.explains == "unigram-choice":
        return _save_unigram(tokenizer, Path(directory), name or tokenizer.name)
    raise ConfigError(f"cannot save {tokenizer.name!r}: only BPE, WordPiece and SentencePiece Unigram tokenizers can be saved")


def _save_unigram(tokenizer: Any, out: Path, name: str) -> list[Path]:
    """A SentencePiece Unigram model: its ``.model`` bytes as read or trained, and its tokenizer.json."""
    from .hf_unigram import unigram_tokenizer_json
    from .unigram_dir import save_unigram_dir

    model = tokenizer.model
    pieces = list(zip(model.pieces, model.scores, strict=True))
    tokenizer_json = unigram_tokenizer_json(pieces, model.types, model.normalizer, unk_id=model.unk_id, byte_fallback=model.byte_fallback)
    return save_unigram_dir(out, name, model.data, tokenizer_json)


def _save_wordpiece(tokenizer: Any, out: Path, name: str, steps: Sequence[MergeStep] | None) -> list[Path]:
    """WordPiece models have no merges: their own package writes vocab.txt (and tokenizer.json)."""
    refused = ConfigError(f"cannot save {type(tokenizer).__name__}: only BPE and WordPiece tokenizers can be saved")
    try:
        from .. import wordpiece
    except ImportError:  # pragma: no cover - the package ships with the engine
        raise refused from None
    if not isinstance(tokenizer, wordpiece.WordPieceTokenizer):
        raise refused

    def write(fresh: Path) -> dict[str, Any]:
        written = wordpiece.save_wordpiece_dir(tokenizer, fresh)
        files = {p.name: p.name for p in written}
        if "tokenizer.json" in files:
            declared: dict[Role, str | None] = {"unk": tokenizer.unk_token, "cls": tokenizer.cls_token, "sep": tokenizer.sep_token}
            lowercase = tokenizer.normalizer is not None and tokenizer.normalizer.lowercase
            files.update(write_transformers_files(fresh, special_roles(tokenizer.special_tokens, declared), lowercase=lowercase))
        if steps:
            files[LOG_FILE] = _write_log(fresh, steps)
        return {"format": FORMAT_NAME, "version": FORMAT_VERSION, "model": "wordpiece", "name": name, "files": files}

    return save_directory(out, write)


def save_spec(
    spec: BpeSpec,
    directory: str | Path,
    *,
    steps: Sequence[MergeStep] | None = None,
    extra_files: Mapping[str, str] | None = None,
) -> list[Path]:
    """Write every format ``spec`` fits (see module docstring) as one atomic directory; ``steps``
    (the training's merges) go into training.jsonl; ``extra_files`` (name -> text: what a tool
    adds, such as a base's own settings) are written beside them, in the same save and manifest."""
    check_save_target(directory)  # before any work: a bad target fails fast

    def write(out: Path) -> dict[str, Any]:
        files: dict[str, str | None] = {"tokenizer.json": None, "vocab.json": None, "merges.txt": None, "tiktoken": None}
        if _hf_json_misses(spec) is None:
            write_hf_json(out / "tokenizer.json", spec)
            files["tokenizer.json"] = "tokenizer.json"
            files.update(write_transformers_files(out, special_roles(spec.special_tokens, {"unk": spec.unk_token})))
        merges_txt = merges_text(spec.merges) if merges_writable(spec.merges) else None
        if merges_txt is not None:
            from ..atomic import atomic_write_text

            write_vocab_json(out / "vocab.json", spec.full_vocab())
            atomic_write_text(out / "merges.txt", merges_txt)
            files["vocab.json"], files["merges.txt"] = "vocab.json", "merges.txt"
        ranks = tiktoken_ranks(spec)
        if ranks is not None:
            name = f"{_safe_file_stem(spec.name)}.tiktoken"
            write_tiktoken(out / name, ranks)
            files["tiktoken"] = name
        meta = metadata(spec, files)
        if steps:
            meta["files"][LOG_FILE] = _write_log(out, steps)
        from ..atomic import atomic_write_text

        for extra, text in (extra_files or {}).items():
            atomic_write_text(out / extra, text)
            meta["files"][extra] = extra
        return meta

    return save_directory(directory, write)


def skipped_formats(spec: BpeSpec) -> dict[str, str]:
    """Format -> why :func:`save_spec` leaves it out for ``spec`` (empty when all are written)."""
    out: dict[str, str] = {}
    hf_json = _hf_json_misses(spec)
    if hf_json is not None:
        out["tokenizer.json"] = hf_json
    if not merges_writable(spec.merges):
        left, right = next((a, b) for a, b in spec.merges if not (merge_is_writable(a) and merge_is_writable(b)))
        out["vocab.json + merges.txt"] = (
            f"merges.txt cannot hold a token with a space or line break, and merge ({visible_text(left)!r}, "
            f"{visible_text(right)!r}) has one (byte-level models never do); tokenizer.json holds every merge"
        )
    if tiktoken_ranks(spec) is None:
        out[".tiktoken"] = (
            "a rank file needs a byte-level model holding all 256 bytes, with ids growing with merge rank"
            if spec.byte_level
            else "a rank file needs a byte-level model"
        )
    return out


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
        "normalizer": spec.normalizer,
        "vocab_size": len(spec.vocab) + len(spec.special_tokens),
        "merges": len(spec.merges),
        "files": files,
    }


def load_saved(directory: str | Path) -> BpeSpec:
    """Reload a directory written by :func:`save_spec` (every file checked against the manifest)."""
    root = Path(directory)
    return read_consistently(root, lambda meta: _spec_from_metadata(root, meta))


def _spec_from_metadata(root: Path, meta: dict[str, Any]) -> BpeSpec:
    meta_path = root / METADATA_FILE
    model = _field(meta_path, meta, "model", str, "bpe")
    if model != "bpe":
        hint = " (load it with bpe_engine.formats.load_unigram_dir or registry.load_tokenizer)" if model == "unigram" else ""
        raise TokenizerFileError(meta_path, f"model {model!r} is not a BPE model{hint}")
    name = _field(meta_path, meta, "name", str, None) or root.name
    pre_info = _field(meta_path, meta, "pre_tokenizer", dict, {})
    pre_name = _field(meta_path, pre_info, "name", str, None, prefix="pre_tokenizer.")
    pattern = _field(meta_path, pre_info, "pattern", str, None, prefix="pre_tokenizer.")
    pre = pretokenizer_from_settings(meta_path, pre_name, pattern)
    specials = _specials(meta_path, _field(meta_path, meta, "special_tokens", dict, {}))
    unk_token = _field(meta_path, meta, "unk_token", str, None)
    byte_level = _field(meta_path, meta, "byte_level", bool, True)
    rank_table = _field(meta_path, meta, "rank_table", bool, False)
    normalizer = _field(meta_path, meta, "normalizer", str, None)
    if normalizer not in (None, "NFC"):
        raise TokenizerFileError(meta_path, f'field "normalizer" is {_json_repr(normalizer)}; expected "NFC" or null')

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
        byte_level=byte_level,
        special_tokens=specials,
        unk_token=unk_token,
        rank_table=rank_table,
        normalizer=normalizer,
    )
    spec.validate(meta_path)  # the specials from the metadata may differ from the file's added tokens
    return spec


def _write_log(out: Path, steps: Sequence[MergeStep]) -> str:
    from ..atomic import atomic_write_text

    atomic_write_text(out / LOG_FILE, log_text(steps))
    return LOG_FILE


def load_merge_counts(directory: str | Path) -> list[int] | None:
    """The training counts saved beside the merges, or None (not a saved directory, or no counts):
    from training.jsonl, or the "merge_counts" field of directories saved before it."""
    root = Path(directory)
    if not (root / METADATA_FILE).is_file():
        return None
    records = read_training_log(root)
    if records is not None:
        return counts_of(records)
    meta = read_metadata(root)
    counts = meta.get("merge_counts")
    if counts is None:
        return None
    if not isinstance(counts, list) or not all(isinstance(c, int) and not isinstance(c, bool) and c >= 0 for c in counts):
        raise TokenizerFileError(root / METADATA_FILE, 'field "merge_counts" must be a list of integers >= 0')
    return counts


def _field(path: Path, record: dict[str, Any], key: str, kind: type, default: Any, *, prefix: str = "") -> Any:
    """``record[key]`` if it has type ``kind`` (``null`` or absent gives ``default``); a wrong type
    is one error naming the file and the field -- the one validation layer of the record."""
    value = record.get(key)
    if value is None:
        return default
    if isinstance(value, kind) and not (kind is not bool and isinstance(value, bool)):
        return value
    expected = {str: "a string", bool: "true or false", dict: "an object", int: "an integer"}.get(kind, kind.__name__)
    raise TokenizerFileError(path, f'field "{prefix}{key}" is {_json_repr(value)}; expected {expected}')


def _specials(path: Path, specials: dict[str, Any]) -> dict[str, int]:
    for token, token_id in specials.items():
        if not token:
            raise TokenizerFileError(path, 'field "special_tokens" holds an empty token; a special token needs text')
        check_file_id(path, token_id, what=f'special token {token!r} (field "special_tokens")')
    return dict(specials)


def _json_repr(value: Any) -> str:
    import json

    text = json.dumps(value, ensure_ascii=True)
    return text if len(text) <= 40 else text[:37] + "..."


def _safe_file_stem(name: str) -> str:
    stem = "".join(c if c.isalnum() or c in "-_." else "_" for c in name).strip("._")
    return stem or "tokenizer"


__all__ = [
    "FORMAT_VERSION",
    "METADATA_FILE",
    "load_merge_counts",
    "load_saved",
    "metadata",
    "save_spec",
    "save_tokenizer",
    "skipped_formats",
    "tiktoken_ranks",
]


def _hf_json_misses(spec: BpeSpec) -> str | None:
    """Why tokenizer.json cannot hold ``spec`` (None when it can)."""
    if spec.pre_tokenizer.end_of_word == "separate":
        return (
            "HF's BPE has end_of_word_suffix (</w> attached to the last character) but no separate </w> symbol; "
            "bpe-explorer.json with vocab.json + merges.txt holds it all"
        )
    return None
