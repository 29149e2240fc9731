"""HF's added vocabulary: tokens matched whole in the text before the model sees it.

Ported from ``tokenizers/src/tokenizer/added_vocabulary.rs``:

* ids: a token whose content is in the model vocabulary takes that id; any other takes the next
  free id from the model's vocabulary *size* -- the ``id`` written in the file is not used (HF
  only warns when it differs; :func:`assign_ids` reports it);
* matching: leftmost-longest over all added tokens, by one Aho-Corasick automaton as HF builds
  (:class:`bpe_engine.literals.Literals`, the same Rust crate); tokens with ``normalized: false`` (all special tokens, usually) are matched in
  the raw text, the others in the normalised text, by their normalised content;
* ``single_word`` drops a match touching a word character, ``lstrip``/``rstrip`` widen it over the
  whitespace beside it; ``encode_special_tokens`` (our ``special_mode="text"``) skips special
  tokens but still lets them hide overlapping matches, as HF does.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

import regex

from ..literals import Literals
from ..wordpiece.bert_normalizer import WHITE_SPACE

_SPACES = "".join(sorted(WHITE_SPACE))
_WORD = regex.compile(r"\w")


@dataclass(frozen=True)
class AddedToken:
    """One entry of ``added_tokens`` with the id HF gives it."""

    content: str
    id: int
    special: bool = False
    single_word: bool = False
    lstrip: bool = False
    rstrip: bool = False
    normalized: bool = True


def assign_ids(entries: Iterable[AddedToken], model_vocab: Mapping[str, int]) -> tuple[list[AddedToken], list[str]]:
    """HF's ``add_tokens``: the ids tokens really get, and a note per id that differs from the file."""
    out: dict[str, AddedToken] = {}
    notes: list[str] = []
    next_id = len(model_vocab)
    for entry in entries:
        if not entry.content:
            continue
        known = out[entry.content].id if entry.content in out else model_vocab.get(entry.content)
        if known is None:
            known, next_id = next_id, next_id + 1
        if known != entry.id:
            notes.append(
                f"added token {entry.content!r} is listed with id {entry.id}, but Hugging Face gives it id {known} "
                f"(an added token takes its vocabulary id, else the next free one); using {known}"
            )
        out[entry.content] = entry if known == entry.id else AddedToken(
            entry.content, known, entry.special, entry.single_word, entry.lstrip, entry.rstrip, entry.normalized
        )
    return list(out.values()), notes


class AddedVocabulary:
    """Finds added tokens in raw and in normalised text (see the module docstring)."""

    def __init__(self, tokens: Iterable[AddedToken], normalize: Callable[[str], str] | None) -> None:
        self.tokens = list(tokens)
        self.by_id = {t.id: t for t in self.tokens}
        self.special_ids = frozenset(t.id for t in self.tokens if t.special)
        self._normalize = normalize
        raw = {t.content: t for t in self.tokens if not t.normalized}
        normed = {(normalize(t.content) if normalize else t.content): t for t in self.tokens if t.normalized}
        # HF decodes a normalised added token by its normalised form (so a decoder can undo it)
        self._decode_forms = {t.id: form for form, t in normed.items() if form != t.content}
        self._raw = _table(raw) if raw else None
        self._normalized = _table(normed) if normed else None

    def __bool__(self) -> bool:
        return bool(self.tokens)

    def decode_form(self, token: AddedToken) -> str:
        """The string HF's decoder receives for ``token``."""
        return self._decode_forms.get(token.id, token.content)

    def first_special(self, text: str) -> str | None:
        """The first special token HF would match in ``text``, or None."""
        found = [t for t, _, _ in self.find(text, normalized=False, skip_special=False) if t is not None and t.special]
        if not found and self._normalized is not None:
            norm = self._normalize(text) if self._normalize else text
            found = [t for t, _, _ in self.find(norm, normalized=True, skip_special=False) if t is not None and t.special]
        return found[0].content if found else None

    def find(self, text: str, *, normalized: bool, skip_special: bool) -> list[tuple[AddedToken | None, int, int]]:
        """HF ``find_matches``: ``(token or None, start, end)`` pieces covering ``text``."""
        table = self._normalized if normalized else self._raw
        if not text:
            return [(None, 0, 0)]
        if table is None:
            return [(None, 0, len(text))]
        matcher, lookup = table
        out: list[tuple[AddedToken | None, int, int]] = []
        done = 0
        for index, start, stop in matcher.find(text):
            token = lookup[index]
            if skip_special and token.special:
                continue
            if token.single_word:
                before = start == 0 or not _WORD.match(text[start - 1])
                after = stop == len(text) or not _WORD.match(text[stop])
                if not (before and after):
                    continue
            if token.lstrip:
                start = max(len(text[:start].rstrip(_SPACES)), done)
            if token.rstrip:
                stop = len(text) - len(text[stop:].lstrip(_SPACES))
            if done < start:
                out.append((None, done, start))
            out.append((token, start, stop))
            done = stop
        if done != len(text):
            out.append((None, done, len(text)))
        return out


def _table(patterns: Mapping[str, AddedToken]) -> tuple[Literals, list[AddedToken]]:
    """The automaton over the forms, and the token of each of its literals (by index)."""
    matcher = Literals(patterns)
    return matcher, [patterns[form] for form in matcher.literals]
