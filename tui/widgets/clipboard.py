"""Copy an encoding's ids to the clipboard, and say so.

Textual's :meth:`App.copy_to_clipboard` sends the text to the terminal (OSC 52, base64: nothing the
text holds can act on the terminal), which puts it on the system clipboard where the terminal
allows it; the notification shows what was copied so the user can tell it happened.
"""

from __future__ import annotations

from textual.app import App

from bpe_engine.compare.text_view import ids_text
from bpe_engine.display import visible_text
from bpe_engine.types import Encoding

PREVIEW = 48


def copy_ids(app: App[object], encoding: Encoding | None, label: str) -> str | None:
    """Copy ``encoding``'s ids as ``[1, 2, 3]``; returns the text copied (None: nothing to copy)."""
    if encoding is None:
        app.notify(f"{visible_text(label)} has no tokens to copy (see its error).", severity="warning")
        return None
    text = ids_text(encoding)
    app.copy_to_clipboard(text)
    preview = text if len(text) <= PREVIEW else text[: PREVIEW - 1] + "…"
    n = len(encoding.ids)
    app.notify(f"Copied {n:,} id{'s' if n != 1 else ''} of {visible_text(label)}: {preview}", title="clipboard")
    return text
