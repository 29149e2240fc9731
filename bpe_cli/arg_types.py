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
