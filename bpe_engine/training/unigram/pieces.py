"""Which strings may become pieces: SentencePiece's ``IsValidSentencePiece``, once per string
(:func:`is_valid_piece`, the readable rule) and for many substrings at once (:func:`valid_lengths`).

The rule (``trainer_interface.cc``): at most ``max_sentencepiece_length`` characters; never ``▅``
(the unknown marker), NUL, tab or space; ``▁`` only where the whitespace options allow it; no two
Unicode scripts in one piece when ``split_by_unicode_script`` (Hiragana and Katakana count as Han,
a combining mark takes the script of the character before it, and with ``split_by_number=false``
a digit belongs to every script); no digit in a longer piece with ``split_digits``. Scripts come
from SentencePiece's own table (``bpe_engine/data/sp_unicode_scripts.tsv``), not from Python's.

>>> from bpe_engine.training.unigram.config import UnigramTrainerConfig
>>> cfg = UnigramTrainerConfig()
>>> [is_valid_piece(s, cfg) for s in ("▁the", "the▁", "ab,", "한국", "a1")]
[True, False, False, True, False]
"""

from __future__ import annotations

import numpy as np

from ...unicode_scripts import script_ids, script_table
from .config import UnigramTrainerConfig

WS = "\u2581"
UNK_CHAR = "\u2585"
ANY = -1  # kAnyType: belongs to every script
_HAN_ALIASES = ("Hiragana", "Katakana")


def scripts_of(codes: np.ndarray, config: UnigramTrainerConfig) -> np.ndarray:
    """The script id each code point counts as in the piece rule (``ANY`` for free digits,
    ``INHERITED`` kept as its own id so the caller can let it follow its neighbour)."""
    names = script_table()[3]
    out = script_ids(codes)
    han = names["Han"]
    for alias in _HAN_ALIASES:
        out[out == names[alias]] = han
    out[codes == 0x30FC] = han
    if not config.split_by_number:
        out[_is_digit(codes)] = ANY
    return out


def inherited_id() -> int:
    return script_table()[3]["Inherited"]


def _is_digit(codes: np.ndarray) -> np.ndarray:
    return ((codes >= 0x30) & (codes <= 0x39)) | ((codes >= 0xFF10) & (codes <= 0xFF19))


def _poison(codes: np.ndarray) -> np.ndarray:
    bad = (codes == ord(UNK_CHAR)) | (codes == 0) | (codes == 9) | (codes == 0x20)
    return bad | ((codes >= 0xD800) & (codes < 0xE000)) | (codes >= 0x110000) | (codes < 0)


def is_valid_piece(piece: str, config: UnigramTrainerConfig) -> bool:
    """``IsValidSentencePiece`` for one string, step for step (the reference for the vector form)."""
    if not piece or len(piece) > config.max_sentencepiece_length:
        return False
    codes = np.array([ord(c) for c in piece], np.int64)
    scripts = scripts_of(codes, config)
    inherited = inherited_id()
    all_ws = all(c == WS for c in piece)
    prev = ANY
    n = len(piece)
    for pos, c in enumerate(piece):
        if _poison(codes[pos : pos + 1])[0]:
            return False
        if c == WS:
            if not config.allow_whitespace_only_pieces or not all_ws:
                if config.treat_whitespace_as_suffix:
                    if (config.split_by_whitespace and pos < n - 1) or (not config.split_by_whitespace and pos < n - 1 and pos == 0):
                        return False
                elif (config.split_by_whitespace and pos > 0) or (not config.split_by_whitespace and pos > 0 and pos == n - 1):
                    return False
            continue
        s = int(scripts[pos])
        if s == inherited:
            s = prev
        if config.split_digits and _is_digit(codes[pos : pos + 1])[0] and n > 1:
            return False
        if config.split_by_unicode_script and s != ANY and prev != ANY and prev != s:
            return False
        prev = s
    return True


def valid_mask(codes: np.ndarray, starts: np.ndarray, lengths: np.ndarray, config: UnigramTrainerConfig) -> np.ndarray:
    """``is_valid_piece(text[s:s+l])`` for every ``(s, l)``, vectorised over a code-point array
    (which must extend at least ``max(lengths)`` past every start; pad it with a poison value)."""
    return PieceRule(codes, config).valid(starts, lengths)


class PieceRule:
    """:func:`valid_mask` for one text and many batches of substrings: the per-character facts
    (whitespace, poison, digits, script clashes) are found once."""

    def __init__(self, codes: np.ndarray, config: UnigramTrainerConfig) -> None:
        codes = np.asarray(codes, np.int64)
        self.config = config
        self.ws = codes == ord(WS)
        self.poison = _poison(codes)
        self.digit = _is_digit(codes)
        scripts = scripts_of(codes, config)
        inherited = inherited_id()
        # Script conflicts: the character before j that decides its script check (skipping ▁ and
        # combining marks, which follow their neighbour) and whether the two scripts clash.
        real = ~self.ws & (scripts != inherited)
        idx = np.where(real, np.arange(len(codes)), -1)
        self.prev_real = np.maximum.accumulate(np.concatenate(([-1], idx[:-1])))
        clash = real & (self.prev_real >= 0)
        ps = scripts[np.maximum(self.prev_real, 0)]
        self.clash = clash & (ps != ANY) & (scripts != ANY) & (ps != scripts)

    def valid(self, starts: np.ndarray, lengths: np.ndarray | int) -> np.ndarray:
        config = self.config
        starts = np.asarray(starts, np.int64)
        lengths = np.broadcast_to(np.asarray(lengths, np.int64), starts.shape)
        ok = (lengths >= 1) & (lengths <= config.max_sentencepiece_length)
        if not len(starts):
            return ok
        maxlen = int(lengths.max())
        ws = self.ws
        all_ws = np.ones(len(starts), bool)
        for off in range(maxlen):
            inside = off < lengths
            all_ws &= ~inside | ws[starts + off]
        for off in range(maxlen):
            inside = off < lengths
            j = starts + off
            bad = self.poison[j]
            w = ws[j]
            last = lengths - 1 == off  # array first: typed as the elementwise array (int == array reads as a bool)
            if config.treat_whitespace_as_suffix:
                wbad = (~last) if config.split_by_whitespace else ((~last) & (off == 0))
            else:
                wbad = np.full(len(j), off > 0) if config.split_by_whitespace else (last & (off > 0))
            if config.allow_whitespace_only_pieces:
                wbad = wbad & ~all_ws
            bad = bad | (w & wbad)
            if config.split_digits:
                bad = bad | (self.digit[j] & (lengths > 1))
            if config.split_by_unicode_script:
                bad = bad | (self.clash[j] & (self.prev_real[j] >= starts) & ~w)
            ok &= ~(inside & bad)
        return ok
