"""A base tokenizer as the start of surgery: its tokens, ids, merges, front end and word encoder.

Extending, pruning, forcing and adding tokens all begin from a BPE someone already uses -- a
tiktoken rank table (gpt2, cl100k, o200k, Llama 3/4, Qwen, Tekken, any ``.tiktoken``) or a merge
list (a BPE ``tokenizer.json``, GPT-2 ``vocab.json`` + ``merges.txt``, a directory we saved).
:func:`bpe_base` reads what they need once, and refuses anything else with one line saying what
to do instead.

**Ids** are never moved: :attr:`BpeBase.next_id` is one past the largest id in use (specials
included), so new tokens never land on an id a model's embedding rows already mean. A base whose
ids have holes (cl100k_base: 100256 and 100261-100275 between its ranks and its specials) keeps
them: they are not ours to fill, as a model may treat them as reserved.

**The merge list of a rank table** is derived once, as tiktoken's ranks imply it: the pair of a
rank is the split the lower ranks give its bytes (:meth:`RankTable.derived_merges
<bpe_engine.bpe.rank_table.RankTable.derived_merges>`). A rank that no two lower ranks build has
no pair (Llama 3 has 678): tiktoken reaches it only when a whole piece is that token, so it is an
*initial* symbol here, like a byte, and :attr:`BpeBase.unbuilt` lists it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from ..bpe.byte_table import BYTE_CHARS, CHAR_TO_BYTE
from ..bpe.encode import merge_byte_ranks, merge_pair_ranks
from ..bpe.merge_table import MergeTable
from ..bpe.model import BpeTokenizer
from ..bpe.normalizer import NormalForm
from ..bpe.rank_table import RankTable
from ..errors import ConfigError
from ..pretokenizers import PreTokenizer
from ..training.bpe.setup import Vocabulary

WordEncoder = Callable[[str], "tuple[int, ...] | None"]
"""A counted word (model alphabet: GPT-2 byte characters for byte-level) -> the base's ids, or
None when the base cannot spell it (a symbol outside its alphabet and no unknown token)."""

_TO_LATIN1 = {ord(c): b for c, b in CHAR_TO_BYTE.items()}
HOLE = ""
"""What an id nobody uses holds in the trainer's token list (never in its token -> id map)."""


@dataclass(frozen=True)
class BpeBase:
    """What surgery reads from a base BPE tokenizer (see the module docstring)."""

    tokenizer: BpeTokenizer

    @property
    def name(self) -> str:
        return self.tokenizer.name

    @property
    def byte_level(self) -> bool:
        return self.tokenizer.byte_level

    @property
    def rank_table(self) -> bool:
        """True for tiktoken-style bases: ids are ranks, encoding takes the lowest-ranked bytes."""
        return self.tokenizer.capabilities.merge_order == "ranks"

    @property
    def pre_tokenizer(self) -> PreTokenizer:
        return self.tokenizer.pre_tokenizer

    @property
    def normalizer(self) -> NormalForm | None:
        return self.tokenizer.capabilities.normalizer

    @property
    def specials(self) -> dict[str, int]:
        return self.tokenizer.special_tokens

    @property
    def unk_token(self) -> str | None:
        return self.tokenizer.unk_token

    @cached_property
    def vocab(self) -> dict[str, int]:
        """Token -> id as the model keeps it (a trained model's specials included, a rank table's not)."""
        return dict(self.tokenizer.vocab)

    @cached_property
    def next_id(self) -> int:
        """One past the largest id in use: where new tokens start."""
        return max([*self.vocab.values(), *self.specials.values()], default=-1) + 1

    @cached_property
    def merges(self) -> list[tuple[str, str]]:
        """The merge list in rank order (a rank table's derived, its unbuilt ranks left out)."""
        table = self._table
        if isinstance(table, RankTable):
            return [(left, right) for _, left, right in table.derived_merges()[0]]
        return [(left, right) for left, right in self.tokenizer.merges]

    @cached_property
    def unbuilt(self) -> tuple[int, ...]:
        """Ranks of a rank table that no two lower ranks build (empty for a merge list)."""
        table = self._table
        return tuple(table.derived_merges()[1]) if isinstance(table, RankTable) else ()

    @cached_property
    def merged_ids(self) -> frozenset[int]:
        """Ids of tokens a merge makes: every ordinary token longer than one symbol that is not
        an initial symbol (bytes/characters, ``</w>`` symbols, a rank table's unbuilt ranks)."""
        table = self._table
        if isinstance(table, RankTable):
            return frozenset(r for t, r in table.ranks.items() if len(t) > 1) - frozenset(self.unbuilt)
        vocab = self.vocab
        return frozenset(vocab[a + b] for a, b in self.merges)

    def length(self, token: str) -> int:
        """A token's length as ``max_token_length`` counts it: bytes for byte-level, characters
        otherwise, the ``</w>`` marker not counted."""
        suffix = self.pre_tokenizer.end_of_word_suffix
        if suffix and not self.byte_level and token.endswith(suffix):
            return len(token) - len(suffix)
        return len(token)

    def vocabulary(self) -> Vocabulary:
        """The trainer's vocabulary: every id in use at its place, holes kept (:data:`HOLE`), so the
        next token the loop adds takes :attr:`next_id`."""
        tokens = [HOLE] * self.next_id
        lengths = [0] * self.next_id
        for token, i in self.vocab.items():
            tokens[i], lengths[i] = token, self.length(token)
        for token, i in self.specials.items():
            if tokens[i] == HOLE:
                tokens[i], lengths[i] = token, len(token)
        return Vocabulary(tokens, dict(self.vocab), lengths)

    @cached_property
    def _table(self) -> RankTable | MergeTable:
        return self.tokenizer._table  # the tables are what surgery extends; read, never changed

    def word_encoder(self) -> WordEncoder:
        """The base's own encoding of one counted word (the corpus's words as the pre-tokenizer cut
        them): tiktoken's core for a rank table when the bridge allows it (exact, proven there),
        else the same rule in Python. For a merge list without id reuse this is the replay of
        its merges in order (``tests/engine/test_extend_start.py`` holds the two together)."""
        table = self._table
        if isinstance(table, RankTable):
            return _rank_encoder(table, self.tokenizer)
        return _merge_encoder(table, self.byte_level, self.pre_tokenizer)


def bpe_base(tokenizer: Any) -> BpeBase:
    """``tokenizer`` as a base for surgery, or a :class:`ConfigError` saying why it cannot be one."""
    caps = tokenizer.capabilities
    name = getattr(tokenizer, "name", "the tokenizer")
    if caps.family != "bpe":
        what = {"wordpiece": "a WordPiece", "unigram": "a Unigram", "wordlevel": "a word-level"}.get(caps.family, f"a {caps.family}")
        raise ConfigError(
            f"{name!r} is {what} tokenizer, not a BPE: extend, prune and force work on merges; start from a BPE "
            "(gpt2, cl100k_base, o200k_base, llama3, qwen2.5, a BPE tokenizer.json) or train one with "
            "'bpe-explorer train --model bpe'"
        )
    if caps.merge_order == "scores":
        raise ConfigError(
            f"{name!r} is a SentencePiece BPE, whose merge order comes from piece scores, not a merge list: "
            "surgery on it is not supported; start from a byte-level BPE such as llama3 or gpt2"
        )
    if not isinstance(tokenizer, BpeTokenizer):
        raise ConfigError(
            f"{name!r} is a Hugging Face pipeline BPE (its normalizer or pre-tokenizer is not one bpe-explorer "
            "cuts a corpus with): surgery needs a plain BPE -- a tiktoken-style tokenizer, GPT-2 files, or a "
            "tokenizer.json with a byte-level or regex front end"
        )
    if tokenizer.merge_count < tokenizer.n_merges:
        raise ConfigError(f"{name!r} is a view on its first {tokenizer.merge_count} merges; start from the whole tokenizer")
    return BpeBase(tokenizer)


def word_bytes(word: str) -> bytes:
    """A byte-level counted word (GPT-2 byte characters) as its bytes."""
    return word.translate(_TO_LATIN1).encode("latin-1")


def _rank_encoder(table: RankTable, tokenizer: BpeTokenizer) -> WordEncoder:
    ranks = table.ranks
    encoding = tokenizer.tiktoken_status()[0]
    if encoding is not None:
        single = encoding._encode_single_piece  # tiktoken's per-piece core: whole-piece shortcut, then BPE

        def fast(word: str) -> tuple[int, ...]:
            return tuple(single(word_bytes(word)))

        return fast
    get = ranks.get

    def encode(word: str) -> tuple[int, ...]:
        data = word_bytes(word)
        rank = get(data)
        return (rank,) if rank is not None else tuple(merge_byte_ranks(data, ranks))

    return encode


def _merge_encoder(table: MergeTable, byte_level: bool, pre: PreTokenizer) -> WordEncoder:
    pair_rank, new_id, stride, unk = table.pair_rank, table.new_id, table.stride, table.unk_id
    if byte_level:
        byte_id = {c: i for c, i in zip(BYTE_CHARS, table.byte_id, strict=True)}

        def initial(word: str) -> list[int | None]:
            return [byte_id[c] for c in word]

    else:
        get, suffix, separate = table.vocab_map.get, pre.end_of_word_suffix, pre.end_of_word == "separate"

        def initial(word: str) -> list[int | None]:
            symbols = list(word)
            if suffix and symbols:
                if separate:
                    symbols.append(suffix)
                else:
                    symbols[-1] += suffix
            return list(map(get, symbols))

    def encode(word: str) -> tuple[int, ...] | None:
        ids = initial(word)
        if None in ids:
            if unk is None:
                return None
            ids = [unk if i is None else i for i in ids]
        return tuple(merge_pair_ranks(ids, pair_rank, new_id, stride) if len(ids) > 1 else ids)  # type: ignore[arg-type]

    return encode
