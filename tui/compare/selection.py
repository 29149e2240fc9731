"""The token Compare lights up: the one picked (clicked or keyed, it stays) and the one under the
pointer (while the pointer is there, it wins).

Plain data over the engine's spans (:mod:`bpe_engine.compare.spans`), no widget: the pane asks it
what is lit after a pointer, an arrow key or a new result, then draws that span in every view. A
new result keeps the picked *place* (its row and first character), not the token object, since the
tokens of the new text are other objects and may be cut differently.
"""

from __future__ import annotations

from bpe_engine.compare import Comparison
from bpe_engine.compare.spans import TokenPick, first_token, pick, step, token_at


class Selection:
    """The picked token and the hovered one of one pane."""

    def __init__(self) -> None:
        self.picked: TokenPick | None = None  # the clicked / keyed token (stays)
        self.hovered: TokenPick | None = None  # the token under the pointer (while it is there)

    @property
    def lit(self) -> TokenPick | None:
        """The token whose span is lit: under the pointer, else the one picked."""
        return self.hovered or self.picked

    def clear(self) -> bool:
        """Let both go; True when something was lit (so the views have something to redraw)."""
        was_lit = self.picked is not None or self.hovered is not None
        self.picked = self.hovered = None
        return was_lit

    def point_at_char(self, comparison: Comparison, row: int | None, char: int | None, *, clicked: bool) -> None:
        """The pointer over character ``char`` of row ``row`` of the aligned rows (None: off a token)."""
        found = token_at(comparison, row, char) if row is not None and char is not None else None
        self._point(found, clicked=clicked)

    def point_at_token(self, comparison: Comparison, row: int, token: int | None, *, clicked: bool) -> None:
        """The pointer over token ``token`` of row ``row`` (the Text view shows one row)."""
        self._point(pick(comparison, row, token) if token is not None else None, clicked=clicked)

    def _point(self, found: TokenPick | None, *, clicked: bool) -> None:
        if clicked:
            self.picked, self.hovered = found, None
        else:
            self.hovered = found

    def keep_after(self, comparison: Comparison) -> None:
        """After a new result, keep the picked place (its row and first character) if it exists."""
        self.hovered = None
        p = self.picked
        if p is None:
            return
        self.picked = token_at(comparison, p.row, p.chars[0]) if p.row < len(comparison.rows) else None

    def nav(self, comparison: Comparison, row: int, *, row_moved: bool, dtoken: int) -> None:
        """An arrow key on current row ``row``: another row keeps the lit place (the token of the new
        row on its first character); ``dtoken`` steps along the row, from its first token when the
        pick was on another row."""
        if row_moved and self.picked is not None:
            self.picked = token_at(comparison, row, self.picked.chars[0])
        if dtoken:
            if self.picked is None or self.picked.row != row:
                self.picked = first_token(comparison, row)
            else:
                self.picked = step(comparison, row, self.picked.token, dtoken) or self.picked
        self.hovered = None
