"""Unigram's registration: SentencePiece's options under SentencePiece's names, its four step kinds
(seeds, EM, pruning, the final vocabulary), where its code is (:mod:`.hooks`).

Every option is a flag of ``train --model unigram`` (``character_coverage`` is
``--character-coverage``); the form shows the few that shape a run you watch. Unset options keep
SentencePiece 0.2.1's defaults (the config's own).
"""

from __future__ import annotations

from ..front_options import VOCAB
from ..merge_kinds import NUMBER
from ..registry import Column, Option, OptionKind, Ref, StepKind, TrainerSpec

_ROWS = "bpe_engine.training.unigram.rows"
_COLUMNS = (NUMBER, Column("step", False, True), Column("vocab"), Column("log-lik / loss"), Column("tokens"))


def _kind(name: str, progress: str) -> StepKind:
    return StepKind(name, _COLUMNS, row=Ref(_ROWS, f"{name}_row"), title=Ref(_ROWS, f"{name}_title"), progress=progress)


def _sp(field: str, kind: OptionKind, help: str = "", *, name: str = "", label: str = "", form: bool = False) -> Option:
    """A SentencePiece option: its flag is its name with dashes."""
    return Option(
        name or field, label, kind, field, help or f"SentencePiece's {field}", flag="--" + field.replace("_", "-"), form=form,
        metavar="A,B" if field.endswith("_symbols") else None,
    )


SPEC = TrainerSpec(
    name="unigram",
    label="Unigram",
    summary="SentencePiece's Unigram: EM over a large seed vocabulary, pruned to the size",
    config=Ref("bpe_engine.training.unigram.config", "UnigramTrainerConfig"),
    hooks=Ref("bpe_engine.training.unigram.hooks", ""),
    options=(
        VOCAB,
        _sp("character_coverage", "float", "character_coverage: the share of characters kept; the rarest others become <unk>",
            name="coverage", label="coverage", form=True),
        _sp("max_sentencepiece_length", "int", "max_sentencepiece_length: the longest piece, in characters",
            name="maxpiece", label="max piece", form=True),
        _sp("shrinking_factor", "float", "shrinking_factor: the share of pieces each pruning round keeps",
            name="shrink", label="shrinking", form=True),
        _sp("num_sub_iterations", "int", "num_sub_iterations: EM iterations between two pruning rounds",
            name="subiter", label="EM iters", form=True),
        _sp("seed_sentencepiece_size", "int"),
        _sp("max_sentence_length", "int"),
        _sp("input_sentence_size", "int"),
        _sp("shuffle_input_sentence", "flag"),
        _sp("split_by_whitespace", "flag"),
        _sp("split_by_unicode_script", "flag"),
        _sp("split_by_number", "flag"),
        _sp("split_digits", "flag"),
        _sp("treat_whitespace_as_suffix", "flag"),
        _sp("allow_whitespace_only_pieces", "flag"),
        _sp("normalization_rule_name", "text"),
        _sp("add_dummy_prefix", "flag"),
        _sp("remove_extra_whitespaces", "flag"),
        _sp("byte_fallback", "flag"),
        _sp("unk_id", "int"),
        _sp("bos_id", "int"),
        _sp("eos_id", "int"),
        _sp("pad_id", "int"),
        _sp("unk_piece", "text"),
        _sp("bos_piece", "text"),
        _sp("eos_piece", "text"),
        _sp("pad_piece", "text"),
        _sp("user_defined_symbols", "text", "comma-separated"),
        _sp("control_symbols", "text", "comma-separated"),
        _sp("required_chars", "text"),
        _sp("hard_vocab_limit", "flag"),
    ),
    step_kinds=(_kind("seed", "seeding"), _kind("em", "EM"), _kind("prune", "pruning"), _kind("final", "final")),
    reads="lines",
    unit="steps",
    start_label="before the seeds",
    targets_vocabulary=False,
    cli_notes=("reads each line as a sentence (SentencePiece reads its input twice: files only, not '-')",),
)

__all__ = ["SPEC"]
