"""Frozen values that cross from the engine into the app, the CLI and the tests.

They hold plain data only (ints, strs, tuples) so a worker thread can hand them to the UI safely.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields
from operator import attrgetter
from typing import Literal, Protocol, runtime_checkable

SpecialMode = Literal["text", "special", "refuse"]
"""How ``encode_detailed`` treats special-token text: encode it as ordinary text, as the special
token, or refuse (raise :class:`~bpe_engine.errors.SpecialTokenError`)."""

DEFAULT_SPECIAL_MODE: SpecialMode = "text"
"""The one special-token default of the engine, the CLI and the app.

Text that happens to spell ``<|endoftext|>`` is encoded as the ordinary text it is: nothing is
refused and nothing silently becomes a control token. Whoever shows the result says when the text
holds special-token text and names the option that changes it (``--special-mode``, the app's
selector); :func:`bpe_engine.special_text.special_text_note` words that note once for all."""

UNKNOWN_ID = -1
"""``Encoding.ids`` entry of an unknown piece when the vocabulary has no unknown token: there is
no id to give. No valid id is negative (:mod:`bpe_engine.token_ids`), so it cannot be confused
with a real token, and ``decode`` refuses it with a message saying why."""


@dataclass(frozen=True, slots=True)
class MergeStep:
    """One merge as the trainer yields it (BPE and WordPiece share this shape).

    ``rank`` is 0-based: the first merge has rank 0. Token strings are in the model's own
    alphabet (GPT-2 byte characters such as ``Ġ`` for byte-level; characters with ``▁``/``</w>``/
    ``##`` for character-level and WordPiece). ``count`` is the pair's frequency when it was
    merged; ``score`` is WordPiece's count(ab)/(count(a)*count(b)) (``None`` for BPE).
    ``words_changed`` is how many distinct words the merge rewrote; ``occurrences`` is how many
    token pairs it actually fused, weighted by word counts, so the corpus shrinks by exactly that
    many tokens (``count`` can be larger: ``aaa`` holds the pair ``a a`` twice but fuses once).
    Together they give the compression curve without re-encoding the corpus.
    """

    rank: int
    left: str
    right: str
    new: str
    left_id: int
    right_id: int
    new_id: int
    count: int
    words_changed: int
    occurrences: int
    score: float | None = None

    def __reduce__(self) -> tuple[type[MergeStep], tuple[object, ...]]:
        """Pickled as a call to the class: a child process sends the app thousands of steps a
        second, and unpickling them through the dataclass's generic ``__setstate__`` took 12 ms
        per 3,000 on the app's reader thread, holding the GIL its UI needs (5.5 ms this way)."""
        return (MergeStep, _merge_step_fields(self))


_merge_step_fields = attrgetter(*(f.name for f in fields(MergeStep)))
"""Every field of a :class:`MergeStep`, in order (a tuple, read in C)."""


@dataclass(frozen=True, slots=True)
class Encoding:
    """Token ids with where each token came from.

    ``byte_spans[i]`` is the ``[start, end)`` range in ``text.encode("utf-8")`` that token ``i``
    stands for (a byte-level token may cover part of a character; a ``</w>`` token's span does not
    cover the following space). ``special[i]`` is True for a special token.

    ``unknown[i]`` is True for an *unknown piece*: a symbol the vocabulary cannot spell (a
    character outside a character-level alphabet, a byte a byte-level model never saw, a word
    WordPiece cannot cut). Its id is the vocabulary's unknown token when it has one, else
    :data:`UNKNOWN_ID`; ``tokens[i]`` is then the symbol itself, and ``byte_spans[i]`` the input
    it stands for. ``encode_detailed`` never raises for unknown symbols -- an explorer shows them --
    and ``notes`` says, in the user's words, why each kind of symbol is unknown. Both default to
    "nothing unknown, nothing to say", so encodings built by hand stay short.

    >>> Encoding("ab", (0, 1), ("a", "b"), ((0, 1), (1, 2)), (False, False)).unknown
    (False, False)
    """

    text: str
    ids: tuple[int, ...]
    tokens: tuple[str, ...]
    byte_spans: tuple[tuple[int, int], ...]
    special: tuple[bool, ...]
    unknown: tuple[bool, ...] = ()
    notes: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not self.unknown and self.ids:
            object.__setattr__(self, "unknown", (False,) * len(self.ids))


@runtime_checkable
class Tokenizer(Protocol):
    """What every tokenizer offers the app, the CLI and the comparison statistics."""

    name: str

    @property
    def vocab_size(self) -> int: ...

    def encode(self, text: str, *, special_mode: SpecialMode = DEFAULT_SPECIAL_MODE) -> list[int]: ...

    def encode_detailed(self, text: str, *, special_mode: SpecialMode = DEFAULT_SPECIAL_MODE) -> Encoding:
        """Never raises for unknown symbols (see :class:`Encoding`); may raise for ``refuse``."""
        ...

    def decode(self, ids: Sequence[int], *, errors: Literal["replace", "strict"] = "replace") -> str: ...

    def token_str(self, token_id: int) -> str:
        """The token in the model's alphabet (``Ġthe``, ``##ing``, ``▁the``)."""
        ...

    def token_bytes(self, token_id: int) -> bytes:
        """The bytes the token stands for (UTF-8 of its text for non-byte-level models)."""
        ...
