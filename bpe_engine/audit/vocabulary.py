"""Which tokens of a vocabulary the tokenizer can produce: Land & Bartolo's decode-then-encode test.

"Fishing for Magikarp" (Land & Bartolo, 2024) sorts a vocabulary without any corpus: decode each
token alone, encode that text again, and see what comes back. Each id falls in exactly one of

* ``special`` -- not made from text: the declared special tokens, the unknown token, and tokens
  that decode to no text at all (SentencePiece's control pieces);
* ``undecodable`` -- its text holds U+FFFD that its bytes do not spell: they are not whole UTF-8
  (GPT-2's ``0xE2`` byte, the ``0xE2 0x80`` of an unfinished ``…``), so no text decodes to it alone;
* ``ok`` -- the text encodes back to exactly this token;
* ``unreachable_single`` -- it encodes to one *other* token (a normalizer rewrote it, or two ids
  spell the same text);
* ``unreachable_multi`` -- it encodes to several tokens: the encoder never produces this one from
  its own text (o200k_base's ``"\\n//"``: the regex always cuts a newline off first).

and two shape tags overlap them: ``single_byte`` (one byte long) and ``utf8_fragment`` (two or
more bytes that are not whole UTF-8). The Magikarp report's GPT-2 figures are tests: 256 single
bytes, 1 special token, 216 UTF-8 fragments.

A token that only occurs inside a word (WordPiece's ``##ing``, a SentencePiece piece without ``▁``)
cannot start a text, so "alone" puts it where it never stands: such tokenizers get a note saying
their ``unreachable_*`` counts include these.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from ..choices import AUDIT_CATEGORIES, AuditCategory, values
from ..metrics.vocabulary import vocabulary_ids
from ..types import Tokenizer

CATEGORIES: tuple[AuditCategory, ...] = values(AUDIT_CATEGORIES)
PARTITION: tuple[AuditCategory, ...] = CATEGORIES[:5]
PROGRESS_EVERY = 4096


class Cancel(Protocol):
    def is_set(self) -> bool: ...


@dataclass(frozen=True)
class VocabularyAudit:
    """Each category's ids (increasing), and what the text of each unreachable token encodes to."""

    tokenizer: str
    vocab_size: int
    ids: dict[AuditCategory, tuple[int, ...]]
    encodes_to: dict[int, tuple[int, ...]] = field(default_factory=dict)
    notes: tuple[str, ...] = ()

    @property
    def counts(self) -> dict[AuditCategory, int]:
        """Every category's size, keys in :data:`CATEGORIES` order."""
        return {c: len(self.ids.get(c, ())) for c in CATEGORIES}

    def category_of(self, token_id: int) -> AuditCategory | None:
        """The partition category of ``token_id`` (None for an id the vocabulary lacks)."""
        return next((c for c in PARTITION if token_id in self._sets()[c]), None)

    def _sets(self) -> dict[AuditCategory, frozenset[int]]:
        cached = self.__dict__.get("_set_cache")
        if cached is None:
            cached = {c: frozenset(self.ids.get(c, ())) for c in PARTITION}
            object.__setattr__(self, "_set_cache", cached)
        return cached


def audit_vocabulary(
    tokenizer: Tokenizer, *, progress: Callable[[int, int], None] | None = None, cancel: Cancel | None = None
) -> VocabularyAudit:
    """Sort every id of ``tokenizer`` (see the module docstring). ``progress(done, total)`` is
    called every few thousand ids; ``cancel.is_set()`` stops the walk (raises
    :class:`AuditCancelled`). o200k_base's 200,000 ids take about a second."""
    from ..metrics.encoded import plain_ids

    ids = vocabulary_ids(tokenizer)
    specials = set(tokenizer.special_tokens.values())
    if tokenizer.unk_id is not None:
        specials.add(tokenizer.unk_id)
    found: dict[AuditCategory, list[int]] = {c: [] for c in CATEGORIES}
    encodes_to: dict[int, tuple[int, ...]] = {}
    for n, token_id in enumerate(ids):
        if n % PROGRESS_EVERY == 0:
            if cancel is not None and cancel.is_set():
                raise AuditCancelled(f"audit of {tokenizer.name} cancelled after {n:,} of {len(ids):,} ids")
            if progress is not None:
                progress(n, len(ids))
        data = tokenizer.token_bytes(token_id)
        text = "" if token_id in specials else tokenizer.decode([token_id])
        if not text:
            found["special"].append(token_id)
            continue
        whole = _utf8(data)
        if len(data) == 1:
            found["single_byte"].append(token_id)
        elif whole is None:
            found["utf8_fragment"].append(token_id)
        if "\ufffd" in text and (whole is None or text.count("\ufffd") > whole.count("\ufffd")):
            found["undecodable"].append(token_id)
            continue
        again = plain_ids(tokenizer, text)
        if again == [token_id]:
            found["ok"].append(token_id)
            continue
        found["unreachable_single" if len(again) == 1 else "unreachable_multi"].append(token_id)
        encodes_to[token_id] = tuple(again)
    if progress is not None:
        progress(len(ids), len(ids))
    notes: tuple[str, ...] = ()
    if not tokenizer.capabilities.byte_level:
        notes = (
            (
                "a token that only occurs inside a word (WordPiece's ##ing, a SentencePiece piece without ▁) cannot start "
                "a text, so decoded alone it encodes otherwise: the unreachable counts include such tokens"
            ),
        )
    return VocabularyAudit(tokenizer.name, len(ids), {c: tuple(v) for c, v in found.items()}, encodes_to, notes)


class AuditCancelled(Exception):
    """The audit was cancelled through its cancel token."""


def _utf8(data: bytes) -> str | None:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


__all__ = ["CATEGORIES", "PARTITION", "AuditCancelled", "VocabularyAudit", "audit_vocabulary"]
