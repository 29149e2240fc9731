"""The special-token switch both Inspect and Compare show: one list of choices, one default.

Text like ``<|endoftext|>`` is plain text unless the user asks (``bpe_engine.choices.DEFAULT_SPECIAL_MODE``,
the same default as the CLI); the switch says which mode is on and changes it.
"""

from __future__ import annotations

from textual.widgets import Select

from bpe_engine.choices import DEFAULT_SPECIAL_MODE, SPECIAL_MODES, SpecialMode, values

SPECIAL_CHOICES: tuple[tuple[str, SpecialMode], ...] = tuple((c.label, c.value) for c in SPECIAL_MODES)
_MODES = frozenset(values(SPECIAL_MODES))


class SpecialModeSelect(Select[SpecialMode]):
    """A one-line select of the special-token mode; :attr:`mode` is always a valid mode."""

    def __init__(self, *, id: str | None = None) -> None:  # noqa: A002 - Textual's name
        super().__init__(SPECIAL_CHOICES, value=DEFAULT_SPECIAL_MODE, allow_blank=False, compact=True, id=id)

    @property
    def mode(self) -> SpecialMode:
        value = self.value
        return value if value in _MODES else DEFAULT_SPECIAL_MODE
