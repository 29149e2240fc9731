"""A Unigram step explained: the seeds, an EM iteration, a pruning round or the final vocabulary.

Each story says what the step decided and by which quantity -- an EM step re-estimates every
piece's score and drops those expected fewer than half a time; a pruning round removes the pieces
whose loss (how much the corpus log-likelihood drops without them) is lowest, and shows the best
removed piece against the worst kept one -- with the curve of vocabulary size and likelihood so far.
"""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.text import Text

from bpe_engine.explore.surfaces import token_label
from bpe_engine.explore.unigram_stepper import UnigramStepper

SPARKS = "▁▂▃▄▅▆▇█"
SHOWN = 8


def _label(piece: str) -> str:
    return token_label(piece, byte_level=False)


def _spark(values: list[float]) -> str:
    """A one-line curve of ``values`` (the first few hundred, squeezed to the points there are)."""
    if not values:
        return ""
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    return "".join(SPARKS[min(len(SPARKS) - 1, int((v - low) / span * (len(SPARKS) - 1)))] for v in values)


def _curve(stepper: UnigramStepper, upto: int) -> Text:
    """Vocabulary size and log-likelihood per EM step, up to step ``upto``."""
    from bpe_engine.training.unigram.steps import EmStep

    ems = [s for s in stepper.steps[:upto] if isinstance(s, EmStep)]
    out = Text()
    if ems:
        sizes = [float(s.vocab_size) for s in ems]
        lik = [-s.objective for s in ems]
        out.append("vocabulary ", "dim")
        out.append(_spark(sizes), "cyan")
        out.append(f" {int(sizes[0]):,} → {int(sizes[-1]):,}\n", "dim")
        out.append("log-lik    ", "dim")
        out.append(_spark(lik), "green")
        out.append(f" {lik[0]:.3f} → {lik[-1]:.3f} per sentence", "dim")
    return out


def unigram_detail(stepper: UnigramStepper) -> RenderableType:
    """The story of the stepper's current step."""
    from bpe_engine.training.unigram.steps import EmStep, FinalStep, PruneStep, SeedStep

    step = stepper.steps[stepper.step - 1]
    number = stepper.step
    parts: list[RenderableType] = []
    if isinstance(step, SeedStep):
        title = Text.assemble((f"step {number}: seeds ", "bold"), f"{len(step.pieces):,} pieces", (" (characters, then the substrings that occur most x longest)", "dim"))
        parts.append(title)
        parts.append(Text(f"why: frequency x length from a suffix array of the corpus · {step.num_chars:,} characters kept "
                          f"(character_coverage {step.coverage:g})", "dim"))
        if step.dropped_chars:
            parts.append(Text(f"dropped characters (become <unk>): {step.dropped_chars[:40]}", "yellow"))
        top = Text("best seeds: ", "bold")
        top.append("  ".join(f"{_label(p)} {s:.2f}" for p, s in step.top(SHOWN)))
        parts.append(top)
    elif isinstance(step, EmStep):
        parts.append(Text.assemble((f"step {number}: EM round {step.round + 1}, iteration {step.sub_iteration + 1}", "bold")))
        dropped = step.size_before - step.vocab_size
        parts.append(Text.assemble(
            ("why: ", "bold"), ("log-likelihood ", "bold cyan"), (f"{-step.objective:.4f}", "bold cyan"),
            (" per sentence under the model before this step; every score re-estimated (digamma update)", "dim"),
        ))
        parts.append(Text(f"{step.size_before:,} → {step.vocab_size:,} pieces ({dropped:,} expected fewer than half a time) · "
                          f"the corpus in {step.corpus_tokens:,} tokens under the model before it "
                          f"({step.num_tokens:,} over its distinct words, SentencePiece's count)", "dim"))
    elif isinstance(step, PruneStep):
        parts.append(Text.assemble((f"step {number}: pruning round {step.round + 1}: ", "bold"),
                                   f"{step.size_before:,} → {step.size_after:,} pieces"))
        why = Text.assemble(("why: ", "bold"), ("loss ", "bold cyan"), (f"{step.threshold:.4g}", "bold cyan"),
                            (" -- the pieces the corpus misses least go", "dim"))
        if step.runner_up is not None:
            (gone, gone_loss), (kept, kept_loss), tie = step.runner_up
            why.append(f" · best removed {_label(gone)} ({gone_loss:.4g}) vs worst kept {_label(kept)} ({kept_loss:.4g})",
                       "yellow" if tie else "dim")
            if tie:
                why.append(" · tied: the trainer's order decided", "yellow")
        parts.append(why)
        removed = Text("removed (loss): ", "bold")
        losses = step.losses.tolist()
        order = sorted(range(len(losses)), key=lambda i: -losses[i])[:SHOWN]
        pieces = stepper.pieces_before(stepper.step - 1)
        removed.append("  ".join(f"{_label(pieces[step.removed[i]])} {losses[i]:.3g}" for i in order))
        parts.append(removed)
        if step.best_kept is not None:
            parts.append(Text(f"best kept: {_label(step.best_kept[0])} ({step.best_kept[1]:.4g})", "dim"))
    elif isinstance(step, FinalStep):
        parts.append(Text.assemble((f"step {number}: the final vocabulary ", "bold"), f"{len(step.pieces):,} pieces"))
        parts.append(Text("why: the best pieces by score up to the vocabulary size, specials first; "
                          "required characters EM dropped put back" + (f": {' '.join(step.restored)}" if step.restored else ""), "dim"))
    parts.append(_curve(stepper, stepper.step))
    return Group(*parts)


__all__ = ["unigram_detail"]
