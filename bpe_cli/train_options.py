"""``train``'s trainer flags, made from the trainers' registrations -- never written out here.

Every registered trainer declares its options (:class:`~bpe_engine.training.registry.Option`);
each becomes one flag (an option two trainers share, such as ``--min-frequency``, one flag whose
help names both), grouped under the trainer that declares it, with the config's own default in its
help. Unset flags stay None, so each config keeps its default. A flag given for a model that does
not declare it is refused with the models it applies to -- no per-model list of exceptions here.
"""

from __future__ import annotations

import argparse
from typing import Any

from bpe_engine.errors import ConfigError
from bpe_engine.training.registry import Option, OptionValues, TrainerSpec, specs

_BOOL = ("true", "false")
_METAVARS = {"int": "N", "float": "X", "text": "TEXT"}


def dest_of(option: Option) -> str:
    """Where argparse keeps the flag's value: the flag's name, prefixed for a trainer's own flags
    (the corpus flags every command shares keep theirs: ``--pre-tokenizer`` is ``pre_tokenizer``)."""
    name = option.cli_flag.lstrip("-").replace("-", "_")
    return name if not option.cli else "opt_" + name


def add_trainer_options(parser: argparse.ArgumentParser) -> None:
    """One flag per declared option, in a group per trainer (the first trainer to declare a flag
    holds it; the help of a shared flag names every model it applies to)."""
    owners: dict[str, list[tuple[TrainerSpec, Option]]] = {}
    for spec in specs():
        for option in spec.options:
            if option.cli:
                owners.setdefault(option.cli_flag, []).append((spec, option))
    groups: dict[str, argparse._ArgumentGroup] = {}
    for flag, declared in owners.items():
        spec, option = declared[0]
        group = groups.get(spec.name)
        if group is None:
            group = groups[spec.name] = parser.add_argument_group(f"--model {spec.name} ({spec.label})", "; ".join(spec.cli_notes) or None)
        defaults = "; ".join(f"{s.name}: default {_shown(s.default_of(o))}" for s, o in declared)
        help_text = f"{option.help} ({defaults})"
        kwargs: dict[str, Any] = {"default": None, "dest": dest_of(option), "help": help_text}
        if option.kind == "flag":
            kwargs["choices"] = _BOOL
        elif option.kind == "select":
            kwargs["choices"] = [c.value for c in option.choices]
        elif option.kind in ("int", "float"):
            kwargs["type"] = int if option.kind == "int" else float
        metavar = option.metavar or _METAVARS.get(option.kind)
        if metavar is not None:
            kwargs["metavar"] = metavar
        group.add_argument(flag, **kwargs)


def _shown(default: str) -> str:
    return repr(default) if default == "" else default


def option_values(args: argparse.Namespace, spec: TrainerSpec) -> OptionValues:
    """The chosen trainer's option values from the parsed arguments; a flag of another trainer
    (or a corpus flag this trainer does not read) is a ConfigError naming what it applies to."""
    mine = {option.cli_flag for option in spec.options}
    for other in specs():
        for option in other.options:
            if option.cli_flag in mine or getattr(args, dest_of(option), None) in (None, False, ""):
                continue
            users = [s.name for s in specs() if any(o.cli_flag == option.cli_flag for o in s.options)]
            raise ConfigError(f"{option.cli_flag} applies to --model {one_of(users)}, not to --model {spec.name}")
    values: dict[str, object] = {}
    for option in spec.options:
        raw = getattr(args, dest_of(option), None)
        try:
            values[option.name] = option.parse(raw)
        except ValueError as exc:
            raise ConfigError(f"{option.cli_flag}: {exc}", field=option.field) from None
    return OptionValues(values, tuple(args.special))


def config_from_args(args: argparse.Namespace, spec: TrainerSpec) -> Any:
    """The chosen trainer's config; a ConfigError that names a config field names its flag."""
    values = option_values(args, spec)
    try:
        return spec.make_config(values)
    except ConfigError as exc:
        option = spec.option_for_field(exc.field)
        message = str(exc)
        if option is not None and exc.field is not None and message.startswith(exc.field + " "):
            message = f"{option.cli_flag} {message[len(exc.field) + 1:]}"  # SentencePiece's names, as flags
        raise ConfigError(message, field=exc.field) from None


__all__ = ["add_trainer_options", "config_from_args", "dest_of", "option_values"]


def one_of(names: list[str]) -> str:
    """Model names as a sentence says them: ``bpe``, ``bpe or wordpiece``, ``bpe, picky or scaffold``.

    >>> one_of(["bpe"]), one_of(["bpe", "wordpiece"]), one_of(["bpe", "picky", "scaffold"])
    ('bpe', 'bpe or wordpiece', 'bpe, picky or scaffold')
    """
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"
