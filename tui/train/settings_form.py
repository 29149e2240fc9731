"""The training settings: the form builds the trainer's own config, which checks itself.

There is one settings model: the chosen trainer's own config, made from the fields of that model
by its registration (:mod:`bpe_engine.training.registry`). The form reads its fields (a number field
must hold a number: that is the form's to say) and hands them to the trainer; a
:class:`~bpe_engine.errors.ConfigError` comes back naming its ``field``, and the message goes under
the widget that sets it. No rule of a trainer is checked twice.

Each model shows its own fields (:mod:`.form_fields`, made from its declared options): WordPiece
starts from the command line's settings -- BERT's normaliser and split, minimum frequency 2 -- so the
app and the CLI train the same vocabulary; Unigram offers SentencePiece's options under
SentencePiece's names; a trainer registered later brings its own.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Input, Label, Select, Static

from bpe_engine.core.block_text import Text as CorpusText
from bpe_engine.errors import ConfigError
from bpe_engine.training.runner import TrainingRequest

from bpe_engine.training.presets import PRESETS, preset
from bpe_engine.training.registry import spec_for

from .form_fields import MODEL_FIELD, Field, applies, build_config, form_fields, form_rows, model_defaults, widget_for


class FieldMessage(Static):
    """What is wrong with one field, on its own line under the field's pair (hidden while empty)."""

    def __init__(self, field_label: str, field_id: str) -> None:
        super().__init__("", id=f"{field_id}-error", classes="field-error", markup=False)
        self.field_label = field_label  # names the field: the line sits under two fields
        self.shown = ""

    def show(self, message: str) -> None:
        """Show ``message`` ("" hides the line); the same message again changes nothing."""
        if message == self.shown:
            return  # unchanged: no re-layout per keystroke (a big corpus editor re-wraps on each)
        self.shown = message
        self.update(Text(f"{self.field_label}: {message}", style="bold red") if message else "")
        self.set_class(bool(message), "-visible")


def _row(left: Field, right: Field | None, row_id: str) -> ComposeResult:
    """Two fields side by side on one line, then their messages (hidden while empty). The
    field's widgets have no container of their own: the Train tab is drawn whole on each switch
    to it, and each container is one more layer to draw."""
    cells: list[Widget] = [Label(left.label, classes="field-label"), widget_for(left)]
    if right is not None:
        cells += [Label(right.label, classes="field-label -right"), widget_for(right)]
    yield Horizontal(*cells, classes="field-row", id=row_id)
    for field in (left, right):
        if field is not None:
            yield FieldMessage(field.label, field.widget_id)


class SettingsForm(Vertical):
    """The fields of the chosen model; :meth:`request_for` makes the run they describe."""

    class Changed(Message):
        """Some setting changed (valid or not)."""

    def __init__(self, *, vocab_size: int = 1000, id: str | None = None) -> None:
        super().__init__(id=id)
        self._vocab_size = vocab_size
        self.fields = form_fields()
        self.rows = form_rows(self.fields)
        self._preset_extra: dict[str, str] = {}

    def compose(self) -> ComposeResult:
        fields = self.fields
        for row_id, (left, right) in self.rows.items():
            yield from _row(fields[left], fields[right] if right else None, row_id)
        presets = tuple((p.label, p.name) for p in PRESETS)
        tip = "; ".join(f"{p.name}: {p.help}" for p in PRESETS)
        yield Horizontal(
            Label("preset", classes="field-label"),
            Select(presets, prompt="none", allow_blank=True, compact=True, id="preset", tooltip=tip),
            classes="field-row", id="row-preset",
        )
        yield Static("", id="pattern-warning", classes="field-error", markup=False)

    def on_mount(self) -> None:
        self.query_one("#vocab", Input).value = str(self._vocab_size)
        self._show_model_fields()

    # -- reading ---------------------------------------------------------------------------------
    @property
    def model(self) -> str:
        return str(self.query_one(f"#{MODEL_FIELD}", Select).value)

    def values(self) -> dict[str, Any]:
        """Every field's raw value, by widget id (and the chosen preset's values for options the
        form does not show: Unigram's byte fallback)."""
        return {**self._preset_extra, **{f.widget_id: self._widget(f.widget_id).value for f in self.fields.values()}}

    def _apply_preset(self) -> None:
        """Set the chosen preset's values for the chosen model (the fields it sets can be changed
        after; options without a field are kept aside for the config)."""
        chosen = self.query_one("#preset", Select).value
        self._preset_extra = {}
        if not isinstance(chosen, str):
            return
        with self.prevent(Select.Changed, Input.Changed):
            for name, value in preset(chosen).for_model(self.model).items():
                if name in self.fields:
                    self._widget(name).value = value
                else:
                    self._preset_extra[name] = value

    def _widget(self, widget_id: str) -> Input | Select[Any]:
        widget = self.query_one(f"#{widget_id}")
        assert isinstance(widget, (Input, Select))
        return widget

    def pre_tokenizer(self) -> Any:
        """The front end the corpus facts are cut with for the chosen settings (None: invalid regex)."""
        try:
            config = build_config(self.model, self.values())
        except (ConfigError, ValueError):
            return None
        return config.front_end

    def config(self, *, show: bool = True) -> Any | None:
        """The trainer's config these settings make, or None (each error shown under its field
        unless ``show`` is False)."""
        errors = {f.widget_id: "" for f in self.fields.values()}
        config = None
        try:
            config = build_config(self.model, self.values())
        except ConfigError as exc:
            errors[self.widget_of(exc.field)] = str(exc)
        except ValueError as exc:  # a field that must hold a number does not (the form's own message)
            errors[str(exc.args[0])] = str(exc.args[1])
        if show:
            for widget_id, message in errors.items():
                self.show_error(widget_id, message)
        return config

    def request_for(self, text: CorpusText, *, quiet: bool = False) -> TrainingRequest | None:
        """The run these settings describe for ``text``; None (with messages shown unless
        ``quiet``) when invalid."""
        config = self.config(show=not quiet)
        return None if config is None else TrainingRequest(text, config)

    def widget_of(self, config_field: str | None) -> str:
        """The widget that sets ``config_field`` for the chosen model (the vocabulary field when
        the error names none: a model-wide rule such as "specials fill the vocabulary")."""
        option = spec_for(self.model).option_for_field(config_field)
        return option.name if option is not None and option.form and option.name in self.fields else "vocab"

    def show_error(self, field_id: str, message: str) -> None:
        """Put ``message`` under the field (empty clears it); also for a run the trainer refused."""
        self.query_one(f"#{field_id}-error", FieldMessage).show(message)

    def show_pattern_warning(self, message: str) -> None:
        """Say (or stop saying) that the chosen pre-tokenizer cuts a script of the corpus apart
        (:func:`bpe_engine.pretokenizer_fit.pattern_warning`, found with the corpus facts)."""
        line = self.query_one("#pattern-warning", Static)
        line.update(Text(f"⚠ {message}", style="bold #fab387") if message else "")
        line.set_class(bool(message), "-visible")

    def show_settings(self, settings: dict[str, Any]) -> None:
        """Show a loaded tokenizer's settings (widget id -> value) so the form says what is explored."""
        with self.prevent(Select.Changed, Input.Changed):
            for widget_id, value in settings.items():
                self._widget(widget_id).value = value
        self._show_model_fields()
        self.config()

    # -- events ----------------------------------------------------------------------------------
    def on_select_changed(self, event: Select.Changed) -> None:
        event.stop()
        if event.select.id == MODEL_FIELD:  # each model starts from its own (the CLI's) defaults
            with self.prevent(Select.Changed, Input.Changed):
                for widget_id, value in model_defaults(str(event.value)).items():
                    self._widget(widget_id).value = value
        if event.select.id in (MODEL_FIELD, "preset"):
            self._apply_preset()
        self._show_model_fields()
        self.config()
        self.post_message(self.Changed())

    def on_input_changed(self, event: Input.Changed) -> None:
        event.stop()
        self.config()
        self.post_message(self.Changed())

    def _show_model_fields(self) -> None:
        """The chosen model's rows are shown, the others hidden; a field that means nothing for
        the current choices (the regex without a custom pre-tokenizer) is disabled."""
        model, fields, values = self.model, self.fields, self.values()
        spec = spec_for(model)
        for row_id, (left, right) in self.rows.items():
            shown = model in fields[left].models or (right is not None and model in fields[right].models)
            self.query_one(f"#{row_id}").display = shown
            for name in (left, right):
                if name is None or name == MODEL_FIELD:
                    continue
                option = spec.option(name)
                usable = option is not None and option.form and applies(option, values)
                self._widget(name).disabled = not usable
                if option is None:
                    self.show_error(name, "")


__all__ = ["FieldMessage", "SettingsForm"]
