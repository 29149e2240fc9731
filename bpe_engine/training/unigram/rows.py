"""The Unigram step kinds' rows and titles in the step list (``seed``, ``em``, ``prune``, ``final``).

A Unigram step is an EM iteration or a pruning round, not a merge: its row shows the vocabulary
after it, the log-likelihood (EM) or the loss threshold (pruning), and the corpus tokens the EM
step counted. The registration (:mod:`.spec`) points here; numpy is imported with the steps only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...explore.step_rows import tie_mark
from ...explore.surfaces import token_label

if TYPE_CHECKING:
    from .steps import EmStep, FinalStep, PruneStep, SeedStep


def _number(index: int) -> str:
    return f"{index + 1:,}"


def seed_row(step: SeedStep, *, byte_level: bool = False) -> tuple[str, ...]:  # noqa: ARG001 - Unigram pieces are characters
    top = token_label(step.top(1)[0][0], byte_level=False) if step.pieces else "none"
    return _number(step.index), f"seeds: {len(step.pieces):,} pieces (top {top})", f"{len(step.pieces):,}", "", ""


def seed_title(step: SeedStep, *, byte_level: bool = False) -> str:  # noqa: ARG001
    return f"seeds {len(step.pieces):,} pieces (characters, then the substrings that occur most x longest)"


def em_row(step: EmStep, *, byte_level: bool = False) -> tuple[str, ...]:  # noqa: ARG001
    label = f"EM round {step.round + 1}.{step.sub_iteration + 1}"
    return _number(step.index), label, f"{step.vocab_size:,}", f"{-step.objective:,.4f}", f"{step.corpus_tokens:,}"


def em_title(step: EmStep, *, byte_level: bool = False) -> str:  # noqa: ARG001
    return f"EM round {step.round + 1}, iteration {step.sub_iteration + 1}"


def prune_row(step: PruneStep, *, byte_level: bool = False) -> tuple[str, ...]:  # noqa: ARG001
    label = f"prune round {step.round + 1}: -{step.size_before - step.size_after:,} pieces"
    return _number(step.index), label, f"{step.size_after:,}", f"{step.threshold:.4g}{tie_mark(step.why)}", ""


def prune_title(step: PruneStep, *, byte_level: bool = False) -> str:  # noqa: ARG001
    return f"pruning round {step.round + 1}: {step.size_before:,} → {step.size_after:,} pieces"


def final_row(step: FinalStep, *, byte_level: bool = False) -> tuple[str, ...]:  # noqa: ARG001
    label = f"final vocabulary ({len(step.restored):,} characters restored)"
    return _number(step.index), label, f"{len(step.pieces):,}", "", ""


def final_title(step: FinalStep, *, byte_level: bool = False) -> str:  # noqa: ARG001
    return f"the final vocabulary {len(step.pieces):,} pieces"


__all__ = ["em_row", "em_title", "final_row", "final_title", "prune_row", "prune_title", "seed_row", "seed_title"]
