"""A conversation as one model reads it: the prompt its chat format builds, token by token.

:func:`chat_prompt` renders the messages with the tokenizer's chat format (:mod:`.formats`), puts
each control token in by its id and encodes each text segment on its own, as the model's code does
(never letting text become a control token). The result keeps, per token, its id, its spelling,
whether it is a control token and which segment it came from, so a view can light the specials
and show which message each token belongs to.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .formats import ChatFormat, Segment, chat_format
from .messages import ChatError, Message


@dataclass(frozen=True)
class ChatPrompt:
    """The prompt of one conversation for one tokenizer."""

    tokenizer: str
    format: ChatFormat
    segments: tuple[Segment, ...]
    ids: tuple[int, ...]
    tokens: tuple[str, ...]
    special: tuple[bool, ...]
    segment_of: tuple[int, ...]
    """For each token, the index of the segment it was encoded from."""

    @property
    def count(self) -> int:
        return len(self.ids)

    @property
    def text(self) -> str:
        """The prompt as one string (control tokens spelled out)."""
        return "".join(s.text for s in self.segments)

    @property
    def special_count(self) -> int:
        return sum(self.special)


def token_labels(tokenizer: Any, prompt: ChatPrompt) -> list[str]:
    """Each token as a view shows it: a control token by its spelling, any other by its bytes
    (``Ġ`` for a space, ``<0xED>`` for a partial character), inert for a terminal."""
    from ..display import token_label, token_str_label

    byte_level = tokenizer.capabilities.byte_level
    return [
        token if special else token_label(tokenizer.token_bytes(i), byte_level=True) if byte_level else token_str_label(token)
        for i, token, special in zip(prompt.ids, prompt.tokens, prompt.special)
    ]


def format_for(tokenizer: Any) -> ChatFormat:
    """The chat format the catalogue declares for this tokenizer (by its built-in name)."""
    from ..catalog.builtins import builtin

    model = builtin(tokenizer.name)
    if model is None or not model.chat_format:
        from ..catalog.builtins import BUILTINS

        with_one = ", ".join(m.name for m in BUILTINS if m.chat_format)
        raise ChatError(f"no chat format is known for {tokenizer.name!r} (built-ins with one: {with_one}); name one with --format")
    return chat_format(model.chat_format)


def chat_prompt(tokenizer: Any, messages: Sequence[Message], fmt: ChatFormat | None = None) -> ChatPrompt:
    """The prompt ``fmt`` (default: the tokenizer's own format) builds for ``messages``."""
    fmt = fmt or format_for(tokenizer)
    segments = fmt.segments(messages)
    specials = tokenizer.special_tokens
    ids: list[int] = []
    tokens: list[str] = []
    special: list[bool] = []
    where: list[int] = []
    for index, segment in enumerate(segments):
        if segment.special:
            tid = specials.get(segment.text)
            if tid is None:
                raise ChatError(f"{tokenizer.name} has no control token {segment.text!r}, which the {fmt.title} format needs")
            ids.append(tid)
            tokens.append(segment.text)
            special.append(True)
            where.append(index)
            continue
        if not segment.text:
            continue
        encoding = tokenizer.encode_detailed(segment.text, special_mode="text", add_special_tokens=False)
        ids += encoding.ids
        tokens += encoding.tokens
        special += [False] * len(encoding.ids)
        where += [index] * len(encoding.ids)
    return ChatPrompt(tokenizer.name, fmt, segments, tuple(ids), tuple(tokens), tuple(special), tuple(where))


__all__ = ["ChatPrompt", "chat_prompt", "format_for", "token_labels"]
