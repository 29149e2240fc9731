"""A BPE model's special tokens: the checks on its table, and which ones one call encodes as such.

Special tokens are matched whole before pre-tokenization (``split_specials``). At construction
each must be non-empty text with a valid id that no vocabulary token other than itself holds
(:func:`check_special_tokens`). Per call, ``special_mode`` -- or tiktoken's ``allowed_special`` /
``disallowed_special`` with tiktoken's meaning -- resolves to the set encoded as special tokens,
and text of a disallowed one is refused (:func:`allowed_specials`).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from typing import Literal

from ..errors import ConfigError
from ..literals import literals_of
from ..special_text import checked_mode, refuse_special_text
from ..token_ids import id_problem
from ..types import DEFAULT_SPECIAL_MODE, SpecialMode

SpecialOption = Literal["all"] | Collection[str] | None
"""tiktoken's ``allowed_special`` / ``disallowed_special``: "all", some tokens, or not given."""


def check_special_tokens(special_tokens: Mapping[str, int], vocab_token: Callable[[int], str | None]) -> None:
    """Each special token is non-empty text with a valid id (an empty one would match everywhere),
    and no other vocabulary token (``vocab_token(id)``) has its id."""
    for text, token_id in special_tokens.items():
        if not isinstance(text, str) or not text:
            raise ConfigError(f"special token {text!r} is empty or not text; a special token needs at least one character")
        problem = id_problem(token_id)
        if problem is not None:
            raise ConfigError(f"special token {text!r} has id {token_id!r}, which {problem}")
        ordinary = vocab_token(token_id)
        if ordinary is not None and ordinary != text:
            raise ConfigError(
                f"special token {text!r} has id {token_id}, which vocabulary token {ordinary!r} already uses; "
                "give the special token a free id"
            )


def allowed_specials(
    text: str,
    every: frozenset[str],
    name: str,
    mode: SpecialMode | None,
    allowed_special: SpecialOption,
    disallowed_special: SpecialOption,
) -> frozenset[str]:
    """The special tokens (of ``every``, the model's) that ``text`` encodes as special tokens,
    raising :class:`~bpe_engine.errors.SpecialTokenError` on text of a disallowed one.

    ``mode``: ``text`` (the default: none), ``special`` (all), ``refuse`` (none, and refuse them).
    ``allowed_special``/``disallowed_special`` refine it exactly as in tiktoken; given without
    ``mode``, they mean what they mean in tiktoken (specials not allowed are refused).

    >>> every = frozenset({"<|endoftext|>", "<|fim|>"})
    >>> sorted(allowed_specials("hi", every, "gpt2", "special", None, None))
    ['<|endoftext|>', '<|fim|>']
    >>> allowed_specials("hi <|fim|>", every, "gpt2", None, {"<|endoftext|>"}, None)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    bpe_engine.errors.SpecialTokenError: the text holds '<|fim|>', special-token text of 'gpt2', and ... is 'refuse'; ...
    """
    if mode is None:
        tiktoken_style = allowed_special is not None or disallowed_special is not None
        mode = "refuse" if tiktoken_style else DEFAULT_SPECIAL_MODE
    mode = checked_mode(mode)
    allowed = every if mode == "special" else frozenset()
    disallowed = every if mode == "refuse" else frozenset()
    if allowed_special is not None:
        allowed = every if allowed_special == "all" else frozenset(allowed_special)
        unknown = sorted(allowed - every)
        if unknown:
            raise ConfigError(f"{unknown[0]!r} is not a special token of {name!r}; known: {sorted(every)}")
        if disallowed_special is None and mode == "refuse":
            disallowed = every - allowed
    if disallowed_special is not None:
        disallowed = every - allowed if disallowed_special == "all" else frozenset(disallowed_special)
    if disallowed:
        found = literals_of(disallowed).first(text)  # one automaton: longest first (``<|a|>b`` beats its prefix)
        if found is not None:
            refuse_special_text([(found, True)], name)
    return allowed
