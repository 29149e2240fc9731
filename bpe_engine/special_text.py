"""Saying so when a text spells a special token: one wording for the CLI and the app.

With the default special-token mode (:data:`bpe_engine.types.DEFAULT_SPECIAL_MODE`, ``"text"``)
the text ``<|endoftext|>`` is encoded as the ordinary characters it is. That is the safe default,
but a user who pasted a prompt template may have meant the special token, so whoever shows the
result adds this note, naming the control that changes it (``--special-mode`` in the CLI, the
special-text selector in the app).

>>> found = find_special_text("a <|endoftext|> b", ["<|endoftext|>", "<|fim_prefix|>"])
>>> found
('<|endoftext|>',)
>>> special_text_note(found, "text", "gpt2", option="--special-mode")
"the text holds '<|endoftext|>', special-token text of gpt2; it was encoded as ordinary text (--special-mode special encodes it as the special token)"
"""

from __future__ import annotations

from collections.abc import Iterable

from .choices import SPECIAL_MODES, SpecialMode, values
from .display import visible_text
from .errors import ConfigError, SpecialTokenError
from .pretokenizers import split_specials


def find_special_text(text: str, specials: Iterable[str]) -> tuple[str, ...]:
    """The distinct special-token texts that occur in ``text``, in order of first appearance."""
    found = [segment for segment, is_special in split_specials(text, specials) if is_special]
    return tuple(dict.fromkeys(found))


SHOWN_CHARS = 40
"""Characters of a special token a message quotes: a 100 KB special token was printed whole."""


def shown_token(token: str) -> str:
    """A special token as a message quotes it: visible, and cut past :data:`SHOWN_CHARS`.

    >>> shown_token("<|endoftext|>"), shown_token("<" + "x" * 100_000 + ">")
    ("'<|endoftext|>'", "'<xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'… (100,002 characters)")
    """
    if len(token) <= SHOWN_CHARS:
        return repr(visible_text(token))
    return f"{visible_text(token[:SHOWN_CHARS])!r}… ({len(token):,} characters)"


def special_text_note(found: Iterable[str], mode: str, tokenizer_name: str, *, option: str) -> str | None:
    """One line for ``mode`` when ``found`` is not empty (None otherwise); ``option`` is how the
    user changes the mode (``--special-mode``), named in the user's own interface."""
    found = tuple(found)
    if not found:
        return None
    shown = ", ".join(shown_token(t) for t in found[:3]) + (", ..." if len(found) > 3 else "")
    name = visible_text(tokenizer_name)
    if mode == "special":
        return f"the text holds {shown}, encoded as special token(s) of {name} ({option} text encodes it as ordinary text)"
    return (
        f"the text holds {shown}, special-token text of {name}; it was encoded as ordinary text "
        f"({option} special encodes it as the special token)"
    )


def checked_mode(mode: object) -> SpecialMode:
    """``mode`` if it is a special-text mode; else the one :class:`ConfigError` every tokenizer raises."""
    if mode not in values(SPECIAL_MODES):
        raise ConfigError(f"special_mode must be one of {', '.join(values(SPECIAL_MODES))}, got {mode!r}")
    return mode  # narrowed by the check against the choices just above


def special_segments(text: str, specials: Iterable[str], mode: object, tokenizer_name: str) -> list[tuple[str, bool]]:
    """The special-text stage every tokenizer family runs before its own model: ``text`` keeps the
    whole text as ordinary text, ``special`` cuts special-token text out (``(segment, is_special)``,
    :func:`~bpe_engine.pretokenizers.split_specials`), ``refuse`` raises
    :class:`~bpe_engine.errors.SpecialTokenError` naming the first one found.

    >>> special_segments("a<s>b", ["<s>"], "special", "m")
    [('a', False), ('<s>', True), ('b', False)]
    >>> special_segments("a<s>b", ["<s>"], "text", "m")
    [('a<s>b', False)]
    """
    mode = checked_mode(mode)
    if mode == "text" or not text:
        return [(text, False)] if text else []
    parts = split_specials(text, specials)
    if mode == "special":
        return parts
    refuse_special_text(parts, tokenizer_name)
    return [(text, False)]


def refuse_special_text(parts: Iterable[tuple[str, bool]], tokenizer_name: str) -> None:
    """Raise for the first special-token text of ``parts`` (a :func:`split_specials` result)."""
    found = next((segment for segment, special in parts if special), None)
    if found is not None:
        raise SpecialTokenError(refusal_message(found, tokenizer_name), token=found)


def refusal_message(token: str, tokenizer_name: str) -> str:
    """Why mode ``refuse`` stopped, in words every interface can show: it names the *modes*, which
    are the values of the CLI's ``--special-mode``, of the app's selector and of ``special_mode=``."""
    return (
        f"the text holds {shown_token(token)}, special-token text of {visible_text(tokenizer_name)!r}, and the "
        "special-token mode is 'refuse'; choose mode 'special' to encode it as the special token "
        "or mode 'text' to encode it as ordinary text"
    )


__all__ = ["checked_mode", "find_special_text", "refusal_message", "refuse_special_text", "shown_token", "special_segments", "special_text_note"]
