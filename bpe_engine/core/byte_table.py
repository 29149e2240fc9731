"""GPT-2's reversible byte <-> unicode table.

Byte-level BPE works on the 256 byte values, but vocab.json / merges.txt / tokenizer.json store
tokens as text. GPT-2 therefore maps every byte to a printable character: printable Latin-1 bytes
map to themselves, the other 68 (controls, space, NBSP, soft hyphen) to U+0100.. in byte order.
So the space byte is ``Ġ`` (U+0120), newline ``Ċ`` (U+010A), and the UTF-8 of ``한`` (ED 95 9C)
is ``íķľ``.

>>> BYTE_TO_CHAR[ord(" ")], BYTE_TO_CHAR[ord("\\n")]
('Ġ', 'Ċ')
>>> bytes_to_token_str("한".encode())
'íķľ'
>>> token_str_to_bytes("íķľ").decode()
'한'
"""

from __future__ import annotations


def _build_table() -> dict[int, str]:
    printable = (
        list(range(ord("!"), ord("~") + 1))
        + list(range(ord("¡"), ord("¬") + 1))
        + list(range(ord("®"), ord("ÿ") + 1))
    )
    table = {b: chr(b) for b in printable}
    shifted = 0
    for b in range(256):
        if b not in table:
            table[b] = chr(256 + shifted)
            shifted += 1
    return table


BYTE_TO_CHAR: dict[int, str] = _build_table()
CHAR_TO_BYTE: dict[str, int] = {c: b for b, c in BYTE_TO_CHAR.items()}
# Indexable by byte value: faster than the dict on hot paths.
BYTE_CHARS: tuple[str, ...] = tuple(BYTE_TO_CHAR[b] for b in range(256))
# The 256 byte characters sorted by code point: the order Hugging Face gives the initial
# alphabet, which is also GPT-2's rank order for single bytes.
BYTE_ALPHABET: tuple[str, ...] = tuple(sorted(BYTE_CHARS))

_ENCODE_TRANS = {b: BYTE_TO_CHAR[b] for b in range(256)}


def bytes_to_token_str(data: bytes) -> str:
    """Map raw bytes to their GPT-2 display string (one character per byte)."""
    return data.decode("latin-1").translate(_ENCODE_TRANS)


def token_str_to_bytes(token: str) -> bytes:
    """Inverse of :func:`bytes_to_token_str`. Raises ``KeyError`` on a character outside the table."""
    return bytes(CHAR_TO_BYTE[c] for c in token)


def is_byte_token_str(token: str) -> bool:
    """True when every character of ``token`` belongs to the byte table."""
    return all(c in CHAR_TO_BYTE for c in token)


def utf8_safe(text: str) -> str:
    """A text that UTF-8 can hold, by tiktoken's fix-up: surrogate pairs become their character,
    lone surrogates U+FFFD (a text that is already valid UTF-8 comes back as it is)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    return text
