r"""Hugging Face ``tokenizer.json`` for BPE models: write one HF loads with our exact ids, read one back.

Writing maps our pipeline onto HF's stages:

* a regex pre-tokenizer becomes ``Split(Regex, Isolated)`` followed, for byte-level models, by
  ``ByteLevel(use_regex=False)``. HF's own ``ByteLevel(use_regex=True)`` runs the *original*
  GPT-2 regex (:data:`~bpe_engine.pretokenizers.HF_GPT2`), which chunks some whitespace differently
  from tiktoken's; writing our regex explicitly makes HF cut exactly our pieces. Only the
  ``hf-gpt2`` pre-tokenizer is written as plain ``ByteLevel(use_regex=True)``.
  Oniguruma (HF's regex engine) reads ``X{1,3}+`` as "``X{1,3}`` repeated", not as a possessive
  interval, so cl100k's ``\p{N}{1,3}+`` would glue long digit runs together; such intervals are
  written as the equivalent atomic group ``(?>X{1,3})`` and turned back on reading.
* ``whitespace`` (``▁``) becomes the normaliser ``Prepend("▁") + Replace(" ", "▁")`` and
  ``Split("▁", MergedWithNext)``: HF's ``Metaspace`` skips the prepended ``▁`` when the text
  already starts with one (a leading space), which would give other pieces. ``end-of-word`` becomes
  ``WhitespaceSplit`` with the model's ``end_of_word_suffix="</w>"``; ``none`` writes no splitter.
* a tiktoken rank table (a reference such as cl100k) is written with ``ignore_merges: true``, HF's
  name for tiktoken's "a piece that is a token stays whole"; reading such a file gives a rank
  table again (ids = ranks), which is how these files are made (converted from tiktoken).
* special tokens are ``added_tokens`` (``special: true``, not normalised) and also listed in the
  model vocabulary, as HF's own trainer writes them, so HF keeps their ids.

Reading accepts what HF writes for BPE (merges as ``"a b"`` strings or ``["a", "b"]`` pairs) and
reads a foreign ``Metaspace`` as ``whitespace`` (HF then differs from us only on text starting
with a space), and refuses, with the reason, the stages we cannot reproduce (normalisers, ``add_prefix_space``,
``byte_fallback``, subword prefixes) rather than loading a tokenizer that silently gives other ids.

The stage mapping itself (pre-tokenizers, normaliser, decoders, the Oniguruma rewrite) is
:mod:`~bpe_engine.formats.hf_stages`, shared with the WordPiece files; this module writes and
reads the whole file: added tokens, vocabulary, merges and the checks that they agree.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..atomic import atomic_write_text
from ..errors import ConfigError, TokenizerFileError
from ..pretokenizers import END_OF_WORD_SUFFIX
from .gpt2_files import check_agreement, validate_vocab
from .hf_stages import (
    BUILTIN_PATTERNS,
    MARKER_NORMALIZER,
    MARKER_NORMALIZERS,
    MARKER_SPLIT,
    decoder_json,
    from_onig_pattern,
    pre_tokenizer_json,
    read_pre_tokenizer,
    stages_of,
)
from .spec import BpeSpec, split_specials_from_vocab

# --- writing --------------------------------------------------------------------------------------


def hf_json_dict(spec: BpeSpec) -> dict[str, Any]:
    """The tokenizer.json object for ``spec`` (see the module docstring for the mapping)."""
    pre = spec.pre_tokenizer
    return {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": [
            {
                "id": i,
                "content": token,
                "single_word": False,
                "lstrip": False,
                "rstrip": False,
                "normalized": False,
                "special": True,
            }
            for token, i in sorted(spec.special_tokens.items(), key=lambda item: item[1])
        ],
        "normalizer": _normalizer_json(spec),
        "pre_tokenizer": pre_tokenizer_json(pre, spec.byte_level),
        "post_processor": None,
        "decoder": decoder_json(pre, spec.byte_level),
        "model": {
            "type": "BPE",
            "dropout": None,
            "unk_token": spec.unk_token,
            "continuing_subword_prefix": None,
            "end_of_word_suffix": pre.end_of_word_suffix,
            "fuse_unk": False,
            "byte_fallback": False,
            "ignore_merges": spec.rank_table,
            "vocab": dict(sorted(spec.full_vocab().items(), key=lambda item: item[1])),
            "merges": [[left, right] for left, right in spec.merges],
        },
    }


NFC_NORMALIZER = {"type": "NFC"}


def _normalizer_json(spec: BpeSpec) -> dict[str, Any] | None:
    """The ``▁`` marker stages for ``whitespace``, HF's ``NFC`` for a model that normalizes first."""
    marker = MARKER_NORMALIZER if spec.pre_tokenizer.space_marker is not None else None
    if spec.normalizer is None:
        return marker
    if marker is not None:  # no base has both: ▁ models are ours, trained without a normal form
        raise ConfigError("a model with the ▁ marker and a Unicode normal form has no tokenizer.json here")
    return dict(NFC_NORMALIZER)


def hf_json_text(spec: BpeSpec) -> str:
    """tokenizer.json text: indented like HF's pretty output, one vocab entry / merge per line.

    ``json.dumps(indent=...)`` falls back to the pure-Python encoder (seconds for cl100k), so the
    two big tables -- the last keys of the last object -- are joined from C-encoded strings and
    appended to the indented rest.
    """
    data = hf_json_dict(spec)
    vocab, merges = data["model"].pop("vocab"), data["model"].pop("merges")
    head = json.dumps(data, ensure_ascii=False, indent=2)
    closing = "\n  }\n}"
    assert head.endswith(closing)  # "model" is the last key and is not empty
    enc = _encode_str
    vocab_text = "{\n" + ",\n".join(f"      {enc(t)}: {i}" for t, i in vocab.items()) + "\n    }" if vocab else "{}"
    merges_text = "[\n" + ",\n".join(f"      [{enc(a)}, {enc(b)}]" for a, b in merges) + "\n    ]" if merges else "[]"
    return f'{head[: -len(closing)]},\n    "vocab": {vocab_text},\n    "merges": {merges_text}{closing}\n'


_encode_str = json.encoder.encode_basestring  # C speed-up, same escaping as ensure_ascii=False


def write_hf_json(path: str | Path, spec: BpeSpec) -> None:
    """Atomically write ``tokenizer.json``."""
    atomic_write_text(path, hf_json_text(spec))


# --- reading --------------------------------------------------------------------------------------


def read_hf_json(path: str | Path, *, name: str | None = None) -> BpeSpec:
    """Load a BPE ``tokenizer.json`` as a :class:`BpeSpec` (``name`` defaults to the folder name)."""
    from ._json import load_json

    data = load_json(path)
    return hf_spec_from_dict(path, data, name=name or _default_name(path))


def hf_spec_from_dict(path: str | Path, data: Any, *, name: str) -> BpeSpec:
    """Validate a parsed tokenizer.json object and turn it into a spec."""
    if not isinstance(data, dict) or not isinstance(data.get("model"), dict):
        raise TokenizerFileError(path, "not a Hugging Face tokenizer.json (no \"model\" object)")
    model = data["model"]
    kind = model.get("type")
    if kind is None and "merges" in model:
        kind = "BPE"  # very old files omit the type
    if kind != "BPE":
        raise TokenizerFileError(
            path, f"model type {kind!r} is not a BPE model; this loader reads BPE tokenizer.json files only"
        )
    _refuse_unsupported(path, data, model)
    # HF's own GPT-2/RoBERTa files write "" for "no suffix".
    byte_level, pre = read_pre_tokenizer(path, data.get("pre_tokenizer"), model.get("end_of_word_suffix") or None)
    if (data.get("normalizer") in MARKER_NORMALIZERS) != (MARKER_SPLIT in stages_of(data.get("pre_tokenizer"))):
        raise TokenizerFileError(path, "the Prepend('▁') + Replace(' ', '▁') normaliser goes with Split('▁') only")

    raw_vocab = model.get("vocab")
    if not isinstance(raw_vocab, dict):
        raise TokenizerFileError(path, "model.vocab must be an object mapping token -> id")
    full_vocab = validate_vocab(path, raw_vocab)
    specials = _read_added_tokens(path, data.get("added_tokens") or [], full_vocab)
    merges = _read_merges(path, model.get("merges"))
    check_agreement(path, full_vocab, merges, vocab_name="model.vocab")
    unk = model.get("unk_token")
    if unk is not None and unk not in full_vocab:
        raise TokenizerFileError(path, f"model.unk_token {unk!r} is not in model.vocab")
    spec = BpeSpec(
        name=name,
        vocab=split_specials_from_vocab(full_vocab, specials),
        merges=merges,
        pre_tokenizer=pre,
        byte_level=byte_level,
        special_tokens=specials,
        unk_token=unk,
        rank_table=bool(model.get("ignore_merges")),
        normalizer="NFC" if data.get("normalizer") == NFC_NORMALIZER else None,
    )
    spec.validate(path)
    return spec


def plain_bpe_spec(path: str | Path, data: Any, *, name: str, hf: Any) -> BpeSpec | None:
    """The spec of a tokenizer.json that :class:`~bpe_engine.bpe.model.BpeTokenizer` runs *exactly*
    as Hugging Face does, else None (then the general :mod:`bpe_engine.hf` pipeline runs it).

    ``data`` was already validated by the general loader, which built ``hf`` from it. Besides what
    :func:`hf_spec_from_dict` accepts, this needs: no post-processor adding tokens, no truncation or
    padding, no Metaspace (read here as ``whitespace``, which differs on a leading space), Split
    regexes that are built-in patterns (Oniguruma and ``regex`` read those alike), and added tokens
    that are plain special tokens with the ids HF gives them.
    """
    model = data.get("model") or {}
    post = data.get("post_processor")
    if model.get("type", "BPE") != "BPE" or model.get("dropout") or data.get("truncation") or data.get("padding"):
        return None
    if post is not None and not (isinstance(post, dict) and post.get("type") == "ByteLevel"):
        return None
    if data.get("normalizer") == NFC_NORMALIZER:
        return None  # HF normalizes between added tokens, our NFC the whole text: the pipeline is exact
    for stage in stages_of(data.get("pre_tokenizer")):
        kind = stage.get("type") if isinstance(stage, dict) else None
        if kind == "Metaspace":
            return None
        if kind == "Split" and stage != MARKER_SPLIT:
            regex_text = (stage.get("pattern") or {}).get("Regex")
            if regex_text is None or from_onig_pattern(regex_text) not in BUILTIN_PATTERNS:
                return None
    hf_ids = {t.content: t.id for t in hf.pipeline.added.tokens}
    for entry in data.get("added_tokens") or []:
        plain = entry.get("special") and not entry.get("normalized") and not (
            entry.get("lstrip") or entry.get("rstrip") or entry.get("single_word")
        )
        if not plain or hf_ids.get(entry.get("content")) != entry.get("id"):
            return None
    try:
        return hf_spec_from_dict(path, data, name=name)
    except TokenizerFileError:
        return None


def _refuse_unsupported(path: str | Path, data: Mapping[str, Any], model: Mapping[str, Any]) -> None:
    """Stages that would change ids and that our pipeline does not have."""
    if data.get("normalizer") is not None and data["normalizer"] not in (*MARKER_NORMALIZERS, NFC_NORMALIZER):
        kind = data["normalizer"].get("type") if isinstance(data["normalizer"], dict) else data["normalizer"]
        raise TokenizerFileError(path, f"normalizer {kind!r} is not supported; only files without a normalizer load")
    if model.get("continuing_subword_prefix"):
        raise TokenizerFileError(path, "model.continuing_subword_prefix is not supported by this BPE loader")
    if model.get("byte_fallback"):
        raise TokenizerFileError(path, "model.byte_fallback (SentencePiece-style <0x..> tokens) is not supported")
    suffix = model.get("end_of_word_suffix") or None
    if suffix not in (None, END_OF_WORD_SUFFIX):
        raise TokenizerFileError(path, f"end_of_word_suffix {suffix!r} is not supported; only {END_OF_WORD_SUFFIX!r}")


def _read_added_tokens(path: str | Path, added: Any, vocab: Mapping[str, int]) -> dict[str, int]:
    """Every added token is a special token for us: matched whole, before pre-tokenization."""
    if not isinstance(added, list):
        raise TokenizerFileError(path, "added_tokens must be a list")
    specials: dict[str, int] = {}
    for index, entry in enumerate(added):
        if not isinstance(entry, dict) or not isinstance(entry.get("content"), str) or not isinstance(entry.get("id"), int):
            raise TokenizerFileError(path, f"added_tokens[{index}] needs a string 'content' and an integer 'id'")
        token, i = entry["content"], entry["id"]
        if token in vocab and vocab[token] != i:
            raise TokenizerFileError(path, f"added token {token!r} has id {i} but model.vocab gives it {vocab[token]}")
        specials[token] = i
    return specials


def _read_merges(path: str | Path, merges: Any) -> list[tuple[str, str]]:
    if not isinstance(merges, list):
        raise TokenizerFileError(path, "model.merges must be a list")
    if {type(m) for m in merges} <= {list} and {len(m) for m in merges} <= {2}:
        tokens = {p for m in merges for p in m}
        if {type(p) for p in tokens} <= {str} and "" not in tokens:
            return [(a, b) for a, b in merges]  # the common, well-formed case at comprehension speed
    out: list[tuple[str, str]] = []
    for rank, item in enumerate(merges):
        if isinstance(item, str):
            parts = item.split(" ")
        elif isinstance(item, list) and all(isinstance(p, str) for p in item):
            parts = item
        else:
            raise TokenizerFileError(path, f"model.merges[{rank}] must be \"LEFT RIGHT\" or [LEFT, RIGHT]")
        if len(parts) != 2 or not parts[0] or not parts[1]:
            raise TokenizerFileError(path, f"model.merges[{rank}] = {item!r} does not hold exactly two tokens")
        out.append((parts[0], parts[1]))
    return out


def _default_name(path: str | Path) -> str:
    p = Path(path)
    return p.parent.name if p.name == "tokenizer.json" and p.parent.name else p.stem


__all__ = ["hf_json_dict", "hf_json_text", "hf_spec_from_dict", "plain_bpe_spec", "read_hf_json", "write_hf_json"]
