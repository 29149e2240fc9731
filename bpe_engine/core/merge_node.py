"""One token's merge tree: the value the tokenizers build and Inspect and the step detail draw.

A BPE token's history is a binary tree whose leaves are base symbols (:mod:`bpe_engine.bpe.merge_tree`
builds it from a merge list or a rank table; SentencePiece BPE and Hugging Face pipelines build it
their own way). The value is here, below every stage, because the ``ExplainsMerges`` protocol in
:mod:`bpe_engine.types` returns it and the models, Inspect and the app all pass it around.

>>> leaf = MergeNode("a", b"a", "base")
>>> tree = MergeNode("ab", b"ab", "merge", 0, (leaf, MergeNode("b", b"b", "base")))
>>> [prefix + node.token for prefix, node in render_tree(tree)], tree.depth
(['ab', '├─ a', '└─ b'], 2)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

NodeKind = Literal["merge", "base", "added", "special"]


@dataclass(frozen=True, slots=True)
class MergeNode:
    """One token in the tree. ``rank`` is the 0-based merge that built it (``None`` for a leaf).

    ``kind``: ``merge`` (built from the two children), ``base`` (a byte or character of the initial
    alphabet), ``added`` (a vocabulary entry no merge builds, such as p50k's runs of spaces),
    ``special`` (a special token, never merged).
    """

    token: str
    data: bytes
    kind: NodeKind
    rank: int | None = None
    children: tuple[MergeNode, ...] = ()

    @property
    def depth(self) -> int:
        return 1 + max((c.depth for c in self.children), default=0)

    def leaves(self) -> list[MergeNode]:
        if not self.children:
            return [self]
        return [leaf for c in self.children for leaf in c.leaves()]


def render_tree(node: MergeNode) -> list[tuple[str, MergeNode]]:
    """Lines of an indented tree: ``(prefix, node)`` pairs; the caller renders each node's label
    safely (token text is user data and may hold control characters)."""
    lines: list[tuple[str, MergeNode]] = [("", node)]
    _render(node, "", lines)
    return lines


def _render(node: MergeNode, indent: str, lines: list[tuple[str, MergeNode]]) -> None:
    for i, child in enumerate(node.children):
        last = i == len(node.children) - 1
        lines.append((indent + ("└─ " if last else "├─ "), child))
        _render(child, indent + ("   " if last else "│  "), lines)
