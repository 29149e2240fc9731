"""SentencePiece's whole normalization step (``normalizer.cc``, ``Normalizer::Normalize``).

Around the charsmap rules (:class:`.PrecompiledCharsmap`) a model's ``NormalizerSpec`` adds:

* user-defined symbols are matched first at each position and left untouched;
* ``remove_extra_whitespaces``: leading spaces dropped, a unit's leading spaces dropped when the
  text so far ends with a space (runs collapse to one), trailing spaces dropped;
* ``escape_whitespaces``: every space becomes ``▁`` (U+2581);
* ``add_dummy_prefix``: one ``▁`` in front -- or at the end with ``treat_whitespace_as_suffix``.

:meth:`SpecNormalizer.aligned` follows the C++ unit by unit and records, for every normalized
character, the UTF-8 byte offset in the input of the unit that produced it (``norm_to_orig``),
so token spans map back through normalization exactly as SentencePiece maps them.
:meth:`SpecNormalizer.normalize` gives the same string with whole-string operations; it is used
for plain ``encode`` and falls back to the unit loop for the rare inputs where the shortcuts
could differ.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence

from ..literals import Literals
from .model_proto import NormalizerSettings
from .normalizer import PrecompiledCharsmap, Unit

SPACE = "▁"


class SpecNormalizer:
    """A model's ``NormalizerSpec`` plus its user-defined symbols, applied to text."""

    def __init__(
        self,
        settings: NormalizerSettings,
        *,
        treat_whitespace_as_suffix: bool = False,
        user_symbols: Iterable[str] = (),
    ) -> None:
        self.settings = settings
        self.charsmap = PrecompiledCharsmap.from_bytes(settings.charsmap)
        self.suffix = treat_whitespace_as_suffix
        symbols = sorted(set(user_symbols), key=lambda s: (-len(s.encode("utf-8")), s))
        self._symbols = Literals(symbols) if symbols else None  # the longest symbol at each position
        # Whole-string shortcuts are exact only when no rule output and no symbol holds two
        # spaces in a row, and no symbol starts or ends with a space.
        self._fast = self.charsmap.replaces_spaces_only_singly and not any(
            "  " in s or s.startswith(" ") or s.endswith(" ") for s in symbols
        )
        self._space = SPACE if settings.escape_whitespaces else " "

    # -- plain normalization ---------------------------------------------------------------------
    def normalize(self, text: str) -> str:
        """The normalized text SentencePiece's encoder sees."""
        if not text:
            return ""
        if not self._fast:
            return self.aligned(text)[0]
        body = self._rules(text)
        if body is None:
            return self.aligned(text)[0]
        if self.settings.remove_extra_whitespaces:
            body = _SPACES.sub(" ", body).strip(" ")
        return self._finish(body, text)

    def normalize_lines(self, lines: Sequence[str]) -> list[str]:
        """:meth:`normalize` of each line (none holding a newline), with every whole-string
        operation made once over all of them: the rules (see
        :meth:`PrecompiledCharsmap.normalize_lines`) and the collapsing of spaces, which a newline
        bounds as it bounds a line."""
        if not self._fast or self._symbols is not None or not lines or any("\n" in line for line in lines):
            return [self.normalize(line) for line in lines]
        body = "\n".join(self.charsmap.normalize_lines(lines))
        if body.count("\n") != len(lines) - 1:  # a rule wrote a newline
            return [self.normalize(line) for line in lines]
        if self.settings.remove_extra_whitespaces:
            body = _SPACES.sub(" ", body).replace(" \n", "\n").replace("\n ", "\n").strip(" ")
        return [self._finish(b, text) if text else "" for b, text in zip(body.split("\n"), lines)]

    def _finish(self, body: str, text: str) -> str:
        """The whitespace options after the rules (and, with ``remove_extra_whitespaces``, after
        runs of spaces became one and the ends were stripped)."""
        s = self.settings
        if s.remove_extra_whitespaces and not body:
            return self.aligned(text)[0]  # all whitespace: keep the C++'s exact edge cases
        if s.escape_whitespaces:
            body = body.replace(" ", SPACE)
        if s.add_dummy_prefix and not self.suffix:
            body = self._space + body
        if s.remove_extra_whitespaces:
            body = body.rstrip(self._space)
        if s.add_dummy_prefix and self.suffix:
            body += self._space
        return body

    def _rules(self, text: str) -> str | None:
        """Charsmap rules everywhere except on user-defined symbols (None: a rule might swallow
        a symbol's first character, so only the unit-by-unit path is exact)."""
        if self._symbols is None:
            return self.charsmap.normalize(text)
        out: list[str] = []
        pos = 0
        for index, start, end in self._symbols.find(text):
            if start > pos and self.charsmap.may_cover(text, pos, start):
                return None
            out.append(self.charsmap.normalize(text[pos:start]))
            out.append(self._symbols.literals[index])
            pos = end
        out.append(self.charsmap.normalize(text[pos:]))
        return "".join(out)

    # -- aligned normalization -------------------------------------------------------------------
    def aligned(self, text: str) -> tuple[str, list[int]]:
        """``(normalized, norm_to_orig)``: ``norm_to_orig[i]`` is the input byte offset where the
        unit that produced normalized character ``i`` starts; one more entry ends the list."""
        s = self.settings
        rm = s.remove_extra_whitespaces
        out: list[str] = []
        origin: list[int] = []
        units = list(self._units(text))
        byte_at = _byte_offsets(text)
        k = 0
        if rm:
            while k < len(units) and units[k][2] == " ":
                k += 1
        if k == len(units):
            return "", [byte_at[len(text)]]
        consumed = byte_at[units[k][0]]
        space = self._space
        if s.add_dummy_prefix and not self.suffix:
            out.append(space)
            origin.append(consumed)
        prev_space = rm
        for start, end, piece in units[k:]:
            consumed = byte_at[start]
            if prev_space:
                piece = piece.lstrip(" ")
            if piece:
                out.append(piece.replace(" ", SPACE) if s.escape_whitespaces else piece)
                origin += [consumed] * len(piece)
                prev_space = piece.endswith(" ")
            if not rm:
                prev_space = False
        consumed = byte_at[len(text)]
        normalized = "".join(out)
        if rm:
            while normalized.endswith(space):
                normalized = normalized[: -len(space)]
                consumed = origin[len(normalized)]
                del origin[len(normalized) :]
        if s.add_dummy_prefix and self.suffix:
            normalized += space
            origin.append(consumed)
        origin.append(consumed)
        return normalized, origin

    def _units(self, text: str) -> Iterator[Unit]:
        """User-defined symbols first, then the longest charsmap rule, position by position."""
        pos, n = 0, len(text)
        symbols = self._symbols
        starts = symbols.starts(text) if symbols is not None else {}
        while pos < n:
            found = starts.get(pos)
            if found is not None:
                symbol = symbols.literals[found]  # type: ignore[union-attr]  # starts is empty without symbols
                yield pos, pos + len(symbol), symbol
                pos += len(symbol)
                continue
            length, replacement = self.charsmap.match(text, pos)
            yield pos, pos + length, replacement
            pos += length


_SPACES = re.compile(" {2,}")


def _byte_offsets(text: str) -> list[int]:
    """UTF-8 byte offset of every character position (one entry past the end)."""
    out = [0] * (len(text) + 1)
    total = 0
    for i, ch in enumerate(text):
        out[i] = total
        code = ord(ch)
        total += 1 if code < 0x80 else 2 if code < 0x800 else 3 if code < 0x10000 else 4
    out[len(text)] = total
    return out
