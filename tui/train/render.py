"""Rich ``Text`` for tokens and the segmented corpus, built from plain strings only.

Every piece of user text passes through :mod:`bpe_engine.display` first, then goes into a
``Text`` as plain content (never into a markup string), so ``[bold]``, escape sequences, bidi
controls and zero-width characters show visibly instead of taking effect.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from rich.text import Text
from textual.content import Content, Span

from bpe_engine.core.block_text import Text as CorpusText
from bpe_engine.display import decode_bytes_visibly, visible_text
from bpe_engine.explore.surfaces import token_bytes_of, token_label, token_surface

TOKEN_STYLES = ("on #22384f", "on #4a3050")  # alternating token backgrounds
HIGHLIGHT_STYLE = "bold black on #e0b040"  # tokens created by the selected merge
SPLIT_STYLE = "underline"  # a character whose bytes are still split across tokens
GAP_STYLE = "dim"


def token_text(token: str, *, byte_level: bool) -> str:
    """A token's readable label (the engine's :func:`~bpe_engine.explore.surfaces.token_label`)."""
    return token_label(token, byte_level=byte_level)


def merge_text(left: str, right: str, new: str, *, byte_level: bool) -> Text:
    """``left + right → new`` as Text (user text as plain content)."""
    out = Text()
    out.append(token_text(left, byte_level=byte_level), "bold")
    out.append(" + ", "dim")
    out.append(token_text(right, byte_level=byte_level), "bold")
    out.append(" → ", "dim")
    out.append(token_text(new, byte_level=byte_level), "bold cyan")
    return out


def tokens_text(tokens: tuple[str, ...], *, byte_level: bool, highlight: str | None = None) -> Text:
    """A word's tokens separated by thin dividers, the highlighted token emphasised."""
    out = Text()
    for i, tok in enumerate(tokens):
        if i:
            out.append("·", "dim")
        out.append(token_text(tok, byte_level=byte_level), HIGHLIGHT_STYLE if tok == highlight else "")
    return out


@lru_cache(maxsize=65536)
def _byte_display(token: str) -> tuple[bytes, str | None]:
    """A byte-level token's bytes and, when they decode on their own, their visible text."""
    data = token_bytes_of(token)
    try:
        return data, visible_text(data.decode("utf-8"), keep_newlines=True)
    except UnicodeDecodeError:
        return data, None


class _Builder:
    """Accumulates text and style spans; one Content at the end is far cheaper than a rich Text
    with thousands of appends (each converted style by style when the Static updates)."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.spans: list[Span] = []
        self.length = 0

    def add(self, text: str, style: str) -> None:
        if not text:
            return
        end = self.length + len(text)
        self.parts.append(text)
        self.spans.append(Span(self.length, end, style))
        self.length = end

    def content(self) -> Content:
        return Content("".join(self.parts), self.spans)


def segmented_text(
    pieces: Iterable[tuple[int, int, tuple[str, ...]]],
    text: CorpusText,
    start: int,
    end: int,
    *,
    byte_level: bool,
    highlight: str | None = None,
) -> Content:
    """The corpus characters ``[start, end)`` drawn token by token: ``pieces`` are a stepper's
    ``window`` -- each piece's span and its tokens at the step.

    Tokens alternate two background colours; tokens equal to ``highlight`` stand out. In a
    byte-level model a character whose bytes are split across tokens is drawn once, underlined,
    over the tokens that share it, so Korean or emoji stay readable at early steps. A ``</w>`` is
    drawn as a visible mark (the engine's token surface).
    """
    out = _Builder()
    pos = start
    parity = 0
    for p_start, p_end, tokens in pieces:
        if p_start > pos:
            out.add(visible_text(text[pos:p_start], keep_newlines=True), GAP_STYLE)
        if byte_level:
            pending = b""
            pending_hl = False
            pending_n = 0
            for tok in tokens:
                data, shown = _byte_display(tok)
                if shown is not None and not pending:  # the common case: a token that is whole text
                    out.add(shown, HIGHLIGHT_STYLE if tok == highlight else TOKEN_STYLES[parity])
                    parity ^= 1
                    continue
                pending += data
                pending_hl = pending_hl or tok == highlight
                pending_n += 1
                try:
                    piece = pending.decode("utf-8")
                except UnicodeDecodeError:
                    if len(pending) < 4:
                        continue
                    piece = decode_bytes_visibly(pending)
                style = HIGHLIGHT_STYLE if pending_hl else TOKEN_STYLES[parity]
                if pending_n > 1:
                    style += " " + SPLIT_STYLE
                out.add(visible_text(piece, keep_newlines=True), style)
                parity ^= 1
                pending, pending_hl, pending_n = b"", False, 0
            if pending:
                out.add(decode_bytes_visibly(pending), TOKEN_STYLES[parity])
                parity ^= 1
        else:
            for tok in tokens:
                style = HIGHLIGHT_STYLE if tok == highlight else TOKEN_STYLES[parity]
                out.add(visible_text(str(token_surface(tok, byte_level=False)), keep_newlines=True), style)
                parity ^= 1
        pos = max(pos, p_end)
    if pos < end:
        out.add(visible_text(text[pos:end], keep_newlines=True), GAP_STYLE)
    return out.content()


def counting_text(done: int, total: int) -> Text:
    """How far cutting the corpus into words has come (the facts line and the progress line)."""
    return Text.assemble(("counting words: ", "bold"), f"{done:,} / {total:,} characters")
