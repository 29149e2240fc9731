"""Compare's Chat view: the text box as a conversation, and the prompt each row's model reads.

The text is one user message, or OpenAI-style messages when it starts with ``[`` or ``{``
(:func:`bpe_engine.chat.conversation_of_text`). For every row whose tokenizer has a chat format,
the view shows the prompt that format builds (:func:`bpe_engine.chat.chat_prompt`): a head line
with the count, how many are control tokens and whether the format is exact or a documented
convention, then the tokens on alternating backgrounds with the control tokens lit. Rows without a
format say so. The engine computes it all; this widget only lays it out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll

from bpe_engine.chat import ChatError, ChatPrompt, chat_prompt, conversation_of_text, token_labels
from bpe_engine.display import visible_text
from bpe_engine.errors import BpeEngineError

from bpe_styles import SEGMENT_STYLES
from ..widgets.steady_static import SteadyStatic

_TOKEN_STYLES = (SEGMENT_STYLES["tok0"], SEGMENT_STYLES["tok1"])
MAX_CHAT_CHARS = 20_000
"""The Chat view builds its prompts on the UI thread: a longer text says so instead of stalling."""


@dataclass(frozen=True)
class ChatRow:
    """One row of the view: its label and either the prompt or why there is none."""

    label: str
    prompt: ChatPrompt | None
    labels: tuple[str, ...] = ()
    problem: str = ""


def chat_rows(text: str, rows: Sequence[tuple[str, Any]]) -> tuple[str, list[ChatRow]]:
    """(what the conversation is, one :class:`ChatRow` per ``(label, tokenizer)``)."""
    if len(text) > MAX_CHAT_CHARS:
        return f"the text is {len(text):,} characters; the Chat view builds prompts of at most {MAX_CHAT_CHARS:,}", []
    try:
        messages = conversation_of_text(text)
    except ChatError as exc:
        return str(exc), []
    out = []
    for label, tokenizer in rows:
        try:
            prompt = chat_prompt(tokenizer, messages)
        except BpeEngineError as exc:
            out.append(ChatRow(label, None, problem=str(exc)))
            continue
        out.append(ChatRow(label, prompt, tuple(token_labels(tokenizer, prompt))))
    roles = ", ".join(m.role for m in messages)
    return f"{len(messages)} message{'s' if len(messages) != 1 else ''} ({roles}) + the reply's opening", out


class ChatView(VerticalScroll, can_focus=True):
    """The prompts of one conversation, row by row (see the module docstring)."""

    DEFAULT_CSS = "ChatView { height: 1fr; } ChatView > SteadyStatic { margin-bottom: 1; }"

    def compose(self) -> ComposeResult:
        yield SteadyStatic(id="chat-body", markup=False)

    def show(self, text: str, rows: Sequence[tuple[str, Any]]) -> None:
        """Build and draw the prompts of ``text`` for ``rows`` (``(label, tokenizer)`` pairs)."""
        summary, shown = chat_rows(text, rows)
        body = Text(visible_text(summary) + "\n\n", style="dim")
        for row in shown:
            body.append(visible_text(row.label), style="bold")
            if row.prompt is None:
                body.append(f" · {visible_text(row.problem)}\n\n", style="dim")
                continue
            fmt = row.prompt.format
            body.append(f" · {row.prompt.count:,} tokens, {row.prompt.special_count:,} control · {fmt.title}, {fmt.kind}\n")
            for i, (label, special) in enumerate(zip(row.labels, row.prompt.special)):
                body.append(label, style=SEGMENT_STYLES["special"] if special else _TOKEN_STYLES[i % 2])
            body.append("\n\n")
        self.query_one("#chat-body", SteadyStatic).show(body)


__all__ = ["MAX_CHAT_CHARS", "ChatRow", "ChatView", "chat_rows"]
