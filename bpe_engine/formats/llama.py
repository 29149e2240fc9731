"""Meta's Llama 3 and Llama 4 tokenizers: a tiktoken rank file plus a block of special tokens after it.

Read from ``llama-models`` 0.3.0 (``llama_models/llama3/tokenizer.py`` and
``llama_models/llama4/tokenizer.py``, class ``Tokenizer``); the rank files are the
``tokenizer.model`` beside each, one ``BASE64 RANK`` per line (tiktoken's format, whatever the
name says -- they are not SentencePiece models):

- **Llama 3** (3.0 to 3.3): 128,000 ranks; ``pat_str`` below; 256 special tokens numbered from
  128,000: the 12 named ones (``<|begin_of_text|>`` = 128000, ``<|end_of_text|>``,
  ``<|reserved_special_token_0|>``, ``<|reserved_special_token_1|>``, ``<|finetune_right_pad_id|>``,
  ``<|step_id|>``, ``<|start_header_id|>``, ``<|end_header_id|>``, ``<|eom_id|>``, ``<|eot_id|>``,
  ``<|python_tag|>``, ``<|image|>``), then ``<|reserved_special_token_2|>`` .. ``_245|>``.
- **Llama 4**: 200,000 ranks; ``O200K_PATTERN`` (character for character o200k_base's); 2,048
  special tokens from 200,000: ``BASIC_SPECIAL_TOKENS`` (``<|begin_of_text|>`` = 200000 ..
  ``<|fim_suffix|>``), the text post-training, vision and reasoning blocks, then
  ``<|reserved_special_token_0|>`` .. up to 2,048 in all.

Encoding is tiktoken's (``tiktoken.Encoding(pat_str, mergeable_ranks, special_tokens)``) with no
BOS/EOS: llama-models' ``encode(s, bos=False, eos=False)``. Its ``encode`` also feeds tiktoken the
text in slices (400,000 characters, and runs of 25,000 whitespace or non-whitespace characters) to
keep tiktoken's Rust core from overflowing; a regex piece cut by such a slice would be encoded in two
parts there, so texts with such runs may differ in those places. Ids equal tiktoken's built from the
same file, pattern and specials (tests/engine/test_llama_builtins.py).

The files are Meta's, under the Llama 3 / Llama 4 Community License: bpe-explorer never ships them;
``bpe-explorer models fetch llama3`` has *your* pip download the ``llama-models`` wheel.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from ..pretokenizers import TIKTOKEN_STYLE, PreTokenizer
from .tiktoken_files import read_tiktoken

if TYPE_CHECKING:
    from ..bpe.model import BpeTokenizer

# llama_models/llama3/tokenizer.py, Tokenizer.pat_str (verbatim)
LLAMA3_PATTERN = r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"  # noqa: E501
# llama_models/llama4/tokenizer.py, Tokenizer.O200K_PATTERN (verbatim; equal to o200k_base's)
LLAMA4_PATTERN = r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+"""  # noqa: E501

# Declared like cl100k/o200k (tests/engine/test_llama_builtins.py checks the declarations).
LLAMA3 = PreTokenizer("llama3", LLAMA3_PATTERN, **TIKTOKEN_STYLE, description="Llama 3 regex (cl100k-like, no possessives)")
LLAMA4 = PreTokenizer("llama4", LLAMA4_PATTERN, **TIKTOKEN_STYLE, description="Llama 4 regex (= o200k_base's)")

LLAMA3_NUM_SPECIAL = 256
LLAMA3_NAMED_SPECIALS: tuple[str, ...] = (
    "<|begin_of_text|>", "<|end_of_text|>", "<|reserved_special_token_0|>", "<|reserved_special_token_1|>",
    "<|finetune_right_pad_id|>", "<|step_id|>", "<|start_header_id|>", "<|end_header_id|>",
    "<|eom_id|>", "<|eot_id|>", "<|python_tag|>", "<|image|>",
)  # fmt: skip

LLAMA4_NUM_SPECIAL = 2048
LLAMA4_BASIC_SPECIALS: tuple[str, ...] = (
    "<|begin_of_text|>", "<|end_of_text|>", "<|fim_prefix|>", "<|fim_middle|>", "<|fim_suffix|>",
)  # fmt: skip
LLAMA4_TEXT_POST_TRAIN: tuple[str, ...] = (
    "<|header_start|>", "<|header_end|>", "<|eom|>", "<|eot|>", "<|step|>",
    *[f"<|text_post_train_reserved_special_token_{i}|>" for i in range(6)],
    "<|python_start|>", "<|python_end|>", "<|finetune_right_pad|>",
    *[f"<|text_post_train_reserved_special_token_{i}|>" for i in range(8, 8 + 61)],
)  # fmt: skip
LLAMA4_VISION: tuple[str, ...] = (
    "<|image_start|>", "<|image_end|>", "<|vision_reserved_special_token_0|>", "<|vision_reserved_special_token_1|>",
    "<|tile_x_separator|>", "<|tile_y_separator|>",
    *[f"<|vision_reserved_special_token_{i}|>" for i in range(2, 6)],
    "<|image|>", "<|vision_reserved_special_token_6|>", "<|patch|>",
    *[f"<|vision_reserved_special_token_{i}|>" for i in range(7, 7 + 1041)],
)  # fmt: skip
LLAMA4_REASONING: tuple[str, ...] = (
    *[f"<|reasoning_reserved_special_token_{i}|>" for i in range(8)],
    "<|reasoning_thinking_start|>", "<|reasoning_thinking_end|>",
)  # fmt: skip


def llama3_special_tokens(first_id: int) -> dict[str, int]:
    """Llama 3's 256 special tokens numbered from ``first_id`` (the rank file's size).

    >>> specials = llama3_special_tokens(128_000)
    >>> specials["<|begin_of_text|>"], specials["<|eot_id|>"], specials["<|reserved_special_token_245|>"]
    (128000, 128009, 128255)
    """
    reserved = [f"<|reserved_special_token_{2 + i}|>" for i in range(LLAMA3_NUM_SPECIAL - len(LLAMA3_NAMED_SPECIALS))]
    return {token: first_id + i for i, token in enumerate([*LLAMA3_NAMED_SPECIALS, *reserved])}


def llama4_special_tokens(first_id: int) -> dict[str, int]:
    """Llama 4's 2,048 special tokens numbered from ``first_id`` (the rank file's size).

    >>> specials = llama4_special_tokens(200_000)
    >>> specials["<|begin_of_text|>"], specials["<|header_start|>"], specials["<|image_start|>"], len(specials)
    (200000, 200005, 200080, 2048)
    >>> specials["<|reasoning_thinking_end|>"], specials["<|reserved_special_token_0|>"]
    (201143, 201144)
    """
    named = [*LLAMA4_BASIC_SPECIALS, *LLAMA4_TEXT_POST_TRAIN, *LLAMA4_VISION, *LLAMA4_REASONING]
    reserved = [f"<|reserved_special_token_{i}|>" for i in range(LLAMA4_NUM_SPECIAL - len(named))]
    return {token: first_id + i for i, token in enumerate([*named, *reserved])}


def load_llama3(path: str | Path, *, name: str = "llama3") -> BpeTokenizer:
    """Llama 3's tokenizer from its ``tokenizer.model`` rank file."""
    return _load(path, name, LLAMA3, llama3_special_tokens)


def load_llama4(path: str | Path, *, name: str = "llama4") -> BpeTokenizer:
    """Llama 4's tokenizer from its ``tokenizer.model`` rank file."""
    return _load(path, name, LLAMA4, llama4_special_tokens)


def _load(path: str | Path, name: str, pre: PreTokenizer, specials: Callable[[int], dict[str, int]]) -> BpeTokenizer:
    from ..bpe.model import BpeTokenizer

    ranks = read_tiktoken(path)
    return BpeTokenizer.from_ranks(name=name, mergeable_ranks=ranks, pre_tokenizer=pre, special_tokens=specials(len(ranks)))


__all__ = ["LLAMA3", "LLAMA3_PATTERN", "LLAMA4", "LLAMA4_PATTERN", "llama3_special_tokens", "llama4_special_tokens", "load_llama3", "load_llama4"]
