"""The selected merge explained: a small tree of the earlier merges that built its two parts,
and the words it changed, before → after."""

from __future__ import annotations

from rich.console import Group
from rich.text import Text
from rich.tree import Tree

from bpe_engine.display import counted
from bpe_engine.explore.stepper import Derivation, Stepper

from ..widgets.fixed_text import FixedText
from .render import merge_text, token_text, tokens_text

MAX_WORDS = 12


def _tree(node: Derivation, tree: Tree | None, byte_level: bool) -> Tree:
    label = Text(token_text(node.token, byte_level=byte_level), style="bold")
    if node.rank is not None:
        label.append(f"  merge {node.rank + 1:,}", style="dim")
    branch = Tree(label) if tree is None else tree.add(label)
    for child in node.children:
        _tree(child, branch, byte_level)
    return branch


class DerivationView(FixedText):
    """Shows how merge k's token was derived and which words it rewrote."""

    def show_none(self) -> None:
        self.show(Text("select a merge (↑/↓ in the merge list, n/b to step) to see how it was built", style="dim"))

    def show_step(self, stepper: Stepper, *, byte_level: bool) -> None:
        change = stepper.last_change_top(MAX_WORDS)
        if change is None:
            self.show_none()
            return
        left, right, new = stepper.merge_at(change.rank)
        title = Text.assemble((f"merge {change.rank + 1:,}: ", "bold"))
        title.append_text(merge_text(left, right, new, byte_level=byte_level))
        title.append(
            f"   {counted(change.pair_count, 'pair')} · {change.occurrences:,} fused · {counted(change.words_changed, 'word')}", "dim"
        )
        tree = _tree(stepper.derivation(new, before=change.rank + 1), None, byte_level)
        words = Text("words changed (before → after):\n", style="bold")
        for wc in change.changes:  # the most frequent, in order
            words.append(f"{wc.count:>6,}× ", "dim")
            words.append_text(tokens_text(wc.before, byte_level=byte_level))
            words.append("  →  ", "dim")
            words.append_text(tokens_text(wc.after, byte_level=byte_level, highlight=new))
            words.append("\n")
        if change.words_changed > MAX_WORDS:
            words.append(f"… and {change.words_changed - MAX_WORDS:,} more words", "dim")
        self.show(Group(title, tree, words))
