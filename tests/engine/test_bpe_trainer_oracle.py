"""The incremental trainer against its oracles: the naive trainer, HF ``tokenizers``, other processes."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bpe_engine.choices import TIE_BREAKS as CHOICES
from bpe_engine.choices import values
from bpe_engine.corpus import count_words
from bpe_engine.pretokenizers import END_OF_WORD, END_OF_WORD_SEPARATE, GPT2, NONE, WHITESPACE
from bpe_engine.training.bpe import BpeTrainerConfig, BpeTraining
from bpe_engine.training.naive_bpe import train_naive
from tests.oracles import require

tokenizers = require("tokenizers")

TIE_BREAKS = values(CHOICES)  # every rule the trainer offers
PRE_TOKENIZERS = {
    "none": NONE, "gpt2": GPT2, "end-of-word": END_OF_WORD, "end-of-word-separate": END_OF_WORD_SEPARATE,
    "whitespace": WHITESPACE,
}

documents = st.lists(st.text(alphabet="aab c\né", max_size=14), min_size=0, max_size=8)


def reused_an_id(steps) -> bool:
    return len({s.new for s in steps}) < len(steps)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    docs=documents,
    pre=st.sampled_from(sorted(PRE_TOKENIZERS)),
    byte_level=st.booleans(),
    vocab_extra=st.integers(min_value=0, max_value=30),
    min_frequency=st.integers(min_value=0, max_value=3),
    max_token_length=st.one_of(st.none(), st.integers(min_value=1, max_value=6)),
    specials=st.sampled_from([(), ("<s>",), ("ab", "<s>")]),
)
def test_incremental_equals_naive(docs, pre, byte_level, vocab_extra, min_frequency, max_token_length, specials) -> None:
    # every pre-tokenizer convention (▁, </w> attached and separate) x every tie-break rule
    pre_tokenizer = PRE_TOKENIZERS[pre]
    byte_level = byte_level and pre_tokenizer.end_of_word_suffix is None  # </w> is character-level
    wc = count_words(docs, pre_tokenizer, byte_level=byte_level, workers=1)
    for tie_break in TIE_BREAKS:
        config = BpeTrainerConfig(
            vocab_size=(256 if byte_level else 6) + len(specials) + vocab_extra, byte_level=byte_level,
            pre_tokenizer=pre_tokenizer, initial_alphabet="seen", min_frequency=min_frequency,
            max_token_length=max_token_length, special_tokens=specials, tie_break=tie_break,
        )
        ours = list(BpeTraining(wc, config).steps())
        naive = train_naive(wc, config)
        if tie_break == "hf" and reused_an_id(ours):
            continue  # HF's bookkeeping may fuse a reused pair in two steps; HF itself is the oracle
        assert ours == naive, tie_break


def test_incremental_equals_naive_on_sample_slices(alice_text: str, korean_text: str) -> None:
    cases = [
        (alice_text[:8_000], BpeTrainerConfig(vocab_size=256 + 120, pre_tokenizer=GPT2)),
        (korean_text[:2_500], BpeTrainerConfig(vocab_size=len(set(korean_text[:2_500])) + 100, byte_level=False,
                                               pre_tokenizer=WHITESPACE)),
        (alice_text[20_000:24_000], BpeTrainerConfig(vocab_size=160, byte_level=False, pre_tokenizer=END_OF_WORD)),
        (alice_text[30_000:34_000], BpeTrainerConfig(vocab_size=160, byte_level=False, pre_tokenizer=END_OF_WORD_SEPARATE)),
    ]
    for text, base in cases:
        wc = count_words([text], base.pre_tokenizer, byte_level=base.byte_level, workers=1)
        for tie_break in TIE_BREAKS:
            config = BpeTrainerConfig(**{**base.__dict__, "tie_break": tie_break})
            ours = list(BpeTraining(wc, config).steps())
            assert len(ours) > 50
            assert ours == train_naive(wc, config), (base.pre_tokenizer.name, tie_break)


def hf_char_merges(docs: list[str], vocab_size: int, min_frequency: int, max_token_length: int | None) -> list[tuple[str, str]]:
    tok = tokenizers.Tokenizer(tokenizers.models.BPE())
    trainer = tokenizers.trainers.BpeTrainer(
        vocab_size=vocab_size, min_frequency=min_frequency, max_token_length=max_token_length, show_progress=False
    )
    tok.train_from_iterator(docs, trainer)
    return [tuple(m) if isinstance(m, list) else tuple(m.split(" ")) for m in json.loads(tok.to_str())["model"]["merges"]]


@settings(max_examples=150, deadline=None)
@given(
    docs=st.lists(st.text(alphabet="aabbc d", min_size=1, max_size=20), min_size=1, max_size=8),
    vocab_extra=st.integers(min_value=0, max_value=40),
    min_frequency=st.integers(min_value=0, max_value=3),
    max_token_length=st.one_of(st.none(), st.integers(min_value=2, max_value=6)),
)
def test_hf_tie_break_equals_hf_tokenizers(docs, vocab_extra, min_frequency, max_token_length) -> None:
    # No pre-tokenizer: each document is one word in both, and HF's alphabet order is ours.
    wc = count_words(docs, NONE, byte_level=False, workers=1)
    alphabet = len(set("".join(docs)))
    config = BpeTrainerConfig(
        vocab_size=alphabet + vocab_extra, byte_level=False, pre_tokenizer=NONE,
        min_frequency=min_frequency, max_token_length=max_token_length,
    )
    training = BpeTraining(wc, config)
    list(training.steps())
    expected = hf_char_merges(docs, config.vocab_size, min_frequency, max_token_length)
    last = {pair: rank for rank, pair in enumerate(training.merges)}
    assert [pair for rank, pair in enumerate(training.merges) if last[pair] == rank] == expected


_CHILD = """
import hashlib, sys
from bpe_engine.training.bpe import BpeTrainerConfig, BpeTraining
from bpe_engine.pretokenizers import GPT2
text = open(sys.argv[1], encoding="utf-8").read()[:30000]
out = []
for tb in ("hf", "lexicographic", "greatest", "first-seen"):
    t = BpeTraining([text], BpeTrainerConfig(vocab_size=700, pre_tokenizer=GPT2, tie_break=tb), workers=1)
    out.append(repr([(s.left, s.right, s.new_id, s.count) for s in t.steps()]))
print(hashlib.sha256("\\n".join(out).encode()).hexdigest())
"""


def test_same_merges_in_any_process() -> None:
    path = os.path.join(os.path.dirname(__file__), os.pardir, "data", "alice29.txt")
    digests = set()
    for seed in ("1", "12345"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        out = subprocess.run([sys.executable, "-c", _CHILD, path], capture_output=True, text=True, env=env, check=True)
        digests.add(out.stdout.strip())
    assert len(digests) == 1
