"""Hugging Face ``tokenizer.json`` for WordPiece models: what we write, HF loads with our ids.

Written the way ``BertWordPieceTokenizer`` writes itself: the special tokens as ``added_tokens``
(``special: true``, not normalised, so ``[CLS]`` is matched in raw text), ``BertNormalizer``,
``BertPreTokenizer``, ``BertProcessing`` (``[CLS] ... [SEP]``) when both tokens exist, the
``WordPiece`` decoder, and the ``WordPiece`` model. A tokenizer trained on one of our regex
pre-tokenizers gets a ``Split`` stage instead (the BPE writer's own translation).

Reading accepts those stages and refuses, by name, anything that would give other ids.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..atomic import atomic_write_text
from ..core.json_files import parse_json, read_text
from ..errors import ConfigError, TokenizerFileError
from ..wordpiece.bert_normalizer import BertNormalizer
from ..wordpiece.model import WordPieceTokenizer


def hf_json_dict(tokenizer: WordPieceTokenizer) -> dict[str, Any]:
    """The tokenizer.json object for ``tokenizer``."""
    vocab = tokenizer.vocab
    specials = sorted(tokenizer.special_tokens.items(), key=lambda kv: kv[1])
    norm = tokenizer.normalizer
    cls, sep = tokenizer.cls_token, tokenizer.sep_token
    return {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": [
            {"id": i, "content": t, "single_word": False, "lstrip": False, "rstrip": False, "normalized": False, "special": True}
            for t, i in specials
        ],
        "normalizer": None if norm is None else {
            "type": "BertNormalizer",
            "clean_text": norm.clean_text,
            "handle_chinese_chars": norm.handle_chinese_chars,
            "strip_accents": norm.strip_accents,
            "lowercase": norm.lowercase,
        },
        "pre_tokenizer": _pre_tokenizer_json(tokenizer),
        "post_processor": (
            {"type": "BertProcessing", "sep": [sep, vocab[sep]], "cls": [cls, vocab[cls]]}
            if cls in vocab and sep in vocab else None
        ),
        "decoder": {"type": "WordPiece", "prefix": tokenizer.continuing_prefix, "cleanup": True},
        "model": {
            "type": "WordPiece",
            "unk_token": tokenizer.unk_token,
            "continuing_subword_prefix": tokenizer.continuing_prefix,
            "max_input_chars_per_word": tokenizer.max_input_chars_per_word,
            "vocab": dict(sorted(vocab.items(), key=lambda kv: kv[1])),
        },
    }


def hf_json_text(tokenizer: WordPieceTokenizer) -> str:
    """tokenizer.json text, indented, non-ASCII kept readable."""
    return json.dumps(hf_json_dict(tokenizer), ensure_ascii=False, indent=2) + "\n"


def save_hf_json(tokenizer: WordPieceTokenizer, path: str | Path) -> None:
    """Atomically write ``tokenizer`` as a Hugging Face ``tokenizer.json``."""
    atomic_write_text(path, hf_json_text(tokenizer))


def load_hf_json(path: str | Path, *, name: str | None = None) -> WordPieceTokenizer:
    """Load a WordPiece ``tokenizer.json`` (as written by HF or :func:`save_hf_json`)."""
    data = parse_json(path, read_text(path))
    return wordpiece_from_hf_dict(path, data, name=name or _default_name(path))


def wordpiece_from_hf_dict(path: str | Path, data: Any, *, name: str) -> WordPieceTokenizer:
    """Validate a parsed tokenizer.json object and build the tokenizer."""
    if not isinstance(data, dict) or not isinstance(data.get("model"), dict):
        raise TokenizerFileError(path, 'not a Hugging Face tokenizer.json (no "model" object)')
    model = data["model"]
    if model.get("type") != "WordPiece":
        raise TokenizerFileError(path, f"model type {model.get('type')!r} is not WordPiece; load BPE files with the BPE loader")
    vocab = model.get("vocab")
    if not isinstance(vocab, dict) or not all(isinstance(i, int) and not isinstance(i, bool) and i >= 0 for i in vocab.values()):
        raise TokenizerFileError(path, "model.vocab must be an object mapping token -> non-negative integer id")
    if len(set(vocab.values())) != len(vocab):
        raise TokenizerFileError(path, "model.vocab gives two tokens the same id; ids must be unique")
    unk = model.get("unk_token", "[UNK]")
    if unk not in vocab:
        raise TokenizerFileError(path, f"model.unk_token {unk!r} is not in model.vocab; WordPiece needs it")
    specials = _read_added_tokens(path, data.get("added_tokens") or [], vocab)
    cls, sep = _read_post_processor(path, data.get("post_processor"))
    try:
        return WordPieceTokenizer(
            vocab,
            name=name,
            unk_token=unk,
            continuing_prefix=model.get("continuing_subword_prefix", "##"),
            max_input_chars_per_word=int(model.get("max_input_chars_per_word", 100)),
            normalizer=_read_normalizer(path, data.get("normalizer")),
            pre_tokenizer=_read_pre_tokenizer(path, data.get("pre_tokenizer")),
            special_tokens=specials,
            cls_token=cls,
            sep_token=sep,
        )
    except ConfigError as exc:
        raise TokenizerFileError(path, str(exc)) from None


# -- stages ----------------------------------------------------------------------------------------
def _pre_tokenizer_json(tokenizer: WordPieceTokenizer) -> dict[str, Any] | None:
    pre = tokenizer.pre_tokenizer
    if pre is None:
        return {"type": "BertPreTokenizer"}
    if pre.space_marker is not None or pre.end_of_word_suffix is not None:
        raise ConfigError(
            f"a WordPiece tokenizer on the {pre.name!r} pre-tokenizer cannot be written as tokenizer.json; "
            "save it as vocab.txt, or train with the BERT pre-tokenizer or a regex one"
        )
    from .hf_stages import pre_tokenizer_json as bpe_pre_tokenizer_json

    return bpe_pre_tokenizer_json(pre, False)


def _read_pre_tokenizer(path: str | Path, node: Any) -> Any:
    if isinstance(node, dict) and node.get("type") == "BertPreTokenizer":
        return None
    from .hf_stages import read_pre_tokenizer as bpe_read_pre_tokenizer

    byte_level, pre = bpe_read_pre_tokenizer(path, node, None)
    if byte_level:
        raise TokenizerFileError(path, "a ByteLevel pre-tokenizer does not go with a WordPiece model")
    return pre


def _read_normalizer(path: str | Path, node: Any) -> BertNormalizer | None:
    if node is None:
        return None
    if not isinstance(node, dict) or node.get("type") != "BertNormalizer":
        kind = node.get("type") if isinstance(node, dict) else node
        raise TokenizerFileError(path, f"normalizer {kind!r} is not supported; WordPiece files load with BertNormalizer or none")
    return BertNormalizer(
        clean_text=bool(node.get("clean_text", True)),
        handle_chinese_chars=bool(node.get("handle_chinese_chars", True)),
        strip_accents=node.get("strip_accents"),
        lowercase=bool(node.get("lowercase", True)),
    )


def _read_post_processor(path: str | Path, node: Any) -> tuple[str, str]:
    """``(cls, sep)`` tokens; BertProcessing, or a TemplateProcessing of the same shape."""
    if node is None:
        return "[CLS]", "[SEP]"
    kind = node.get("type") if isinstance(node, dict) else None
    if kind == "BertProcessing":
        try:
            return str(node["cls"][0]), str(node["sep"][0])
        except (KeyError, IndexError, TypeError):
            raise TokenizerFileError(path, "BertProcessing needs cls and sep as [token, id]") from None
    if kind == "TemplateProcessing":
        single = [next(iter(p.values())).get("id") for p in node.get("single", []) if isinstance(p, dict) and p]
        if len(single) == 3 and single[1] == "A":
            return str(single[0]), str(single[2])
    raise TokenizerFileError(path, f"post-processor {kind!r} is not supported; use BertProcessing ([CLS] $A [SEP])")


def _read_added_tokens(path: str | Path, added: Any, vocab: dict[str, int]) -> list[str]:
    if not isinstance(added, list):
        raise TokenizerFileError(path, "added_tokens must be a list")
    specials: list[str] = []
    for entry in added:
        if not isinstance(entry, dict) or not isinstance(entry.get("content"), str):
            raise TokenizerFileError(path, "each added_tokens entry needs a string content")
        content = entry["content"]
        if vocab.get(content) != entry.get("id"):
            raise TokenizerFileError(path, f"added token {content!r} has id {entry.get('id')} but model.vocab says {vocab.get(content)}")
        if entry.get("normalized") or entry.get("lstrip") or entry.get("rstrip") or entry.get("single_word"):
            raise TokenizerFileError(path, f"added token {content!r}: only plain tokens (not normalized, no strip, not single_word) are supported")
        specials.append(content)
    return specials


def _default_name(path: str | Path) -> str:
    p = Path(path)
    return p.parent.name if p.name == "tokenizer.json" and p.parent.name else p.stem


def save_wordpiece_dir(tokenizer: WordPieceTokenizer, directory: str | Path) -> list[Path]:
    """Write ``vocab.txt`` and ``tokenizer.json`` into ``directory``, each when it can hold the model.

    Returns the files written. ``load_tokenizer(directory)`` reads the tokenizer.json back (it
    carries the normaliser and pre-tokenizer; vocab.txt alone implies BERT's front end). A
    vocabulary with whitespace in a token (trained with no pre-tokenizer) has no vocab.txt form,
    and a ``▁`` / ``</w>`` pre-tokenizer no tokenizer.json form; only a model neither holds is an
    error -- raised before anything is written, so a long training is never lost to half a save.
    """
    from ..wordpiece.vocab_files import save_vocab_txt, vocab_txt_problem

    out = Path(directory)
    vocab_problem = vocab_txt_problem(tokenizer)
    try:
        text: str | None = hf_json_text(tokenizer)
    except ConfigError:
        if vocab_problem is not None:
            raise
        text = None
    written = []
    if vocab_problem is None:
        written.append(out / "vocab.txt")
        save_vocab_txt(tokenizer, written[-1])
    if text is not None:
        written.append(out / "tokenizer.json")
        atomic_write_text(written[-1], text)
    return written
