"""A Unigram step explained: the seeds, an EM iteration, a pruning round or the final vocabulary.

Each story says what the step decided and by which quantity -- an EM step re-estimates every
piece's score and drops those expected fewer than half a time; a pruning round removes the pieces
whose loss (how much the corpus log-likelihood drops without them) is lowest, and shows the best
removed piece against the worst kept one -- with the curve of vocabulary size and likelihood so far.
The lines are plain text with roles (:data:`~bpe_engine.explore.train_stepper.DetailRole`); the
front end colours them. The step's title and why line come before them, as for any step.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .surfaces import token_label
from .train_stepper import DetailLine

if TYPE_CHECKING:
    from .unigram_stepper import UnigramStepper

SPARKS = "▁▂▃▄▅▆▇█"
SHOWN = 8


def _label(piece: str) -> str:
    return token_label(piece, byte_level=False)


def spark(values: Sequence[float]) -> str:
    """A one-line curve of ``values``.

    >>> spark([1.0, 2.0, 3.0])
    '▁▄█'
    """
    if not values:
        return ""
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    return "".join(SPARKS[min(len(SPARKS) - 1, int((v - low) / span * (len(SPARKS) - 1)))] for v in values)


def _curve(steps: Sequence[Any]) -> tuple[DetailLine, ...]:
    """Vocabulary size and log-likelihood per EM step, up to the current step."""
    from ..training.unigram.steps import EmStep

    ems = [s for s in steps if isinstance(s, EmStep)]
    if not ems:
        return ()
    sizes = [float(s.vocab_size) for s in ems]
    lik = [-s.objective for s in ems]
    return (
        (("vocabulary ", "note"), (spark(sizes), "curve"), (f" {int(sizes[0]):,} → {int(sizes[-1]):,}", "note")),
        (("log-lik    ", "note"), (spark(lik), "curve2"), (f" {lik[0]:.3f} → {lik[-1]:.3f} per sentence", "note")),
    )


def unigram_detail(stepper: UnigramStepper) -> tuple[DetailLine, ...]:
    """The story of the stepper's current step, below its title and why."""
    from ..training.unigram.steps import EmStep, FinalStep, PruneStep, SeedStep

    step = stepper.steps[stepper.step - 1]
    lines: list[DetailLine] = []
    if isinstance(step, SeedStep):
        lines.append(((f"{step.num_chars:,} characters kept (character_coverage {step.coverage:g}); "
                       "seeds by frequency x length from a suffix array of the corpus", "note"),))
        if step.dropped_chars:
            lines.append(((f"dropped characters (become <unk>): {step.dropped_chars[:40]}", "warning"),))
        lines.append((("best seeds: ", "label"), ("  ".join(f"{_label(p)} {s:.2f}" for p, s in step.top(SHOWN)), "plain")))
    elif isinstance(step, EmStep):
        dropped = step.size_before - step.vocab_size
        lines.append(((f"{step.size_before:,} → {step.vocab_size:,} pieces ({dropped:,} expected fewer than half a time) · "
                       f"the corpus in {step.corpus_tokens:,} tokens under the model before it "
                       f"({step.num_tokens:,} over its distinct words, SentencePiece's count); every score re-estimated "
                       "(digamma update)", "note"),))
    elif isinstance(step, PruneStep):
        lines.append(((f"{step.size_before:,} → {step.size_after:,} pieces: the pieces the corpus misses least go", "note"),))
        losses = step.losses.tolist()
        order = sorted(range(len(losses)), key=lambda i: -losses[i])[:SHOWN]
        pieces = stepper.pieces_before(stepper.step - 1)
        lines.append((("removed (loss): ", "label"), ("  ".join(f"{_label(pieces[step.removed[i]])} {losses[i]:.3g}" for i in order), "plain")))
        if step.best_kept is not None:
            lines.append(((f"best kept: {_label(step.best_kept[0])} ({step.best_kept[1]:.4g})", "note"),))
    elif isinstance(step, FinalStep):
        restored = f": {' '.join(step.restored)}" if step.restored else ""
        lines.append(((f"{len(step.pieces):,} pieces: the best by score up to the vocabulary size, specials first; "
                       f"required characters EM dropped put back{restored}", "note"),))
    lines.extend(_curve(stepper.steps[: stepper.step]))
    return tuple(lines)


__all__ = ["SHOWN", "spark", "unigram_detail"]
