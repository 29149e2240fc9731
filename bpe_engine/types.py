"""Frozen values that cross from the engine into the app, the CLI and the tests.

They hold plain data only (ints, strs, tuples) so a worker thread can hand them to the UI safely.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, Protocol, runtime_checkable

from .choices import DEFAULT_SPECIAL_MODE, SpecialMode

if TYPE_CHECKING:  # pragma: no cover
    from .bpe.normalizer import NormalForm
    from .explore.merge_tree import MergeNode
    from .pretokenizers import PreTokenizer
    from .sentencepiece.explain import UnigramChoice

UNKNOWN_ID = -1
"""``Encoding.ids`` entry of an unknown piece when the vocabulary has no unknown token: there is
no id to give. No valid id is negative (:mod:`bpe_engine.token_ids`), so it cannot be confused
with a real token, and ``decode`` refuses it with a message saying why."""


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


Family = Literal["bpe", "wordpiece", "unigram", "wordlevel", "baseline"]
"""How a tokenizer's model segments a word: merges, longest match, a lattice, a whole-word lookup, or a
fixed rule (the comparison's baselines)."""

Explains = Literal["merge-tree", "unigram-choice", "longest-match", "baseline", "none"]
"""The story Inspect's "why" tells for one token: the merges that built it, the Viterbi choice with
the next-best segmentations, WordPiece's longest vocabulary entry, a baseline's one rule, or none
(a whole-word lookup, a Hugging Face Unigram model: Inspect shows the pipeline's stages only)."""

MergeOrder = Literal["merge-list", "ranks", "piece-scores"]
"""Where a BPE model's merge numbers come from: a merge list (ours, HF, vocab.json + merges.txt),
a rank table (tiktoken: merges recovered from the ranks) or piece scores (SentencePiece BPE)."""


@dataclass(frozen=True, slots=True)
class Capabilities:
    """What a tokenizer can do, declared by its class: consumers read these flags and never probe
    for attributes or switch on class names.

    * ``family`` / ``byte_level``: what kind of model; byte-level tokens are spelled in GPT-2's
      byte alphabet (``token_str`` gives ``Ġthe``).
    * ``explains``: which "why" the tokenizer answers -- ``merge-tree`` promises
      :meth:`ExplainsMerges.merge_tree`, ``unigram-choice`` promises
      :meth:`ExplainsUnigram.unigram_choice`.
    * ``merge_order``: for ``merge-tree`` models, where the merge numbers come from.
    * ``replays_merges``: an ordered merge list the Train tab can step through on any corpus
      (:class:`ReplaysMerges`: ``merges``, ``pre_tokenizer``, ``vocab``, ``with_merge_prefix``).
    * ``traces_stages``: a Hugging Face pipeline whose normalized and pre-tokenized text can be shown.
    * ``line_safe``: no token crosses a line start (a newline after a non-space, before a
      non-space), so a text can be encoded line by line and the pieces laid end to end
      (Compare re-encodes only the line a key changed).
    * ``space_safe``: no token crosses a plain space that follows a letter or digit (its
      pre-tokenizer's ``safe_to_cut``, with nothing before it that looks across: no normaliser), so
      a long text can be encoded in blocks cut there (:mod:`bpe_engine.streaming.encode_stream`).
    * ``adds_specials``: ``encode`` adds tokens of its own by default (BERT's ``[CLS]``/``[SEP]``,
      a post-processor's ``<s>``), as Hugging Face's ``add_special_tokens=True`` does;
      ``add_special_tokens=False`` turns them off.
    * ``fast_backend``: ``with_backend("tiktoken")`` encodes through tiktoken (same ids, faster).
    * ``byte_fallback``: a character the vocabulary cannot spell becomes its UTF-8 bytes as
      ``<0xNN>`` tokens (SentencePiece's and Hugging Face's byte fallback) instead of the unknown
      token: such tokens carry no more than a byte each, so the language figures count them
      (:mod:`bpe_engine.metrics.token_shares`).
    * ``normalizer``: the Unicode normal form the model puts text in before anything else
      (``"NFC"`` for Qwen; :mod:`bpe_engine.bpe.normalizer`), or None. ``encode_detailed``'s spans
      still point into the text as given; ``decode`` gives the normalized text. (A Hugging Face
      pipeline's normalizers are stages it traces instead: ``traces_stages``.)
    """

    family: Family
    byte_level: bool = False
    explains: Explains = "baseline"
    merge_order: MergeOrder | None = None
    replays_merges: bool = False
    traces_stages: bool = False
    line_safe: bool = False
    space_safe: bool = False
    adds_specials: bool = False
    fast_backend: bool = False
    byte_fallback: bool = False
    normalizer: NormalForm | None = None


@runtime_checkable
class Tokenizer(Protocol):
    """What every tokenizer offers the app, the CLI and the comparison statistics."""

    # Read-only properties rather than plain attributes: a protocol attribute is settable, so it
    # would have to match exactly (invariant); as properties, a class may declare them narrower
    # (``notes`` a tuple, ``unk_id`` always an int or always None) or compute them.
    @property
    def name(self) -> str: ...

    @property
    def unk_token(self) -> str | None:
        """The token that stands for unknown pieces (None when the vocabulary has none)."""
        ...

    @property
    def unk_id(self) -> int | None:
        """Its id (None when the vocabulary has no unknown token)."""
        ...

    @property
    def notes(self) -> Sequence[str]:
        """What the loader wants the user to know about this model (a rank file's gaps, ...)."""
        ...

    @property
    def capabilities(self) -> Capabilities:
        """What this tokenizer can do (see :class:`Capabilities`)."""
        ...

    @property
    def special_tokens(self) -> dict[str, int]:
        """Special-token text -> id (what ``special_mode="special"`` matches in text)."""
        ...

    @property
    def vocab_size(self) -> int: ...

    def encode(self, text: str, *, special_mode: SpecialMode = DEFAULT_SPECIAL_MODE, add_special_tokens: bool = True) -> list[int]:
        """``add_special_tokens``: the tokens the tokenizer adds of its own (``[CLS]``/``[SEP]``, a
        ``<s>``), on by default as in Hugging Face; a tokenizer that adds none ignores it
        (``capabilities.adds_specials`` says which)."""
        ...

    def encode_detailed(
        self, text: str, *, special_mode: SpecialMode = DEFAULT_SPECIAL_MODE, add_special_tokens: bool = True
    ) -> Encoding:
        """Never raises for unknown symbols (see :class:`Encoding`); may raise for ``refuse``."""
        ...

    def decode(self, ids: Sequence[int], *, errors: Literal["replace", "strict"] = "replace") -> str: ...

    def token_str(self, token_id: int) -> str:
        """The token in the model's alphabet (``Ġthe``, ``##ing``, ``▁the``)."""
        ...

    def token_bytes(self, token_id: int) -> bytes:
        """The bytes the token stands for (UTF-8 of its text for non-byte-level models)."""
        ...


class ReplaysMerges(Tokenizer, Protocol):
    """A tokenizer with ``capabilities.replays_merges``: its merge list can be stepped through."""

    @property
    def merges(self) -> list[tuple[str, str]]: ...

    @property
    def n_merges(self) -> int:
        """How many merges the whole model has (a rank table answers without building ``merges``)."""
        ...

    @property
    def vocab(self) -> dict[str, int]: ...

    @property
    def pre_tokenizer(self) -> PreTokenizer: ...

    def with_merge_prefix(self, k: int) -> Tokenizer:
        """The same tokenizer using only its first ``k`` merges."""
        ...


class ExplainsMerges(Tokenizer, Protocol):
    """A tokenizer with ``capabilities.explains == "merge-tree"``."""

    def merge_tree(self, token_id: int, *, special: bool = False) -> MergeNode | None:
        """The merges that build token ``token_id`` (None for an id outside the vocabulary)."""
        ...


class ScoresPieces(Tokenizer, Protocol):
    """A SentencePiece model (``merge_order == "piece-scores"`` or a Unigram): every piece has a score."""

    def piece_score(self, token_id: int) -> float:
        """The piece's score: its log-probability (Unigram) or merge priority (BPE)."""
        ...


class ExplainsUnigram(Tokenizer, Protocol):
    """A tokenizer with ``capabilities.explains == "unigram-choice"``."""

    def unigram_choice(self, text: str, n: int = 5) -> UnigramChoice | None:
        """The best segmentation of ``text`` with its log-probability, and the ``n`` next best."""
        ...
