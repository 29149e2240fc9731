"""The checks shown after every surgery: what the corpus costs before and after, which ids are new
or gone, whether any token became unreachable, and how the two models differ.

A hand-written script that extends or prunes a tokenizer goes wrong silently -- a token no text can
reach, a merge whose parts are not in the vocabulary, a special id shifted -- so every command
prints these, and the tests hold them to zero where they must be zero.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ..audit.vocabulary import AuditCategory, audit_vocabulary
from ..bpe.model import BpeTokenizer
from ..corpus import WordCounts
from ..explore.diff import MergeDiff, diff_merges
from .base import BpeBase, bpe_base

UNREACHABLE: tuple[AuditCategory, ...] = ("unreachable_single", "unreachable_multi")


@dataclass(frozen=True)
class SurgeryChecks:
    """Before -> after of one surgery."""

    tokens_before: int | None  # tokens the corpus needs (None: no corpus given)
    tokens_after: int | None
    new_ids: tuple[int, ...]
    removed_ids: tuple[int, ...]
    unreachable_before: int | None  # tokens the audit finds unreachable (None: not audited)
    unreachable_after: int
    unreachable_new: tuple[int, ...]  # of the new tokens
    specials_kept: bool  # every special token has its id still
    merges: MergeDiff
    only_before: int  # tokens (by bytes) only the base has
    only_after: int

    def lines(self, base: str, new: str) -> list[str]:
        """The checks as the CLI prints them, one fact a line."""
        out = []
        if self.tokens_before is not None and self.tokens_after is not None:
            change = self.tokens_after - self.tokens_before
            share = f" ({change / self.tokens_before:+.1%})" if self.tokens_before else ""
            out.append(f"corpus tokens: {self.tokens_before:,} -> {self.tokens_after:,}{share}")
        if self.new_ids:
            out.append(f"new ids: {len(self.new_ids):,} ({min(self.new_ids):,}-{max(self.new_ids):,})")
        else:
            out.append("new ids: none")
        out.append(f"ids removed: {len(self.removed_ids):,}")
        before = "" if self.unreachable_before is None else f"{self.unreachable_before:,} in {base!r} -> "
        out.append(f"unreachable tokens: {before}{self.unreachable_after:,} ({len(self.unreachable_new):,} of them new)")
        out.append(f"special tokens: {'each where it was (or where the id map moved it)' if self.specials_kept else 'IDS CHANGED'}")
        m = self.merges
        where = "the base's merges come first, unchanged" if m.first_difference is None else f"merge lists part at merge {m.first_difference:,}"
        out.append(
            f"diff {base} {new}: {where}; {m.length_a:,} -> {m.length_b:,} merges; "
            f"{self.only_before:,} tokens only in {base!r}, {self.only_after:,} only in {new!r}"
        )
        return out


@dataclass(frozen=True)
class ShorterWord:
    """A corpus word the surgery made cheaper: its tokens before and after, and how often it occurs."""

    word: str  # as the corpus has it (model alphabet for byte-level: decode with the tokenizer)
    before: int
    after: int
    count: int

    @property
    def saved(self) -> int:
        return (self.before - self.after) * self.count


def shorter_words(before: BpeTokenizer, after: BpeTokenizer, corpus: WordCounts, *, limit: int = 10) -> list[ShorterWord]:
    """The words whose tokens changed most on the corpus, by tokens saved (count x fewer tokens);
    a word that got longer (a prune) has a negative saving and comes last."""
    a, b = bpe_base(before).word_encoder(), bpe_base(after).word_encoder()
    changed = []
    for word, n in corpus.counts.items():
        ids_a, ids_b = a(word), b(word)
        if ids_a is not None and ids_b is not None and len(ids_a) != len(ids_b):
            changed.append(ShorterWord(word, len(ids_a), len(ids_b), n))
    changed.sort(key=lambda w: (-abs(w.saved), w.word))
    return changed[:limit]


def corpus_tokens(base: BpeBase, corpus: WordCounts) -> int:
    """Tokens the model spends on the counted corpus (words it cannot spell left out)."""
    encode = base.word_encoder()
    total = 0
    for word, n in corpus.counts.items():
        ids = encode(word)
        if ids is not None:
            total += n * len(ids)
    return total


def surgery_checks(
    before: BpeTokenizer,
    after: BpeTokenizer,
    corpus: WordCounts | None,
    *,
    id_map: Mapping[int, int] | None = None,
    unreachable_before: int | None = None,
) -> SurgeryChecks:
    """Compare ``before`` and ``after`` (one surgery apart) on ``corpus``. ``id_map`` (old id -> new
    id, a prune that compacted the ids): the ids it lacks were removed, and specials must follow it.
    Only ``after`` is audited (a second audit of a 200,000-token base takes seconds); the base's
    count is shown when the caller has it (``unreachable_before``). Adding merges or tokens after
    every base merge never makes a base token unreachable: its own text still encodes to it by
    the base's merges, which run first (a rank table's whole-piece rule takes it at once)."""
    a, b = bpe_base(before), bpe_base(after)
    old_ids = {*a.vocab.values(), *a.specials.values()}
    moved = id_map if id_map is not None else {i: i for i in old_ids}
    removed_ids = tuple(sorted(old_ids - set(moved)))
    new_ids = tuple(sorted({*b.vocab.values(), *b.specials.values()} - set(moved.values())))
    audit_b = audit_vocabulary(after)
    unreachable_b = {i for c in UNREACHABLE for i in audit_b.ids.get(c, ())}
    bytes_a = {before.token_bytes(i) for i in a.vocab.values()}
    bytes_b = {after.token_bytes(i) for i in b.vocab.values()}
    return SurgeryChecks(
        tokens_before=None if corpus is None else corpus_tokens(a, corpus),
        tokens_after=None if corpus is None else corpus_tokens(b, corpus),
        new_ids=new_ids,
        removed_ids=removed_ids,
        unreachable_before=unreachable_before,
        unreachable_after=len(unreachable_b),
        unreachable_new=tuple(sorted(unreachable_b & set(new_ids))),
        specials_kept=all(after.special_tokens.get(t) == moved.get(i) for t, i in before.special_tokens.items()),
        merges=diff_merges(a.merges, b.merges),
        only_before=len(bytes_a - bytes_b),
        only_after=len(bytes_b - bytes_a),
    )
