"""Every trainer, declared once: a trainer is one package and one registration line here.

A :class:`TrainerSpec` says everything the runner, the app and the CLI need of a trainer:

* who it is -- ``name`` (``train --model NAME``, the saved directory's ``model``), ``label`` (the
  form's selector), ``summary`` (help); :func:`model_choices` is the one list of models;
* its config class and its :class:`Option` s -- one declaration from which both ``bpe-explorer
  train``'s flags and the Train form's fields are made (``bpe_cli.train_options``,
  ``tui.train.form_fields``), each naming the config field it sets (a
  :class:`~bpe_engine.errors.ConfigError` that names a field is shown at that option);
* how it reads the corpus (``reads``: counted words, texts it counts itself, or whole lines);
* its :class:`StepKind` s, each with its step-list columns, its row and its title;
* its hooks (:class:`TrainerHooks`): the config from option values, the :class:`Training` over a
  corpus, the stepper of a run, the tokenizer of a finished model state, and how a model is saved
  and a saved directory loaded again.

Declaring costs nothing: a spec holds plain data and *where* its code is (:class:`Ref`, a module
and a name), so looking a trainer up imports neither numpy nor a trainer module -- ``encode`` never
pays for trainers. The hooks module is imported when a run, a form or a save first needs it.

A spec is plain picklable data, so a request sent to the training child process carries its spec
(:meth:`~bpe_engine.training.runner.request.TrainingRequest.for_child`): a trainer registered at
run time (a plug-in, a test's toy) trains in the child as in a thread.

To add a trainer: write its package (config, training, hooks, ``spec.py`` with ``SPEC``) and add
its ``spec.py`` module to :data:`BUILTIN` -- or call :func:`register` with its spec.
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, Protocol

from ..choices import Choice
from ..errors import ConfigError

if TYPE_CHECKING:  # pragma: no cover
    from ..core.block_text import Text
    from ..corpus.cut import CorpusWords
    from pathlib import Path

    from .protocol import ModelState, Saved, Training, TrainingCorpus

BUILTIN: tuple[str, ...] = (
    "bpe_engine.training.bpe.spec",
    "bpe_engine.training.wordpiece.spec",
    "bpe_engine.training.unigram.spec",
    "bpe_engine.surgery.trainer.spec",
    "bpe_engine.training.picky.spec",
    "bpe_engine.training.scaffold.spec",
    "bpe_engine.training.superbpe.spec",
)
"""The registration lines: the module of each built-in trainer's ``SPEC``, in the order the form
and ``--help`` list them (the first is the default)."""

OptionKind = Literal["int", "float", "text", "select", "flag"]
Reads = Literal["counts", "texts", "lines"]
"""How ``train`` reads the corpus for a trainer: ``counts`` -- cut by the config's pre-tokenizer and
counted by the engine's streaming counter on both cores, or read from counts files
(``--from-counts``); ``texts`` -- streamed to the trainer, which cuts and counts them itself
(WordPiece's BERT front end); ``lines`` -- files, each line a sentence (Unigram reads them twice).
In the app the first two train on the corpus cut by the config's front end, the last on its text."""


@dataclass(frozen=True)
class Ref:
    """Where a piece of a trainer's code lives: imported on first :meth:`load`, never before."""

    module: str
    name: str

    def load(self) -> Any:
        return getattr(importlib.import_module(self.module), self.name)


@dataclass(frozen=True)
class Option:
    """One setting of a trainer, as both a CLI flag and a form field.

    ``name`` keys the option's value (:class:`OptionValues`, the form's widget id); ``flag`` is
    the CLI's (default: ``--name`` with dashes); ``field`` is the config field it sets. ``default`` is the raw default the form starts from; None reads it from
    the config class (``field``'s default) -- the CLI leaves an unset flag ``None`` so the config
    keeps its own. ``form`` / ``cli``: whether the form shows it and whether ``train`` makes a flag
    for it (``cli=False``: a corpus flag every command shares, such as ``--pre-tokenizer``, read by
    its ``name`` from the parsed arguments). ``choices`` for ``select``; ``enables`` names another
    option and the values of it under which this one means something (the regex field only for a
    custom pre-tokenizer)."""

    name: str
    label: str
    kind: OptionKind
    field: str
    help: str
    flag: str = ""
    choices: tuple[Choice[str], ...] = ()
    default: str | None = None
    form: bool = True
    cli: bool = True
    metavar: str | None = None
    placeholder: str = ""
    enables: tuple[str, tuple[str, ...]] | None = None

    @property
    def cli_flag(self) -> str:
        return self.flag or "--" + self.name.replace("_", "-")

    def parse(self, raw: object) -> object:
        """The typed value of a raw form or CLI value (None stays None: unset); ``ValueError`` with
        a message for the user when it is not one."""
        if raw is None or isinstance(raw, bool) and self.kind != "flag":
            return raw
        text = str(raw).strip()
        if self.kind == "int":
            try:
                return int(text)
            except ValueError:
                raise ValueError("a whole number, e.g. 1000") from None
        if self.kind == "float":
            try:
                return float(text)
            except ValueError:
                raise ValueError("a number, e.g. 0.9995") from None
        if self.kind == "flag":
            if isinstance(raw, bool):
                return raw
            if text.lower() not in ("true", "false", "yes", "no"):
                raise ValueError("true or false")
            return text.lower() in ("true", "yes")
        if self.kind == "select" and self.choices and text not in {c.value for c in self.choices}:
            raise ValueError(f"one of {', '.join(c.value for c in self.choices)}")
        return str(raw)


@dataclass(frozen=True, slots=True)
class Column:
    """A step-list column. ``numeric`` columns are right-aligned and as wide as their widest
    value; the one ``flexible`` column takes the width left."""

    title: str
    numeric: bool = True
    flexible: bool = False


@dataclass(frozen=True)
class StepKind:
    """One kind of step (``TrainingStep.kind``): its step-list ``columns``, ``row`` (a Ref to
    ``row(step, *, byte_level) -> tuple[str, ...]``, one cell per column), ``title`` (a Ref to
    ``title(step) -> str``, the step detail's first line) and ``widths`` (optional Ref to a fast
    ``widths(steps, *, byte_level) -> tuple[int, ...]`` for a batch of this kind; without one the
    rows are measured). ``progress`` is what a progress bar says while these steps come
    ("merging"; the kind's name when empty)."""

    name: str
    columns: tuple[Column, ...]
    row: Ref
    title: Ref
    widths: Ref | None = None
    progress: str = ""

    @property
    def doing(self) -> str:
        return self.progress or self.name


class TrainerHooks(Protocol):
    """What a trainer's hooks module provides (its functions, by these names)."""

    def config_from(self, values: OptionValues) -> Any:
        """The trainer's config from its options' values (None: unset, the config's default)."""
        ...

    def training(self, config: Any, corpus: TrainingCorpus) -> Training:
        """The run over the corpus, in the form the trainer reads (:class:`TrainingCorpus`)."""
        ...

    def stepper(self, config: Any, text: Text, words: CorpusWords | None) -> Any:
        """The Train tab's stepper at step 0 (``bpe_engine.explore.train_stepper.TrainStepper``):
        ``words`` is the run's cut of ``text`` (None for a trainer without a front end)."""
        ...

    def tokenizer(self, state: ModelState) -> Any:
        """The tokenizer of a finished run's model state."""
        ...

    def save(self, state: ModelState, directory: Path, name: str, steps: Sequence[Any]) -> Saved:
        """Write the model (and its steps' record) into ``directory``, atomically."""
        ...

    def load(self, directory: Path) -> Any:
        """The tokenizer of a directory this trainer saved (``bpe-explorer.json``'s ``model``)."""
        ...


@dataclass(frozen=True)
class OptionValues:
    """Option name -> typed value (None: not given). ``specials`` are the ``--special`` tokens the
    CLI was given (the form has none)."""

    values: dict[str, object]
    specials: tuple[str, ...] = ()

    def get(self, name: str, default: Any = None) -> Any:
        value = self.values.get(name)
        return default if value is None else value


@dataclass(frozen=True)
class TrainerSpec:
    """A trainer, declared (see the module docstring). ``config`` and ``hooks`` are Refs: the
    config class and the module holding the :class:`TrainerHooks` functions. ``unit`` is what its
    progress counts; ``start_label`` is the step list's row 0 ("" for "the alphabet, N symbols");
    ``targets_vocabulary``: a run whose target is 0 steps has nothing to do (merge trainers: the
    vocabulary size is at most the alphabet); ``cli_notes`` are lines for ``train --help``."""

    name: str
    label: str
    summary: str
    config: Ref
    hooks: Ref  # the module (``name`` unused: the functions are the module's)
    options: tuple[Option, ...]
    step_kinds: tuple[StepKind, ...]
    reads: Reads = "counts"
    unit: str = "merges"
    start_label: str = ""
    targets_vocabulary: bool = True
    cli_notes: tuple[str, ...] = ()

    @property
    def choice(self) -> Choice[str]:
        return Choice(self.name, self.label, self.summary)

    def hook(self, name: str) -> Callable[..., Any]:
        """One of the trainer's :class:`TrainerHooks` functions (its module imported now)."""
        return getattr(importlib.import_module(self.hooks.module), name)

    def config_class(self) -> type:
        return self.config.load()

    def option(self, name: str) -> Option | None:
        return next((o for o in self.options if o.name == name), None)

    def option_for_field(self, config_field: str | None) -> Option | None:
        """The option that sets ``config_field`` (the form shows a ConfigError under it)."""
        return next((o for o in self.options if config_field is not None and o.field == config_field), None)

    def default_of(self, option: Option) -> str:
        """The raw default of ``option``: declared, or the config class's own."""
        if option.default is not None:
            return option.default
        from dataclasses import MISSING, fields

        for f in fields(self.config_class()):
            if f.name == option.field:
                value = f.default if f.default is not MISSING else (f.default_factory() if f.default_factory is not MISSING else None)
                if isinstance(value, bool):
                    return "true" if value else "false"
                if isinstance(value, tuple):
                    return ",".join(map(str, value))
                return "" if value is None else str(value)
        return ""

    def make_config(self, values: OptionValues) -> Any:
        """The config of these option values (it checks itself: a ConfigError names its field)."""
        return self.hook("config_from")(values)

    def kind(self, name: str) -> StepKind:
        for kind in self.step_kinds:
            if kind.name == name:
                return kind
        raise KeyError(name)

    @property
    def columns(self) -> tuple[Column, ...]:
        """The step list's columns before a run's first step: the first kind's. The kinds one run
        mixes (Unigram's seed, EM, prune, final) fill the same columns; a trainer whose config picks
        one kind per run (WordPiece: by count or by score) may give each its own, and the step list
        takes the columns of the kind the run's first step is."""
        return self.step_kinds[0].columns


_specs: dict[str, TrainerSpec] = {}
_kinds: dict[str, StepKind] = {}
_lock = threading.RLock()  # re-entrant: a spec module imported under it may look trainers up
_loaded = False


def register(spec: TrainerSpec) -> TrainerSpec:
    """Add ``spec`` (again: replaced). Its step kinds join the kinds every consumer renders; a kind
    another registered trainer declares must be the same declaration (BPE and a resumed BPE share
    ``merge``), and a trainer's kinds fill the same number of columns."""
    _ensure_builtins()
    with _lock:
        _add(spec)
    return spec


def _add(spec: TrainerSpec) -> None:
    for kind in spec.step_kinds:
        owner = _owner(kind.name)
        if owner not in (None, spec.name) and _kinds[kind.name] != kind:
            raise ValueError(f"step kind {kind.name!r} is declared differently by trainer {owner!r}")
        if kind.columns[:1] != spec.columns[:1]:
            raise ValueError(f"step kind {kind.name!r} of {spec.name!r} does not start with the step number column")
    _specs[spec.name] = spec
    for kind in spec.step_kinds:
        if _owner(kind.name, besides=spec.name) is None:  # its own (or no one else's): this declaration
            _kinds[kind.name] = kind


def unregister(name: str) -> None:
    """Remove a trainer registered at run time (a test's toy); its kinds stay known for old steps."""
    with _lock:
        _specs.pop(name, None)


def _owner(kind: str, besides: str | None = None) -> str | None:
    """The registered trainer (other than ``besides``) that declares ``kind``."""
    return next((s.name for s in _specs.values() if s.name != besides and any(k.name == kind for k in s.step_kinds)), None)


def _ensure_builtins() -> None:
    """Register the built-in trainers on first use (under the lock: a worker thread asking at the
    same time waits for the whole list)."""
    global _loaded
    if _loaded:
        return
    with _lock:
        if _loaded:
            return
        for module in BUILTIN:
            _add(importlib.import_module(module).SPEC)
        _loaded = True


def specs() -> tuple[TrainerSpec, ...]:
    """Every registered trainer, built-ins first, in registration order."""
    _ensure_builtins()
    return tuple(_specs.values())


def names() -> tuple[str, ...]:
    return tuple(s.name for s in specs())


def model_choices() -> tuple[Choice[str], ...]:
    """The one list of trainable models (the CLI's ``--model`` choices, the form's selector)."""
    return tuple(s.choice for s in specs())


def spec_for(name: str) -> TrainerSpec:
    """The trainer called ``name``; a ConfigError listing the others when there is none."""
    _ensure_builtins()
    spec = _specs.get(name)
    if spec is None:
        raise ConfigError(f"unknown model {name!r}; choose one of: {', '.join(_specs)}", field="model")
    return spec


def step_kind(name: str) -> StepKind:
    """The declaration of a step kind (``TrainingStep.kind``)."""
    _ensure_builtins()
    kind = _kinds.get(name)
    if kind is None:
        raise KeyError(f"no trainer declares steps of kind {name!r}")
    return kind


__all__ = [
    "BUILTIN",
    "Column",
    "Option",
    "OptionKind",
    "OptionValues",
    "Ref",
    "StepKind",
    "TrainerHooks",
    "TrainerSpec",
    "model_choices",
    "names",
    "register",
    "spec_for",
    "specs",
    "step_kind",
    "unregister",
]
