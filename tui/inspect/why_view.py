""""Why this token" drawn: the merge tree, the Unigram choice against its rivals, the HF stages.

:func:`why_text` renders a :class:`bpe_engine.inspect.why.TokenWhy`; every token form and piece of
text goes through the display helpers (never markup).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from rich.text import Text

from bpe_engine.display import visible_text
from bpe_engine.explore.regularization import WordSamples
from bpe_engine.explore.surfaces import token_label
from bpe_engine.inspect.why import Stage, TokenWhy

from .render import tree_text

if TYPE_CHECKING:  # numpy comes with the Unigram trainer: not imported until a Unigram run
    from bpe_engine.sentencepiece.explain import UnigramChoice
    from bpe_engine.training.unigram.history import PieceStory

ORDINALS = ("best", "2nd", "3rd", "4th", "5th", "6th", "7th")


def why_text(why: TokenWhy, model_name: str, *, byte_level: bool) -> Text:
    """Everything ``why`` holds, the Unigram choice or the merge tree first, then the stages."""
    if why.unigram is not None:
        out = unigram_text(why.unigram, why.focus)
    elif why.tree is not None:
        out = tree_text(why.tree, model_name, byte_level=byte_level)
        if not why.tree.children and len(why.tree.data) == 1 and why.tree.token.startswith("<0x"):
            out.append(
                f"a byte-fallback piece: no piece of the vocabulary holds this character, so it is spelled as its "
                f"UTF-8 bytes; this piece is the byte {why.tree.data.hex().upper()}\n",
                "#fab387",
            )
        if why.note:
            out.append(visible_text(why.note) + "\n", "dim")
    else:
        out = Text()
        out.append("why this token\n", "bold")
        out.append(visible_text(why.note or f"{model_name} is not built from merges (no merge tree)"), "dim")
        out.append("\n")
    for stage in why.stages:
        out.append("\n")
        out.append_text(stage_text(stage))
    if why.story is not None:
        out.append("\n")
        out.append_text(story_text(why.story))
    if why.samples is not None:
        out.append("\n")
        out.append_text(samples_text(why.samples, byte_level=byte_level))
        # said first: below a tall merge tree the section is out of sight
        out = Text.assemble((f"↓ below: {why.samples.method}, the other cuts of this word\n", "dim"), out)
    return out


def story_text(story: PieceStory) -> Text:
    """A Unigram piece's life in the run: when it entered, its score after each EM step, how it
    left or where it stands in the final model."""
    out = Text()
    out.append("this piece in training", "bold")
    out.append(f" — entered at step {story.entered + 1:,}" + (" (the seeds)" if story.entered == 0 else "") + "\n", "dim")
    if story.scores:
        first_step, first = story.scores[0]
        last_step, last = story.scores[-1]
        out.append(f"score {first:.3f} after step {first_step + 1:,} → {last:.3f} after step {last_step + 1:,}  ", "")
        out.append(sparkline([score for _, score in story.scores]), "#89b4fa")
        out.append("\n")
    if story.removed_at is not None:
        why = _REMOVED.get(story.reason or "", story.reason or "")
        loss = f" (the likelihood falls by {story.loss:.4g} without it)" if story.loss is not None else ""
        out.append(f"removed at step {story.removed_at + 1:,}: {why}{loss}\n", "#fab387")
    elif story.final_id is not None:
        out.append(f"kept: id {story.final_id:,} of the final vocabulary\n", "green")
    return out


_REMOVED = {
    "loss": "pruned, among the pieces the corpus misses least",
    "unused": "pruned: no best segmentation used it",
    "split": "pruned: its best segmentation is other pieces",
    "m-step": "expected fewer than half a time in the corpus (M-step)",
    "finalize": "cut when the vocabulary was trimmed to its size",
}
SPARKS = "▁▂▃▄▅▆▇█"


def sparkline(values: list[float]) -> str:
    """The shape of a short series, one cell a value (the last 40)."""
    values = values[-40:]
    lo, hi = min(values), max(values)
    if hi - lo < 1e-12:
        return SPARKS[3] * len(values)
    return "".join(SPARKS[round((v - lo) / (hi - lo) * (len(SPARKS) - 1))] for v in values)


def samples_text(drawn: WordSamples, *, byte_level: bool, width: int = 12) -> Text:
    """The word's segmentations under regularization: probability, share of the samples, a bar
    scaled to the most drawn one; the tokenizer's own segmentation is reversed."""
    out = Text()
    out.append(f"{drawn.method} ({drawn.setting}, r changes it)", "bold")
    out.append(f" — {visible_text(repr(drawn.word))}, {drawn.n:,} samples\n", "dim")
    out.append(("  exact   drawn\n" if drawn.exact else "  drawn (the probability, estimated)\n"), "dim")
    top = max((seg.samples for seg in drawn.segmentations), default=0) or 1
    for seg in drawn.segmentations:
        if drawn.exact:
            out.append(f"{seg.probability:7.1%} ", "bold")
        out.append(f"{seg.samples / drawn.n if drawn.n else 0.0:7.1%} ", "" if drawn.exact else "bold")
        cells = round(seg.samples / top * width)
        out.append("█" * cells + " " * (width - cells), "#89b4fa")
        out.append(" ")
        plain = seg.pieces == drawn.plain
        for k, piece in enumerate(seg.pieces):
            if k:
                out.append(" ", "dim")
            out.append(token_label(piece, byte_level=byte_level), "reverse" if plain else "underline")
        if plain:
            out.append("  ← unregularized", "green")
        out.append("\n")
    return out


def unigram_text(choice: UnigramChoice, focus: int | None = None) -> Text:
    """Viterbi's choice for the word and the next best segmentations, with log-probabilities."""
    out = Text()
    out.append("why this token", "bold")
    out.append(" — Unigram: Viterbi keeps the most probable way to cut the word\n", "dim")
    out.append("word ", "dim")
    out.append(visible_text(choice.normalized), "bold")
    out.append("\n")
    ranked = (choice.best, *choice.alternatives)
    for rank, seg in enumerate(ranked):
        chosen = rank == 0
        out.append(f"{ORDINALS[rank] if rank < len(ORDINALS) else f'{rank + 1}th':<5}", "bold green" if chosen else "dim")
        out.append(f"log p {seg.score:8.2f}  ", "bold" if chosen else "")
        if not chosen:
            out.append(f"({seg.score - choice.best.score:+.2f}) ", "#fab387")
        for k, p in enumerate(seg.pieces):
            if k:
                out.append(" ", "dim")
            style = "reverse bold" if chosen else "underline"
            if chosen and k == focus:
                style = "reverse bold #fab387"  # the selected token
            out.append(visible_text(p.piece), style)
            if p.unknown:
                out.append("?", "bold red")
        out.append("\n")
    margin = choice.margin
    if margin is None:
        out.append("no other way to cut this word\n", "dim")
    else:
        ratio = math.exp(min(margin, 700.0))
        out.append(f"margin {margin:.2f}: the chosen cut is {ratio:,.2f}× as probable as the next\n", "bold")
    out.append("pieces: ", "dim")
    out.append(" · ".join(f"{visible_text(p.piece)} {p.score:.2f}" for p in choice.best.pieces), "dim")
    out.append("\n")
    return out


def stage_text(stage: Stage) -> Text:
    """One pipeline stage: its parts, the part holding the token highlighted."""
    out = Text()
    out.append(f"{stage.name}: ", "bold")
    for k, part in enumerate(stage.parts):
        if k:
            out.append(" │ " if stage.name != "normalized" else "", "dim")
        out.append(part.text, "reverse bold" if part.holds else "")
    out.append("\n")
    return out
