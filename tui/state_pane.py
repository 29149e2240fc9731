"""The base of the panes the app hands the explorer's state to: Inspect and Compare.

The app sets ``pane.state`` on the visible pane whenever the Train pane's state changes (a step, a
finished run, a loaded model) and on a pane when its tab is shown. Both panes then ask the same
question -- did the model or the step move? -- and, if so, redo their work: this class asks it once,
by one rule (:func:`model_moved`), and calls :meth:`StatePane.state_moved`. Until the pane is
mounted it only keeps the state (it is drawn from it on mount).

Both panes redo their work the same way too: :meth:`StatePane.schedule` starts a run (``immediate``)
or after a pause in typing; each run carries the generation it was asked as (:meth:`next_generation`),
and a result is drawn only if it is still :meth:`fresh` -- a result of an older generation that
arrives late (a slow tokenizer, a long text) is dropped instead of drawn over a newer one.
"""

from __future__ import annotations

from textual.widget import Widget

from .state import ExplorerState


def model_moved(old: ExplorerState, new: ExplorerState) -> bool:
    """Whether ``new`` shows another model or step than ``old``: another tokenizer or Unigram run
    (identity: they are replaced, never changed in place), more or fewer steps to go to, another
    step k, or a run started or ended."""
    return (
        old.tokenizer is not new.tokenizer
        or old.step_models is not new.step_models
        or len(old.merges) != len(new.merges)
        or old.step != new.step
        or old.training != new.training
    )


class StatePane(Widget):
    """A pane drawn from the app's :class:`~tui.state.ExplorerState` that re-runs its work when
    the model or the step moves. Subclasses implement :meth:`schedule` and :meth:`state_moved`."""

    def __init__(self, *, id: str | None = None, state: ExplorerState | None = None) -> None:  # noqa: A002 - Textual's name
        super().__init__(id=id)
        self._state = state if state is not None else ExplorerState()
        self._generation = 0

    @property
    def state(self) -> ExplorerState:
        return self._state

    @state.setter
    def state(self, state: ExplorerState) -> None:
        old, self._state = self._state, state
        if self.is_mounted and model_moved(old, state):
            self.state_moved(old, state)

    def state_moved(self, old: ExplorerState, new: ExplorerState) -> None:
        """The model or the step moved (the pane is mounted): redo what depends on it."""
        raise NotImplementedError

    def schedule(self, *, immediate: bool = False) -> None:
        """Run the pane's work now (``immediate``) or after a pause in typing."""
        raise NotImplementedError

    # -- freshness -------------------------------------------------------------------------------
    @property
    def generation(self) -> int:
        """The newest run asked for."""
        return self._generation

    def next_generation(self) -> int:
        """A new run is asked for: its generation (every older one is stale from now on)."""
        self._generation += 1
        return self._generation

    def fresh(self, generation: int) -> bool:
        """Whether a run of ``generation`` is still the newest one asked for."""
        return generation == self._generation


__all__ = ["StatePane", "model_moved"]
