"""What Scaffold-BPE's registration points to (:mod:`.spec`): BPE's settings plus the rule."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...display import counted
from ...pretokenizers import PreTokenizer
from ..bpe import hooks as bpe_hooks
from ..protocol import Saved, TrainingCorpus
from ..registry import OptionValues
from .config import ScaffoldConfig

if TYPE_CHECKING:
    from ...explore.event_stepper import EventStepper
    from .model import ScaffoldModelState, ScaffoldTokenizer
    from .training import ReactivateStep, ScaffoldStep, ScaffoldTraining


def config_from(values: OptionValues) -> ScaffoldConfig:
    return ScaffoldConfig(bpe_hooks.config_from(values), variant=values.get("scaffoldrule", "paper"))


def with_counts_settings(config: ScaffoldConfig, pre_tokenizer: PreTokenizer, byte_level: bool, specials: tuple[str, ...]) -> ScaffoldConfig:
    from dataclasses import replace

    return replace(config, bpe=bpe_hooks.with_counts_settings(config.bpe, pre_tokenizer, byte_level, specials))


def training(config: ScaffoldConfig, corpus: TrainingCorpus) -> ScaffoldTraining:
    from .training import ScaffoldTraining

    counts = corpus.counts
    if counts is None:
        assert corpus.words is not None, "Scaffold-BPE trains on counted words"
        counts = corpus.words.word_counts(byte_level=config.byte_level)
    return ScaffoldTraining(counts, config)


def stepper(config: ScaffoldConfig, text: Any, words: Any) -> EventStepper:  # noqa: ARG001
    from ...explore.event_stepper import EventStepper

    return EventStepper.of_cut(words, len(text))


def tokenizer(state: ScaffoldModelState) -> ScaffoldTokenizer:
    from .model import ScaffoldTokenizer

    return ScaffoldTokenizer(state)


def save(state: ScaffoldModelState, directory: Path, name: str, steps: Sequence[Any]) -> Saved:
    from ...formats.bundle import FORMAT_VERSION
    from ...formats.saved_dir import FORMAT_NAME, save_directory
    from .files import write_files

    def write(fresh: Path) -> dict[str, Any]:
        files = write_files(state, fresh, name)
        return {"format": FORMAT_NAME, "version": FORMAT_VERSION, "model": "scaffold", "name": name, "files": {f: f for f in files}}

    kinds = {k: sum(1 for s in steps if s.kind == k) for k in ("merge", "scaffold", "reactivate")}
    size = tokenizer(state).vocab_size
    facts = (f"{counted(size, 'token')}, {counted(kinds['merge'], 'merge')}, {counted(len(state.scaffolds), 'scaffold')} left out"
             f" ({kinds['scaffold']:,} made, {kinds['reactivate']:,} re-activated)")
    note = "tokenizer.json: Hugging Face's BPE cannot break a scaffold into its parts; scaffold.json is exact"
    return Saved(save_directory(directory, write), facts, [note])


def load(directory: Path) -> ScaffoldTokenizer:
    import json

    from ...formats.saved_dir import read_consistently
    from .files import read_scaffold_json
    from .model import ScaffoldTokenizer

    def read(meta: dict[str, Any]) -> ScaffoldTokenizer:
        data = json.loads((Path(directory) / "scaffold.json").read_text(encoding="utf-8"))
        loaded = ScaffoldTokenizer(read_scaffold_json(data))
        loaded.name = str(meta.get("name") or loaded.name)
        return loaded

    return read_consistently(directory, read)


# -- the step list ---------------------------------------------------------------------------------
def scaffold_row(step: ScaffoldStep, *, byte_level: bool) -> tuple[str, ...]:
    from ...explore.surfaces import token_label

    return f"{step.rank + 1:,}", f"{token_label(step.token, byte_level=byte_level)} (after {token_label(step.child, byte_level=byte_level)})", f"{step.frequency:,}", f"{step.next_count:,}"


def scaffold_title(step: ScaffoldStep, *, byte_level: bool) -> str:
    from ...explore.surfaces import token_label

    return f"scaffold {step.rank + 1:,}: {token_label(step.token, byte_level=byte_level)}"


def reactivate_row(step: ReactivateStep, *, byte_level: bool) -> tuple[str, ...]:
    from ...explore.surfaces import token_label

    return f"{step.rank + 1:,}", token_label(step.token, byte_level=byte_level), f"{step.frequency:,}", f"{step.best_count:,}"


def reactivate_title(step: ReactivateStep, *, byte_level: bool) -> str:
    from ...explore.surfaces import token_label

    return f"re-activated {step.rank + 1:,}: {token_label(step.token, byte_level=byte_level)}"
