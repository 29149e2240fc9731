"""What the "BPE from a base" registration points to (:mod:`.spec`): its config from option values,
its run, its stepper, its tokenizer, its save. Imported when a run, a form or a save first needs it."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...core.block_text import Text
from ...corpus.cut import CorpusWords
from ...display import counted
from ...errors import ConfigError
from ...pretokenizers import PreTokenizer
from ...training.protocol import Saved, TrainingCorpus
from ...training.registry import OptionValues
from ...training.steps import MergeStep
from ..extend import Extension, extended_tokenizer
from ...training.bpe.config import DEFAULT_MAX_TOKEN_LENGTH
from .config import DEFAULT_ADD, ExtendTrainerConfig

if TYPE_CHECKING:
    from ...bpe.model import BpeTokenizer
    from .stepper import ExtensionStepper


@dataclass(frozen=True)
class ExtendModelState:
    """A finished extension as a picklable recipe: its config (the base is loaded again from its
    spec) and the new merges and tokens -- kilobytes, where the whole vocabulary would be megabytes."""

    config: ExtendTrainerConfig
    merges: tuple[tuple[str, str], ...]
    tokens: tuple[tuple[str, int], ...]

    @property
    def model(self) -> str:
        return self.config.model


class ExtendRun:
    """The :class:`~bpe_engine.training.protocol.Training` of an extension (what the runner drives)."""

    def __init__(self, config: ExtendTrainerConfig, corpus: TrainingCorpus) -> None:
        base = config.base_model()
        counts = corpus.counts
        if counts is None:
            assert corpus.words is not None, "an extension trains on counted words"
            counts = corpus.words.word_counts(byte_level=base.byte_level)
        self.config = config
        self.run = Extension(base, counts, config.extend_config())

    @property
    def notes(self) -> list[str]:
        return self.run.notes

    @property
    def target_steps(self) -> int:
        return self.config.add

    @property
    def initial_size(self) -> int:
        return self.run.base.next_id

    def steps(self) -> Iterator[MergeStep]:
        return self.run.steps()

    def model_state(self) -> ExtendModelState:
        return ExtendModelState(self.config, tuple(self.run.new_merges), tuple(self.run.new_tokens().items()))


def config_from(values: OptionValues) -> ExtendTrainerConfig:
    """The config from the form's fields or ``train``'s flags. Without ``--add``, a ``--vocab-size``
    is the total after the extension (HF's meaning: every id in use)."""
    base = str(values.get("base", "")).strip()
    add = values.get("add")
    maxlen = values.get("maxlen")
    if add is None and values.get("vocab") is not None and base and base != "none":
        from .config import base_named

        add = int(values.get("vocab")) - base_named(base).next_id
        if add < 1:
            raise ConfigError(f"--vocab-size {values.get('vocab'):,} is not above {base!r}'s {base_named(base).next_id:,} ids; give --add N", field="add")
    return ExtendTrainerConfig(
        base=base,
        add=int(add if add is not None else DEFAULT_ADD),
        min_frequency=values.get("minfreq", 0),
        max_token_length=DEFAULT_MAX_TOKEN_LENGTH if maxlen is None else (maxlen or None),
        tie_break=values.get("tiebreak", "hf"),
    )


def with_counts_settings(config: ExtendTrainerConfig, pre_tokenizer: PreTokenizer, byte_level: bool, specials: tuple[str, ...]) -> ExtendTrainerConfig:
    """Counts must have been cut the base's way (its pre-tokenizer and level)."""
    base = config.base_model()
    if pre_tokenizer.name != base.pre_tokenizer.name or byte_level != base.byte_level:
        raise ConfigError(
            f"the words were counted with {pre_tokenizer.name} ({'byte' if byte_level else 'char'}-level), but {base.name!r} "
            f"cuts words with {base.pre_tokenizer.name}: count with the base's pre-tokenizer, or give the text", field="base"
        )
    return config


def training(config: ExtendTrainerConfig, corpus: TrainingCorpus) -> ExtendRun:
    return ExtendRun(config, corpus)


def stepper(config: ExtendTrainerConfig, text: Text, words: CorpusWords | None) -> ExtensionStepper:  # noqa: ARG001 - the words hold the cut
    from .stepper import ExtensionStepper

    assert words is not None, "an extension always cuts its corpus"
    return ExtensionStepper.from_base(config.base_model(), words)


def tokenizer(state: ExtendModelState) -> BpeTokenizer:
    base = state.config.base_model()
    return extended_tokenizer(base, list(state.merges), dict(state.tokens), f"{base.name}+{len(state.merges)}")


def save(state: ExtendModelState, directory: Path, name: str, steps: Sequence[Any]) -> Saved:  # noqa: ARG001 - the log numbers merges from 1
    """The base's formats and ours (:func:`~bpe_engine.surgery.save.save_changed`), with the note a
    model's owner needs: how many ids are new."""
    from ..save import save_changed

    base = state.config.base_model()
    new_ids = sorted(i for _, i in state.tokens)
    written = save_changed(tokenizer(state), base, directory, name=name, operation="extend", new_ids=new_ids)
    facts = f"{base.name} + {counted(len(state.merges), 'merge')}"
    notes = []
    if new_ids:
        notes.append(
            f"{len(new_ids):,} new ids ({new_ids[0]:,}-{new_ids[-1]:,}): a model needs embedding rows for them; "
            f"every id of {base.name!r} keeps its meaning"
        )
    return Saved(written, facts, notes)


def load(directory: Path) -> Any:
    """An extension is saved as a BPE directory; BPE's loader reads it."""
    from ...training.bpe.hooks import load as bpe_load

    return bpe_load(directory)


__all__ = ["ExtendModelState", "ExtendRun", "config_from", "load", "save", "stepper", "tokenizer", "training", "with_counts_settings"]
