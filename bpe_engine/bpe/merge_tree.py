""""Why this token": the tree of merges that builds a token from bytes or characters.

BPE adds each vocabulary entry with one merge ``left + right -> new``, so a token's history is a
binary tree whose leaves are base symbols. For a model we trained, the merges are ours. A
rank-only table (tiktoken's ``.tiktoken`` files) stores no merges, but they can be recovered: the
pair that built token ``t`` of rank ``r`` is what BPE makes of ``t``'s bytes using only ranks below
``r`` -- exactly two parts (the trick minbpe's ``recover_merges`` uses for GPT-4).

>>> from bpe_engine.core.merge_node import render_tree
>>> idx = MergeIndex([("a", "b"), ("ab", "c")])
>>> print("\\n".join(prefix + node.token for prefix, node in render_tree(idx.tree("abc"))))
abc
├─ ab
│  ├─ a
│  └─ b
└─ c
>>> ranks = {b"a": 0, b"b": 1, b"c": 2, b"ab": 3, b"abc": 4}
>>> [c.data for c in tree_from_ranks(b"abc", ranks).children]
[b'ab', b'c']
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from threading import Lock
from typing import TYPE_CHECKING, cast

from ..core.byte_table import bytes_to_token_str, is_byte_token_str, token_str_to_bytes
from ..core.merge_node import MergeNode
from .encode import merge_byte_ranks

if TYPE_CHECKING:
    from ..types import ExplainsMerges, ReplaysMerges, Tokenizer


class MergeIndex:
    """``new -> (rank, left, right)`` over a merge list that only grows (a run streams its merges).

    ``join`` says how a pair forms its token (plain concatenation for BPE; :meth:`extend` takes the
    new token as given instead, WordPiece's ``a + ##b -> ab``); ``to_bytes`` turns a token string
    into the bytes it stands for (the GPT-2 byte table for byte-level models). A token counts as
    built by the first merge that makes it; its parts are derived with earlier merges only, so a
    tree reads bottom-up in training order.
    """

    def __init__(
        self,
        merges: Sequence[tuple[str, str]] = (),
        *,
        join: Callable[[str, str], str] = lambda a, b: a + b,
        to_bytes: Callable[[str], bytes] | None = None,
    ) -> None:
        self._built: dict[str, tuple[int, str, str]] = {}
        self._size = 0
        self._to_bytes = to_bytes or _default_to_bytes
        self.extend((left, right, join(left, right)) for left, right in merges)

    def extend(self, merges: Iterable[tuple[str, str, str]]) -> None:
        """Add ``(left, right, new)`` merges after those already indexed."""
        built = self._built
        for left, right, new in merges:
            # The first merge that makes a token is the one that added it; a malformed file with
            # an empty side would make a token its own child, so such merges are skipped.
            if left and right and new not in built:
                built[new] = (self._size, left, right)
            self._size += 1

    def __len__(self) -> int:
        """How many merges are indexed."""
        return self._size

    def rank_of(self, token: str) -> int | None:
        entry = self._built.get(token)
        return entry[0] if entry else None

    def tree(self, token: str, *, base: Callable[[str], bool] | None = None, before: int | None = None) -> MergeNode:
        """The merge tree of ``token`` with the merges ranked below ``before`` (default: all);
        tokens no such merge builds are leaves (``base`` decides whether a leaf is an initial
        symbol or an added entry; default: one character)."""
        is_base = base or (lambda t: len(t) == 1)
        return self._tree(token, is_base, self._size if before is None else before, 0)

    def _tree(self, token: str, is_base: Callable[[str], bool], before: int, depth: int) -> MergeNode:
        entry = self._built.get(token)
        if entry is None or entry[0] >= before or depth > 4096:
            return MergeNode(token, self._to_bytes(token), "base" if is_base(token) else "added")
        rank, left, right = entry
        kids = (self._tree(left, is_base, rank, depth + 1), self._tree(right, is_base, rank, depth + 1))
        return MergeNode(token, self._to_bytes(token), "merge", rank, kids)


def tree_from_ranks(token: bytes, ranks: Mapping[bytes, int]) -> MergeNode:
    """Recover the merge tree of ``token`` from a byte-level rank table (tiktoken style).

    Node ranks are merge numbers, as for trained merges: a table's first 256 ranks are the single
    bytes, so merge ``k`` has rank (and id) ``256 + k``.
    """
    label = bytes_to_token_str(token)
    if len(token) <= 1:
        return MergeNode(label, token, "base")
    rank = ranks.get(token)
    parts = _bpe(token, ranks, rank) if rank is not None else []
    merge_no = rank - 256 if rank is not None and rank >= 256 else rank
    if len(parts) != 2:
        return MergeNode(label, token, "added", merge_no)
    kids = (tree_from_ranks(parts[0], ranks), tree_from_ranks(parts[1], ranks))
    return MergeNode(label, token, "merge", merge_no, kids)


def merge_tree_for(tokenizer: Tokenizer, token_id: int, *, special: bool = False) -> MergeNode | None:
    """The merge tree of one token of ``tokenizer``, or ``None`` when the model builds no token from
    merges (WordPiece picks the longest vocabulary entry, Unigram a lattice path, the baselines have
    nothing to build) or the id is outside the vocabulary. A tokenizer that declares
    ``explains == "merge-tree"`` builds its own trees (:class:`~bpe_engine.types.ExplainsMerges`)."""
    if tokenizer.capabilities.explains != "merge-tree":
        return None
    try:
        return cast("ExplainsMerges", tokenizer).merge_tree(token_id, special=special)
    except (KeyError, IndexError, ValueError, OverflowError):
        return None


def tree_of_merge_list(tokenizer: ReplaysMerges, token: str) -> MergeNode:
    """The tree of ``token`` from ``tokenizer``'s merge list (its index built once per tokenizer)."""
    byte_level = tokenizer.capabilities.byte_level
    return _cached_index(tokenizer).tree(token, base=_byte_base if byte_level else None)


# -- private -------------------------------------------------------------------------------------
_INDEX_CACHE: OrderedDict[int, tuple[object, MergeIndex]] = OrderedDict()
_INDEX_LOCK = Lock()


def _cached_index(tokenizer: ReplaysMerges) -> MergeIndex:
    """The merge index of ``tokenizer``, built once per tokenizer: keyed by the tokenizer's id, which
    the cache holds so it cannot be reused. (``merges`` may build a fresh list on every read --
    65k pairs for an HF file -- so the list is only read on a miss.)"""
    key = id(tokenizer)
    with _INDEX_LOCK:
        hit = _INDEX_CACHE.get(key)
        if hit is not None and hit[0] is tokenizer:
            _INDEX_CACHE.move_to_end(key)
            return hit[1]
    byte_level = tokenizer.capabilities.byte_level
    index = MergeIndex(list(tokenizer.merges), to_bytes=_byte_to_bytes if byte_level else _default_to_bytes)
    with _INDEX_LOCK:
        _INDEX_CACHE[key] = (tokenizer, index)
        while len(_INDEX_CACHE) > 8:
            _INDEX_CACHE.popitem(last=False)
    return index


def _byte_base(token: str) -> bool:
    return len(token) == 1 and is_byte_token_str(token)


def _byte_to_bytes(token: str) -> bytes:
    try:
        return token_str_to_bytes(token)
    except KeyError:
        return token.encode("utf-8", "surrogatepass")


def _default_to_bytes(token: str) -> bytes:
    return token.encode("utf-8", "surrogatepass")


def _bpe(token: bytes, ranks: Mapping[bytes, int], max_rank: int) -> list[bytes]:
    """``token`` byte-pair encoded with the ranks below ``max_rank``: the engine's own merge loop
    (:func:`~bpe_engine.bpe.encode.merge_byte_ranks`), its ids read back as bytes."""
    return [_bytes_of_rank(ranks)[i] for i in merge_byte_ranks(token, dict(ranks) if not isinstance(ranks, dict) else ranks, max_rank)]


_RANK_BYTES: OrderedDict[int, tuple[Mapping[bytes, int], dict[int, bytes]]] = OrderedDict()


def _bytes_of_rank(ranks: Mapping[bytes, int]) -> dict[int, bytes]:
    """rank -> bytes of a rank table, made once per table (a few are kept)."""
    hit = _RANK_BYTES.get(id(ranks))
    if hit is None or hit[0] is not ranks:
        hit = (ranks, {rank: data for data, rank in ranks.items()})
        _RANK_BYTES[id(ranks)] = hit
        while len(_RANK_BYTES) > 4:
            _RANK_BYTES.popitem(last=False)
    return hit[1]
