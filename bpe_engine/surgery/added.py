"""Add tokens that are matched whole, before any merge: HF's ``added_tokens``, tiktoken's specials.

An added token is text the model gives one id wherever it stands (``<|tool_call|>``, ``[CODE]``),
cut out of the text before the pre-tokenizer, as each format does it: in ``tokenizer.json`` an
``added_tokens`` entry (``special: true``: skipped when decoding with ``skip_special_tokens``), in
``tiktoken.json`` a ``special_tokens`` entry (tiktoken matches it when ``allowed_special`` says
so), in ``bpe-explorer.json`` a special token (``--special-mode special`` matches it). New ids
follow the largest in use, like every surgery's. A string the model already gives one id is not
added again (HF's ``add_tokens`` keeps the id it has), and is reported.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..bpe.model import BpeTokenizer
from ..display import visible_text
from ..errors import ConfigError
from .base import BpeBase
from .extend import check_add


@dataclass(frozen=True)
class Added:
    """What adding did: token -> new id, and the strings that already had one id."""

    tokens: dict[str, int]
    already: dict[str, int]


def add_tokens(base: BpeBase, strings: list[str], name: str) -> tuple[BpeTokenizer, Added]:
    """The base with ``strings`` as added (special) tokens at the next ids."""
    tok = base.tokenizer
    new: dict[str, int] = {}
    already: dict[str, int] = {}
    next_id = base.next_id
    for s in dict.fromkeys(strings):
        if not s:
            raise ConfigError("an added token cannot be empty (it would match between every two characters)", field="tokens")
        if len(s) > 1000:
            raise ConfigError(f"an added token is at most 1,000 characters; {visible_text(s[:20])!r}... has {len(s):,}", field="tokens")
        if s in base.specials:
            already[s] = base.specials[s]
            continue
        ids = tok.encode_ordinary(s)
        if len(ids) == 1:
            already[s] = ids[0]
            continue
        new[s] = next_id
        next_id += 1
    check_add(base, len(new))
    specials = {**base.specials, **new}
    if base.rank_table:
        changed = BpeTokenizer.from_ranks(
            name=name, mergeable_ranks=dict(tok.mergeable_ranks or {}), pre_tokenizer=tok.pre_tokenizer,
            special_tokens=specials, normalizer=base.normalizer,
        )
    else:
        changed = BpeTokenizer(
            name=name, vocab=dict(base.vocab), merges=list(base.merges), pre_tokenizer=tok.pre_tokenizer,
            byte_level=base.byte_level, special_tokens=specials, unk_token=base.unk_token, normalizer=base.normalizer,
        )
    return changed, Added(new, already)
