"""Textual's footer, rebuilt only when the keys it shows change.

Textual's :class:`~textual.widgets.Footer` recomposes -- a new widget per key, mounted and
styled -- every time the screen publishes "bindings updated", which it does on every focus
change, and a tab switch moves the focus twice (dropped, then given to the new tab). A py-spy
profile of f2/f3/f4 in a real terminal put ~40 % of the UI thread's busy time in those
rebuilds, most of them drawing the very keys already on screen. This footer keeps the keys it
drew and rebuilds only when what it would draw differs; requests that arrive before a pending
rebuild ran are folded into it.
"""

from __future__ import annotations

from collections.abc import Hashable

from textual.screen import Screen
from textual.widgets import Footer


class KeysFooter(Footer):
    """A :class:`Footer` that skips rebuilds which would draw the same keys."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self._drawn: Hashable | None = None
        self._pending = False

    def shown_keys(self) -> tuple[Hashable, ...]:
        """What the footer would draw now: each shown binding, whether it is enabled, its tooltip."""
        return tuple(
            (binding.key, binding.action, binding.description, id(binding.group), enabled, tooltip)
            for (_, binding, enabled, tooltip) in self.screen.active_bindings.values()
            if binding.show
        ) + ((self.compact, self.show_command_palette),)

    def bindings_changed(self, screen: Screen) -> None:
        self._bindings_ready = True
        if not screen.app.app_focus or self._pending:
            return
        if self.is_attached and screen is self.screen:
            self._pending = True
            self.call_after_refresh(self._recompose_if_changed)

    async def _recompose_if_changed(self) -> None:
        self._pending = False
        if not self.is_attached:
            return
        keys = self.shown_keys()
        if keys == self._drawn:
            return
        self._drawn = keys
        await self.recompose()
