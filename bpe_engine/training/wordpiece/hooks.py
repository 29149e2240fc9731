"""What WordPiece's registration points to (:mod:`.spec`): its config from option values, its run,
its tokenizer, and how it is saved and loaded. Its stepper is the merge replay BPE's is."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...display import counted
from ...wordpiece.bert_normalizer import BertNormalizer
from ...wordpiece.model import BERT_SPECIALS
from ..bpe.hooks import stepper
from ..front_options import pre_tokenizer_from
from ..protocol import Saved, TrainingCorpus
from ..registry import OptionValues
from .trainer import WordPieceTrainerConfig, WordPieceTraining, wordpiece_tokenizer

if TYPE_CHECKING:
    from ...wordpiece.model import WordPieceTokenizer
    from ..runner.model_state import MergeModelState

_ACCENTS = {"auto": None, "strip": True, "keep": False}


def config_from(values: OptionValues) -> WordPieceTrainerConfig:
    """WordPiece's config: BERT's specials, the given ones and the unknown token (default
    ``[UNK]``); BERT's normaliser unless a pre-tokenizer is named."""
    defaults = WordPieceTrainerConfig()
    unk = str(values.get("unk", "")).strip() or defaults.unk_token
    return WordPieceTrainerConfig(
        vocab_size=int(values.get("vocab", defaults.vocab_size)),
        merge_by=values.get("merge_by") or defaults.merge_by,
        min_frequency=values.get("minfreq", defaults.min_frequency),
        pre_tokenizer=pre_tokenizer_from(values, default=None),
        special_tokens=tuple(dict.fromkeys([*BERT_SPECIALS, *values.specials, unk])),
        unk_token=unk,
        normalizer=BertNormalizer(lowercase=values.get("lowercase", "yes") == "yes", strip_accents=_ACCENTS[values.get("accents", "auto")]),
    )


def training(config: WordPieceTrainerConfig, corpus: TrainingCorpus) -> WordPieceTraining:
    if corpus.words is not None:
        return WordPieceTraining(corpus.words.word_counts(byte_level=False), config)
    if corpus.counts is not None:
        return WordPieceTraining(corpus.counts, config)
    assert corpus.texts is not None, "WordPiece trains on words, counted or to count"
    return WordPieceTraining(corpus.texts, config)


def named_tokenizer(state: MergeModelState, name: str) -> WordPieceTokenizer:
    return wordpiece_tokenizer(state.config, dict(state.vocab), name)


def tokenizer(state: MergeModelState) -> WordPieceTokenizer:
    return named_tokenizer(state, f"wordpiece-{len(state.vocab)}")


def save(state: MergeModelState, directory: Path, name: str, steps: Sequence[Any]) -> Saved:
    """vocab.txt (when every token fits one) and tokenizer.json, the merges in training.jsonl."""
    from ...formats import save_tokenizer
    from ...wordpiece import vocab_txt_problem

    model = named_tokenizer(state, name)
    written = save_tokenizer(model, directory, steps=steps)
    notes = []
    if all(path.name != "vocab.txt" for path in written):
        notes.append(f"vocab.txt not written: {vocab_txt_problem(model)}; tokenizer.json holds every token")
    return Saved(written, f"{counted(model.vocab_size, 'token')}, {counted(len(steps), 'merge')}", notes)


def load(directory: Path) -> Any:
    """A WordPiece directory we saved: its tokenizer.json (or vocab.txt), checked against the manifest."""
    from ...formats.saved_dir import read_consistently

    def read(meta: dict[str, Any]) -> Any:
        name = meta.get("name") if isinstance(meta.get("name"), str) else directory.name
        if (directory / "tokenizer.json").is_file():
            from ...hf import load_tokenizer_json

            return load_tokenizer_json(directory / "tokenizer.json", name=name)
        from ...wordpiece.vocab_files import load_vocab_txt

        return load_vocab_txt(directory / "vocab.txt", name=name)

    return read_consistently(directory, read)


__all__ = ["config_from", "load", "named_tokenizer", "save", "stepper", "tokenizer", "training"]
