"""``BpeTokenizer``: one BPE model -- trained merge list or tiktoken rank table -- behind one API.

The pipeline is the Hugging Face one in small stages: special tokens are cut out first
(:func:`~bpe_engine.pretokenizers.split_specials`), the pre-tokenizer cuts the rest into pieces,
each piece goes through the merge loop of :mod:`bpe_engine.bpe.encode` (memoised per piece), and
decoding joins the tokens' bytes (byte-level) or text (character-level, markers undone). This
module builds the model and encodes; the rest has a module each: the tables
(:mod:`~bpe_engine.bpe.rank_table`, :mod:`~bpe_engine.bpe.merge_table`), the special-token checks
(:mod:`~bpe_engine.bpe.special_tokens`), ``encode_detailed``'s spans and unknown pieces
(:mod:`~bpe_engine.bpe.detailed`), and token lookups and decoding (:mod:`~bpe_engine.bpe.decoding`,
the base class).

Two ways to build one:

- ``BpeTokenizer(name=..., vocab=..., merges=..., ...)`` for trained merge lists: encode applies
  the lowest-ranked merge first (HF semantics); no whole-piece shortcut.
- ``BpeTokenizer.from_ranks(...)`` for ``.tiktoken`` rank tables: encode merges the pair whose
  concatenated bytes has the lowest rank, after tiktoken's "the whole piece is a token" shortcut.

Documented choices:

- **Special tokens**: by default (:data:`~bpe_engine.types.DEFAULT_SPECIAL_MODE`) their text is
  encoded as ordinary text; ``special_mode="special"`` encodes it as the special token and
  ``"refuse"`` raises :class:`SpecialTokenError`. Passing tiktoken's ``allowed_special`` /
  ``disallowed_special`` instead gives tiktoken's semantics exactly (other specials refused).
- **Surrogates** (byte-level): like tiktoken, a text that is not encodable as UTF-8 is first
  passed through UTF-16 with ``surrogatepass``/``replace``: a surrogate *pair* becomes its
  character, a lone surrogate becomes U+FFFD. So ``decode(encode(s)) == s`` for every ``str``
  without lone surrogates.
- **Unknown symbols** (character-level, or a byte-level alphabet of only the bytes seen) become
  ``unk_token`` when one is set. Without one, ``encode`` raises :class:`UnknownSymbolError` (there
  is no id to return) naming the symbol and why, while ``encode_detailed`` marks them as unknown
  pieces (``Encoding.unknown``, id :data:`~bpe_engine.types.UNKNOWN_ID`) and explains in
  ``Encoding.notes``: an explorer shows what it cannot encode instead of failing.
- **Ids** follow :mod:`bpe_engine.token_ids` (checked at construction and in ``decode``).
  **vocab_size** counts distinct ids: 100,261 for cl100k, where tiktoken's ``n_vocab`` says 100,277.
- **Normalizer** (``from_ranks(normalizer="NFC")``, Qwen): the text is put in that Unicode normal
  form before anything else, by encode and encode_detailed alike (declared as
  ``capabilities.normalizer``); encode_detailed's spans still point into the text as given
  (:mod:`bpe_engine.bpe.normalizer`), and decode gives the normalized text.
- **backend**: ``"python"`` (pure Python), ``"tiktoken"`` (tiktoken's core from our ranks, only
  where :mod:`bpe_engine.bpe.tiktoken_bridge` proves it identical) or ``"auto"`` (the default: either).

>>> from bpe_engine.pretokenizers import GPT2
>>> tok = BpeTokenizer(name="tiny", vocab={"a": 0, "b": 1, "ab": 2}, merges=[("a", "b")],
...                    pre_tokenizer=GPT2, byte_level=False)
>>> tok.encode("abab ab")
Traceback (most recent call last):
...
bpe_engine.errors.UnknownSymbolError: character ' ' (U+0020) is not in the alphabet of 'tiny', so ' ab' cannot be encoded; inspect and compare show it as an unknown piece; retrain on text that contains it, use a byte-level tokenizer, or train with an unknown token
>>> enc = tok.encode_detailed("abab ab")
>>> enc.ids, enc.tokens, enc.unknown
((2, 2, -1, 2), ('ab', 'ab', ' ', 'ab'), (False, False, True, False))
"""

from __future__ import annotations

from dataclasses import replace
from functools import reduce
from operator import iadd
from typing import TYPE_CHECKING, Literal

from ..errors import ConfigError, UnknownSymbolError
from ..memo import Memo
from ..pretokenizers import PreTokenizer, split_specials
from ..types import Capabilities, Encoding, SpecialMode
from .byte_table import utf8_safe
from .decoding import BpeDecoder
from .detailed import detailed_encoding
from .encode import PieceCache
from .merge_table import MergeTable
from .normalizer import NormalForm, align, normalize
from .rank_table import RankTable
from .special_tokens import SpecialOption, allowed_specials, check_special_tokens

if TYPE_CHECKING:
    import tiktoken

    from ..explore.merge_tree import MergeNode

Backend = Literal["python", "tiktoken", "auto"]


class BpeTokenizer(BpeDecoder):
    """A BPE tokenizer (see the module docstring for the rules it follows; token lookups and
    decoding come from :class:`~bpe_engine.bpe.decoding.BpeDecoder`)."""

    def __init__(
        self,
        *,
        name: str,
        vocab: dict[str, int],
        merges: list[tuple[str, str]],
        pre_tokenizer: PreTokenizer,
        byte_level: bool,
        special_tokens: dict[str, int] | None = None,
        unk_token: str | None = None,
        backend: Backend = "auto",
        normalizer: NormalForm | None = None,
    ) -> None:
        table = MergeTable(
            name=name,
            vocab=vocab,
            merges=merges,
            byte_level=byte_level,
            end_of_word_suffix=pre_tokenizer.end_of_word_suffix,
            unk_token=unk_token,
            end_of_word_separate=pre_tokenizer.end_of_word == "separate",
        )
        self._setup(name, table, pre_tokenizer, special_tokens or {}, table.n_merges, backend, normalizer)
        self.unk_token = unk_token
        self.notes: tuple[str, ...] = ()
        """What the loader wants the user to know about this model (a rank file's gaps, ...)."""

    @classmethod
    def from_ranks(
        cls,
        *,
        name: str,
        mergeable_ranks: dict[bytes, int],
        pre_tokenizer: PreTokenizer,
        special_tokens: dict[str, int] | None = None,
        backend: Backend = "auto",
        normalizer: NormalForm | None = None,
    ) -> BpeTokenizer:
        """A tokenizer from a tiktoken rank table (ids = ranks), encoding the tiktoken way
        (after putting the text in Unicode normal form ``normalizer``, when given)."""
        self = cls.__new__(cls)
        table = RankTable(mergeable_ranks)
        self._setup(name, table, pre_tokenizer, special_tokens or {}, table.n_merges, backend, normalizer)
        self.unk_token = None
        self.notes = ()
        return self

    def _setup(
        self,
        name: str,
        table: RankTable | MergeTable,
        pre_tokenizer: PreTokenizer,
        special_tokens: dict[str, int],
        merge_count: int,
        backend: Backend,
        normalizer: NormalForm | None = None,
    ) -> None:
        if backend not in ("python", "tiktoken", "auto"):
            raise ConfigError(f"unknown backend {backend!r}; choose python, tiktoken or auto")
        self.name = name
        self.pre_tokenizer = pre_tokenizer
        self.backend: Backend = backend
        self._normalizer: NormalForm | None = normalizer
        self._table = table
        self._specials = dict(special_tokens)
        self._special_set = frozenset(special_tokens)
        self._special_ids = {i: s for s, i in special_tokens.items()}
        self._id_bytes = list(table.id_bytes)
        check_special_tokens(special_tokens, table.token_str)
        for text, token_id in special_tokens.items():
            if token_id >= len(self._id_bytes):
                self._id_bytes.extend([None] * (token_id + 1 - len(self._id_bytes)))
            self._id_bytes[token_id] = text.encode("utf-8")
        self._merge_count = merge_count
        self.capabilities = Capabilities(
            family="bpe",
            byte_level=table.byte_level,
            explains="merge-tree",
            merge_order="ranks" if isinstance(table, RankTable) else "merge-list",
            replays_merges=True,
            line_safe=pre_tokenizer.line_safe,
            space_safe=pre_tokenizer.safe_to_cut,  # special text split first, then pieces: no normaliser
            fast_backend=True,
            normalizer=normalizer,
        )
        self._limit = table.limit_for(merge_count)
        self._cache: PieceCache[tuple[int, ...]] = PieceCache(table.piece_encoder(self._limit))
        self._lenient_cache: PieceCache[tuple[int, ...]] | None = None  # made on the first unknown symbol
        self._vocab: dict[str, int] | None = None
        self._vocab_size: int | None = None
        self._tiktoken: tuple[tiktoken.Encoding | None, str] | None = None
        self._token_strs = Memo(self.token_str)  # encode_detailed names every token

    def __repr__(self) -> str:
        kind = "ranks" if isinstance(self._table, RankTable) else "merges"
        return f"<BpeTokenizer {self.name!r} {kind} merges={self._merge_count} backend={self.backend}>"

    # -- views sharing the same tables -----------------------------------------------------------
    def with_merge_prefix(self, k: int) -> BpeTokenizer:
        """The same tokenizer using only its first ``k`` merges (for a "merges so far" slider).

        Tables are shared; only a fresh piece cache is made, so this is cheap to call often.
        """
        if k < 0:
            raise ConfigError(f"merge prefix must be >= 0, got {k}")
        return self._view(min(k, self._table.n_merges), self.backend)

    def with_backend(self, backend: Backend) -> BpeTokenizer:
        """The same tokenizer forced to another backend (``python`` for the reference encoder)."""
        return self._view(self._merge_count, backend)

    def _view(self, merge_count: int, backend: Backend) -> BpeTokenizer:
        view = type(self).__new__(type(self))
        view._setup(self.name, self._table, self.pre_tokenizer, self._specials, merge_count, backend, self._normalizer)
        view.unk_token = self.unk_token
        view.notes = self.notes
        if merge_count == self._merge_count and self._tiktoken is not None:
            view._tiktoken = self._tiktoken
        return view

    # -- properties ------------------------------------------------------------------------------
    @property
    def is_rank_table(self) -> bool:
        """True for tiktoken rank tables (``from_ranks``), False for trained merge lists."""
        return isinstance(self._table, RankTable)

    @property
    def mergeable_ranks(self) -> dict[bytes, int] | None:
        """The tiktoken rank table (bytes -> rank = id) of a rank-table model, else None.
        Shared with every view and the reference cache: do not mutate."""
        return self._table.ranks if isinstance(self._table, RankTable) else None

    @property
    def special_tokens(self) -> dict[str, int]:
        return dict(self._specials)

    @property
    def unk_id(self) -> int | None:
        """The id of ``unk_token`` (None when the model has none)."""
        return None if self.unk_token is None else self.id_of(self.unk_token)

    @property
    def merge_count(self) -> int:
        """How many merges this view uses (all of them unless made by ``with_merge_prefix``)."""
        return self._merge_count

    @property
    def n_merges(self) -> int:
        """How many merges the underlying model has."""
        return self._table.n_merges

    @property
    def vocab(self) -> dict[str, int]:
        """token string (model alphabet) -> id, without special tokens unless the model put them
        in its vocabulary. Built on first use for rank tables. Do not mutate."""
        if self._vocab is None:
            self._vocab = self._table.vocab(self._limit)
        return self._vocab

    @property
    def merges(self) -> list[tuple[str, str]]:
        """The merge list in rank order (recovered from the ranks on first use for rank tables)."""
        return self._table.merges(self._merge_count)

    @property
    def vocab_size(self) -> int:
        """Distinct ids: vocabulary tokens plus special tokens that are not also in it."""
        if self._vocab_size is None:
            table = self._table
            if isinstance(table, RankTable) and self._merge_count == table.n_merges:
                # ranks are unique, so no need to build o200k's 200k-entry string vocab to count
                shared = sum(1 for i in self._special_ids if table.token_str(i) is not None)
                self._vocab_size = len(table.ranks) + len(self._special_ids) - shared
            else:
                vocab_ids = set(self.vocab.values())
                self._vocab_size = len(vocab_ids) + sum(1 for i in self._special_ids if i not in vocab_ids)
        return self._vocab_size

    def merge_tree(self, token_id: int, *, special: bool = False) -> MergeNode | None:
        """The merges that build token ``token_id``: a rank table's are recovered from the ranks
        (one token's tree needs only them; the whole merge list of cl100k takes seconds), a merge
        list's are read from it. None for an id outside the vocabulary."""
        from ..explore.merge_tree import MergeNode, tree_from_ranks, tree_of_merge_list

        try:
            data = self.token_bytes(token_id)
        except ConfigError:
            return None
        if special or token_id in self._special_ids:
            return MergeNode(self.token_str(token_id), data, "special")
        ranks = self.mergeable_ranks
        if ranks is not None:
            return tree_from_ranks(data, ranks)
        return tree_of_merge_list(self, self.token_str(token_id))

    def id_of(self, token: str) -> int | None:
        """The id of a token string (model alphabet) or special token, or None if absent."""
        special = self._specials.get(token)
        return special if special is not None else self._table.id_of(token)

    # -- encoding --------------------------------------------------------------------------------
    def encode(
        self,
        text: str,
        *,
        special_mode: SpecialMode | None = None,
        allowed_special: SpecialOption = None,
        disallowed_special: SpecialOption = None,
        add_special_tokens: bool = True,  # noqa: ARG002 - a rank table adds no tokens of its own
    ) -> list[int]:
        """Token ids of ``text``.

        ``special_mode`` is the short form: ``text`` (the default: encode it as ordinary text),
        ``special`` (as the special token), ``refuse`` (raise on special-token text).
        ``allowed_special``/``disallowed_special`` refine it exactly as in tiktoken; given without
        ``special_mode``, they mean what they mean in tiktoken (specials not allowed are refused).

        >>> from bpe_engine.catalog.openai import load_reference
        >>> load_reference("gpt2").encode("hello <|endoftext|>", special_mode="special")
        [31373, 220, 50256]
        """
        if self._normalizer is not None:
            text = normalize(text, self._normalizer)
        allowed = allowed_specials(text, self._special_set, self.name, special_mode, allowed_special, disallowed_special)
        encoding = self._fast_encoding()
        if encoding is not None:
            return encoding.encode(text, allowed_special=allowed, disallowed_special=())
        try:
            return self._encode_python(text, allowed)
        except UnicodeEncodeError:
            return self._encode_python(utf8_safe(text), allowed)

    def encode_ordinary(self, text: str) -> list[int]:
        """Encode with every special token's text treated as ordinary text."""
        if self._normalizer is not None:
            text = normalize(text, self._normalizer)
        encoding = self._fast_encoding()
        if encoding is not None:
            return encoding.encode_ordinary(text)
        try:
            return self._encode_ordinary_python(text)
        except UnicodeEncodeError:
            return self._encode_ordinary_python(utf8_safe(text))

    def encode_detailed(
        self,
        text: str,
        *,
        special_mode: SpecialMode | None = None,
        allowed_special: SpecialOption = None,
        disallowed_special: SpecialOption = None,
        add_special_tokens: bool = True,  # noqa: ARG002 - a rank table adds no tokens of its own
    ) -> Encoding:
        """Ids with tokens, byte spans in ``Encoding.text`` (UTF-8) and special flags.

        For byte-level models ``Encoding.text`` is the text after the surrogate fix-up above.
        Unknown symbols never raise here: they are unknown pieces (see the module docstring).
        """
        fix = utf8_safe if self.byte_level else None
        aligned = align(text, fix, self._normalizer) if self._normalizer is not None else None
        if aligned is not None:  # specials are matched in the normalized text, as encode matches them
            allowed = allowed_specials(aligned.normalized, self._special_set, self.name, special_mode, allowed_special, disallowed_special)
            encoding = detailed_encoding(self, aligned.normalized, allowed)
            return replace(encoding, text=aligned.source, byte_spans=tuple(aligned.spans_in_source(encoding.byte_spans)))
        allowed = allowed_specials(text, self._special_set, self.name, special_mode, allowed_special, disallowed_special)
        text = fix(text) if fix is not None else text
        return detailed_encoding(self, text, allowed)

    def _encode_python(self, text: str, allowed: frozenset[str]) -> list[int]:
        if not allowed:
            return self._encode_ordinary_python(text)
        out: list[int] = []
        for segment, is_special in split_specials(text, allowed):
            if is_special:
                out.append(self._specials[segment])
            else:
                out += self._encode_ordinary_python(segment)
        return out

    def _encode_ordinary_python(self, text: str) -> list[int]:
        # The hot loop: regex findall, then one C-level dict lookup per piece (misses run BPE),
        # flattened by list.__iadd__ called from C (faster than itertools.chain here).
        return reduce(iadd, map(self._cache.__getitem__, self.pre_tokenizer.split(text)), [])

    def _piece_ids(self, piece: str) -> tuple[int, ...]:
        """Ids of one pre-tokenized piece (cached); unknown symbols without an unk token become
        :data:`UNKNOWN_ID` (the detailed view's unknown pieces)."""
        try:
            return self._cache[piece]
        except UnknownSymbolError:
            if self._lenient_cache is None:
                self._lenient_cache = PieceCache(self._table.piece_encoder(self._limit, lenient=True))
            return self._lenient_cache[piece]

    # -- tiktoken fast path ----------------------------------------------------------------------
    def tiktoken_status(self) -> tuple[tiktoken.Encoding | None, str]:
        """``(encoding, reason)``: tiktoken's core built from our ranks when proven identical,
        else ``(None, why not)``. Computed once per view."""
        if self._tiktoken is None:
            from .tiktoken_bridge import build_tiktoken

            self._tiktoken = build_tiktoken(self)
        return self._tiktoken

    def _fast_encoding(self) -> tiktoken.Encoding | None:
        if self.backend == "python":
            return None
        encoding, reason = self.tiktoken_status()
        if encoding is None and self.backend == "tiktoken":
            raise ConfigError(f"tokenizer {self.name!r} cannot use the tiktoken backend: {reason}; use backend='python'")
        return encoding
