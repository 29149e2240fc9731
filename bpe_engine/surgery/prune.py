"""Prune a BPE to N ids by removing leaves, so that every token left is still reachable.

A **leaf** is a token no remaining merge uses as a part; removing one never breaks another token's
merge chain (Purason et al. 2025, "Teaching Old Tokenizers New Words": prune by leaves). Which leaf
goes first:

1. tokens the audit finds unreachable in the base (no text encodes to them: they only cost ids);
2. then the least used on the corpus -- a token's use is how often the model gives it on the
   corpus's words, and when a token goes its use passes to the two parts it splits into;
3. without a corpus (or among equal use), the last merged first (the highest rank).

Never a base byte or character (an initial symbol: every text must stay encodable), never a
special token. Removing a leaf can make its parts leaves, so the candidates are a heap kept up to
date as tokens go (uses only grow, so a stale entry is refreshed when popped).

Ids are **compacted** by default: the ids left keep their order and are renumbered 0..N-1 (order
kept, so a rank table's priorities and the specials' place after the ranks stay), and
``surgery.json`` holds the old id -> new id map. ``keep_ids=True`` keeps every id where it was,
with holes: ``tokenizer.json``, ``.tiktoken`` and ``vocab.json`` all allow ids with gaps.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from heapq import heapify, heappop, heappush

from ..audit.vocabulary import audit_vocabulary
from ..bpe.model import BpeTokenizer
from ..corpus import WordCounts
from ..errors import ConfigError
from .base import BpeBase, bpe_base
from .checks import UNREACHABLE


@dataclass(frozen=True)
class PrunePlan:
    """What a prune removes, in order, and the floor it may not go below."""

    removed: tuple[int, ...]
    floor: int  # initial symbols + specials: what is never removed
    unreachable_removed: int
    unreachable_before: int | None  # what the audit of the base found (None: nothing to remove, no audit)


def prune_floor(base: BpeBase) -> int:
    """Ids that stay whatever ``--to`` says: the initial symbols and the specials."""
    initial = {i for i in base.vocab.values() if i not in base.merged_ids and i not in base.unbuilt}
    return len(initial | set(base.specials.values()))


def plan_prune(base: BpeBase, target: int, corpus: WordCounts | None = None) -> PrunePlan:
    """Which ids to remove, in order, so that ``target`` ids remain (see the module docstring)."""
    floor = prune_floor(base)
    total = len({*base.vocab.values(), *base.specials.values()})
    if target < floor:
        raise ConfigError(
            f"--to {target:,} is below what {base.name!r} cannot lose: {floor:,} ids (its alphabet of single "
            f"{'bytes' if base.byte_level else 'symbols'} and its special tokens); ask for {floor:,} or more",
            field="to",
        )
    if target >= total:
        return PrunePlan((), floor, 0, None)
    vocab = base.vocab
    parts_of: dict[int, list[tuple[int, int]]] = {}  # token -> the merges that make it
    uses_as_part: Counter[int] = Counter()
    rank: dict[int, int] = {}
    for r, (left, right) in enumerate(base.merges):
        a, b, made = vocab[left], vocab[right], vocab[left + right]
        parts_of.setdefault(made, []).append((a, b))
        uses_as_part[a] += 1
        uses_as_part[b] += 1
        rank.setdefault(made, r)
    for i in base.unbuilt:
        rank[i] = i  # a rank table's rank is its id
    removable = set(base.merged_ids) | set(base.unbuilt)
    removable -= set(base.specials.values())
    use = _corpus_use(base, corpus)
    audit = audit_vocabulary(base.tokenizer)
    unreachable = {i for c in UNREACHABLE for i in audit.ids.get(c, ())}

    def key(i: int) -> tuple[int, int, int, int]:
        return (i not in unreachable, use.get(i, 0), -rank.get(i, i), i)

    heap = [key(i) for i in removable if uses_as_part[i] == 0]
    heapify(heap)
    removed: list[int] = []
    gone: set[int] = set()
    while heap and total - len(removed) > target:
        entry = heappop(heap)
        i = entry[-1]
        if i in gone:
            continue
        now = key(i)
        if now != entry:
            heappush(heap, now)
            continue
        gone.add(i)
        removed.append(i)
        for a, b in parts_of.get(i, ()):
            for part in (a, b):
                use[part] = use.get(part, 0) + use.get(i, 0)
                uses_as_part[part] -= 1
                if uses_as_part[part] == 0 and part in removable and part not in gone:
                    heappush(heap, key(part))
    removed = _without_unreachable(base, removed, parts_of)
    return PrunePlan(tuple(removed), floor, sum(1 for i in removed if i in unreachable), len(unreachable))


def _without_unreachable(base: BpeBase, removed: list[int], parts_of: dict[int, list[tuple[int, int]]]) -> list[int]:
    """``removed`` changed so that the audit of the result finds no unreachable token.

    A token left unreachable is one the base could not reach either that is not a leaf (o200k's
    ``Ċ//`` is a part of ``Ċ///``): it goes with every token built on it, and as many of the last
    leaves removed come back (last out, first in: each one's parts are still there), so the count
    stays. A few rounds settle it; each round removes at least one unreachable token for good.
    """
    built_on: dict[int, set[int]] = {}
    for made, pairs in parts_of.items():
        for a, b in pairs:
            built_on.setdefault(a, set()).add(made)
            built_on.setdefault(b, set()).add(made)
    for _ in range(8):
        tok, id_map = pruned_tokenizer(base, tuple(removed), base.name)
        back = {new: old for old, new in id_map.items()}
        audit = audit_vocabulary(tok)
        stuck = {back[i] for c in UNREACHABLE for i in audit.ids.get(c, ())}
        if not stuck:
            return removed
        doomed = set(stuck)
        todo = list(stuck)
        while todo:  # the tokens built on them cannot be made either
            for made in built_on.get(todo.pop(), ()):
                if made not in doomed:
                    doomed.add(made)
                    todo.append(made)
        gone = set(removed)
        extra = [i for i in sorted(doomed) if i not in gone]
        refill = [i for i in reversed(removed) if i not in doomed][: len(extra)]
        restored = set(refill)
        removed = [i for i in removed if i not in restored] + extra
    return removed


def pruned_tokenizer(base: BpeBase, removed: tuple[int, ...], name: str, *, keep_ids: bool = False) -> tuple[BpeTokenizer, dict[int, int]]:
    """The base without ``removed``, and the old id -> new id map (identity when ``keep_ids``)."""
    gone = set(removed)
    kept = sorted({*base.vocab.values(), *base.specials.values()} - gone)
    id_map = {i: i for i in kept} if keep_ids else {old: new for new, old in enumerate(kept)}
    specials = {t: id_map[i] for t, i in base.specials.items()} or None
    tok = base.tokenizer
    if base.rank_table:
        ranks = {data: id_map[i] for data, i in (tok.mergeable_ranks or {}).items() if i not in gone}
        return BpeTokenizer.from_ranks(
            name=name, mergeable_ranks=ranks, pre_tokenizer=tok.pre_tokenizer, special_tokens=specials, normalizer=base.normalizer
        ), id_map
    vocab = {t: id_map[i] for t, i in base.vocab.items() if i not in gone}
    merges = [(a, b) for a, b in base.merges if a + b in vocab]
    return BpeTokenizer(
        name=name, vocab=vocab, merges=merges, pre_tokenizer=tok.pre_tokenizer, byte_level=base.byte_level,
        special_tokens=specials, unk_token=base.unk_token, normalizer=base.normalizer,
    ), id_map


def _corpus_use(base: BpeBase, corpus: WordCounts | None) -> dict[int, int]:
    """How often the base gives each id on the corpus's words (empty without a corpus)."""
    use: Counter[int] = Counter()
    if corpus is None:
        return {}
    encode = base.word_encoder()
    for word, n in corpus.counts.items():
        for i in encode(word) or ():
            use[i] += n
    return dict(use)



@dataclass(frozen=True)
class PrunePreview:
    """What a prune would do, before anything is written: the plan, the pruned model and its id
    map, what the corpus pays (tokens before -> after, None without a corpus), and the first
    tokens to go (their bytes, in removal order)."""

    plan: PrunePlan
    tokenizer: BpeTokenizer
    id_map: dict[int, int]
    tokens_before: int | None
    tokens_after: int | None
    first_removed: tuple[bytes, ...]


def preview_prune(base: BpeBase, target: int, text: str | None, name: str, *, keep_ids: bool = False) -> PrunePreview:
    """Plan a prune to ``target`` ids on ``text`` (cut and counted the base's way; None: no corpus,
    the last merged go first) and build the result (the audit screen shows it, then writes it)."""
    from ..corpus import count_words
    from .checks import corpus_tokens

    corpus = None
    if text:
        corpus = count_words([text], base.pre_tokenizer, base.specials, byte_level=base.byte_level, workers=1, normalizer=base.normalizer)
    plan = plan_prune(base, target, corpus)
    tok, id_map = pruned_tokenizer(base, plan.removed, name, keep_ids=keep_ids)
    before = after = None
    if corpus is not None:
        before, after = corpus_tokens(base, corpus), corpus_tokens(bpe_base(tok), corpus)
    shown = tuple(base.tokenizer.token_bytes(i) for i in plan.removed[:12])
    return PrunePreview(plan, tok, id_map, before, after, shown)
