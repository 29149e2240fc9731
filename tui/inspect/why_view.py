""""Why this token" drawn: the merge tree, the Unigram choice against its rivals, the HF stages.

:func:`why_text` renders a :class:`bpe_engine.inspect.why.Why`; every token form and piece of
text goes through the display helpers (never markup).
"""

from __future__ import annotations

import math

from rich.text import Text

from bpe_engine.display import visible_text
from bpe_engine.inspect.why import Stage, Why

from .render import tree_text

ORDINALS = ("best", "2nd", "3rd", "4th", "5th", "6th", "7th")


def why_text(why: Why, model_name: str, *, byte_level: bool) -> Text:
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
    return out


def unigram_text(choice: object, focus: int | None = None) -> Text:
    """Viterbi's choice for the word and the next best segmentations, with log-probabilities."""
    out = Text()
    out.append("why this token", "bold")
    out.append(" — Unigram: Viterbi keeps the most probable way to cut the word\n", "dim")
    out.append("word ", "dim")
    out.append(visible_text(choice.normalized), "bold")  # type: ignore[attr-defined]
    out.append("\n")
    ranked = (choice.best, *choice.alternatives)  # type: ignore[attr-defined]
    for rank, seg in enumerate(ranked):
        chosen = rank == 0
        out.append(f"{ORDINALS[rank] if rank < len(ORDINALS) else f'{rank + 1}th':<5}", "bold green" if chosen else "dim")
        out.append(f"log p {seg.score:8.2f}  ", "bold" if chosen else "")
        if not chosen:
            out.append(f"({seg.score - choice.best.score:+.2f}) ", "#fab387")  # type: ignore[attr-defined]
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
    margin = choice.margin  # type: ignore[attr-defined]
    if margin is None:
        out.append("no other way to cut this word\n", "dim")
    else:
        ratio = math.exp(min(margin, 700.0))
        out.append(f"margin {margin:.2f}: the chosen cut is {ratio:,.2f}× as probable as the next\n", "bold")
    out.append("pieces: ", "dim")
    out.append(" · ".join(f"{visible_text(p.piece)} {p.score:.2f}" for p in choice.best.pieces), "dim")  # type: ignore[attr-defined]
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
