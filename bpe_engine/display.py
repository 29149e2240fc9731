"""Safe, visible forms of user text and tokens.

Corpus text and token bytes can hold anything: terminal escape sequences (ESC, OSC, C1 CSI),
bidi overrides that reorder what follows, zero-width characters that hide a difference, lone
surrogates, combining marks with nothing to sit on. Every pane and every CLI line shows text
through these functions, so nothing takes effect in the terminal and every difference is visible.
Markup safety (``[bold]``) is the renderer's job: the app and CLI build rich ``Text`` from these
plain strings, never markup strings.

>>> visible_text("a\\x1b[31mred\\u202e")
'a␛[31mred<RLO>'
>>> token_label(b" the", byte_level=True)
'Ġthe'
>>> token_label(b"\\xed\\x95", byte_level=True)
'<0xED><0x95>'
>>> token_label("한".encode(), byte_level=True)
'한'
"""

from __future__ import annotations

import codecs
import unicodedata

# Names for the invisible format characters people meet in real text.
_FORMAT_NAMES: dict[str, str] = {
    "\u00ad": "SHY",
    "\u061c": "ALM",
    "\u180e": "MVS",
    "\u200b": "ZWSP",
    "\u200c": "ZWNJ",
    "\u200d": "ZWJ",
    "\u200e": "LRM",
    "\u200f": "RLM",
    "\u2028": "LSEP",
    "\u2029": "PSEP",
    "\u202a": "LRE",
    "\u202b": "RLE",
    "\u202c": "PDF",
    "\u202d": "LRO",
    "\u202e": "RLO",
    "\u2060": "WJ",
    "\u2066": "LRI",
    "\u2067": "RLI",
    "\u2068": "FSI",
    "\u2069": "PDI",
    "\ufeff": "BOM",
}
NEWLINE_MARK = "↵"
TAB_MARK = "⇥"


def _char_visible(ch: str, keep_newlines: bool) -> str:
    code = ord(ch)
    if code < 0x20:
        if ch == "\n":
            return "\n" if keep_newlines else NEWLINE_MARK
        if ch == "\t":
            return TAB_MARK
        return chr(0x2400 + code)  # Control Pictures: ␀ … ␟ (ESC is ␛)
    if code == 0x7F:
        return "␡"
    if 0x80 <= code <= 0x9F:
        return f"<U+{code:04X}>"  # C1 controls, including the 8-bit CSI (0x9B)
    name = _FORMAT_NAMES.get(ch)
    if name is not None:
        return f"<{name}>"
    if unicodedata.category(ch) in ("Cf", "Cs", "Cn", "Zl", "Zp"):
        # Format, lone surrogate, unassigned (width unknown to terminals), line/paragraph separators.
        return f"<U+{code:04X}>"
    return ch


def _is_plain(text: str) -> bool:
    return text.isascii() and text.isprintable()  # both in C: the common case costs no Python loop


def visible_text(text: str, *, keep_newlines: bool = False) -> str:
    """``text`` with every control, escape, bidi, zero-width and surrogate character made visible.

    Printable text (Hangul, emoji, accents) is unchanged. ``keep_newlines`` keeps ``\\n`` as a
    real line break (for the corpus view); otherwise it shows as ``↵``.
    """
    if _is_plain(text):
        return text
    return "".join(_char_visible(c, keep_newlines) for c in text)


def _hex_bytes_handler(exc: UnicodeError) -> tuple[str, int]:
    if not isinstance(exc, UnicodeDecodeError):
        raise exc
    bad = exc.object[exc.start : exc.end]
    return "".join(f"<0x{b:02X}>" for b in bad), exc.end


_HEX_ERRORS = "bpe_explorer_hex"
codecs.register_error(_HEX_ERRORS, _hex_bytes_handler)


def decode_bytes_visibly(data: bytes) -> str:
    """UTF-8 decode where every byte that is not part of a whole character shows as ``<0xED>``."""
    return data.decode("utf-8", errors=_HEX_ERRORS)


def token_label(data: bytes, *, byte_level: bool) -> str:
    """A token's readable label from its bytes.

    Valid UTF-8 shows as text; partial characters as ``<0xED>`` per byte; a space as ``Ġ`` for
    byte-level tokens (the GPT-2 convention readers know) or ``␣`` otherwise; controls and
    invisible characters as in :func:`visible_text`; a leading combining mark on a dotted
    circle ``◌`` so it cannot fuse with the previous label.
    """
    text = decode_bytes_visibly(data)
    text = text.replace(" ", "Ġ" if byte_level else "␣")
    text = visible_text(text)
    if text and unicodedata.category(text[0]).startswith("M"):
        text = "◌" + text
    return text


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """A count and its noun, singular for one: what every count line says ("1 words" before).

    >>> counted(1, "word"), counted(2_000, "token"), counted(1, "distinct word"), counted(2, "match", "matches")
    ('1 word', '2,000 tokens', '1 distinct word', '2 matches')
    """
    return f"{n:,} {noun_for(n, noun, plural)}"


def noun_for(n: int, noun: str, plural: str | None = None) -> str:
    """``noun`` for a count of ``n`` (``plural``, default ``noun + "s"``, for any other count)."""
    return noun if n == 1 else (plural or noun + "s")


def token_str_label(token: str) -> str:
    """Label for a token known only by its model-alphabet string (``▁the``, ``##ing``, ``lo</w>``);
    a raw space (character-level models) is ``␣``, so no label is ever blank or padded-looking."""
    text = visible_text(token).replace(" ", "␣")
    if text and unicodedata.category(text[0]).startswith("M"):
        text = "◌" + text
    return text
