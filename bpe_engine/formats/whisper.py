"""OpenAI Whisper's multilingual tokenizer: a tiktoken rank file plus 1,608 special tokens after it.

Read from ``openai-whisper`` 20250625, ``whisper/tokenizer.py`` (``get_encoding``): the ranks of
``whisper/assets/multilingual.tiktoken`` (50,257 byte tokens), the original GPT-2 regex, and the
special tokens numbered from ``len(ranks)`` on, in this order: ``<|endoftext|>``,
``<|startoftranscript|>``, one ``<|xx|>`` per language (the first ``num_languages`` of Whisper's
``LANGUAGES``; 99 by default, 100 for large-v3, which adds ``<|yue|>``), ``<|translate|>``,
``<|transcribe|>``, ``<|startoflm|>``, ``<|startofprev|>``, ``<|nospeech|>``,
``<|notimestamps|>`` and the 1,501 timestamps ``<|0.00|>`` .. ``<|30.00|>``. So 51,865 ids in all,
``<|endoftext|>`` = 50257 -- as ``whisper.tokenizer.get_encoding("multilingual")`` builds them.

The rank file's last line, ``= 50256``, is an *empty* token: Whisper keeps it (id 50256 decodes to
nothing and no text encodes to it). We leave that id unused instead -- a rank table of byte strings
has no place for zero bytes -- so, as with cl100k's unused ids, ``vocab_size`` (51,864 distinct
ids) is one less than Whisper's ``n_vocab``; every id that encoding can produce is the same.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import regex

from ..core.json_files import read_text
from ..pretokenizers import HF_GPT2
from .tiktoken_files import parse_tiktoken

if TYPE_CHECKING:
    from ..bpe.model import BpeTokenizer

# whisper/tokenizer.py LANGUAGES, keys in order (the order fixes the language tokens' ids).
LANGUAGE_CODES: tuple[str, ...] = (
    "en", "zh", "de", "es", "ru", "ko", "fr", "ja", "pt", "tr", "pl", "ca", "nl", "ar", "sv", "it", "id",
    "hi", "fi", "vi", "he", "uk", "el", "ms", "cs", "ro", "da", "hu", "ta", "no", "th", "ur", "hr", "bg",
    "lt", "la", "mi", "ml", "cy", "sk", "te", "fa", "lv", "bn", "sr", "az", "sl", "kn", "et", "mk", "br",
    "eu", "is", "hy", "ne", "mn", "bs", "kk", "sq", "sw", "gl", "mr", "pa", "si", "km", "sn", "yo", "so",
    "af", "oc", "ka", "be", "tg", "sd", "gu", "am", "yi", "lo", "uz", "fo", "ht", "ps", "tk", "nn", "mt",
    "sa", "lb", "my", "bo", "tl", "mg", "as", "tt", "haw", "ln", "ha", "ba", "jw", "su", "yue",
)  # fmt: skip
DEFAULT_NUM_LANGUAGES = 99
TIMESTAMPS = 1501  # <|0.00|> .. <|30.00|> in steps of 0.02 s
_EMPTY_TOKEN_LINE = regex.compile(r"^=*[ \t]+\d+[ \t]*$", regex.MULTILINE)  # base64 of b"": "" or "="


def whisper_special_tokens(first_id: int, num_languages: int = DEFAULT_NUM_LANGUAGES) -> dict[str, int]:
    """Whisper's special tokens numbered from ``first_id`` (the rank table's size), in its order.

    >>> specials = whisper_special_tokens(50257)
    >>> specials["<|endoftext|>"], specials["<|ko|>"], specials["<|notimestamps|>"], len(specials)
    (50257, 50264, 50363, 1608)
    """
    names = [
        "<|endoftext|>",
        "<|startoftranscript|>",
        *[f"<|{code}|>" for code in LANGUAGE_CODES[:num_languages]],
        "<|translate|>",
        "<|transcribe|>",
        "<|startoflm|>",
        "<|startofprev|>",
        "<|nospeech|>",
        "<|notimestamps|>",
        *[f"<|{i * 0.02:.2f}|>" for i in range(TIMESTAMPS)],
    ]
    return {token: first_id + i for i, token in enumerate(names)}


def load_whisper(
    path: str | Path, *, num_languages: int = DEFAULT_NUM_LANGUAGES, name: str = "whisper"
) -> BpeTokenizer:
    """Whisper's tokenizer from its ``multilingual.tiktoken`` (or ``gpt2.tiktoken``) rank file."""
    from ..bpe.model import BpeTokenizer

    text = read_text(path)
    n_ranks = sum(1 for line in text.split("\n") if line.strip())
    ranks = parse_tiktoken(path, _EMPTY_TOKEN_LINE.sub("", text))  # blanked, so error line numbers stay right
    return BpeTokenizer.from_ranks(
        name=name,
        mergeable_ranks=ranks,
        pre_tokenizer=HF_GPT2,
        special_tokens=whisper_special_tokens(n_ranks, num_languages),
    )


__all__ = ["LANGUAGE_CODES", "load_whisper", "whisper_special_tokens"]
