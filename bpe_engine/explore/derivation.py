"""How a token was built: the merges that made it, as a tree (the explorer's "why" view).

A token counts as created by the first merge whose ``new`` it is; its parts are derived with the
merges ranked before that one only, so the tree reads bottom-up in training order.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Derivation:
    """How a token was built: the merge that created it and the derivations of its two parts.
    Leaves (alphabet symbols, or tokens created at or after the current step) have no rank."""

    token: str
    rank: int | None = None
    left: Derivation | None = None
    right: Derivation | None = None
    children: tuple[Derivation, ...] = field(default=(), init=False)

    def __post_init__(self) -> None:
        kids = tuple(d for d in (self.left, self.right) if d is not None)
        object.__setattr__(self, "children", kids)

    def render(self) -> list[str]:
        """The tree as indented lines (the app draws its own widget; tests and the CLI use this)."""
        lines = [self._label()]
        for i, child in enumerate(self.children):
            last = i == len(self.children) - 1
            sub = child.render()
            lines.append(("└─ " if last else "├─ ") + sub[0])
            lines.extend(("   " if last else "│  ") + line for line in sub[1:])
        return lines

    def _label(self) -> str:
        if self.rank is None or self.left is None or self.right is None:
            return self.token
        return f"{self.token}  (merge {self.rank + 1}: {self.left.token} + {self.right.token})"



class Derivations:
    """Token -> the rank of the first merge making it, over a merge list that only grows.

    ``merge_at(rank)`` gives ``(left, right, new)``; the map is extended as merges arrive (a
    training streams them), never rebuilt.
    """

    def __init__(self, merge_at: Callable[[int], tuple[str, str, str]]) -> None:
        self._merge_at = merge_at
        self._creator: dict[str, int] = {}
        self._upto = 0

    def of(self, token: str, available: int, before: int | None = None) -> Derivation:
        """The derivation of ``token`` with the first ``available`` merges, those ranked below
        ``before`` only (default: all of them)."""
        limit = available if before is None else min(before, available)
        # Only the merges below the limit can take part: while a run streams thousands of merges
        # a second, the app's step at k catches up to k, not to every merge made so far.
        for rank in range(self._upto, limit):
            self._creator.setdefault(self._merge_at(rank)[2], rank)
        self._upto = max(self._upto, limit)
        return self._derive(token, limit, depth=0)

    def _derive(self, token: str, limit: int, depth: int) -> Derivation:
        rank = self._creator.get(token)
        if rank is None or rank >= limit or depth > 64:
            return Derivation(token)
        left, right, _ = self._merge_at(rank)
        return Derivation(token, rank, self._derive(left, rank, depth + 1), self._derive(right, rank, depth + 1))
