"""Rich ``Text`` for the inspector: token chips, one token's details, the streaming decoder and
the merge tree. User text always goes through :mod:`bpe_engine.display` into plain ``Text``
content (never markup), so escapes, bidi and zero-width characters show instead of acting.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.style import Style
from rich.text import Text

from bpe_engine.compare.layout import cell_text
from bpe_engine.core.merge_node import MergeNode, render_tree
from bpe_engine.display import counted, token_label, visible_text
from bpe_engine.explore.surfaces import merge_number
from bpe_engine.inspect import PartialGroup, StreamStep, TokenDetail
from bpe_engine.types import UNKNOWN_ID
from bpe_styles import SEGMENT_STYLES

from ..models import sources
from ..state import ExplorerState
from .encoding import Inspected

CHIP_STYLES = (SEGMENT_STYLES["tok0"], SEGMENT_STYLES["tok1"])  # the same looks as Compare's rows
SPECIAL_STYLE = SEGMENT_STYLES["special"]
UNKNOWN_STYLE = SEGMENT_STYLES["unknown"]
UNKNOWN_MARK = "?"
SELECTED_STYLE = "bold reverse"
LIT_STYLE = "bold underline"
GROUP_STYLE = "bold #fab387"
MAX_CHIPS = 2000  # beyond this the chip line is cut (and says so): a terminal shows far fewer


def chips_text(
    details: Sequence[TokenDetail], groups: Sequence[PartialGroup], text: str, selected: int, *, byte_level: bool, lit: int | None = None
) -> Text:
    """The tokens as coloured chips; tokens that only together hold a character are bracketed
    ``⟦ … ⟧=한`` so no single chip claims the whole character; an unknown piece (the vocabulary
    has no token for its text) is purple and ends in ``?``. Chips are clickable."""
    out = Text()
    if not details:
        out.append("(no tokens: type some text above)", "dim")
        return out
    starts = {g.tokens[0]: g for g in groups}
    ends = {g.tokens[1] - 1: g for g in groups}
    for d in details[:MAX_CHIPS]:
        i = d.index
        if i in starts:
            out.append("⟦", GROUP_STYLE)
        style = SPECIAL_STYLE if d.special else UNKNOWN_STYLE if d.unknown else CHIP_STYLES[i % 2]
        if i == selected:
            style = f"{style} {SELECTED_STYLE}"
        elif i == lit:
            style = f"{style} {LIT_STYLE}"
        label = token_label(d.data, byte_level=byte_level) or "∅"
        if d.unknown:
            label += UNKNOWN_MARK
        out.append(Text(label, style=Style.parse(style) + Style(meta={"@click": f"select_token({i})", "token": i})))
        if i in ends:
            g = ends[i]
            out.append("⟧", GROUP_STYLE)
            out.append("=" + visible_text(text[g.chars[0] : g.chars[1]]), "dim")
        out.append(" ")
    if len(details) > MAX_CHIPS:
        out.append(f"… {len(details) - MAX_CHIPS:,} more tokens not drawn", "dim")
    return out


def detail_text(d: TokenDetail, total: int, groups: Sequence[PartialGroup], text: str, *, byte_level: bool) -> Text:
    """Everything about one token: id, forms, bytes and their UTF-8 roles, decode, span."""
    out = Text()
    out.append(f"token {d.index + 1} of {total}", "bold")
    out.append(f"   id {d.id}" if d.id != UNKNOWN_ID else "   no id", "bold cyan")
    if d.special:
        out.append("   special token", SPECIAL_STYLE)
    if d.unknown:
        out.append("   unknown piece", UNKNOWN_STYLE)
    out.append("\n")
    _field(out, "model form", visible_text(d.token))
    _field(out, "label", token_label(d.data, byte_level=byte_level))
    _field(out, "byte chars", visible_text(d.byte_chars))
    _field(out, "bytes", d.hex or "(none)")
    out.append(f"{'UTF-8':<11}", "dim")
    for k, role in enumerate(d.roles):
        if k:
            out.append(" · ", "dim")
        out.append(role.hex, "bold")
        out.append(f" {role.label}", "red" if role.kind == "invalid" else "")
    out.append("\n")
    standalone = d.standalone
    out.append(f"{'decodes to':<11}", "dim")
    if standalone is None:
        out.append("incomplete", "bold red")
        out.append(" (not whole UTF-8 on its own)", "dim")
    else:
        out.append(visible_text(standalone) or "(empty)")
    out.append("\n")
    out.append(f"{'characters':<11}", "dim")
    out.append(f"{d.char_span[0]}–{d.char_span[1]}  ")
    for k, piece in enumerate(d.pieces):
        if k:
            out.append(", ", "dim")
        if piece.whole:
            out.append(cell_text(piece.char))
        else:
            # Only the bytes this token holds, never the whole character as if it were its own.
            out.append(piece.describe(), "red")
    out.append("\n")
    _field(out, "byte span", f"{d.byte_span[0]}–{d.byte_span[1]}")
    if d.group is not None and d.group < len(groups):
        g = groups[d.group]
        out.append(f"{'group':<11}", "dim")
        out.append(f"tokens {g.tokens[0] + 1}–{g.tokens[1]} together make ", GROUP_STYLE)
        out.append(visible_text(text[g.chars[0] : g.chars[1]]), "bold")
        out.append("\n")
    if d.data_note:
        out.append(d.data_note, "red")
    return out


def stream_text(steps: Sequence[StreamStep], upto: int, *, window: int = 6) -> Text:
    """The decoder after tokens 0..upto: text so far, and the last few steps with their status."""
    out = Text()
    out.append("streaming decode", "bold")
    out.append("  (←/→ step through tokens)\n", "dim")
    if not steps or upto < 0:
        out.append("(nothing yet)", "dim")
        return out
    upto = min(upto, len(steps) - 1)
    done = "".join(s.emitted for s in steps[: upto + 1])
    out.append("so far: ", "dim")
    out.append(visible_text(done[-200:]), "bold green")
    current = steps[upto]
    if current.pending:
        out.append(" + ", "dim")
        out.append(current.pending.hex(" ").upper(), "bold yellow")
    out.append("\n")
    for s in steps[max(0, upto - window + 1) : upto + 1]:
        mark = "▶ " if s is current else "  "
        out.append(mark + (f"#{s.index + 1:<4}" if s.index >= 0 else "end  "), "bold" if s is current else "dim")
        out.append(f"{s.data.hex(' ').upper():<15} ")
        if s.emitted:
            out.append(visible_text(s.emitted), "green")
            out.append("  ")
        out.append(s.status, "yellow" if s.waiting else "dim")
        out.append("\n")
    return out


def tree_text(node: MergeNode | None, model_name: str, *, byte_level: bool) -> Text:
    """"Why this token": the merges that build it, each with its rank."""
    out = Text()
    out.append("why this token\n", "bold")
    if node is None:
        out.append(f"{visible_text(model_name)} is not built from merges (no merge tree)", "dim")
        return out
    for prefix, n in render_tree(node):
        out.append(prefix, "dim")
        out.append(token_label(n.data, byte_level=byte_level) or "∅", "bold")
        if n.kind == "merge":
            out.append(f"  {merge_number(n.rank or 0)}", "dim")
        else:
            out.append(f"  {n.kind}", "dim")
        out.append("\n")
    return out


def _field(out: Text, name: str, value: str) -> None:
    out.append(f"{name:<11}", "dim")
    out.append(value)
    out.append("\n")


def status_text(r: Inspected, state: ExplorerState, mode: str) -> Text:
    """The line above the coloured text: the tokenizer (and k, for ours), the counts, the notes."""
    status = Text()
    status.append(f"{visible_text(sources.label_of(r.spec))}", "bold")
    if r.spec == sources.OURS and state.step_total:
        status.append(f" k={state.step:,} of {state.step_total:,} (follows the Train step)", "bold")
    status.append(
        f" · {counted(len(r.details), 'token')}, {counted(len(r.text), 'character')}, {counted(r.graphemes, 'grapheme')}, "
        f"{counted(len(r.text.encode('utf-8', 'surrogatepass')), 'byte')}",
        "dim",
    )
    if r.groups:
        status.append(f" · {counted(len(r.groups), 'character')} split across tokens", "#fab387")
    # last: the selector above says it too, and a small terminal shows two lines of this
    status.append(f" · special text: {mode}", "dim")
    for note in r.notes:
        status.append(f"\n{note}", "yellow")
    if r.error:
        status.append("\n")
        status.append(visible_text(r.error), "bold red")
    return status
