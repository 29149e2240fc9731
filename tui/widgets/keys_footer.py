"""Textual's footer, built once per set of keys and shown again when those keys come back.

Textual's :class:`~textual.widgets.Footer` recomposes -- a new widget per key, mounted and
styled -- every time the screen publishes "bindings updated", which it does on every focus
change, and a tab switch moves the focus twice (dropped, then given to the new tab). A py-spy
profile of f2/f3/f4 in a real terminal put ~40 % of the UI thread's busy time in those
rebuilds, most of them drawing the very keys already on screen. A first fix rebuilt only when
the keys differed; but each tab shows its own keys (Compare adds a, v, c, B, x), so every switch
between tabs still rebuilt the row: ~20 % of an f2/f4 switch, mostly styling each new key
(``FooterKey``'s compact watcher restyles it as it mounts). This footer keeps one row ("page")
per set of keys it has drawn, built by Textual's own ``Footer.compose`` so it looks and clicks
exactly the same, and switching tabs only hides one page and shows another -- at once, as the
keys change, so the new tab and its keys are laid out in the same frame. Requests that arrive
while a new page is being built are folded into that build.

A row wider than the footer loses whole keys from its end, never half a label: Textual cut it at
the edge, and Inspect's row at 120 columns ended "f2 f3 f4 Ta", Compare's Text view "f1 Hel".
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from textual.app import ComposeResult
from textual.compose import compose
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer

from ..textual_compat import FooterKey, FooterLabel

MAX_PAGES = 8
"""Pages kept (the least recently shown goes first): a tab's keys with and without a run going,
a modal's, the narrow layout's -- a handful in practice, bounded in any case."""


class KeysPage(Widget):
    """One row of footer keys, as ``Footer.compose`` made them (its CSS still applies: the rules
    are written as descendants of ``Footer``)."""

    DEFAULT_CSS = """
    KeysPage {
        layout: horizontal;
        width: 1fr;
        height: 1;
    }
    """


class KeysFooter(Footer):
    """A :class:`Footer` that builds each set of keys once and shows it again when it recurs."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._drawn: Hashable | None = None
        self._pending = False
        self._pages: dict[Hashable, KeysPage] = {}  # keys -> page, least recently shown first

    def compose(self) -> ComposeResult:
        """Nothing up front: pages are mounted as sets of keys come (see :meth:`_show_page`)."""
        return iter(())

    def shown_keys(self) -> tuple[Hashable, ...]:
        """What the footer would draw now: each shown binding, whether it is enabled, its tooltip."""
        return tuple(
            (binding.key, binding.action, binding.description, id(binding.group), enabled, tooltip)
            for (_, binding, enabled, tooltip) in self.screen.active_bindings.values()
            if binding.show
        ) + ((self.compact, self.show_command_palette),)

    def keys(self) -> list[FooterKey]:
        """The key widgets on screen (hidden pages hold others)."""
        page = self._pages.get(self._drawn) if self._drawn is not None else None
        return list(page.query(FooterKey)) if page is not None else []

    def on_mount(self) -> None:
        """Follow the keys as they change, not a message later (``Footer.on_mount`` still makes its
        own posted subscription, to :meth:`bindings_changed`, which is left with nothing to do)."""
        self.screen.bindings_updated_signal.subscribe(self, self._keys_changed, immediate=True)

    def bindings_changed(self, screen: Screen) -> None:
        """Footer's posted subscription: :meth:`_keys_changed` has already handled the change."""

    def _keys_changed(self, screen: Screen) -> None:
        """Show the page of the keys now in force: at once when it exists (a tab switch then lays
        out the new tab and its keys in one frame), after the next refresh when it must be built."""
        self._bindings_ready = True
        if not screen.app.app_focus or not self.is_attached or screen is not self.screen:
            return
        keys = self.shown_keys()
        if keys == self._drawn:
            return
        if keys in self._pages:
            self._show(keys, self._pages.pop(keys))
        elif not self._pending:
            self._pending = True
            # Built from this widget's own queue: Footer.compose binds to the footer it runs in.
            self.call_next(self.call_after_refresh, self._show_page)

    async def _show_page(self) -> None:
        self._pending = False
        if not self.is_attached:
            return
        keys = self.shown_keys()
        if keys == self._drawn:
            return
        page = self._pages.pop(keys, None)
        if page is None:
            page = KeysPage(*compose(self, Footer.compose(self)))
            await self.mount(page)
        self._show(keys, page)
        while len(self._pages) > MAX_PAGES:
            await self._pages.pop(next(iter(self._pages))).remove()
        # The keys may have changed back while the page was mounted (a run of 0.1 s ends before
        # its "esc Cancel" page is built): that change found the old page still drawn and let it
        # be, and the new page then hid it. Look again.
        self._keys_changed(self.screen)

    def _show(self, keys: Hashable, page: KeysPage) -> None:
        """Hide every other page and show ``page`` (the most recently shown from now on)."""
        self._drawn = keys
        with self.app.batch_update():
            for other in self._pages.values():
                other.display = False
            page.display = True
            for item in page.children:
                item.display = True  # a page fitted to a narrower footer gets every key back
        self._pages[keys] = page
        self.call_after_refresh(self._fit, page)

    def on_resize(self) -> None:
        page = self._pages.get(self._drawn) if self._drawn is not None else None
        if page is not None:
            for item in page.children:
                item.display = True
            self.call_after_refresh(self._fit, page)

    def _fit(self, page: KeysPage) -> None:
        """Hide whole keys from the end of the row (after the first one that does not fit) so
        that no label is cut at the edge; the command palette's key, on the right, stays."""
        if not page.display or not page.is_attached:
            return
        items = [item for item in page.children if not item.has_class("-command-palette")]
        palette = next((item for item in page.children if item.has_class("-command-palette")), None)
        limit = palette.region.x if palette is not None and palette.region.width else page.region.right
        cut = next((i for i, item in enumerate(items) if item.region.right > limit), None)
        if cut is None:
            return
        if isinstance(items[cut], FooterLabel) and cut > 0:
            cut -= 1  # a group's label goes with its keys
        for item in items[cut:]:
            item.display = False
