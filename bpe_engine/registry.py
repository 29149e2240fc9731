"""Find a tokenizer by name or path: the one place the app, the CLI and the comparisons resolve specs.

Accepted forms, tried in this order:

1. a reference name: ``gpt2``, ``r50k_base``, ``p50k_base``, ``cl100k_base``, ``o200k_base``, and
   ``bert-base-uncased`` (from :mod:`bpe_engine.wordpiece`, imported only when asked for);
2. a directory: one we saved (``bpe-explorer.json``), or any holding ``tokenizer.json``, or
   ``vocab.json`` + ``merges.txt``, or a WordPiece ``vocab.txt``, or exactly one ``*.tiktoken``;
3. a file: ``*.tiktoken``, ``tokenizer.json`` (any Hugging Face pipeline, through
   :func:`bpe_engine.hf.load_tokenizer_json`), ``vocab.json`` (with ``merges.txt`` beside it), ``vocab.txt``,
   a Mistral Tekken ``tekken*.json`` (:mod:`bpe_engine.formats.tekken`), a SentencePiece ``*.model`` (or
   Mistral's ``*.model.vN``; :func:`bpe_engine.sentencepiece.load_model`).

Before 2 and 3: a built-in of the catalogue (``tekken``, ``whisper``, ``mistral-v1`` ...; fetched
once by ``bpe-explorer models fetch``) or ``hf:ORG/NAME`` from a Hugging Face hub cache --
:func:`bpe_engine.catalog.locate` finds the file and its kind, and it loads like a file of that kind.

``vocab.json`` + ``merges.txt`` without our metadata are read as GPT-2 does them: byte-level with
the GPT-2 regex, tokens that are not byte strings (``<|endoftext|>``) as specials only when they are
not made by any merge and do not fit the byte alphabet. A ``NAME.tiktoken`` whose NAME is a
reference name gets that reference's regex and specials; any other rank file the GPT-2 regex.
"""

from __future__ import annotations

import difflib
import importlib
import os
import re
from pathlib import Path
from typing import Any

from .catalog.openai import REFERENCE_NAMES, reference_pre_tokenizer, reference_special_tokens
from .errors import BpeEngineError, TokenizerFileError
from .formats import load_gpt2_files, load_saved, read_hf_json, read_tiktoken
from .formats.bundle import METADATA_FILE
from .formats.spec import BpeSpec
from .formats.tiktoken_files import rank_gap_note, rank_gaps
from .pretokenizers import GPT2, PreTokenizer

BERT_NAME = "bert-base-uncased"
_FORMS = (
    "a reference name ({names}), a built-in ({builtins}; see 'bpe-explorer models'), hf:ORG/NAME from the "
    "Hugging Face cache, a directory saved by 'bpe-explorer train' or holding tokenizer.json, "
    "vocab.json + merges.txt or vocab.txt, or a .tiktoken / tokenizer.json / vocab.json / vocab.txt / tekken.json / SentencePiece .model file"
)
# Loaders in other engine modules, by file kind: (module, function, what the files are called).
_ENGINE_LOADERS: dict[str, tuple[str, str, str]] = {
    "tekken": ("bpe_engine.formats.tekken", "load_tekken", "Tekken JSON files"),
    "whisper": ("bpe_engine.formats.whisper", "load_whisper", "Whisper rank files"),
    "llama3": ("bpe_engine.formats.llama", "load_llama3", "Llama 3 rank files"),
    "llama4": ("bpe_engine.formats.llama", "load_llama4", "Llama 4 rank files"),
    "qwen": ("bpe_engine.formats.qwen", "load_qwen", "Qwen rank files"),
    "qwen3.5": ("bpe_engine.formats.qwen", "load_qwen3_5", "Qwen 3.5/3.6 rank files"),
    "sentencepiece": ("bpe_engine.sentencepiece", "load_model", "SentencePiece .model files"),
}


def available_tokenizers() -> list[str]:
    """Names :func:`load_tokenizer` accepts without a path, in the order pickers should show them."""
    names = list(REFERENCE_NAMES)
    if _wordpiece_attr("bert_base_uncased") is not None:
        names.append(BERT_NAME)
    return names


def load_tokenizer(spec: str | Path) -> Any:
    """Load the tokenizer ``spec`` names (see the module docstring for the accepted forms).

    Returns a :class:`~bpe_engine.bpe.model.BpeTokenizer` (or a WordPiece tokenizer for
    ``bert-base-uncased`` / ``vocab.txt``). Unknown specs and malformed files raise
    :class:`~bpe_engine.errors.BpeEngineError` subclasses whose message says what is accepted.
    """
    text = str(spec)
    if text in REFERENCE_NAMES:
        from .catalog.openai import load_reference

        return load_reference(text)
    if text == BERT_NAME:
        factory = _wordpiece_attr("bert_base_uncased")
        if factory is None:
            raise BpeEngineError(f"{BERT_NAME} needs the WordPiece engine, which this installation lacks")
        return factory()
    from .catalog import locate

    located = locate(text)
    if located is not None:
        tokenizer = _load_source(located.kind, located.path)
        tokenizer.name = located.name
        return tokenizer
    path = Path(text).expanduser()
    if path.is_dir():
        return _load_directory(path)
    if os.path.lexists(path):  # a file, or a name the one reader refuses in one line (a device, a pipe)
        return _load_file(path)
    raise _unknown(text)


def load_spec(path: str | Path) -> BpeSpec:
    """The :class:`BpeSpec` of a BPE directory or file (no model built; for inspection tools)."""
    p = Path(path)
    if p.is_dir():
        found = _directory_source(p)
        if found is None or found[0] in ("vocab.txt", "tiktoken"):
            raise TokenizerFileError(p, "holds no BPE vocab/merges files (tokenizer.json or vocab.json + merges.txt)")
        return _spec_from_source(*found)
    if p.name.endswith(".json"):
        kind = "vocab.json" if _is_vocab_json(p) else "tokenizer.json"
        return _spec_from_source(kind, p)
    raise TokenizerFileError(p, "not a BPE vocab/merges file")


# --- directories and files ------------------------------------------------------------------------
def _load_directory(path: Path) -> Any:
    found = _directory_source(path)
    if found is None:
        raise TokenizerFileError(
            path,
            "holds no tokenizer files; expected bpe-explorer.json, tokenizer.json, vocab.json + merges.txt, "
            "vocab.txt or one .tiktoken file",
        )
    return _load_source(*found)


def _directory_source(path: Path) -> tuple[str, Path] | None:
    """(kind, file) of the most faithful description a directory holds. A name that is there
    counts even when it is no regular file (a symlink to ``/dev/zero``): the one reader then says
    what it is, where skipping it would load another file without a word."""
    if _named(path / METADATA_FILE):
        return "saved", path
    if _named(path / "tokenizer.json"):
        return "tokenizer.json", path / "tokenizer.json"
    if _named(path / "vocab.json") and _named(path / "merges.txt"):
        return "vocab.json", path / "vocab.json"
    if _named(path / "vocab.txt"):
        return "vocab.txt", path / "vocab.txt"
    if _named(path / "tekken.json"):
        return "tekken", path / "tekken.json"
    rank_files = sorted(path.glob("*.tiktoken"))
    if len(rank_files) == 1:
        return "tiktoken", rank_files[0]
    return None


def _named(path: Path) -> bool:
    return os.path.lexists(path)


def _load_file(path: Path) -> Any:
    name = path.name
    if name.endswith(".tiktoken"):
        return _load_source("tiktoken", path)
    if name.endswith("vocab.txt"):
        return _load_source("vocab.txt", path)
    if name == "merges.txt":
        return _load_source("vocab.json", path.with_name("vocab.json"))
    if name.endswith(".json") and "tekken" in name:  # mistral_common's own test (is_tekken)
        return _load_source("tekken", path)
    if name.endswith(".json"):
        return _load_source("vocab.json" if _is_vocab_json(path) else "tokenizer.json", path)
    if _SENTENCEPIECE_FILE.search(name):
        return _load_source("sentencepiece", path)
    raise BpeEngineError(f"cannot tell the format of {str(path)!r}: expected {_forms()}")


# SentencePiece models: NAME.model, and Mistral's versioned NAME.model.v3 files.
_SENTENCEPIECE_FILE = re.compile(r"\.model(?:\.v\d+)?$")


def _is_vocab_json(path: Path) -> bool:
    """A GPT-2 vocab.json, by name, or by a merges.txt beside a file that is not tokenizer.json."""
    return path.name == "vocab.json" or (path.name != "tokenizer.json" and (path.parent / "merges.txt").is_file())


def _load_source(kind: str, path: Path) -> Any:
    if kind == "saved" and _saved_model(path) == "wordpiece":
        return _saved_wordpiece(path)
    if kind == "saved" and _saved_model(path) == "unigram":
        from .formats.unigram_dir import load_unigram_dir

        return load_unigram_dir(path)
    if kind in _ENGINE_LOADERS:
        module, function, files = _ENGINE_LOADERS[kind]
        try:
            loader = getattr(importlib.import_module(module), function)
        except (ImportError, AttributeError):
            raise TokenizerFileError(path, f"{files} need {module}, which this installation lacks") from None
        return loader(path)
    if kind == "tiktoken":
        return _tiktoken_tokenizer(path)
    if kind == "vocab.txt":
        loader = _wordpiece_attr("load_vocab_txt")
        if loader is None:
            raise TokenizerFileError(path, "WordPiece vocab.txt files need the WordPiece engine, which this installation lacks")
        return loader(path)
    if kind == "tokenizer.json":
        from .hf import load_tokenizer_json  # any HF pipeline; plain BPE files come back as BpeTokenizer

        return load_tokenizer_json(path)
    return _spec_from_source(kind, path).build()


def _saved_model(root: Path) -> str:
    """The ``model`` a saved directory's record names (``bpe`` when absent, as version 1 wrote)."""
    from .formats.saved_dir import read_metadata

    model = read_metadata(root).get("model", "bpe")
    return model if isinstance(model, str) else "bpe"


def _saved_wordpiece(root: Path) -> Any:
    """A WordPiece directory we saved: its tokenizer.json (or vocab.txt), checked against the manifest."""
    from .formats.saved_dir import read_consistently

    def load(meta: dict[str, Any]) -> Any:
        name = meta.get("name") if isinstance(meta.get("name"), str) else root.name
        if (root / "tokenizer.json").is_file():
            from .hf import load_tokenizer_json

            return load_tokenizer_json(root / "tokenizer.json", name=name)
        return _wordpiece_attr("load_vocab_txt")(root / "vocab.txt", name=name)

    return read_consistently(root, load)


def _spec_from_source(kind: str, path: Path) -> BpeSpec:
    if kind == "saved":
        return load_saved(path)
    if kind == "tokenizer.json":
        return read_hf_json(path)
    merges = path.with_name("merges.txt")
    if not merges.is_file():
        raise TokenizerFileError(path, "a vocab.json needs merges.txt in the same directory")
    vocab, merge_list = load_gpt2_files(path, merges)
    made = {left + right for left, right in merge_list}
    from .bpe.byte_table import is_byte_token_str

    specials = {t: i for t, i in vocab.items() if t not in made and len(t) > 1 and _looks_special(t, is_byte_token_str)}
    spec = BpeSpec(
        name=path.parent.name or path.stem,
        vocab={t: i for t, i in vocab.items() if t not in specials},
        merges=merge_list,
        pre_tokenizer=GPT2,
        byte_level=True,
        special_tokens=specials,
    )
    spec.validate(path)
    return spec


def _looks_special(token: str, is_byte_token_str: Any) -> bool:
    """``<|endoftext|>``-style tokens, or anything outside the byte alphabet."""
    return (token.startswith("<") and token.endswith(">")) or not is_byte_token_str(token)


def _tiktoken_tokenizer(path: Path) -> Any:
    from .bpe.model import BpeTokenizer

    stem = path.name[: -len(".tiktoken")]
    pre: PreTokenizer = GPT2
    specials: dict[str, int] = {}
    if stem in REFERENCE_NAMES:
        pre, specials = reference_pre_tokenizer(stem), reference_special_tokens(stem)
    ranks = read_tiktoken(path)
    tokenizer = BpeTokenizer.from_ranks(name=stem or path.name, mergeable_ranks=ranks, pre_tokenizer=pre, special_tokens=specials)
    gaps = rank_gaps(ranks, specials.values())
    if gaps:
        tokenizer.notes = (rank_gap_note(path, gaps),)
    return tokenizer


def _wordpiece_attr(name: str) -> Any:
    """``bpe_engine.wordpiece.<name>`` when that package exists and provides it, else None."""
    try:
        module = importlib.import_module("bpe_engine.wordpiece")
    except ImportError:
        return None
    return getattr(module, name, None)


def _unknown(text: str) -> BpeEngineError:
    """What a spec that names nothing gets: a path that is not there is "no such file or
    directory" (it printed the 11-line list of accepted kinds); a name close to a known one gets
    a suggestion; anything else the list of accepted kinds."""
    if os.sep in text or text.startswith((".", "~")) or Path(text).suffix in _FILE_SUFFIXES:
        return BpeEngineError(f"unknown tokenizer {text!r}: no such file or directory")
    from .catalog import BUILTIN_NAMES

    close = difflib.get_close_matches(text, [*available_tokenizers(), *BUILTIN_NAMES], n=2, cutoff=0.7)
    if close:
        return BpeEngineError(f"unknown tokenizer {text!r}; did you mean {' or '.join(close)}? ('bpe-explorer models' lists them all)")
    return BpeEngineError(f"unknown tokenizer {text!r}: expected {_forms()}")


_FILE_SUFFIXES = frozenset({".json", ".txt", ".model", ".tiktoken", ".v1", ".v2", ".v3", ".v7", ".bpe"})
"""Endings of tokenizer files: a spec with one is a path, never a name."""


def _forms() -> str:
    from .catalog import BUILTIN_NAMES

    return _FORMS.format(names=", ".join(available_tokenizers()), builtins=", ".join(BUILTIN_NAMES))


__all__ = ["BERT_NAME", "available_tokenizers", "load_spec", "load_tokenizer"]
