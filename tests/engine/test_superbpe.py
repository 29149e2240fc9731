"""SuperBPE: stage 2 at T = 0 is HF BpeTrainer with the same pre-tokenizer, stage 1 is our BPE
trainer, and the two rules hold on every merge."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bpe_engine.training.bpe import BpeTraining
from bpe_engine.training.superbpe import STAGE2_PATTERN, SuperBpeConfig, SuperBpeTraining
from tests.oracles import require

tokenizers = require("tokenizers")


def hf_stage2(docs: list[str], vocab_size: int) -> tuple[list[tuple[str, str]], dict[str, int]]:
    """SuperBPE's own stage-2 setup (its utils.train_or_extend_tokenizer), from scratch."""
    from tokenizers import Regex, pre_tokenizers

    tok = tokenizers.Tokenizer(tokenizers.models.BPE())
    tok.pre_tokenizer = pre_tokenizers.Sequence([
        pre_tokenizers.Split(pattern=Regex(STAGE2_PATTERN), behavior="isolated", invert=False),
        pre_tokenizers.ByteLevel(add_prefix_space=False, trim_offsets=True, use_regex=False),
    ])
    tok.train_from_iterator(docs, tokenizers.trainers.BpeTrainer(vocab_size=vocab_size, show_progress=False))
    model = json.loads(tok.to_str())["model"]
    return [tuple(m) if isinstance(m, list) else tuple(m.split(" ")) for m in model["merges"]], model["vocab"]


def run(docs: list[str], **kw) -> SuperBpeTraining:
    training = SuperBpeTraining(docs, SuperBpeConfig(**kw), workers=1)
    list(training.steps())
    return training


def last_ranks(merges: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """A pair merged twice keeps its last rank (HF's model, after an id reuse)."""
    last = {pair: rank for rank, pair in enumerate(merges)}
    return [pair for rank, pair in enumerate(merges) if last[pair] == rank]


def test_stage_two_from_bytes_is_hf_with_the_same_pre_tokenizer(alice_text: str) -> None:
    docs = alice_text[:80_000].split("\n\n")
    training = run(docs, vocab_size=900, transition=0, colon_rule=False, max_words=None, initial_alphabet="seen")
    merges, vocab = hf_stage2(docs, 900)
    assert last_ranks(training.merges) == merges and len(merges) > 700
    assert training.tokenizer().vocab == vocab
    assert any("Ġ" in (a + b).strip("Ġ") for a, b in merges)  # superwords: a space inside a token


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(docs=st.lists(st.text(alphabet="ab  :.1\n", min_size=1, max_size=30), min_size=1, max_size=8), extra=st.integers(1, 40))
def test_stage_two_equals_hf_on_small_corpora(docs: list[str], extra: int) -> None:
    alphabet = len(set("".join(docs).encode("utf-8")))
    training = run(docs, vocab_size=alphabet + extra, transition=0, colon_rule=False, max_words=None, initial_alphabet="seen")
    merges, _ = hf_stage2(docs, alphabet + extra)
    assert last_ranks(training.merges) == merges


def test_the_first_merges_are_stage_one_bpe(alice_text: str) -> None:
    docs = [alice_text[:60_000]]
    config = SuperBpeConfig(vocab_size=1200, transition=300)
    training = run(docs, vocab_size=1200, transition=300)
    bpe = BpeTraining(docs, config.stage_config(1), workers=1)
    steps = list(bpe.steps())[:300]
    assert training.merges[:300] == [(s.left, s.right) for s in steps]
    superwords = [a + b for a, b in training.merges[300:] if "Ġ" in (a + b).strip("Ġ")]
    assert "ĠofĠthe" in superwords or "ĠinĠthe" in superwords
    tokenizer = training.tokenizer()
    text = alice_text[60_000:62_000]
    assert tokenizer.decode(tokenizer.encode(text)) == text
    assert len(tokenizer.encode(text)) < len(bpe.tokenizer().encode(text))  # at the same size, fewer tokens


words = st.sampled_from(["a", "b", "ab", "ba", "x:", ":", "1", "ab:"])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lines=st.lists(st.lists(words, min_size=2, max_size=9).map(" ".join), min_size=1, max_size=6), t=st.integers(0, 6))
def test_the_rules_hold_on_every_merge(lines: list[str], t: int) -> None:
    docs = lines * 3
    training = run(docs, vocab_size=256 + 80, transition=t)
    assert training.stage2 is not None  # (that the rules bite: the test below)
    for a, b in training.merges[len(training.stage1.merges):]:
        token = a + b
        assert ":Ġ" not in token
        assert sum(1 for part in token.split("Ġ") if part) <= 4


def test_without_the_rules_those_tokens_are_made() -> None:
    docs = ["a b c d e f: g"] * 20
    free = {a + b for a, b in run(docs, vocab_size=256 + 40, colon_rule=False, max_words=None).merges}
    ruled = {a + b for a, b in run(docs, vocab_size=256 + 40).merges}
    assert any(":Ġ" in t for t in free) and not any(":Ġ" in t for t in ruled)
    assert any(sum(1 for p in t.split("Ġ") if p) > 4 for t in free)
    assert not any(sum(1 for p in t.split("Ġ") if p) > 4 for t in ruled)
