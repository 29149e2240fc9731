"""``train --model unigram``'s SentencePiece options, named as SentencePiece names them
(``character_coverage`` is ``--character-coverage``). Unset options keep SentencePiece's defaults."""

from __future__ import annotations

import argparse
import dataclasses

from bpe_engine.errors import ConfigError

_BOOL = ("true", "false")
_OPTIONS = (
    "character_coverage", "seed_sentencepiece_size", "shrinking_factor", "num_sub_iterations",
    "max_sentencepiece_length", "max_sentence_length", "input_sentence_size", "shuffle_input_sentence",
    "split_by_whitespace", "split_by_unicode_script", "split_by_number", "split_digits",
    "treat_whitespace_as_suffix", "allow_whitespace_only_pieces", "normalization_rule_name", "add_dummy_prefix",
    "remove_extra_whitespaces", "byte_fallback", "unk_id", "bos_id", "eos_id", "pad_id", "unk_piece",
    "bos_piece", "eos_piece", "pad_piece", "user_defined_symbols", "control_symbols", "required_chars",
    "hard_vocab_limit",
)


def add_unigram_options(parser: argparse.ArgumentParser) -> None:
    from bpe_engine.training.unigram import UnigramTrainerConfig

    group = parser.add_argument_group("--model unigram (SentencePiece's options and defaults)")
    fields = {f.name: f for f in dataclasses.fields(UnigramTrainerConfig)}
    for name in _OPTIONS:
        default = fields[name].default
        flag = "--" + name.replace("_", "-")
        if isinstance(default, bool):
            group.add_argument(flag, choices=_BOOL, default=None, dest="sp_" + name, help=f"default {str(default).lower()}")
        elif name in ("user_defined_symbols", "control_symbols"):
            group.add_argument(flag, default=None, dest="sp_" + name, metavar="A,B", help="comma-separated")
        else:
            group.add_argument(flag, type=type(default), default=None, dest="sp_" + name, help=f"default {default!r}")


def config_from_args(args: argparse.Namespace):
    from bpe_engine.training.unigram import UnigramTrainerConfig

    values: dict[str, object] = {"vocab_size": args.vocab_size}
    for name in _OPTIONS:
        value = getattr(args, "sp_" + name, None)
        if value is None:
            continue
        if isinstance(getattr(UnigramTrainerConfig, name, None), bool) or value in _BOOL:
            value = value == "true"
        elif name in ("user_defined_symbols", "control_symbols"):
            value = tuple(s for s in str(value).split(",") if s)
        values[name] = value
    try:
        return UnigramTrainerConfig(**values).validate()  # type: ignore[arg-type]
    except ConfigError as exc:
        raise ConfigError(f"--{str(exc).split(' ', 1)[0].replace('_', '-')} {str(exc).split(' ', 1)[1]}") from None
