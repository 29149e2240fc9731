r"""Hugging Face pipeline stages as JSON, both ways: our pre-tokenizer out, a file's stages back in.

:mod:`~bpe_engine.formats.hf_json` writes and reads whole BPE ``tokenizer.json`` files and the
WordPiece writer/reader (:mod:`.wordpiece_json`) shares their splitting stages;
both need the same table of what our pre-tokenizers are in HF's terms, so it lives here once:

* writing: a regex becomes ``Split(Regex, Isolated)`` (plus ``ByteLevel(use_regex=False)`` for
  byte-level models; only ``hf-gpt2`` is plain ``ByteLevel(use_regex=True)``), ``whitespace``
  (``▁``) the marker normaliser + ``Split("▁", MergedWithNext)``, ``end-of-word``
  ``WhitespaceSplit``; decoders undo the markers.
* reading: those stages (and a foreign ``Metaspace``) back to a pre-tokenizer, anything else
  refused by name.
* Oniguruma (HF's regex engine) reads ``X{1,3}+`` as "``X{1,3}`` repeated", not as a possessive
  interval, so such intervals are written as the atomic group ``(?>X{1,3})`` and turned back on
  reading (:func:`to_onig_pattern`, :func:`from_onig_pattern`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..errors import TokenizerFileError
from ..pretokenizers import (
    BUILTIN,
    END_OF_WORD,
    END_OF_WORD_SUFFIX,
    HF_GPT2,
    NONE,
    SENTENCEPIECE_SPACES,
    SPACE_MARKER,
    WHITESPACE,
    PreTokenizer,
)
from .spec import pretokenizer_for_pattern

# An atom followed by a possessive interval: \p{..}, a [...] class, an escape, or one character.
_POSSESSIVE_INTERVAL = re.compile(r"(\\[pP]\{[^}]*\}|\[(?:\\.|[^\]\\])*\]|\\.|[^\\()|])(\{\d+(?:,\d*)?\})\+")
_ATOMIC_INTERVAL = re.compile(r"\(\?>(\\[pP]\{[^}]*\}|\[(?:\\.|[^\]\\])*\]|\\.|[^\\()|])(\{\d+(?:,\d*)?\})\)")


def to_onig_pattern(pattern: str) -> str:
    r"""Rewrite possessive intervals for Oniguruma.

    >>> to_onig_pattern(r"\p{N}{1,3}+|[a-z]{2}+|x+")
    '(?>\\p{N}{1,3})|(?>[a-z]{2})|x+'
    """
    return _POSSESSIVE_INTERVAL.sub(r"(?>\1\2)", pattern)


def from_onig_pattern(pattern: str) -> str:
    r"""Inverse of :func:`to_onig_pattern`, so a written built-in regex is recognised on reading.

    >>> from_onig_pattern(r"(?>\p{N}{1,3})|x")
    '\\p{N}{1,3}+|x'
    """
    return _ATOMIC_INTERVAL.sub(r"\1\2+", pattern)


# --- writing: our pre-tokenizer as HF stages -----------------------------------------------------


def byte_level_json(*, use_regex: bool) -> dict[str, Any]:
    """HF's ``ByteLevel`` stage (pre-tokenizer or decoder) the way we write it: no prefix space."""
    return {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": False, "use_regex": use_regex}


MARKER_NORMALIZER: dict[str, Any] = {  # every SentencePiece whitespace character becomes ▁
    "type": "Sequence",
    "normalizers": [
        {"type": "Prepend", "prepend": SPACE_MARKER},
        {"type": "Replace", "pattern": {"Regex": f"[{SENTENCEPIECE_SPACES}]"}, "content": SPACE_MARKER},
    ],
}
OLD_MARKER_NORMALIZER: dict[str, Any] = {  # files written when only the space became ▁
    "type": "Sequence",
    "normalizers": [
        {"type": "Prepend", "prepend": SPACE_MARKER},
        {"type": "Replace", "pattern": {"String": " "}, "content": SPACE_MARKER},
    ],
}
MARKER_NORMALIZERS = (MARKER_NORMALIZER, OLD_MARKER_NORMALIZER)
MARKER_SPLIT: dict[str, Any] = {
    "type": "Split", "pattern": {"String": SPACE_MARKER}, "behavior": "MergedWithNext", "invert": False
}


def _metaspace_json() -> dict[str, Any]:
    return {"type": "Metaspace", "replacement": SPACE_MARKER, "prepend_scheme": "always", "split": True}


def pre_tokenizer_json(pre: PreTokenizer, byte_level: bool) -> dict[str, Any] | None:
    """The ``pre_tokenizer`` object that makes HF cut exactly ``pre``'s pieces (None: no splitting)."""
    if byte_level and pre.name == HF_GPT2.name and pre.pattern == HF_GPT2.pattern:
        return byte_level_json(use_regex=True)
    stages: list[dict[str, Any]] = []
    if pre.space_marker is not None:
        stages.append(MARKER_SPLIT)
    elif pre.end_of_word_suffix is not None:
        stages.append({"type": "WhitespaceSplit"})
    elif pre.pattern is not None:
        stages.append({"type": "Split", "pattern": {"Regex": to_onig_pattern(pre.pattern)}, "behavior": "Isolated", "invert": False})
    if byte_level:
        stages.append(byte_level_json(use_regex=False))
    if not stages:
        return None
    return stages[0] if len(stages) == 1 else {"type": "Sequence", "pretokenizers": stages}


def decoder_json(pre: PreTokenizer, byte_level: bool) -> dict[str, Any] | None:
    """The ``decoder`` object that undoes ``pre``'s markers and the byte-level alphabet (None: none needed)."""
    stages: list[dict[str, Any]] = []
    if byte_level:
        stages.append(byte_level_json(use_regex=True))
    if pre.space_marker is not None and byte_level:
        # HF's Metaspace decoder works per token and loses the spaces once ByteLevel has joined
        # the tokens into one string; replace the marker and drop the prepended one instead.
        stages.append({"type": "Replace", "pattern": {"String": pre.space_marker}, "content": " "})
        stages.append({"type": "Strip", "content": " ", "start": 1, "stop": 0})
    elif pre.space_marker is not None:
        stages.append(_metaspace_json())
    if pre.end_of_word_suffix is not None:
        stages.append({"type": "BPEDecoder", "suffix": pre.end_of_word_suffix})
    if not stages:
        return None
    return stages[0] if len(stages) == 1 else {"type": "Sequence", "decoders": stages}


# --- reading: HF stages back to our pre-tokenizer ------------------------------------------------


def read_pre_tokenizer(path: str | Path, node: Any, suffix: str | None) -> tuple[bool, PreTokenizer]:
    """(byte_level, pre-tokenizer) for the stages we know; anything else is refused by name."""
    stages = stages_of(node)
    byte_level = False
    splitter: PreTokenizer | None = None
    for stage in stages:
        kind = stage.get("type") if isinstance(stage, dict) else None
        if kind == "ByteLevel":
            if stage.get("add_prefix_space"):
                raise TokenizerFileError(
                    path, "ByteLevel add_prefix_space=true is not supported (it prepends a space to the text)"
                )
            byte_level = True
            if stage.get("use_regex", True):
                splitter = _one_splitter(path, splitter, HF_GPT2)
        elif stage == MARKER_SPLIT:
            splitter = _one_splitter(path, splitter, WHITESPACE)
        elif kind == "Split":
            splitter = _one_splitter(path, splitter, _read_split(path, stage))
        elif kind == "Metaspace":
            scheme = stage.get("prepend_scheme", "always" if stage.get("add_prefix_space", True) else "never")
            if stage.get("replacement", SPACE_MARKER) != SPACE_MARKER or scheme != "always" or not stage.get("split", True):
                raise TokenizerFileError(path, "only Metaspace(replacement='▁', prepend_scheme='always', split=true) is supported")
            splitter = _one_splitter(path, splitter, WHITESPACE)
        elif kind == "WhitespaceSplit" and suffix == END_OF_WORD_SUFFIX:
            splitter = _one_splitter(path, splitter, END_OF_WORD)
        else:
            raise TokenizerFileError(
                path,
                f"pre-tokenizer {kind!r} is not supported; supported: ByteLevel, Split(Regex, Isolated), "
                "Metaspace, WhitespaceSplit with end_of_word_suffix '</w>'",
            )
    if suffix == END_OF_WORD_SUFFIX and splitter is not END_OF_WORD:
        raise TokenizerFileError(path, "end_of_word_suffix '</w>' needs a WhitespaceSplit pre-tokenizer")
    return byte_level, splitter or NONE


def stages_of(node: Any) -> list[Any]:
    """The stages of a ``pre_tokenizer`` object: a ``Sequence``'s list, or the one stage (none for null)."""
    stages = node.get("pretokenizers", []) if isinstance(node, dict) and node.get("type") == "Sequence" else [node]
    return [s for s in stages if s is not None]


def _one_splitter(path: str | Path, current: PreTokenizer | None, new: PreTokenizer) -> PreTokenizer:
    if current is not None:
        raise TokenizerFileError(path, f"two splitting pre-tokenizers ({current.name}, {new.name}) are not supported")
    return new


def _read_split(path: str | Path, stage: Mapping[str, Any]) -> PreTokenizer:
    import regex

    pattern = stage.get("pattern") or {}
    if stage.get("behavior") != "Isolated" or stage.get("invert"):
        raise TokenizerFileError(path, "only Split(behavior='Isolated', invert=false) is supported")
    if "Regex" in pattern:
        return pretokenizer_for_pattern(from_onig_pattern(pattern["Regex"]))
    if "String" in pattern and pattern["String"]:
        return pretokenizer_for_pattern(regex.escape(pattern["String"]))
    raise TokenizerFileError(path, "Split pre-tokenizer without a pattern")


BUILTIN_PATTERNS = frozenset(p.pattern for p in BUILTIN.values() if p.pattern is not None)
"""The built-in regexes: a Split with one of these reads the same in Oniguruma and ``regex``."""
