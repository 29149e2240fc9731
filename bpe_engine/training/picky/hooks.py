"""What PickyBPE's registration points to (:mod:`.spec`): config, run, stepper, tokenizer, files."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...display import counted
from ...errors import ConfigError
from ...explore.surfaces import merge_label
from ...pretokenizers import WHITESPACE, PreTokenizer
from ..protocol import Saved, TrainingCorpus
from ..registry import OptionValues
from .config import PickyConfig

if TYPE_CHECKING:
    from ...explore.event_stepper import EventStepper
    from .model import PickyModelState, PickyTokenizer
    from .steps import RestoreStep, SplitStep
    from .training import PickyTraining


def config_from(values: OptionValues) -> PickyConfig:
    defaults = PickyConfig(vocab_size=int(values.get("vocab", 1000)))
    return PickyConfig(
        vocab_size=defaults.vocab_size,
        tau=values.get("tau", defaults.tau),
        ios_frequency=values.get("iosfreq", defaults.ios_frequency),
        ios_compare=values.get("ioscmp", defaults.ios_compare),
        character_coverage=values.get("coverage", defaults.character_coverage),
        max_token_length=values.get("pickymax", defaults.max_token_length),
        tie_break=values.get("pickytie", defaults.tie_break),
    )


def with_counts_settings(config: PickyConfig, pre_tokenizer: PreTokenizer, byte_level: bool, specials: tuple[str, ...]) -> PickyConfig:
    """PickyBPE reads words cut at whitespace, character-level; a counts file made otherwise is refused."""
    if pre_tokenizer.name != WHITESPACE.name or byte_level or specials:
        raise ConfigError("PickyBPE trains on words cut at whitespace (▁), character-level, without specials: "
                          "count the corpus with --pre-tokenizer whitespace --char-level")
    return config


def training(config: PickyConfig, corpus: TrainingCorpus) -> PickyTraining:
    from .training import PickyTraining

    counts = corpus.counts
    if counts is None:
        assert corpus.words is not None, "PickyBPE trains on counted words"
        counts = corpus.words.word_counts(byte_level=False)
    return PickyTraining(counts, config)


def stepper(config: PickyConfig, text: Any, words: Any) -> EventStepper:  # noqa: ARG001
    from ...explore.event_stepper import EventStepper

    return EventStepper.of_cut(words, len(text))


def tokenizer(state: PickyModelState) -> PickyTokenizer:
    from .model import PickyTokenizer

    return PickyTokenizer(state)


def save(state: PickyModelState, directory: Path, name: str, steps: Sequence[Any]) -> Saved:
    """``picky.json`` (exact) and ``tokenizer.json`` (HF loads it with our ids; :mod:`.files`)."""
    from dataclasses import replace

    from ...formats.bundle import FORMAT_VERSION
    from ...formats.saved_dir import FORMAT_NAME, save_directory
    from .files import write_files

    named = replace(state, name=name)

    def write(fresh: Path) -> dict[str, Any]:
        files = write_files(named, fresh)
        return {"format": FORMAT_NAME, "version": FORMAT_VERSION, "model": "picky", "name": name, "files": {f: f for f in files}}

    size = sum(state.present)
    kinds = {k: sum(1 for s in steps if s.kind == k) for k in ("merge", "split", "restore")}
    facts = f"{counted(size, 'token')}, {counted(kinds['merge'], 'merge')}, {counted(kinds['split'], 'split')}, {counted(kinds['restore'], 'restore')}"
    note = "tokenizer.json: Hugging Face's BPE cannot split, so it encodes most words as PickyBPE does, not all; picky.json is exact"
    return Saved(save_directory(directory, write), facts, [note])


def load(directory: Path) -> PickyTokenizer:
    import json

    from ...formats.saved_dir import read_consistently
    from .files import read_picky_json
    from .model import PickyTokenizer

    def read(meta: dict[str, Any]) -> PickyTokenizer:
        data = json.loads((Path(directory) / "picky.json").read_text(encoding="utf-8"))
        return PickyTokenizer(read_picky_json(data))

    return read_consistently(directory, read)


# -- the step list ---------------------------------------------------------------------------------
def split_row(step: SplitStep, *, byte_level: bool) -> tuple[str, ...]:
    return f"{step.rank + 1:,}", f"{step.token} → {' + '.join(step.parts)}", f"{step.ios:.3f}", f"{step.left:,}"


def split_title(step: SplitStep, *, byte_level: bool) -> str:
    return f"split {step.rank + 1:,}: {step.token} → {' + '.join(step.parts)}"


def restore_row(step: RestoreStep, *, byte_level: bool) -> tuple[str, ...]:
    m = step.merge
    return f"{step.rank + 1:,}", merge_label(m.left, m.right, m.new, byte_level=byte_level), f"{m.count:,}", f"{m.words_changed:,}"


def restore_title(step: RestoreStep, *, byte_level: bool) -> str:
    m = step.merge
    return f"restore {step.rank + 1:,}: {merge_label(m.left, m.right, m.new, byte_level=byte_level)}"
