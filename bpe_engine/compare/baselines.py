"""The two baseline rows of the comparison: one token per character, one per whitespace word.

They bracket every subword tokenizer: characters are the longest sequence (no vocabulary to
learn beyond the alphabet), whitespace words the shortest (an open vocabulary that never
generalises to unseen words). Both implement the :class:`~bpe_engine.types.Tokenizer` protocol
so the comparison treats every row alike.

>>> CharacterTokenizer().encode("한a")
[54620, 97]
>>> w = WhitespaceWordTokenizer()
>>> w.encode("to be or not to be")
[0, 1, 2, 3, 0, 1]
>>> w.encode_detailed("  hi").byte_spans
((2, 4),)
"""

from __future__ import annotations

from collections.abc import Sequence
from threading import Lock
from typing import Literal

import regex

from ..core.text_index import clean_text, index_of
from ..errors import ConfigError
from ..types import DEFAULT_SPECIAL_MODE, Capabilities, Encoding, SpecialMode

_WORD = regex.compile(r"[^\s\x1c-\x1f]+")  # exactly the words of str.split()
_MAX_CODEPOINT = 0x10FFFF


class _Baseline:
    """What both baselines share: no special tokens, no unknown token, text as it is."""

    name: str
    capabilities = Capabilities(family="baseline", line_safe=True)
    unk_token = unk_id = None
    notes = ()

    @property
    def special_tokens(self) -> dict[str, int]:
        return {}

    def token_str(self, token_id: int) -> str:
        raise NotImplementedError

    def token_bytes(self, token_id: int) -> bytes:
        return self.token_str(token_id).encode("utf-8")


class CharacterTokenizer(_Baseline):
    """Every Unicode code point is a token and its id is the code point (so ids are stable).

    Lone surrogates cannot be encoded as UTF-8; they are tokenized as U+FFFD, like tiktoken does.
    """

    name = "characters"

    @property
    def vocab_size(self) -> int:
        return _MAX_CODEPOINT + 1

    def encode(self, text: str, *, special_mode: SpecialMode = DEFAULT_SPECIAL_MODE, add_special_tokens: bool = True) -> list[int]:
        return [ord(c) for c in clean_text(text).text]

    def encode_detailed(self, text: str, *, special_mode: SpecialMode = DEFAULT_SPECIAL_MODE, add_special_tokens: bool = True) -> Encoding:
        text = clean_text(text).text
        starts = index_of(text).char_byte_starts
        n = len(text)
        return Encoding(
            text=text,
            ids=tuple(map(ord, text)),
            tokens=tuple(text),
            byte_spans=tuple(zip(starts[:n], starts[1:], strict=True)),
            special=(False,) * n,
        )

    def decode(self, ids: Sequence[int], *, errors: Literal["replace", "strict"] = "replace") -> str:
        return "".join(self.token_str(i) if errors == "strict" else _safe_chr(i) for i in ids)

    def token_str(self, token_id: int) -> str:
        if not 0 <= token_id <= _MAX_CODEPOINT or 0xD800 <= token_id <= 0xDFFF:
            raise ConfigError(f"id {token_id} is not a Unicode scalar value (0..0x10FFFF without surrogates)")
        return chr(token_id)


class WhitespaceWordTokenizer(_Baseline):
    """Every run of non-whitespace is a token; whitespace belongs to no token.

    The vocabulary is open: a word gets the next free id the first time it is seen, so ids depend
    on what was encoded before (thread-safe; ``vocab_size`` is the number of words seen so far).
    """

    name = "whitespace words"

    def __init__(self) -> None:
        self._ids: dict[str, int] = {}
        self._words: list[str] = []
        self._lock = Lock()

    @property
    def vocab_size(self) -> int:
        return len(self._words)

    def encode(self, text: str, *, special_mode: SpecialMode = DEFAULT_SPECIAL_MODE, add_special_tokens: bool = True) -> list[int]:
        return list(self.encode_detailed(text).ids)

    def encode_detailed(self, text: str, *, special_mode: SpecialMode = DEFAULT_SPECIAL_MODE, add_special_tokens: bool = True) -> Encoding:
        text = clean_text(text).text
        matches = [m.span() for m in _WORD.finditer(text)]
        words = [text[s:e] for s, e in matches]
        if text.isascii():
            spans = tuple(matches)
        else:
            starts = index_of(text).char_byte_starts
            spans = tuple((starts[s], starts[e]) for s, e in matches)
        return Encoding(text, tuple(self._id(w) for w in words), tuple(words), spans, (False,) * len(words))

    def decode(self, ids: Sequence[int], *, errors: Literal["replace", "strict"] = "replace") -> str:
        if errors == "strict":
            return " ".join(self.token_str(i) for i in ids)
        return " ".join(self._words[i] if 0 <= i < len(self._words) else "\ufffd" for i in ids)

    def token_str(self, token_id: int) -> str:
        if not 0 <= token_id < len(self._words):
            raise ConfigError(f"id {token_id} is not a word seen so far (0..{len(self._words) - 1})")
        return self._words[token_id]

    def _id(self, word: str) -> int:
        found = self._ids.get(word)
        if found is not None:
            return found
        with self._lock:
            found = self._ids.get(word)
            if found is None:
                found = self._ids[word] = len(self._words)
                self._words.append(word)
            return found


def _safe_chr(i: int) -> str:
    if 0 <= i <= _MAX_CODEPOINT and not 0xD800 <= i <= 0xDFFF:
        return chr(i)
    return "\ufffd"
