"""Argument types shared by the sub-commands: one parse of "a whole number", one wording of its errors.

Numbers may carry ``_`` separators (``--vocab-size 32_000``), as Python literals do; argparse turns the
``ArgumentTypeError`` into the one-line usage error every option gives.
"""

from __future__ import annotations

import argparse


def integer(value: str) -> int:
    try:
        return int(value.replace("_", ""))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not an integer") from None


def positive(value: str) -> int:
    number = integer(value)
    if number < 1:
        raise argparse.ArgumentTypeError("must be 1 or more")
    return number


def non_negative(value: str) -> int:
    number = integer(value)
    if number < 0:
        raise argparse.ArgumentTypeError("must be 0 or more")
    return number


def vocab_size(value: str) -> int:
    """``--vocab-size``: 1 to the largest vocabulary a trainer builds, named as the option is
    (the trainer's own check said "vocab_size must be between 0 and 1,000,000" for 2**63 --
    an API name, and a bound that is refused).

    >>> vocab_size("32_000")
    32000
    """
    from bpe_engine.training.bpe.config import MAX_VOCAB_SIZE

    number = integer(value)
    if not 1 <= number <= MAX_VOCAB_SIZE:
        raise argparse.ArgumentTypeError(f"must be from 1 to {MAX_VOCAB_SIZE:,} (got {number:,})")
    return number
