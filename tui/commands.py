"""Command-palette provider (ctrl+p) with the explorer's main actions, and the palette's safe input.

The list is built from the app's current state on every search, so "Cancel training" only
appears while a run is going and stepping commands only once there are merges to step through.

The palette's search box is Textual's own ``CommandInput``, which paints what is typed or pasted
as it is: C1 controls (U+009B is a whole CSI), bidi overrides and isolates, ZWJ and DEL reached the
terminal -- the one field the visible-text layer did not cover. :class:`SafeCommandInput` is that
box with the safe fields' painting, typing and paste capacity (:class:`~.widgets.safe_text.SafeInput`);
Textual builds the box by the name its module holds and has no hook for it, so importing this
module points that name at ours (:func:`tui.textual_compat.use_command_input`; the app imports
this module for its ``COMMANDS``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from textual.command import CommandInput, DiscoveryHit, Hit, Hits, Provider

from .textual_compat import use_command_input
from .widgets.safe_text import SafeInput

if TYPE_CHECKING:
    from .app import ExplorerApp


class SafeCommandInput(CommandInput, SafeInput):
    """The palette's search box, painted, typed into and pasted into as every safe field is."""


use_command_input(SafeCommandInput)


class ExplorerCommands(Provider):
    """Train, cancel, step, jump, play, open, load, save, help, audit."""

    def _commands(self) -> list[tuple[str, str, Callable[[], object]]]:
        app: ExplorerApp = self.app  # type: ignore[assignment]
        pane = app.train_pane
        commands: list[tuple[str, str, Callable[[], object]]] = [
            ("Train", "train a tokenizer on the corpus with the current settings", app.action_train),
            ("Open corpus file…", "replace the corpus with a text file", app.action_open_corpus),
            ("Load tokenizer file…", "explore the merges of a saved or reference tokenizer", app.action_load_tokenizer),
            ("Save tokenizer…", "write the trained tokenizer (all formats) to a directory", app.action_save),
            ("Help: keys", "list every key", app.action_help),
            ("Audit vocabulary", "which tokens of Inspect's tokenizer it never produces, and why (pick one to inspect it)", lambda: open_audit(app)),
        ]
        if pane.training:
            commands.append(("Cancel training", "stop the running training (steps so far stay)", app.action_cancel))
        if pane.stepper is not None and pane.stepper.available:
            commands += [
                ("Next step", "apply one more step", pane.action_next),
                ("Previous step", "undo the last applied step", pane.action_prev),
                ("First step (nothing applied)", "back to the initial alphabet", pane.action_first),
                ("Last step", "apply every step so far", pane.action_last),
                ("Jump to step…", "go to a step by number", pane.action_jump),
                ("Play / pause", "animate forward through the steps", pane.action_play),
            ]
        return commands

    async def discover(self) -> Hits:
        for name, help_text, callback in self._commands():
            yield DiscoveryHit(name, callback, help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for name, help_text, callback in self._commands():
            score = matcher.match(name)
            if score > 0:
                yield Hit(score, matcher.highlight(name), callback, help=help_text)


def open_audit(app: ExplorerApp) -> None:
    """Audit the tokenizer Inspect shows; a picked token goes back to Inspect, with that tokenizer.

    The audit is imported when asked for (its engine brings numpy, which the app's first screens do
    without)."""
    from .audit import AuditPick, AuditScreen
    from .inspect.pane import InspectorPane

    pane = app.query_one(InspectorPane)
    result = pane.result
    if result is None or result.tokenizer is None or result.error is not None:
        app.notify("Inspect has no tokenizer loaded yet: pick one on the Inspect tab (f3), then audit it", severity="warning")
        return

    def picked(choice: AuditPick | None) -> None:
        if choice is None:
            return
        app.action_show_tab("inspect-tab")
        pane.inspect(choice.text, choice.spec)

    corpus = app.train_pane.state.corpus  # what a prune is measured on: the app's corpus
    app.push_screen(AuditScreen(result.tokenizer, result.spec, corpus), picked)
