"""The settings form's fields, made from the registered trainers' options, and the config they build.

Every trainer declares its options once (:class:`~bpe_engine.training.registry.Option`); the form
shows each as a field (a select, a number or a text), on lines of two, in the order the trainers
declare them -- the model selector first. A field belongs to the models that declare it; a line
shows when one of its fields belongs to the chosen model. Choices and defaults come from the
declarations and the configs themselves (the CLI's): the app adds no rule of its own but "this field
holds a number" -- and every field names the config field it sets, so a
:class:`~bpe_engine.errors.ConfigError` that names a config field is shown under that field.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from textual.widget import Widget
from textual.widgets import Select

from bpe_engine.training.registry import Option, OptionKind, OptionValues, TrainerSpec, model_choices, spec_for, specs

from ..widgets.safe_text import SafeInput

MODEL_FIELD = "model"


@dataclass(frozen=True)
class Field:
    """One widget of the form: ``models`` are the trainers that declare it."""

    widget_id: str
    label: str
    kind: OptionKind
    models: tuple[str, ...]
    default: str = ""
    choices: tuple[tuple[str, str], ...] = ()
    tooltip: str | None = None
    placeholder: str = field(default="", compare=False)


def form_fields() -> dict[str, Field]:
    """Every form option of every registered trainer, once by widget id (the union of their
    choices; the first declaring trainer's label, default and help). Made when a form is made, so a
    trainer registered before the app starts has its fields."""
    declared: dict[str, list[tuple[TrainerSpec, Option]]] = {}
    for spec in specs():
        for option in spec.options:
            if option.form:
                declared.setdefault(option.name, []).append((spec, option))
    models = model_choices()
    out = {MODEL_FIELD: Field(MODEL_FIELD, "model", "select", tuple(c.value for c in models), models[0].value,
                              tuple((c.label, c.value) for c in models), "the trainer: " + "; ".join(f"{c.label}: {c.help}" for c in models))}
    for name, owners in declared.items():
        spec, option = owners[0]
        choices = tuple(dict.fromkeys((c.label, c.value) for _s, o in owners for c in o.choices))
        out[name] = Field(
            name, option.label, option.kind, tuple(s.name for s, _o in owners), spec.default_of(option), choices,
            option.help, option.placeholder,
        )
    return out


def form_rows(fields: Mapping[str, Field]) -> dict[str, tuple[str, str | None]]:
    """The form's lines, two fields each, by row id; a line shows when one of its fields belongs
    to the chosen model."""
    ids = list(fields)
    return {f"row-{ids[i]}": (ids[i], ids[i + 1] if i + 1 < len(ids) else None) for i in range(0, len(ids), 2)}


def widget_for(f: Field) -> Widget:
    if f.kind == "select" or f.kind == "flag":
        choices = f.choices or (("yes", "true"), ("no", "false"))
        return Select(choices, value=f.default, allow_blank=False, compact=True, id=f.widget_id, tooltip=f.tooltip)
    kind = {"int": "integer", "float": "number", "text": "text"}[f.kind]
    return SafeInput(f.default, type=kind, compact=True, id=f.widget_id, placeholder=f.placeholder, tooltip=f.tooltip)


def applies(option: Option, values: Mapping[str, Any]) -> bool:
    """Whether ``option`` means something for the other fields' values (the regex field only for a
    custom pre-tokenizer): a field that does not is disabled and its value not read."""
    if option.enables is None:
        return True
    other, wanted = option.enables
    return str(values.get(other)) in wanted


def option_values(spec: TrainerSpec, values: Mapping[str, Any]) -> OptionValues:
    """The trainer's option values from the fields' raw ``values`` (widget id -> value, and a
    preset's values for options the form does not show); a field that does not hold its kind
    raises ``ValueError(widget_id, message)``."""
    parsed: dict[str, object] = {}
    for option in spec.options:
        if not applies(option, values) or not option.form and option.name not in values:
            continue  # an option the form does not show counts only when a preset set it
        try:
            parsed[option.name] = option.parse(values[option.name])
        except ValueError as exc:
            raise ValueError(option.name, str(exc)) from None
    return OptionValues(parsed)


def build_config(model: str, values: Mapping[str, Any]) -> Any:
    """The config of ``model`` from the fields' raw ``values``: raises
    :class:`~bpe_engine.errors.ConfigError` (from the config itself) or ``ValueError(widget, why)``."""
    spec = spec_for(model)
    return spec.make_config(option_values(spec, values))


def model_defaults(model: str) -> dict[str, str]:
    """The fields a change to ``model`` resets: those it shares with another trainer that starts
    them elsewhere (WordPiece trains on BERT's words with minimum frequency 2, BPE on the gpt2 regex
    with none -- each the CLI's defaults)."""
    spec = spec_for(model)
    out: dict[str, str] = {}
    for option in spec.options:
        if not option.form:
            continue
        mine = spec.default_of(option)
        others = {s.default_of(o) for s in specs() if s.name != model for o in s.options if o.name == option.name}
        if others - {mine}:
            out[option.name] = mine
    return out


__all__ = ["MODEL_FIELD", "Field", "applies", "build_config", "form_fields", "form_rows", "model_defaults", "option_values", "widget_for"]
