"""How a token is shown: its label in a list, and what it stands for in the text.

A token's *label* names it in the model's alphabet, readably: ``Ġthe``, ``▁the``, ``##ing``,
``lo</w>``, ``<0xED>`` for a byte of a split character. Its *surface* is what it covers in the
corpus when the corpus is drawn token by token: the bytes of a byte-level token, the characters
of a character-level one without WordPiece's ``##`` -- and an end-of-word ``</w>`` drawn as
:data:`END_OF_WORD_MARK`, so ``est`` and ``est</w>`` (or a separate ``</w>`` token) never look
the same. The app and the CLI both name tokens through here.

>>> token_label("Ġthe", byte_level=True), token_label("lo</w>", byte_level=False)
('Ġthe', 'lo</w>')
>>> merge_label("e", "s", "es", byte_level=False)
'e + s → es'
>>> token_surface("##ing", byte_level=False), token_surface("est</w>", byte_level=False), token_surface("</w>", byte_level=False)
('ing', 'est⟩', '⟩')
"""

from __future__ import annotations

from functools import lru_cache

from ..core.byte_table import CHAR_TO_BYTE
from ..display import token_label as bytes_label
from ..display import token_str_label
from ..pretokenizers import END_OF_WORD_SUFFIX

END_OF_WORD_MARK = "⟩"
"""What a ``</w>`` looks like in the corpus drawn token by token: a word's end, made visible."""
CONTINUING_PREFIX = "##"


@lru_cache(maxsize=65536)
def token_label(token: str, *, byte_level: bool) -> str:
    """A token's readable label: Ġ/▁ marks kept, partial UTF-8 as ``<0xED>``, controls visible."""
    if byte_level and all(c in CHAR_TO_BYTE for c in token):
        return bytes_label(bytes(CHAR_TO_BYTE[c] for c in token), byte_level=True)
    return token_str_label(token)


def merge_label(left: str, right: str, new: str, *, byte_level: bool) -> str:
    """``left + right → new``, each side a :func:`token_label`."""
    return (
        f"{token_label(left, byte_level=byte_level)} + {token_label(right, byte_level=byte_level)}"
        f" → {token_label(new, byte_level=byte_level)}"
    )


def merge_number(rank: int) -> str:
    """How every view names a merge: ``merge 1`` is the first (rank 0, the first line of merges.txt).

    >>> merge_number(0), merge_number(1233)
    ('merge 1', 'merge 1,234')
    """
    return f"merge {rank + 1:,}"


def token_bytes_of(token: str) -> bytes:
    """The bytes a byte-level token stands for (characters outside the byte alphabet are skipped)."""
    return bytes(CHAR_TO_BYTE[c] for c in token if c in CHAR_TO_BYTE)


def token_surface(token: str, *, byte_level: bool) -> bytes | str:
    """What ``token`` covers in the corpus: bytes for byte-level tokens, else its characters
    without ``##``, its ``</w>`` shown as :data:`END_OF_WORD_MARK`."""
    if byte_level:
        return token_bytes_of(token)
    if token.startswith(CONTINUING_PREFIX) and len(token) > len(CONTINUING_PREFIX):
        token = token[len(CONTINUING_PREFIX) :]
    if token.endswith(END_OF_WORD_SUFFIX):
        token = token[: -len(END_OF_WORD_SUFFIX)] + END_OF_WORD_MARK
    return token


__all__ = ["END_OF_WORD_MARK", "merge_label", "merge_number", "token_bytes_of", "token_label", "token_surface"]
