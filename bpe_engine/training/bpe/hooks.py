"""What BPE's registration points to (:mod:`.spec`): its config from option values, its run, its
stepper, its tokenizer, and how it is saved and loaded. Imported when a run, a form or a save
first needs BPE -- never by looking the trainer up."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...corpus.block_text import Text
from ...corpus.cut import CorpusWords
from ...display import counted
from ...pretokenizers import PreTokenizer
from ..front_options import pre_tokenizer_from
from ..protocol import Saved, TrainingCorpus
from ..registry import OptionValues
from .config import BpeTrainerConfig

if TYPE_CHECKING:
    from ...bpe.model import BpeTokenizer
    from ...explore.stepper import Stepper
    from ..runner.model_state import MergeModelState
    from .training import BpeTraining


def config_from(values: OptionValues) -> BpeTrainerConfig:
    """BPE's config. Unset options keep the config's defaults, but for what follows from others:
    ``</w>`` implies the end-of-word pre-tokenizer, and ``</w>`` or an unknown token imply
    character level (said so rather than asking for ``--char-level`` too)."""
    end_of_word = values.get("eow")
    pre = pre_tokenizer_from(values, default="end-of-word" if end_of_word is not None and values.get("pretok") is None else "gpt2")
    assert pre is not None
    unk = str(values.get("unk", "")).strip() or None
    level = values.get("level")
    byte_level = (pre.end_of_word_suffix is None and unk is None) if level is None else level in (True, "byte")
    maxlen = values.get("maxlen")
    defaults = BpeTrainerConfig(vocab_size=int(values.get("vocab", 1000)))
    return BpeTrainerConfig(
        vocab_size=defaults.vocab_size,
        byte_level=byte_level,
        pre_tokenizer=pre,
        min_frequency=values.get("minfreq", defaults.min_frequency),
        special_tokens=values.specials,
        tie_break=values.get("tiebreak", defaults.tie_break),
        max_token_length=defaults.max_token_length if maxlen is None else (maxlen or None),
        end_of_word=end_of_word if pre.end_of_word_suffix is not None else None,
        unk_token=unk,
    )


def with_counts_settings(config: BpeTrainerConfig, pre_tokenizer: PreTokenizer, byte_level: bool, specials: tuple[str, ...]) -> BpeTrainerConfig:
    """The config for words counted with these settings (a counts file brings its own)."""
    return replace(config, pre_tokenizer=pre_tokenizer, byte_level=byte_level, special_tokens=specials)


def training(config: BpeTrainerConfig, corpus: TrainingCorpus) -> BpeTraining:
    from .training import BpeTraining

    counts = corpus.counts
    if counts is None:
        assert corpus.words is not None, "BPE trains on counted words"
        counts = corpus.words.word_counts(byte_level=config.byte_level)
    return BpeTraining(counts, config)


def stepper(config: Any, text: Text, words: CorpusWords | None) -> Stepper:  # noqa: ARG001 - the words hold the text's cut
    """The merge replay over the run's cut of the corpus -- every merge trainer's stepper (its
    config declares ``front_end``, ``byte_level`` and ``continuing_prefix``: TrainerConfig)."""
    from ...explore.stepper import Stepper

    assert words is not None, "a merge trainer always cuts its corpus"
    front = config.front_end
    return Stepper.from_words(
        words,
        byte_level=config.byte_level,
        merges=[],
        end_of_word_suffix=front.end_of_word_suffix,
        end_of_word=front.end_of_word,
        continuing_prefix=config.continuing_prefix,
    )


def tokenizer(state: MergeModelState) -> BpeTokenizer:
    """BPE's tokenizer of a state (a pair merged twice keeps its last rank, as in HF)."""
    from .training import tokenizer_from_state

    return tokenizer_from_state(state.config, dict(state.vocab), state.merges)


def save(state: MergeModelState, directory: Path, name: str, steps: Sequence[Any]) -> Saved:
    """Every format the model fits (tokenizer.json, vocab.json + merges.txt, .tiktoken when
    byte-level), the merges' record in training.jsonl; a format it cannot be written in is a note."""
    from ...formats import save_spec, skipped_formats, spec_from_tokenizer

    spec = spec_from_tokenizer(tokenizer(state))
    spec.name = name
    written = save_spec(spec, directory, steps=steps)
    byte_level = state.config.byte_level
    notes = [f"{fmt} not written: {why}" for fmt, why in skipped_formats(spec).items() if fmt != ".tiktoken" or byte_level]
    facts = f"{counted(len(spec.vocab) + len(spec.special_tokens), 'token')}, {counted(len(steps), 'merge')}"
    return Saved(written, facts, notes)


def load(directory: Path) -> Any:
    """A directory BPE saved (every file checked against the manifest)."""
    from ...formats import load_saved

    return load_saved(directory).build()


__all__ = ["config_from", "load", "save", "stepper", "tokenizer", "training", "with_counts_settings"]
