"""``MergeTable``: a trained merge list over a vocabulary (Hugging Face semantics) as integer tables.

The merge-rank rule of :mod:`bpe_engine.bpe.encode` runs on its ``pair_rank``/``new_id`` tables;
this module builds them from ``vocab`` + ``merges`` (refusing lists that do not fit their
vocabulary), cuts a piece into its initial symbols (bytes, characters, ``</w>``), and says
exactly why a symbol has no id when the alphabet lacks it.
"""

from __future__ import annotations

from ..core.byte_table import BYTE_CHARS, token_str_to_bytes
from ..display import visible_text
from ..errors import ConfigError, UnknownSymbolError
from ..token_ids import id_problem
from ..types import UNKNOWN_ID
from .encode import NEVER, PieceEncoder, merge_pair_ranks


class MergeTable:
    """A trained merge list over a vocabulary (Hugging Face semantics), as integer tables.

    ``pair_rank[left_id * stride + right_id]`` is the merge's rank and ``new_id[rank]`` its result;
    an int key hashes faster than a tuple. When two merges spell the same string they share its
    vocab id, as HF's trainer does; a pair listed twice keeps its last rank (HF).
    """

    def __init__(
        self,
        *,
        name: str,
        vocab: dict[str, int],
        merges: list[tuple[str, str]],
        byte_level: bool,
        end_of_word_suffix: str | None,
        unk_token: str | None,
        end_of_word_separate: bool = False,
    ) -> None:
        self.name = name
        self.vocab_map = vocab
        self.merge_list = list(merges)
        self.byte_level = byte_level
        self.suffix = end_of_word_suffix
        self.separate = end_of_word_separate  # </w> a symbol of its own (l o w </w>), not glued to w
        self.n_merges = len(self.merge_list)
        for token, token_id in vocab.items():  # before sizing a table by the largest id
            problem = id_problem(token_id)
            if problem is not None:
                raise ConfigError(f"vocabulary token {token!r} has id {token_id!r}, which {problem}")
        size = max(vocab.values(), default=-1) + 1
        self.stride = max(size, 1)
        id_str: list[str | None] = [None] * size
        for token, token_id in vocab.items():
            if token_id < 0 or id_str[token_id] is not None:
                raise ConfigError(f"vocabulary id {token_id} is given to {token!r} and another token; ids must be unique")
            id_str[token_id] = token
        self.id_str = id_str
        self.pair_rank: dict[int, int] = {}
        self.new_id: list[int] = []
        for rank, (left, right) in enumerate(self.merge_list):
            left_id, right_id, merged_id = vocab.get(left), vocab.get(right), vocab.get(left + right)
            if left_id is None or right_id is None or merged_id is None:
                ids = (left_id, right_id, merged_id)
                missing = next(t for t, i in zip((left, right, left + right), ids) if i is None)
                raise ConfigError(
                    f"merge {rank} ({left!r}, {right!r}): {missing!r} is not in the vocabulary; "
                    "vocab and merges must come from the same tokenizer"
                )
            # A pair listed twice (HF's trainer can merge a pair again after an id reuse) keeps its
            # last rank, as HF's model does; a merge prefix then sees the pair only from that rank.
            self.pair_rank[left_id * self.stride + right_id] = rank
            self.new_id.append(merged_id)
        self.unk_id: int | None = None
        if unk_token is not None:
            if unk_token not in vocab:
                raise ConfigError(f"unk_token {unk_token!r} is not in the vocabulary; add it or pass unk_token=None")
            self.unk_id = vocab[unk_token]
        self.byte_id: list[int | None] = [vocab.get(BYTE_CHARS[b]) for b in range(256)]
        self.id_bytes: list[bytes | None] = [None if t is None else _token_bytes(t, byte_level) for t in id_str]
        self._first_rank_of: dict[int, int] | None = None

    def limit_for(self, k: int) -> int:
        return NEVER if k >= self.n_merges else k

    def piece_encoder(self, limit: int, *, lenient: bool = False) -> PieceEncoder:
        """piece -> ids. An unknown symbol becomes ``unk_id`` (merged like any symbol, as in HF);
        without an unk token it raises :class:`UnknownSymbolError` -- or, ``lenient``, becomes
        :data:`~bpe_engine.types.UNKNOWN_ID` with the known runs around it merged on their own
        (what ``encode_detailed`` shows as an unknown piece)."""
        pair_rank, new_id, stride = self.pair_rank, self.new_id, self.stride
        if self.byte_level:
            byte_id = self.byte_id.__getitem__

            def initial(piece: str) -> list[int | None]:
                return list(map(byte_id, piece.encode("utf-8")))

        else:
            get, suffix, separate = self.vocab_map.get, self.suffix, self.separate

            def initial(piece: str) -> list[int | None]:
                symbols = list(piece)
                if suffix and symbols:
                    if separate:
                        symbols.append(suffix)
                    else:
                        symbols[-1] += suffix
                return list(map(get, symbols))

        def merge(ids: list[int]) -> list[int]:
            return ids if len(ids) < 2 else merge_pair_ranks(ids, pair_rank, new_id, stride, limit)

        def encode_piece(piece: str) -> tuple[int, ...]:
            ids = initial(piece)
            if None not in ids:
                return tuple(merge(ids))  # type: ignore[arg-type]  # no None, just checked (mypy cannot narrow items)
            if self.unk_id is not None:
                return tuple(merge([self.unk_id if i is None else i for i in ids]))
            if not lenient:
                raise self.unknown_symbol(piece, ids.index(None))
            out: list[int] = []
            run: list[int] = []
            for i in ids:
                if i is None:
                    out += merge(run)
                    out.append(UNKNOWN_ID)
                    run = []
                else:
                    run.append(i)
            return tuple(out + merge(run))

        return encode_piece

    def symbol_at(self, piece: str, at: int) -> str:
        """The model-alphabet symbol ``at`` of ``piece`` (a GPT-2 byte character, or a character
        with ``</w>`` glued on when it ends the piece)."""
        if self.byte_level:
            return BYTE_CHARS[piece.encode("utf-8", "surrogatepass")[at]]
        if self.separate:  # l o w </w>: the marker is the symbol after the last character
            return piece[at] if at < len(piece) else self.suffix or ""
        return piece[at] + (self.suffix or "" if at == len(piece) - 1 else "")

    def why_unknown(self, symbol: str) -> str:
        """Exactly why ``symbol`` has no id: which byte or character, and what the vocabulary has instead."""
        if self.byte_level:
            byte = token_str_to_bytes(symbol)[0]
            return f"byte 0x{byte:02X} is not in the vocabulary of {self.name!r} (it was trained on the bytes it saw only)"
        suffix = self.suffix or ""
        char = symbol[: -len(suffix)] if suffix and symbol.endswith(suffix) else symbol
        what = f"character {char!r} (U+{ord(char):04X})" if len(char) == 1 else repr(char)
        if suffix and symbol.endswith(suffix) and char in self.vocab_map:
            return f"the word-final {symbol!r} is not in the vocabulary of {self.name!r} ({what} is, but only inside words)"
        if suffix and not symbol.endswith(suffix) and char + suffix in self.vocab_map:
            return f"{what} is in the vocabulary of {self.name!r} only at the end of a word ({char + suffix!r})"
        return f"{what} is not in the alphabet of {self.name!r}"

    def unknown_symbol(self, piece: str, at: int) -> UnknownSymbolError:
        symbol = self.symbol_at(piece, at)
        fix = "retrain with the full 256-byte alphabet" if self.byte_level else "retrain on text that contains it, use a byte-level tokenizer"
        return UnknownSymbolError(
            f"{self.why_unknown(symbol)}, so {visible_text(piece)!r} cannot be encoded; "
            f"inspect and compare show it as an unknown piece; {fix}, or train with an unknown token",
            symbol=symbol,
        )

    def token_str(self, token_id: int) -> str | None:
        return self.id_str[token_id] if 0 <= token_id < len(self.id_str) else None

    def id_of(self, token: str) -> int | None:
        return self.vocab_map.get(token)

    def vocab(self, limit: int) -> dict[str, int]:
        if limit >= self.n_merges:
            return self.vocab_map
        if self._first_rank_of is None:
            first: dict[int, int] = {}
            for rank, token_id in enumerate(self.new_id):
                first.setdefault(token_id, rank)
            self._first_rank_of = first
        first = self._first_rank_of
        return {t: i for t, i in self.vocab_map.items() if first.get(i, -1) < limit}

    def merges(self, k: int) -> list[tuple[str, str]]:
        return self.merge_list[:k]


def _token_bytes(token: str, byte_level: bool) -> bytes:
    """The bytes a vocab string stands for: GPT-2 byte characters decoded for byte-level models
    (a special such as ``<|endoftext|>`` outside the byte table falls back to its UTF-8)."""
    if byte_level:
        try:
            return token_str_to_bytes(token)
        except KeyError:
            pass
    return token.encode("utf-8")
