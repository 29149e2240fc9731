"""The selected step explained: what it did, why it won, and what it changed.

Every step shows its title (as its kind declares it) and its why: the deciding quantity (a
count, a score, a loss, a log-likelihood), the runner-up, a tie with the tied candidates and the
rule that broke it. Below, what the stepper declares it explains (``explains``): for merges, the
tree of earlier merges that built the two parts and the words the merge rewrote, before → after,
each with the word itself (a byte-level Korean word's tokens are bytes); for the others, the
stepper's own lines (a Unigram step's story), coloured here by their roles.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.text import Text
from rich.tree import Tree

from bpe_engine.display import counted, visible_text
from bpe_engine.explore.merge_tree import MergeNode
from bpe_engine.explore.step_rows import title_of
from bpe_engine.explore.surfaces import merge_number, token_label
from bpe_engine.explore.train_stepper import DetailLine, DetailRole, MergeExplainer, TrainStepper
from bpe_engine.training.steps import COUNTED, StepWhy, TrainingStep

from ..widgets.fixed_text import FixedText
from .render import merge_text, tokens_text

MAX_WORDS = 12
ROLE_STYLES: dict[DetailRole, str] = {
    "title": "bold",
    "why": "bold",
    "value": "bold cyan",
    "note": "dim",
    "warning": "yellow",
    "label": "bold",
    "plain": "",
    "curve": "cyan",
    "curve2": "green",
}
"""How a stepper's detail lines look, by role (the engine names roles, never colours)."""


def _tree(node: MergeNode, tree: Tree | None, byte_level: bool) -> Tree:
    label = Text(token_label(node.token, byte_level=byte_level), style="bold")
    if node.rank is not None:
        label.append(f"  {merge_number(node.rank)}", style="dim")
    branch = Tree(label) if tree is None else tree.add(label)
    for child in node.children:
        _tree(child, branch, byte_level)
    return branch


def _value(why: StepWhy, value: float) -> str:
    return f"{value:,}" if why.quantity in COUNTED else f"{value:.4g}"


def why_text(why: StepWhy, *, byte_level: bool) -> Text:
    """``why: count 9 · tied with (s, t), (t, </w>) · rule hf: ...`` -- or the runner-up's margin."""
    out = Text("why: ", style="bold")
    out.append(f"{why.quantity} {_value(why, why.value)}", "bold cyan")

    def pair(candidate: tuple[str, ...]) -> str:
        return " + ".join(token_label(t, byte_level=byte_level) for t in candidate)

    if why.is_tie:
        shown = ", ".join(pair(c) for c in why.tied)
        more = " and more" if why.tied_total > len(why.tied) else ""
        out.append(f" · tied with {shown}{more}", "yellow")
        out.append(f" · decided by {why.rule}", "yellow")
    elif why.runner_up is not None and why.runner_up_value is not None:
        out.append(f" · runner-up {pair(why.runner_up)} at {_value(why, why.runner_up_value)}", "dim")
    elif not why.note:
        out.append(" · no other candidate", "dim")
    if why.note:
        out.append(f" · {why.note}", "dim")
    return out


def detail_text(lines: tuple[DetailLine, ...]) -> Text:
    """A stepper's detail lines, each span in its role's style."""
    out = Text()
    for i, line in enumerate(lines):
        if i:
            out.append("\n")
        for text, role in line:
            out.append(text, ROLE_STYLES.get(role, ""))
    return out


class StepDetail(FixedText):
    """Shows how step k was decided and what it rewrote (the app calls :meth:`show_step`)."""

    def show_none(self) -> None:
        self.show(Text("select a step (↑/↓ in the list, n/b to step) to see why it won and what it changed", style="dim"))

    def show_step(self, stepper: TrainStepper, steps: Sequence[TrainingStep], *, byte_level: bool) -> None:
        """Step ``stepper.step`` of ``steps`` (the run's log), as its stepper explains it."""
        if stepper.step == 0:
            self.show_none()
            return
        if stepper.explains == "merges":
            self.show(self._merge(stepper, byte_level))  # type: ignore[arg-type]  # declared by explains
            return
        step = steps[stepper.step - 1]
        parts: list[RenderableType] = [Text(f"step {stepper.step:,}: {title_of(step, byte_level=byte_level)}", style="bold")]
        if step.why is not None:
            parts.append(why_text(step.why, byte_level=byte_level))
        parts.append(detail_text(stepper.detail()))
        self.show(Group(*parts))

    def _merge(self, stepper: MergeExplainer, byte_level: bool) -> RenderableType:
        change = stepper.last_change_top(MAX_WORDS)
        assert change is not None
        left, right, new = stepper.merge_at(change.rank)
        title = Text.assemble((f"{merge_number(change.rank)}: ", "bold"))
        title.append_text(merge_text(left, right, new, byte_level=byte_level))
        title.append(
            f"   {counted(change.pair_count, 'pair')} · {change.occurrences:,} fused · {counted(change.words_changed, 'word')}", "dim"
        )
        parts: list[RenderableType] = [title]
        step = stepper.step_at(change.rank)
        if step is not None and step.why is not None:
            parts.append(why_text(step.why, byte_level=byte_level))
        parts.append(_tree(stepper.derivation(new, before=change.rank + 1), None, byte_level))
        words = Text("words changed (before → after):\n", style="bold")
        texts = stepper.word_texts
        for wc in change.changes:  # the most frequent, in order
            words.append(f"{wc.count:>6,}× ", "dim")
            if wc.word_id < len(texts):
                words.append(visible_text(texts[wc.word_id]), "italic")
                words.append("  ", "dim")
            words.append_text(tokens_text(wc.before, byte_level=byte_level))
            words.append("  →  ", "dim")
            words.append_text(tokens_text(wc.after, byte_level=byte_level, highlight=new))
            words.append("\n")
        if change.words_changed > MAX_WORDS:
            words.append(f"… and {change.words_changed - MAX_WORDS:,} more words", "dim")
        parts.append(words)
        return Group(*parts)


__all__ = ["ROLE_STYLES", "StepDetail", "detail_text", "why_text"]
