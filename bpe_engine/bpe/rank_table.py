"""``RankTable``: a tiktoken rank table (``bytes -> rank``, the rank being the token id) as a BPE model.

The byte-rank rule of :mod:`bpe_engine.bpe.encode` runs on it; this module holds what the table
itself answers -- checks on load, the rank bound of a merge prefix, token strings, the vocabulary
and the merge list, which ``.tiktoken`` files do not store and is recovered from the ranks.
"""

from __future__ import annotations

from ..errors import ConfigError
from ..token_ids import id_problem
from .byte_table import bytes_to_token_str, token_str_to_bytes
from .encode import NEVER, SINGLE_BYTES, PieceEncoder, merge_byte_ranks


class RankTable:
    """A tiktoken rank table (``bytes -> rank``; the rank is also the token id).

    Shared, never mutated, by every prefix/backend view of one tokenizer. The merge list is not
    stored in ``.tiktoken`` files; :meth:`merges` recovers it the way minbpe/tiktoken do (BPE the
    token's bytes with only lower ranks allowed: the last two parts are its merge), on first use.
    """

    byte_level = True

    def __init__(self, ranks: dict[bytes, int]) -> None:
        missing = [b for b in range(256) if SINGLE_BYTES[b] not in ranks]
        if missing:
            raise ConfigError(
                f"rank table lacks {len(missing)} single bytes (first 0x{missing[0]:02x}); "
                "a byte-level table must hold all 256 so that every text can be encoded"
            )
        self.ranks = ranks
        for token, rank in ranks.items():  # before sizing a table by the largest rank
            problem = id_problem(rank)
            if problem is not None:
                raise ConfigError(f"token {token!r} has rank {rank!r}, which {problem}")
        id_bytes: list[bytes | None] = [None] * (max(ranks.values()) + 1)
        for token, rank in ranks.items():
            if rank < 0 or id_bytes[rank] is not None:
                raise ConfigError(f"rank {rank} is used twice (or is negative); every rank must be unique")
            id_bytes[rank] = token
        self.id_bytes = id_bytes
        self.n_merges = len(ranks) - 256
        self._merge_ranks: list[int] | None = None
        self._merges: list[tuple[int, str, str]] | None = None
        self._unbuilt: list[int] = []
        self._strs: dict[int, str] = {}  # id -> GPT-2 byte string, filled as tokens are shown

    def limit_for(self, k: int) -> int:
        """The rank bound that admits exactly the first ``k`` merges (multi-byte tokens)."""
        return NEVER if k >= self.n_merges else self._sorted_merge_ranks()[k]

    def piece_encoder(self, limit: int, *, lenient: bool = False) -> PieceEncoder:
        """piece -> ids. ``lenient`` is :class:`~bpe_engine.bpe.merge_table.MergeTable`'s option for
        unknown symbols; a rank table holds every byte, so it has none and ignores it."""
        ranks = self.ranks
        get = ranks.get

        def encode_piece(piece: str) -> tuple[int, ...]:
            data = piece.encode("utf-8")
            rank = get(data)
            if rank is not None and rank < limit:  # tiktoken's shortcut: a whole-piece token wins
                return (rank,)
            return tuple(merge_byte_ranks(data, ranks, limit))

        return encode_piece

    def token_str(self, token_id: int) -> str | None:
        token = self._strs.get(token_id)
        if token is None:
            data = self.id_bytes[token_id] if 0 <= token_id < len(self.id_bytes) else None
            if data is None:
                return None
            token = self._strs[token_id] = bytes_to_token_str(data)
        return token

    def id_of(self, token: str) -> int | None:
        try:
            return self.ranks.get(token_str_to_bytes(token))
        except KeyError:
            return None

    def vocab(self, limit: int) -> dict[str, int]:
        return {bytes_to_token_str(t): r for t, r in self.ranks.items() if r < limit or len(t) == 1}

    def merges(self, k: int) -> list[tuple[str, str]]:
        merges, unbuilt = self.derived_merges()
        if unbuilt:  # never happens in the OpenAI tables; kept honest for user files
            rank = unbuilt[0]
            raise ConfigError(f"token {self.id_bytes[rank]!r} (rank {rank}) cannot be built from two lower-ranked tokens")
        return [(left, right) for _, left, right in merges[:k]]

    def derived_merges(self) -> tuple[list[tuple[int, str, str]], list[int]]:
        """``(rank, left, right)`` of every multi-byte token that two lower ranks build, in rank
        order, and the ranks no two lower ranks build (tiktoken reaches them only as a whole
        piece). Each token's pair is the split the lower ranks give its bytes, found once."""
        if self._merges is None:
            id_bytes = self.id_bytes
            merges: list[tuple[int, str, str]] = []
            unbuilt: list[int] = []
            for rank in self._sorted_merge_ranks():
                token = id_bytes[rank]
                assert token is not None
                parts = merge_byte_ranks(token, self.ranks, rank)
                if len(parts) == 2:
                    merges.append((rank, self.token_str(parts[0]) or "", self.token_str(parts[1]) or ""))
                else:
                    unbuilt.append(rank)
            self._merges, self._unbuilt = merges, unbuilt
        return self._merges, self._unbuilt

    def _sorted_merge_ranks(self) -> list[int]:
        """Ranks of the multi-byte tokens in order: rank of the k-th merge is element k."""
        if self._merge_ranks is None:
            self._merge_ranks = sorted(r for t, r in self.ranks.items() if len(t) > 1)
        return self._merge_ranks
