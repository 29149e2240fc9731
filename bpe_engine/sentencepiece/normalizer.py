"""SentencePiece's precompiled normalization rules (``precompiled_charsmap``), applied exactly.

A model carries its normalization (``nmt_nfkc``, ``nfkc``, ``nmt_nfkc_cf``, ``nfkc_cf``, or rules
compiled from a user TSV) as a double-array trie from UTF-8 keys to replacement strings.
SentencePiece scans the text left to right and at each position replaces the *longest* key that
matches (or keeps one character); :meth:`PrecompiledCharsmap.normalize` does the same. A model
with an empty charsmap (``identity``) normalizes nothing.

Speed without a per-character Python loop: a key of two or more characters can only start right
before a character that is the *second* character of some multi-character key (combining marks,
Hangul vowel jamo, ...). Everywhere else every unit is one character, so ``str.translate`` with
the single-character rules is exact; only around those characters do we walk the trie.

>>> PrecompiledCharsmap.from_bytes(b"").normalize("ｆｕｌｌ")  # identity: an empty charsmap
'ｆｕｌｌ'
"""

from __future__ import annotations

import bisect
import itertools
import re
from collections.abc import Iterable, Iterator, Sequence
from functools import lru_cache

from ..errors import ConfigError
from .darts import DoubleArray

Unit = tuple[int, int, str]
"""One normalization step: characters ``[start, end)`` of the input become the string."""


class PrecompiledCharsmap:
    """The rules of one ``precompiled_charsmap`` blob (see the module docstring)."""

    def __init__(self, trie: DoubleArray | None, pool: bytes) -> None:
        self._trie = trie
        self._pool = pool
        self._table: dict[int, str] = {}
        self._ascii_table: dict[int, str] = {}
        self._placeholder = ""
        self._rule_chars: re.Pattern[str] = re.compile("(?!)")
        self._second: frozenset[str] = frozenset()
        self._second_re: re.Pattern[str] | None = None
        if trie is not None:
            self._index_rules(trie)

    @classmethod
    def from_bytes(cls, blob: bytes) -> PrecompiledCharsmap:
        """Parse a charsmap blob; an empty blob is the identity. Malformed blobs raise
        :class:`~bpe_engine.errors.ConfigError` with SentencePiece's reason."""
        if not blob:
            return cls(None, b"")
        trie, pool = DoubleArray.from_charsmap(blob)
        return cls(trie, pool)

    @property
    def is_identity(self) -> bool:
        return self._trie is None

    @property
    def replaces_spaces_only_singly(self) -> bool:
        """True when no replacement holds two spaces in a row: then collapsing runs of spaces
        after normalization equals SentencePiece's per-unit whitespace removal."""
        return b"  " not in self._pool

    # -- SentencePiece semantics ---------------------------------------------------------------
    def normalize(self, text: str) -> str:
        """``text`` with every rule applied, longest match first, left to right."""
        if not self._table:
            return text
        if self._second_re is None:
            return self._translate(text)
        out: list[str] = []
        pos = 0
        for found in self._second_re.finditer(text, 1):
            start = found.start() - 1
            if start < pos:
                continue
            out.append(self._translate(text[pos:start]))
            pos = self._scan_complex(text, start, out)
        out.append(self._translate(text[pos:]))
        return "".join(out)

    def normalize_lines(self, lines: Sequence[str]) -> list[str]:
        """:meth:`normalize` of each line, made as one translation of all lines joined: a line
        where no multi-character rule can start is translated character by character, so joining
        cannot change it; the others (few in most text) are normalized one by one."""
        if not self._table:
            return list(lines)
        joined = "\0".join(lines)
        if joined.count("\0") != len(lines) - 1:  # a line holds NUL itself
            return [self.normalize(line) for line in lines]
        if self._second_re is None or self._second_re.search(joined, 1) is None:
            return self._translate(joined).split("\0")
        starts = list(itertools.accumulate((len(line) + 1 for line in lines), initial=0))
        complex_lines = {bisect.bisect_right(starts, m.start() - 1) - 1 for m in self._second_re.finditer(joined, 1)}
        out = self._translate(joined).split("\0") if len(complex_lines) < len(lines) else list(lines)
        for i in complex_lines:
            out[i] = self.normalize(lines[i])
        return out

    def units(self, text: str, start: int = 0, end: int | None = None) -> Iterator[Unit]:
        """The normalization units of ``text[start:end]`` one by one (for alignment)."""
        stop = len(text) if end is None else end
        pos = start
        while pos < stop:
            length, replacement = self.match(text, pos, stop)
            yield pos, pos + length, replacement
            pos += length

    def match(self, text: str, pos: int, end: int | None = None) -> tuple[int, str]:
        """The unit at ``pos``: ``(characters consumed, replacement)`` -- the longest rule, or the
        character itself when none applies."""
        stop = len(text) if end is None else end
        if self._trie is None:
            return 1, text[pos]
        if pos + 1 >= stop or text[pos + 1] not in self._second:
            ch = text[pos]
            return 1, self._table.get(ord(ch), ch)
        found = self._longest(text, pos, stop)
        return found if found is not None else (1, text[pos])

    def may_cover(self, text: str, start: int, end: int) -> bool:
        """Whether a multi-character rule starting in ``[start, end)`` could reach ``end`` (if not,
        ``text[start:end]`` normalizes on its own)."""
        return self._second_re is not None and self._second_re.search(text, start + 1, end + 1) is not None

    # -- Hugging Face's ``Precompiled`` uses this lookup ---------------------------------------
    def transform(self, chunk: str) -> str | None:
        """The replacement of the *shortest* rule that is a prefix of ``chunk`` (None if none).

        This is the lookup Hugging Face's ``Precompiled`` normalizer (``spm_precompiled``) makes
        for each grapheme or character; SentencePiece itself uses the longest match (:meth:`match`).
        """
        if self._trie is None or not chunk:
            return None
        hits = self._trie.prefixes(chunk.encode("utf-8", "surrogatepass"))
        return self._replacement(hits[0][1]) if hits else None

    # -- internals ---------------------------------------------------------------------------------
    def _translate(self, text: str) -> str:
        """Single-character rules over a stretch where every unit is one character.

        CPython translates an all-ASCII string ~20x faster when every ASCII rule maps to one
        ASCII character, so ASCII blocks go through a table whose deletions map to a placeholder
        (a character the rules delete themselves, removed afterwards); other blocks substitute
        only the characters that have a rule, found by one compiled character class.
        """
        if len(text) <= _BLOCK:
            return self._translate_block(text)
        return "".join(self._translate_block(text[i : i + _BLOCK]) for i in range(0, len(text), _BLOCK))

    def _translate_block(self, text: str) -> str:
        if text.isascii():
            out = text.translate(self._ascii_table)
            return out.replace(self._placeholder, "") if self._placeholder and self._placeholder in out else out
        return self._rule_chars.sub(self._substitute, text)

    def _substitute(self, found: re.Match[str]) -> str:
        ch = found.group()
        return self._table.get(ord(ch), ch)

    def _scan_complex(self, text: str, pos: int, out: list[str]) -> int:
        """Unit-by-unit from ``pos`` while a multi-character rule may start; returns where a
        plain stretch resumes."""
        n = len(text)
        second = self._second
        while pos < n and pos + 1 < n and text[pos + 1] in second:
            found = self._longest(text, pos, n)
            if found is None:
                ch = text[pos]
                out.append(ch)
                pos += 1
            else:
                out.append(found[1])
                pos += found[0]
        return pos

    def _longest(self, text: str, pos: int, stop: int) -> tuple[int, str] | None:
        """Longest rule matching at ``pos`` (character count, replacement), walking the trie one
        character at a time; a rule whose replacement lies outside the pool counts as none, as
        in SentencePiece."""
        trie = self._trie
        assert trie is not None
        base = trie.root()
        best: tuple[int, int] | None = None
        for i in range(pos, stop):
            data = text[i].encode("utf-8", "surrogatepass")
            value = None
            for k, byte in enumerate(data):
                step = trie.step(base, byte)
                if step is None:
                    return self._resolve(best)
                base, value = step
                if value is not None and k < len(data) - 1:
                    raise ConfigError(
                        f"a normalization rule ends inside the UTF-8 bytes of U+{ord(text[i]):04X}; "
                        "rules must map whole characters (such rule sets are not supported)"
                    )
            if value is not None:
                best = (i + 1 - pos, value)
        return self._resolve(best)

    def _resolve(self, best: tuple[int, int] | None) -> tuple[int, str] | None:
        if best is None:
            return None
        replacement = self._replacement(best[1])
        return None if replacement is None else (best[0], replacement)

    def _replacement(self, value: int) -> str | None:
        return _decode_replacement(self._pool, value)

    def _index_rules(self, trie: DoubleArray) -> None:
        """Single-character rules (for ``str.translate``) and the characters that can follow
        the first character of a multi-character rule."""
        second: set[str] = set()
        continuations: dict[int, frozenset[str]] = {}
        for key, base, value in trie.walk(trie.root(), 4):
            ch = _one_char(key)
            if ch is None:
                continue
            if value is not None:
                replacement = self._replacement(value)
                if replacement is not None:
                    self._table[ord(ch)] = replacement
            if base not in continuations:
                continuations[base] = frozenset(
                    c for k, _b, _v in trie.walk(base, 4) if (c := _one_char(k)) is not None
                )
            second |= continuations[base]
        self._second = frozenset(second)
        if second:
            self._second_re = _char_class(second)
        self._rule_chars = _char_class(chr(k) for k in self._table) if self._table else re.compile("(?!)")
        deleted = [chr(k) for k, v in self._table.items() if k < 128 and v == ""]
        self._placeholder = next((c for c in deleted if not any(c in v for v in self._table.values())), "")
        self._ascii_table = {k: (self._placeholder if v == "" and self._placeholder else v) for k, v in self._table.items() if k < 128}


_BLOCK = 1 << 14


def _char_class(chars: Iterable[str]) -> re.Pattern[str]:
    """A pattern matching any of ``chars`` -- or any astral character (callers re-check those).

    ``re`` tests a large class of BMP characters with one bitmap lookup, but a class holding
    astral characters becomes a linear list of ranges (~100x slower on every character).
    """
    bmp = sorted(c for c in chars if ord(c) < 0x10000)
    astral = "[\U00010000-\U0010FFFF]"
    if not bmp:
        return re.compile(astral)
    return re.compile("[" + "".join(re.escape(c) for c in bmp) + "]|" + astral)


@lru_cache(maxsize=8192)
def _decode_replacement(pool: bytes, value: int) -> str | None:
    if value >= len(pool):
        return None
    end = pool.index(b"\0", value)
    try:
        return pool[value:end].decode("utf-8")
    except UnicodeDecodeError:
        raise ConfigError(
            f"a normalization rule's replacement (pool offset {value}) is not valid UTF-8; such rule sets are not supported"
        ) from None


def _one_char(key: bytes) -> str | None:
    """The character ``key`` encodes when it is exactly one whole UTF-8 character."""
    try:
        text = key.decode("utf-8")
    except UnicodeDecodeError:
        return None
    return text if len(text) == 1 else None
